/**
 * One load phase against a running server: every annotator is an autocannon
 * instance of one connection replaying what the workspace sends — save the
 * answer (the server action), then move to the next instance. The save's answer
 * carries the next instances and the workspace shows them without another
 * request (issue #14), so a move costs nothing on the wire, except every Nth
 * move, a full page load (a reload, a new visit) — while a coordinator
 * downloads the exports every few seconds. Every request is
 * recorded with its start and end, and every acknowledged save with what it
 * wrote, for the figures and the database check afterwards.
 */
import autocannon, { type Client, type Instance, type RequestData } from "autocannon";
import type { AckedSave, SentResponse } from "./acks";
import { type SaveBody, savePath } from "../../app/annotate/save-request";
import { mulberry32 } from "../../lib/lexsub/agreement/bootstrap";

export interface Annotator {
  name: string;
  userId: number;
  cookie: string;
}

export interface SaveRecord {
  annotator: number;
  instanceRef: number;
  expectedRevision: number;
  sent: SentResponse;
  start: number;
  end: number;
  status: number;
  /**
   * acked: ok with a revision; refused: the server answered ok:false; failed: non-200 or
   * unreadable; unanswered: no answer (timeout, dropped connection, kill); cut: still in
   * flight when the phase ended (not the server's fault, not counted as an error).
   */
  outcome: "acked" | "refused" | "failed" | "unanswered" | "cut";
  revision?: number;
  message?: string;
}

interface PageRecord {
  kind: "navigation" | "page";
  start: number;
  end: number;
  status: number;
  ok: boolean;
}

export interface CoordinatorRequest {
  name: string;
  path: string;
  /** The export counts toward "exports never block saves" (downloads and agreement, not cheap pages). */
  export: boolean;
}

interface ExportRecord {
  name: string;
  start: number;
  end: number;
  status: number;
  bytes: number;
  ok: boolean;
  error?: string;
}

/** What one annotator knows between requests; carried across phases by the crash test. */
export interface AnnotatorState {
  index: number;
  annotator: Annotator;
  /** Next position in the instance list for a new answer. */
  cursor: number;
  /** Acknowledged revision per instance. */
  revisions: Map<number, number>;
  /** Instances whose last save got no answer: their revision is unknown, so they are left alone. */
  unknown: Set<number>;
  /** The instance the annotator is on. */
  current: number | null;
  seq: number;
  moves: number;
  pending: { kind: "save"; record: SaveRecord } | { kind: "page"; record: PageRecord } | null;
  next: "save" | "move";
  rand: () => number;
}

export interface LoadOptions {
  base: string;
  projectId: number;
  instanceRefs: number[];
  /** The head word of each instance (parallel to instanceRefs): multiword phrases hold it, as the workspace requires. */
  heads?: readonly string[];
  durationSec: number;
  /**
   * Mean think time in seconds between an instance appearing and the annotator
   * saving it (exponentially distributed, clamped to 0.1–4 × the mean); the move
   * after a save follows at once, as in the browser. 0 = as fast as the server answers.
   */
  thinkSec: number;
  /** Every Nth move is a full page load (GET of the HTML); the others use what the save returned (no request). */
  pageLoadEvery: number;
  /** Share of saves that revise an earlier answer (with its revision) instead of answering a new instance. */
  reviseShare: number;
  /** Unique per run: part of every substitute sent. */
  runTag: string;
  timeoutSec: number;
  coordinator: { cookie: string; everySec: number; requests: CoordinatorRequest[] } | null;
  /** Stop early (the crash test's kill): resolves the phase with what was recorded so far. */
  signal?: AbortSignal;
}

export interface LoadRecords {
  saves: SaveRecord[];
  pages: PageRecord[];
  exports: ExportRecord[];
  acked: AckedSave[];
  connectionErrors: number;
  startedAt: number;
  endedAt: number;
}

/** Below Node's default keep-alive timeout (5 s), the one next start uses. */
const KEEP_ALIVE_SAFE_MS = 4000;

/** Epoch milliseconds with sub-millisecond resolution. */
const now = () => performance.timeOrigin + performance.now();

/** A small deterministic PRNG: lib's mulberry32 (the agreement bootstrap's). */
const prng = mulberry32;

export function initialStates(annotators: Annotator[], instanceCount: number): AnnotatorState[] {
  const stride = Math.max(1, Math.floor(instanceCount / Math.max(1, annotators.length)));
  return annotators.map((annotator, index) => ({
    index,
    annotator,
    cursor: (index * stride) % instanceCount,
    revisions: new Map(),
    unknown: new Set(),
    current: null,
    seq: 0,
    moves: 0,
    pending: null,
    next: "save",
    rand: prng(1000 + index),
  }));
}

