/**
 * The crowd run's participants (issue #32): each one a small script of what a Prolific participant's
 * browser sends, at a human pace —
 *  1. the study link with Prolific's parameters (GET /study/<token>?PROLIFIC_PID=…&STUDY_ID=…&SESSION_ID=…);
 *  2. the join, as the link's page does it through next-auth's client (app/study/[token]/start-study.tsx:
 *     signIn("study", { token, params, consent, redirect: false })): GET /api/auth/csrf, POST
 *     /api/auth/callback/study with the token, the link's query as a JSON object of strings and consent
 *     "yes" (the study shows one), then GET /api/auth/session (next-auth's client reads the session after
 *     signing in; the account's id comes from it), then the study page with ?started=1 (the page the
 *     link's script goes on to: a new participant's resume code, issue #38, or the way on);
 *  3. the workspace: GET /annotate/<project> (which sends a participant to the first item of their batch)
 *     and that item's page;
 *  4. their batch, one item at a time: a think time, then the save (the workspace's JSON POST), and the
 *     next item from the save's answer, until the answer says there is none; then the completion screen,
 *     which must show the study's completion code.
 * A share abandon after a few items (their places come back when their batch expires); as many
 * replacements join once those batches are past the study's minutes, as Prolific recruits a new
 * participant for one who timed out; a few finishers arrive again by the link partway (a reload, a
 * second tab, with a browser that kept nothing: the platform session of their first join brings them
 * back), which must resume the same account and batch. Each participant has an address of their own
 * (X-Forwarded-For, the server trusting the load's loopback as its proxy), so the per-address join
 * limit sees one join per address, as on Prolific (or one of --addresses, for a burst of joins from
 * a few places); the per-study limit applies as configured. `joinOnly`: each participant stops once
 * their workspace is open (the burst of joins in bench/lib/crowd-phases.ts).
 */
import crypto from "node:crypto";
import type { AckedSave, SentResponse } from "./acks";
import { type SaveRequest, savePath } from "../../app/annotate/save-request";
import { mulberry32 } from "../../lib/lexsub/agreement/bootstrap";
import { cookieHeader, mergeCookies } from "./auth";

type Role = "finisher" | "abandoner" | "replacement";

export interface ParticipantPlan {
  index: number;
  role: Role;
  /** Milliseconds after the run's start. */
  joinAt: number;
  prolificPid: string;
  sessionId: string;
  /** Abandoners: leave after this many saves. */
  stopAfter: number | null;
  /** A few finishers: arrive again by the link after this many saves. */
  resumeAfter: number | null;
  /** Their address (X-Forwarded-For). */
  address: string;
}

interface JoinRecord {
  participant: number;
  kind: "join" | "resume";
  start: number;
  end: number;
  /** The callback POST alone (the join and the batch's allocation). */
  callbackMs: number;
  ok: boolean;
  message?: string;
}

interface CrowdPageRecord {
  name: "study page" | "started page" | "workspace" | "item page" | "completion";
  start: number;
  end: number;
  status: number;
  ok: boolean;
  message?: string;
}

interface CrowdSaveRecord {
  participant: number;
  ref: number;
  start: number;
  end: number;
  status: number;
  outcome: "acked" | "refused" | "failed" | "unanswered";
  message?: string;
}

interface ParticipantOutcome {
  index: number;
  role: Role;
  userId: number | null;
  /** Items the workspace led them through (saves acknowledged). */
  answered: number;
  /** The answer said there was no next item (batch done). */
  finished: boolean;
  /** The completion screen showed the study's code. */
  completionShown: boolean;
  /** Joined, but the study had no place left for them. */
  noBatch: boolean;
  /** Arrived again by the link and got the same account. */
  resumedSame: boolean | null;
  stoppedBy?: string;
}

export interface CrowdRecords {
  joins: JoinRecord[];
  pages: CrowdPageRecord[];
  saves: CrowdSaveRecord[];
  acked: AckedSave[];
  outcomes: ParticipantOutcome[];
  startedAt: number;
  endedAt: number;
}

