/**
 * #38 finding 8: ranking a gold and eight runs of ~60 MB ran the derivation process out of its heap
 * (every run decoded at once) and answered a generic 500. Now each run is read, decoded and scored
 * only when its turn comes, from a file the route wrote, and a limit reached anyway is said as it is:
 * which limit, and what to do.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rankRuns } from "../../../lib/scorers/ranking/rank";
import { errorResponse } from "../../../lib/server/kernel/http";
import { LimitError } from "../../../lib/server/runtime/pool";
import { scoreRankingUpload } from "../../../lib/server/scoring/ranking";
import { world } from "../../security/world";

const samples = path.resolve(__dirname, "../../../samples/ranking");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-rank-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ranked runs, one at a time", () => {
  it("are read and scored in turn: a run's text is asked for before the next run is", () => {
    const gold = { name: "g.tsv", text: readFileSync(path.join(samples, "tsar-gold.tsv"), "utf8") };
    const text = readFileSync(path.join(samples, "tsar-run-good.tsv"), "utf8");
    const events: string[] = [];
    const runs = (function* () {
      for (let k = 0; k < 3; k++) {
        events.push(`run ${k}`);
        yield {
          name: `r${k}.tsv`,
          get text() {
            events.push(`text ${k}`);
            return text;
          },
        };
      }
    })();
    const table = rankRuns("tsar", gold, runs, null);
    expect(table.rows).toHaveLength(3);
    // Each run read before the next is made: never all of them held at once.
    expect(events.slice(0, 2)).toEqual(["run 0", "text 0"]);
    expect(events.indexOf("run 1")).toBeGreaterThan(events.lastIndexOf("text 0"));
    expect(events.indexOf("run 2")).toBeGreaterThan(events.lastIndexOf("text 1"));
  });

  it("come from files on disk (the route's), each read when its turn comes, with the figures of bytes in hand", () => {
    const w = world();
    const files = ["tsar-run-weak.tsv", "tsar-run-good.tsv"].map((n) => {
      const p = path.join(dir, n);
      writeFileSync(p, readFileSync(path.join(samples, n)));
      return { name: n, path: p };
    });
    const gold = { name: "tsar-gold.tsv", bytes: readFileSync(path.join(samples, "tsar-gold.tsv")) };
    const fromDisk = scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, { benchmark: "tsar", gold, runs: files });
    const inHand = scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, { benchmark: "tsar", gold, runs: files.map((f) => ({ name: f.name, bytes: readFileSync(f.path) })) });
    expect(fromDisk).toEqual(inHand);
    expect(fromDisk.table.rows.map((r) => r.run)).toEqual(["tsar-run-good.tsv", "tsar-run-weak.tsv"]);
  });
});

describe("a limit reached anyway", () => {
  it("is answered with the limit, the setting and what to do, not a generic failure", async () => {
    const e = new LimitError("The derivation needed more than 2048 MB of memory, its limit (LEXGOLD_DERIVE_HEAP_MB), and was stopped; nothing it would have written was kept. Send less at once (fewer or smaller files), or raise LEXGOLD_DERIVE_HEAP_MB (now 2048).", "heap");
    const r = errorResponse(e);
    expect(r.status).toBe(503);
    const body = (await r.json()) as { message: string };
    expect(body.message).toBe(e.message);
    expect(body.message).not.toMatch(/Something went wrong/);
  });
});
