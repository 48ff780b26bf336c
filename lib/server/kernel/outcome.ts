/**
 * What a form posted without JavaScript came to (#38): a route answers a form that the browser
 * sent itself (JavaScript off, or not yet running) with a redirect (303) back to the page the
 * form is on, and keeps its answer — the JSON the page's script would have read — here, under a
 * random id the redirect names (`?outcome=…`). The page shows it as the scripted form shows the
 * same answer, and a reload shows it again.
 *
 * Kept in the system temp folder (shared by the server processes of one machine), one file per
 * answer (mode 600), for OUTCOME_TTL_MS; readable only by the account that posted, on the page it
 * was kept for. An answer kept for a post made signed out (a study's start) is readable by whoever
 * has its id: such answers hold only the server's own sentences.
 */
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** How long an outcome is kept: long enough to come back to, short enough to hold nothing for long. */
const OUTCOME_TTL_MS = 15 * 60_000;
/** The largest answer kept whole; a larger one is kept as a sentence saying so. */
const MAX_OUTCOME_BYTES = 4 * 1024 * 1024;
const ID = /^[0-9a-f]{32}$/;

interface Kept {
  owner: number | null;
  page: string;
  at: number;
  value: unknown;
}

function dir(): string {
  return path.join(os.tmpdir(), "lexgold-outcomes");
}

let swept = 0;

/** Remove outcomes past their time (at most once a minute per process). */
function sweep(now: number): void {
  if (now - swept < 60_000) return;
  swept = now;
  let names: string[];
  try {
    names = fs.readdirSync(dir());
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir(), name);
    try {
      if (now - fs.statSync(file).mtimeMs > OUTCOME_TTL_MS) fs.rmSync(file, { force: true });
    } catch {
      /* gone already */
    }
  }
}

/** Keep `value` for `owner` (a user id, or null signed out) on `page` (a path); returns its id. */
export function keepOutcome(owner: number | null, page: string, value: unknown, now = Date.now()): string {
  sweep(now);
  fs.mkdirSync(dir(), { recursive: true, mode: 0o700 });
  const id = crypto.randomBytes(16).toString("hex");
  let text = JSON.stringify({ owner, page, at: now, value } satisfies Kept);
  if (Buffer.byteLength(text) > MAX_OUTCOME_BYTES) {
    const value = { ok: false, message: "The answer is too large to show on a page without JavaScript: turn JavaScript on and send the form again." };
    text = JSON.stringify({ owner, page, at: now, value } satisfies Kept);
  }
  fs.writeFileSync(path.join(dir(), id), text, { flag: "wx", mode: 0o600 });
  return id;
}

/** The outcome `id` kept for `owner` on `page`, or null (none such, another's, another page's, or past its time). */
export function readOutcome(owner: number | null, page: string, id: unknown, now = Date.now()): unknown {
  if (typeof id !== "string" || !ID.test(id)) return null;
  let kept: Kept;
  try {
    kept = JSON.parse(fs.readFileSync(path.join(dir(), id), "utf8")) as Kept;
  } catch {
    return null;
  }
  if (kept.owner !== owner || kept.page !== page || now - kept.at > OUTCOME_TTL_MS) return null;
  return kept.value;
}

/**
 * Whether a request is a form the browser sent itself (a navigation), rather than one sent by the
 * page's script: Sec-Fetch-Mode or Sec-Fetch-Dest says so, or it asks for a page first (a
 * navigation's Accept begins with text/html; the page's fetch asks for anything, or for JSON).
 */
export function isNativeForm(req: Request): boolean {
  if (req.headers.get("sec-fetch-mode") === "navigate" || req.headers.get("sec-fetch-dest") === "document") return true;
  return (req.headers.get("accept") ?? "").trimStart().startsWith("text/html");
}