export interface CrowdOptions {
  base: string;
  projectId: number;
  token: string;
  /** Prolific's STUDY_ID for this study (the same for every participant). */
  prolificStudyId: string;
  completionCode: string;
  /** Whether the study page exists in this build (probed first). */
  studyPage: boolean;
  /** Mean think time in seconds; each is uniform in ⅔–4⁄3 of it. */
  thinkSec: number;
  runTag: string;
  timeoutMs: number;
  /** The head word of each instance, for the occasional multiword answer. */
  headOf: ReadonlyMap<number, string>;
  /** Stop once the workspace is open (no answers). */
  joinOnly?: boolean;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
const hex24 = () => crypto.randomBytes(12).toString("hex");

/**
 * Who does what when: `participants` join spread over `joinWithinSec` (evenly, with jitter), a
 * share `abandon` of them leave after 1 … batch−1 saves, a share `resume` of the others arrive
 * again by the link partway; then as many replacements as abandoners join over `replaceWithinSec`,
 * starting `replaceAfterSec` after the run's start (once every abandoned batch has expired). Pure
 * but for the random ids.
 */
export function planParticipants(opts: {
  participants: number;
  joinWithinSec: number;
  batch: number;
  abandon: number;
  resume: number;
  replaceAfterSec: number;
  replaceWithinSec: number;
  seed: number;
  /** The participants come from this many addresses in turn (default: one each). */
  addresses?: number;
}): ParticipantPlan[] {
  const r = mulberry32(opts.seed);
  const gap = (opts.joinWithinSec * 1000) / Math.max(1, opts.participants);
  const address = (n: number) => {
    const i = opts.addresses ? ((n - 1) % opts.addresses) + 1 : n;
    return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  };
  const plans: ParticipantPlan[] = [];
  for (let i = 0; i < opts.participants; i++) {
    const abandons = opts.batch > 1 && r() < opts.abandon;
    const resumes = !abandons && opts.batch > 1 && r() < opts.resume;
    plans.push({
      index: i,
      role: abandons ? "abandoner" : "finisher",
      joinAt: Math.min(opts.joinWithinSec * 1000, i * gap + r() * gap),
      prolificPid: hex24(),
      sessionId: hex24(),
      stopAfter: abandons ? 1 + Math.floor(r() * (opts.batch - 1)) : null,
      resumeAfter: resumes ? 1 + Math.floor(r() * (opts.batch - 1)) : null,
      address: address(i + 1),
    });
  }
  const replacements = plans.filter((p) => p.role === "abandoner").length;
  const rgap = (opts.replaceWithinSec * 1000) / Math.max(1, replacements);
  for (let j = 0; j < replacements; j++) {
    const i = opts.participants + j;
    plans.push({
      index: i,
      role: "replacement",
      joinAt: opts.replaceAfterSec * 1000 + j * rgap + r() * rgap,
      prolificPid: hex24(),
      sessionId: hex24(),
      stopAfter: null,
      resumeAfter: null,
      address: address(i + 1),
    });
  }
  return plans;
}


/** One answer no other save uses (the run's tag, the participant, the item), now and then NAME/NIL or a multiword. */
function answerFor(runTag: string, participant: number, seq: number, r: () => number, head?: string): SentResponse {
  const roll = r();
  if (roll < 0.04) return { kind: "NAME", substitutes: [], multiword: null };
  if (roll < 0.08) return { kind: "NIL", substitutes: [], multiword: null };
  const n = 1 + Math.floor(r() * 3);
  const token = `${runTag}p${participant}n${seq}`;
  return { kind: "substitutes", substitutes: Array.from({ length: n }, (_, k) => `${token}${"xyz"[k]}`), multiword: r() < 0.08 && head ? `${head} over` : null };
}

class Stop extends Error {}

/** An error's message with its cause's (fetch's "fetch failed" says why only there). */
function why(e: unknown): string {
  const err = e as Error & { cause?: { message?: string; code?: string } };
  const cause = err.cause ? ` (${err.cause.code ?? ""}${err.cause.code && err.cause.message ? ": " : ""}${err.cause.message ?? ""})` : "";
  return `${err.message}${cause}`;
}

/** Run every participant's script; resolves when the last is done. */
export async function runCrowd(plans: readonly ParticipantPlan[], opts: CrowdOptions): Promise<CrowdRecords> {
  const rec: CrowdRecords = { joins: [], pages: [], saves: [], acked: [], outcomes: [], startedAt: now(), endedAt: 0 };
  const t0 = rec.startedAt;
  const query = (p: ParticipantPlan) => ({ PROLIFIC_PID: p.prolificPid, STUDY_ID: opts.prolificStudyId, SESSION_ID: p.sessionId });

  const one = async (p: ParticipantPlan): Promise<void> => {
    const r = mulberry32(7000 + p.index);
    const jar = new Map<string, string>();
    const out: ParticipantOutcome = { index: p.index, role: p.role, userId: null, answered: 0, finished: false, completionShown: false, noBatch: false, resumedSame: null };
    rec.outcomes.push(out);
    const headers = (extra: Record<string, string> = {}) => ({ "X-Forwarded-For": p.address, Cookie: cookieHeader(jar), ...extra });
    const get = async (name: CrowdPageRecord["name"], path: string, accept = "text/html"): Promise<{ status: number; body: string; location: string | null }> => {
      const start = now();
      try {
        const res = await fetch(opts.base + path, { headers: headers({ Accept: accept }), redirect: "manual", signal: AbortSignal.timeout(opts.timeoutMs) });
        mergeCookies(jar, res);
        const body = await res.text();
        const location = res.headers.get("location");
        const ok = res.status === 200 || (res.status >= 300 && res.status < 400 && location !== null);
        rec.pages.push({ name, start, end: now(), status: res.status, ok, message: ok ? undefined : body.slice(0, 200) });
        return { status: res.status, body, location };
      } catch (e) {
        rec.pages.push({ name, start, end: now(), status: 0, ok: false, message: why(e) });
        throw new Stop(`${name}: ${why(e)}`);
      }
    };

    /** The link's page, then the join through next-auth; returns the account's id. */
    const arrive = async (kind: JoinRecord["kind"]): Promise<number> => {
      const q = new URLSearchParams(query(p)).toString();
      if (opts.studyPage) await get("study page", `/study/${encodeURIComponent(opts.token)}?${q}`);
      const start = now();
      let callbackMs = 0;
      const fail = (message: string): never => {
        rec.joins.push({ participant: p.index, kind, start, end: now(), callbackMs, ok: false, message });
        throw new Stop(`${kind}: ${message}`);
      };
      try {
        const csrfRes = await fetch(`${opts.base}/api/auth/csrf`, { headers: headers(), signal: AbortSignal.timeout(opts.timeoutMs) });
        mergeCookies(jar, csrfRes);
        const { csrfToken } = (await csrfRes.json()) as { csrfToken?: string };
        if (!csrfToken) fail(`no CSRF token (${csrfRes.status})`);
        const c0 = now();
        const res = await fetch(`${opts.base}/api/auth/callback/study`, {
          method: "POST",
          redirect: "manual",
          headers: headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: opts.base }),
          body: new URLSearchParams({
            token: opts.token,
            params: JSON.stringify(query(p)),
            consent: "yes",
            csrfToken: csrfToken!,
            // next-auth's client sends the page it signs in from.
            callbackUrl: `${opts.base}/study/${encodeURIComponent(opts.token)}?${new URLSearchParams(query(p))}`,
            json: "true",
          }),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        mergeCookies(jar, res);
        const text = await res.text();
        callbackMs = now() - c0;
        if (![...jar.keys()].some((k) => k.endsWith("next-auth.session-token"))) fail(`no session (${res.status}: ${text.slice(0, 200)})`);
        const s = await fetch(`${opts.base}/api/auth/session`, { headers: headers(), signal: AbortSignal.timeout(opts.timeoutMs) });
        mergeCookies(jar, s);
        const session = (await s.json()) as { user?: { uid?: number; role?: string } };
        if (typeof session.user?.uid !== "number" || session.user.role !== "participant") fail(`the session is not a participant's: ${JSON.stringify(session).slice(0, 200)}`);
        rec.joins.push({ participant: p.index, kind, start, end: now(), callbackMs, ok: true });
        // Where the page's script goes next: the resume code for a new participant, else on to the workspace.
        if (opts.studyPage) {
          const started = await get("started page", `/study/${encodeURIComponent(opts.token)}?started=1`);
          const shown = started.status === 200 && started.body.includes('data-testid="resume-code"');
          if (kind === "join" && !shown) {
            rec.pages[rec.pages.length - 1].ok = false;
            throw new Stop(`the started page showed no resume code (${started.status})`);
          }
        }
        return session.user!.uid!;
      } catch (e) {
        if (e instanceof Stop) throw e;
        return fail(why(e));
      }
    };

    /** The workspace: /annotate/<project> sends a participant to their batch's next item; that page. Null: nothing to do. */
    const openWorkspace = async (): Promise<number | null> => {
      const w = await get("workspace", `/annotate/${opts.projectId}`);
      const m = w.location ? /\/annotate\/\d+\/(\d+)/.exec(w.location) : null;
      if (!m) {
        if (w.status !== 200) throw new Stop(`workspace answered ${w.status}`);
        return null;
      }
      const ref = Number(m[1]);
      const page = await get("item page", `/annotate/${opts.projectId}/${ref}`);
      if (page.status !== 200 || !page.body.includes("Save &amp; next")) {
        rec.pages[rec.pages.length - 1].ok = false;
        throw new Stop(`item page ${ref} answered ${page.status} without the workspace`);
      }
      return ref;
    };

    const save = async (ref: number, seq: number): Promise<number | null> => {
      const sent = answerFor(opts.runTag, p.index + 1, seq, r, opts.headOf.get(ref));
      const body: SaveRequest = {
        response: { kind: sent.kind, substitutes: [...sent.substitutes, "", "", ""].slice(0, 3), multiword: sent.multiword !== null, phrase: sent.multiword ?? "" },
        expectedRevision: 0,
        activeMs: 8000 + Math.floor(r() * 12000),
      };
      const start = now();
      let res: Response;
      let text: string;
      try {
        res = await fetch(opts.base + savePath(opts.projectId, ref), {
          method: "POST",
          headers: headers({ Origin: opts.base, Referer: `${opts.base}/annotate/${opts.projectId}/${ref}`, Accept: "application/json", "Content-Type": "application/json" }),
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        text = await res.text();
      } catch (e) {
        rec.saves.push({ participant: p.index, ref, start, end: now(), status: 0, outcome: "unanswered", message: why(e) });
        throw new Stop(`save: ${why(e)}`);
      }
      const end = now();
      let result: { ok?: boolean; revision?: number; next?: number | null; message?: string } | null = null;
      try {
        result = JSON.parse(text);
      } catch {
        // not the save's JSON
      }
      if (res.status === 200 && result?.ok === true && typeof result.revision === "number") {
        rec.saves.push({ participant: p.index, ref, start, end, status: 200, outcome: "acked" });
        rec.acked.push({ userId: out.userId!, instanceRef: ref, revision: result.revision, ...sent });
        out.answered++;
        return typeof result.next === "number" ? result.next : null;
      }
      const refused = result !== null && result.ok === false;
      rec.saves.push({ participant: p.index, ref, start, end, status: res.status, outcome: refused ? "refused" : "failed", message: `HTTP ${res.status}: ${(result?.message ?? text).slice(0, 200)}` });
      throw new Stop(`save ${ref}: ${res.status} ${(result?.message ?? text).slice(0, 120)}`);
    };

    const think = () => sleep(opts.thinkSec * 1000 * (2 / 3 + r() * (2 / 3)));

    await sleep(t0 + p.joinAt - now());
    try {
      out.userId = await arrive("join");
      let ref = await openWorkspace();
      if (ref === null) {
        out.noBatch = true;
        return;
      }
      if (opts.joinOnly) return;
      let seq = 0;
      while (ref !== null) {
        await think();
        ref = await save(ref, ++seq);
        if (p.stopAfter !== null && out.answered >= p.stopAfter) {
          out.stoppedBy = "abandoned";
          return;
        }
        if (p.resumeAfter !== null && out.answered === p.resumeAfter && ref !== null) {
          // A reload of the link (or a second tab): the same account, the same batch, where they were.
          jar.clear();
          const again = await arrive("resume");
          out.resumedSame = again === out.userId;
          const at = await openWorkspace();
          if (at !== ref) throw new Stop(`resumed at ${at}, expected ${ref}`);
        }
      }
      out.finished = true;
      const done = await get("completion", `/annotate/${opts.projectId}`);
      out.completionShown = done.status === 200 && done.body.includes(opts.completionCode);
      if (!out.completionShown) rec.pages[rec.pages.length - 1].ok = false;
    } catch (e) {
      out.stoppedBy = e instanceof Stop ? e.message : `error: ${why(e)}`;
    }
  };

  await Promise.all(plans.map(one));
  rec.endedAt = now();
  return rec;
}

/** Whether the study's page is in this build (a GET without the platform's parameters: no join). */
export async function probeStudyPage(base: string, token: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${base}/study/${encodeURIComponent(token)}`, { redirect: "manual", signal: AbortSignal.timeout(30_000) });
      await res.body?.cancel();
      return res.status !== 404;
    } catch (e) {
      if (attempt >= 3) throw e;
      process.stderr.write(`probing the study page: ${why(e)}; again\n`);
      await sleep(1000);
    }
  }
}
