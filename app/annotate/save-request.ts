/**
 * The workspace's save: a POST of JSON to the save route
 * (app/api/projects/[projectId]/responses/[instanceRef]/route.ts), answered with
 * the acknowledgement and the next instances as JSON. `response` is the answer as
 * the fields hold it; it is an object so that it can carry more fields.
 */
import type { OwnResponse, ResponseInput, SaveResult } from "@/lib/server/annotate";

export type SaveResponseResult =
  | ({ ok: true } & SaveResult)
  | { ok: false; message: string; errors?: Record<string, string>; conflict?: OwnResponse };

/** The JSON body of a save (lib/server/annotate/save-request.ts reads it). */
export interface SaveBody {
  response: ResponseInput;
  /** The revision the annotator started from (0 for none). */
  expectedRevision: number;
  /** Milliseconds the annotator spent on the instance. */
  activeMs?: number | null;
}

export function savePath(projectId: number, instanceRef: number): string {
  return `/api/projects/${projectId}/responses/${instanceRef}`;
}

/** The longest wait a 429 is taken at its word for (a longer Retry-After is waited in steps). */
export const MAX_WAIT_MS = 60_000;

/** How long a 429 asks to wait: Retry-After in seconds or as an HTTP date, else 1 s; between 1 s and a minute. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  let ms = 1000;
  const v = header?.trim() ?? "";
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else if (v) {
    const at = Date.parse(v);
    if (Number.isFinite(at)) ms = at - now;
  }
  return Math.min(MAX_WAIT_MS, Math.max(1000, ms));
}

/** Resolves after `ms`; rejects (with the signal's reason) as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface RetryOptions {
  /** Told before each wait the server asks for, with its whole seconds (for a calm note). */
  onWait?: (seconds: number) => void;
  /**
   * Aborting ends a wait (the pane went away: the draft stays in the browser) and no
   * further try is sent. A save already sent is not cut off: its answer still comes.
   */
  signal?: AbortSignal;
  /** How to wait (tests pass one that returns at once). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Send one save. Resolves with the server's answer (ok or a refusal it explains);
 * rejects when the server could not be reached or answered something other than
 * the save's JSON (the answer is then unknown, and the draft is kept), or when
 * `signal` aborts during a wait.
 *
 * 429 (too many saves: lib/server/kernel/rate-limit.ts, decided before anything is
 * stored) is not an answer: the save goes again after the Retry-After wait, as
 * often as it takes; so is a 503 with Retry-After (the database stayed busy for seconds:
 * lib/server/kernel/write-lock.ts, nothing stored). `req` may be a function, asked again for each try, so that
 * typing done while waiting goes with the save.
 */
export async function postSave(
  projectId: number,
  instanceRef: number,
  req: SaveBody | (() => SaveBody),
  opts: RetryOptions = {},
): Promise<SaveResponseResult> {
  const wait = opts.sleep ?? sleep;
  for (;;) {
    const res = await fetch(savePath(projectId, instanceRef), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(typeof req === "function" ? req() : req),
      credentials: "same-origin",
      cache: "no-store",
    });
    // 429 (too fast) and 503 (the database's write lock stayed taken): nothing was stored; send it again after the wait.
    if (res.status === 429 || (res.status === 503 && res.headers.has("retry-after"))) {
      const ms = retryAfterMs(res.headers.get("retry-after"));
      await res.body?.cancel().catch(() => {});
      opts.onWait?.(Math.ceil(ms / 1000));
      await wait(ms, opts.signal);
      opts.signal?.throwIfAborted();
      continue;
    }
    const type = res.headers.get("content-type") ?? "";
    if (!type.includes("application/json")) throw new Error(`The server answered ${res.status} without a save result.`);
    const body = (await res.json()) as SaveResponseResult;
    if (typeof body !== "object" || body === null || typeof body.ok !== "boolean") throw new Error("The server's answer is not a save result.");
    return body;
  }
}

/**
 * Call a server action until it is not refused for going too fast: an answer
 * `{ ok: false, retryAfterMs }` is waited out and the call made again.
 */
export async function untilAccepted<T extends { ok: boolean; retryAfterMs?: number }>(attempt: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const wait = opts.sleep ?? sleep;
  for (;;) {
    const r = await attempt();
    if (r.ok || !r.retryAfterMs) return r;
    const ms = Math.min(MAX_WAIT_MS, Math.max(1000, r.retryAfterMs));
    opts.onWait?.(Math.ceil(ms / 1000));
    await wait(ms, opts.signal);
  }
}