/** The next instance the annotator has not answered (and whose state is known), moving the cursor on. */
function nextNew(st: AnnotatorState, refs: number[]): number {
  for (let k = 0; k < refs.length; k++) {
    const ref = refs[st.cursor % refs.length];
    st.cursor = (st.cursor + 1) % refs.length;
    if (!st.revisions.has(ref) && !st.unknown.has(ref)) return ref;
  }
  // Everything answered: revise (the caller handles revisions).
  return refs[st.cursor % refs.length];
}

/**
 * What one save sends: substitutes no other save uses (runTag, annotator, sequence), at times NAME/NIL or a
 * multiword (holding the instance's head word, which the save rules require; none when it is not known).
 */
function responseFor(runTag: string, annotator: number, seq: number, r: () => number, head?: string): SentResponse {
  const roll = r();
  if (roll < 0.05) return { kind: "NAME", substitutes: [], multiword: null };
  if (roll < 0.1) return { kind: "NIL", substitutes: [], multiword: null };
  const n = 1 + Math.floor(r() * 3);
  const token = `${runTag}a${annotator}n${seq}`;
  const substitutes = Array.from({ length: n }, (_, k) => `${token}${"xyz"[k]}`);
  const multiword = r() < 0.1 && head ? `${head} over` : null;
  return { kind: "substitutes", substitutes, multiword };
}

