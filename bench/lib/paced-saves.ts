/**
 * Another annotator saving at a fast human's pace while something else loads the server (the
 * save-route flood of bench:signin, the crowd's re-join flood and burst of joins): what the
 * workspace's "Save & next" sends, one instance after another, each save starting `paceMs` after
 * the last started (or at once when the last took longer). Returns each save's latency; a 429 is
 * counted apart (none is expected at this pace), anything else but a stored save throws.
 */
import { type SaveRequest, savePath } from "../../app/annotate/save-request";

const NIL: SaveRequest["response"] = { kind: "NIL", substitutes: ["", "", ""], multiword: false, phrase: "" };

export interface PacedSaver {
  /** `n` saves at the pace. */
  paced(n: number): Promise<number[]>;
  /** Saves at the pace until `done()` says so (checked before each). */
  pacedUntil(done: () => boolean): Promise<number[]>;
  /** Saves answered 429 so far. */
  readonly refused: number;
}

export function pacedSaver(opts: { base: string; projectId: number; cookie: string; refs: readonly number[]; paceMs: number }): PacedSaver {
  const revisions = new Map<number, number>();
  let next = 0;
  let refused = 0;
  const headers = { Cookie: opts.cookie, Origin: opts.base, Accept: "application/json", "Content-Type": "application/json" };
  async function save(): Promise<number> {
    const ref = opts.refs[next++ % opts.refs.length];
    const req: SaveRequest = { response: NIL, expectedRevision: revisions.get(ref) ?? 0 };
    const t = performance.now();
    const res = await fetch(opts.base + savePath(opts.projectId, ref), { method: "POST", headers, body: JSON.stringify(req) });
    const body = await res.text();
    const elapsed = performance.now() - t;
    if (res.status === 429) {
      refused++;
      return elapsed;
    }
    const result = JSON.parse(body) as { ok?: boolean; revision?: number; message?: string };
    if (res.status !== 200 || !result.ok) throw new Error(`the other annotator's save of ${ref}: HTTP ${res.status} ${result.message ?? body.slice(0, 200)}`);
    revisions.set(ref, result.revision ?? 1);
    return elapsed;
  }
  async function pacedUntil(done: () => boolean): Promise<number[]> {
    const times: number[] = [];
    while (!done()) {
      const t = performance.now();
      times.push(await save());
      const rest = opts.paceMs - (performance.now() - t);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
    return times;
  }
  return {
    paced: (n) => {
      let k = 0;
      return pacedUntil(() => k++ >= n);
    },
    pacedUntil,
    get refused() {
      return refused;
    },
  };
}