export async function runLoad(states: AnnotatorState[], opts: LoadOptions): Promise<LoadRecords> {
  const rec: LoadRecords = { saves: [], pages: [], exports: [], acked: [], connectionErrors: 0, startedAt: now(), endedAt: 0 };
  const { projectId, instanceRefs } = opts;
  const headOf = new Map(opts.heads?.map((h, i) => [instanceRefs[i], h]));

  /** Close whatever the annotator was waiting for when a new request is built without an answer to the last. */
  const dropPending = (st: AnnotatorState, cut = false) => {
    const p = st.pending;
    if (!p) return;
    st.pending = null;
    p.record.end = now();
    if (p.kind === "save") {
      p.record.outcome = cut ? "cut" : "unanswered";
      st.unknown.add(p.record.instanceRef);
      rec.saves.push(p.record);
    } else if (!cut) {
      p.record.ok = false;
      rec.pages.push(p.record);
    }
  };

  // autocannon's default Host header is lost when a client replaces its requests; say it.
  const host = new URL(opts.base).host;
  const buildRequest = (st: AnnotatorState): RequestData => {
    dropPending(st);
    const cookie = st.annotator.cookie;
    if (st.current === null) st.current = nextNew(st, instanceRefs);
    if (st.next === "move") {
      // The workspace shows the next instance from the save's answer: no request, unless this move is a page load.
      st.moves++;
      if (!(opts.pageLoadEvery > 0 && st.moves % opts.pageLoadEvery === 0)) {
        st.current = nextNew(st, instanceRefs);
        st.next = "save";
      }
    }
    if (st.next === "save") {
      // Now and then the annotator goes back to an earlier answer and changes it.
      const revisable = [...st.revisions.keys()].filter((r) => !st.unknown.has(r));
      let ref = st.current;
      if (revisable.length > 0 && st.rand() < opts.reviseShare) ref = revisable[Math.floor(st.rand() * revisable.length)];
      if (st.unknown.has(ref)) ref = st.current = nextNew(st, instanceRefs);
      const expectedRevision = st.revisions.get(ref) ?? 0;
      const sent = responseFor(opts.runTag, st.index + 1, ++st.seq, st.rand, headOf.get(ref));
      const input = {
        kind: sent.kind,
        substitutes: [...sent.substitutes, "", "", ""].slice(0, 3),
        multiword: sent.multiword !== null,
        phrase: sent.multiword ?? "",
      };
      st.pending = {
        kind: "save",
        record: { annotator: st.index, instanceRef: ref, expectedRevision, sent, start: now(), end: 0, status: 0, outcome: "unanswered" },
      };
      // What the workspace's postSave sends (app/annotate/save-request.ts).
      const body: SaveBody = { response: input, expectedRevision, activeMs: 4000 + Math.floor(st.rand() * 20000) };
      return {
        method: "POST",
        path: savePath(projectId, ref),
        headers: {
          Host: host,
          Cookie: cookie,
          Origin: opts.base,
          Referer: `${opts.base}/annotate/${projectId}/${ref}`,
          Accept: "application/json",
          "Content-Type": "application/json",
        },
        body: JSON.stringify(body),
      };
    }
    // The move to the next instance by a full page load.
    const to = nextNew(st, instanceRefs);
    st.current = to;
    const path = `/annotate/${projectId}/${to}`;
    st.pending = { kind: "page", record: { kind: "page", start: now(), end: 0, status: 0, ok: false } };
    return { method: "GET", path, headers: { Host: host, Cookie: cookie, Accept: "text/html" } };
  };

  const onResponse = (st: AnnotatorState, status: number, body: string) => {
    const p = st.pending;
    if (!p) return;
    st.pending = null;
    const end = now();
    if (p.kind === "page") {
      const r = p.record;
      r.end = end;
      r.status = status;
      // A page that renders the workspace carries the instance; an error page or a redirect to sign-in does not.
      r.ok = status === 200 && (r.kind === "page" ? body.includes("Save &amp; next") : body.includes('"instance":{'));
      rec.pages.push(r);
      st.next = "save";
      return;
    }
    const r = p.record;
    r.end = end;
    r.status = status;
    st.next = "move";
    if (status !== 200 && !(status >= 400 && status < 500 && body.startsWith("{"))) {
      r.outcome = "failed";
      r.message = `HTTP ${status}: ${body.slice(0, 300)}`;
      st.unknown.add(r.instanceRef);
    } else {
      try {
        // 200 { ok: true, revision, … }, or a refusal the server explains (4xx { ok: false, message }).
        const result = JSON.parse(body) as { ok?: boolean; revision?: number; message?: string };
        if (result?.ok === true && typeof result.revision === "number") {
          r.outcome = "acked";
          r.revision = result.revision;
          st.revisions.set(r.instanceRef, result.revision);
          rec.acked.push({ userId: st.annotator.userId, instanceRef: r.instanceRef, revision: result.revision, ...r.sent });
        } else {
          r.outcome = "refused";
          r.message = result?.message ?? "ok:false";
          // A refusal writes nothing: the revision known before stays right.
        }
      } catch (e) {
        r.outcome = "failed";
        r.message = `${(e as Error).message}: ${body.slice(0, 300)}`;
        st.unknown.add(r.instanceRef);
      }
    }
    rec.saves.push(r);
  };

  /** Whether the annotator's next request is a save (a move without a page load sends nothing). */
  const willSave = (st: AnnotatorState) => st.next === "save" || !(opts.pageLoadEvery > 0 && (st.moves + 1) % opts.pageLoadEvery === 0);
  const thinkMs = (st: AnnotatorState) => {
    if (opts.thinkSec <= 0) return 0;
    const t = -Math.log(1 - st.rand()) * opts.thinkSec * 1000;
    return Math.min(4, Math.max(0.1, t / (opts.thinkSec * 1000))) * opts.thinkSec * 1000;
  };
  // autocannon sends a connection's next request as soon as the last is answered.
  // The annotator's think time goes in between: the client's own request step is
  // deferred (autocannon has no per-request delay; its rate option allows no less
  // than one request per second and sends them in bursts).
  const pace = (client: Client, st: AnnotatorState) => {
    const c = client as unknown as { _doRequest: () => void; destroyed: boolean };
    const c2 = c as typeof c & { _resetConnection: () => void };
    const send = c._doRequest.bind(client);
    let first = true;
    let thinking = false;
    let immediate = false;
    c._doRequest = () => {
      // The server closes idle keep-alive connections (5 s) and autocannon reconnects
      // and asks for a request at once: while the annotator is thinking, the deferred
      // request goes out on the new connection instead.
      if (thinking) return;
      if (immediate) {
        immediate = false;
        return send();
      }
      // The think time comes before each save (a page load follows the save at once).
      const delay = first ? 0 : willSave(st) ? thinkMs(st) : 0;
      first = false;
      if (delay <= 0) return send();
      thinking = true;
      setTimeout(() => {
        thinking = false;
        if (c.destroyed || opts.signal?.aborted) return;
        if (delay < KEEP_ALIVE_SAFE_MS) return send();
        // After a long think the connection may be at the server's keep-alive limit,
        // and a request sent as the server closes it is lost in transit (the client's
        // race, not the server's fault). Like a client honouring "Keep-Alive: timeout=5",
        // send it on a fresh connection.
        immediate = true;
        c2._resetConnection();
      }, delay);
    };
  };
  const instances: Instance[] = [];
  // Staggered arrivals over the first think time (at most 5 s), so annotators do not act in step.
  const spread = Math.min(5000, opts.durationSec * 100, Math.max(1000, opts.thinkSec * 1000));
  const starts = states.map(
    (st, k) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          if (opts.signal?.aborted) return resolve();
          const inst = autocannon({
            url: opts.base,
            connections: 1,
            duration: opts.durationSec,
            timeout: opts.timeoutSec,
            setupClient: (client: Client) => {
              pace(client, st);
              client.setRequests([{ setupRequest: () => buildRequest(st), onResponse: (status, body) => onResponse(st, status, body) }]);
              client.on("connError", () => rec.connectionErrors++);
            },
          });
          instances.push(inst);
          inst.then(
            () => resolve(),
            () => resolve(),
          );
        }, (k * spread) / states.length);
        opts.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  );
  opts.signal?.addEventListener("abort", () => instances.forEach((i) => i.stop()));

  // The coordinator: every everySec, each request in turn.
  let coordinatorDone = Promise.resolve();
  const stopAt = now() + opts.durationSec * 1000;
  if (opts.coordinator) {
    const c = opts.coordinator;
    coordinatorDone = (async () => {
      await sleep(Math.min(1000, c.everySec * 500), opts.signal);
      while (now() < stopAt && !opts.signal?.aborted) {
        const round = now();
        for (const q of c.requests) {
          if (opts.signal?.aborted) break;
          rec.exports.push(await timedGet(opts.base, q, c.cookie, opts.timeoutSec * 1000, opts.signal));
        }
        await sleep(Math.max(0, round + c.everySec * 1000 - now()), opts.signal);
      }
    })();
  }

  await Promise.all(starts);
  await coordinatorDone;
  // Requests still in flight when the phase stopped got no answer; their outcome is unknown.
  for (const st of states) dropPending(st, true);
  rec.endedAt = now();
  return rec;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

export async function timedGet(base: string, q: CoordinatorRequest, cookie: string, timeoutMs: number, signal?: AbortSignal): Promise<ExportRecord> {
  const start = now();
  try {
    const res = await fetch(base + q.path, {
      headers: { Cookie: cookie },
      redirect: "manual",
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { name: q.name, start, end: now(), status: res.status, bytes, ok: res.status === 200 };
  } catch (e) {
    return { name: q.name, start, end: now(), status: 0, bytes: 0, ok: false, error: (e as Error).message };
  }
}

/**
 * The coordinator's requests that exist in this build: each candidate is
 * fetched once; a 404 drops it (pages still being written by others).
 * Add a request here to have the load exercise it.
 */
export function coordinatorCandidates(projectId: number): CoordinatorRequest[] {
  const p = projectId;
  return [
    { name: "responses TSV", path: `/api/projects/${p}/responses`, export: true },
    { name: "gold", path: `/api/projects/${p}/gold?file=gold`, export: true },
    { name: "mwgold", path: `/api/projects/${p}/gold?file=mwgold`, export: true },
    { name: "agreement page", path: `/projects/${p}/agreement`, export: true },
    { name: "gold page", path: `/projects/${p}/gold`, export: true },
    { name: "progress page", path: `/projects/${p}/progress`, export: false },
  ];
}

export async function probeCoordinatorRequests(
  base: string,
  cookie: string,
  candidates: CoordinatorRequest[],
): Promise<{ present: CoordinatorRequest[]; absent: string[] }> {
  const present: CoordinatorRequest[] = [];
  const absent: string[] = [];
  for (const q of candidates) {
    const r = await timedGet(base, q, cookie, 30_000);
    if (r.status === 404) absent.push(q.name);
    else {
      // A failing request stays in the load: its failures are counted as errors there.
      if (!r.ok) process.stderr.write(`warning: coordinator request ${q.name} (${q.path}) answered ${r.status}${r.error ? `: ${r.error}` : ""}\n`);
      present.push(q);
    }
  }
  return { present, absent };
}

/** Merge the records of consecutive phases (the preflight and the load, or the crash test's cycles). */
export function mergeRecords(parts: LoadRecords[]): LoadRecords {
  return {
    saves: parts.flatMap((p) => p.saves),
    pages: parts.flatMap((p) => p.pages),
    exports: parts.flatMap((p) => p.exports),
    acked: parts.flatMap((p) => p.acked),
    connectionErrors: parts.reduce((n, p) => n + p.connectionErrors, 0),
    startedAt: Math.min(...parts.map((p) => p.startedAt)),
    endedAt: Math.max(...parts.map((p) => p.endedAt)),
  };
}

/**
 * One annotator saves one answer and moves on, through the same requests as the
 * load: throws with the server's answer when the save is not acknowledged (a
 * changed action protocol, a broken build) so the load does not run blind.
 */
export async function preflight(state: AnnotatorState, opts: LoadOptions): Promise<LoadRecords> {
  const rec = await runLoad([state], { ...opts, durationSec: 1, thinkSec: 0.3, coordinator: null });
  const first = rec.saves.find((s) => s.outcome !== "cut");
  if (!first || first.outcome !== "acked") {
    throw new Error(`preflight: the save was not acknowledged (${first ? `${first.outcome}: ${first.message ?? ""}` : "no answer"})`);
  }
  return rec;
}
