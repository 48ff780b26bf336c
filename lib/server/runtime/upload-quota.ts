/**
 * A cap on the upload bytes one user has waiting for work (#27 finding 10):
 * the files of their queued and running jobs (counted from the jobs table, so
 * every server process sees the same total) plus the uploads their derivations
 * carry in this process (a ranking or SENSEVAL upload waiting for the
 * derivation process). Six 30 MB imports queued by one coordinator no longer
 * fill the disk and the queue: the one past the cap is refused at once, with a
 * message saying what waits and what to do (QueueFullError, HTTP 429).
 *
 * LEXGOLD_MAX_QUEUED_UPLOAD_MB sets the cap (default 100: one upload at the
 * 50 MB import limit and a few runs beside it).
 */
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { jobs } from "../../../db/schema";
import { type Actor, actorUserId } from "../kernel/actor";
import { QueueFullError } from "../kernel/errors";
import { setting } from "../../config";

const MB = 1024 * 1024;

function maxQueuedUploadBytes(): number {
  return setting("LEXGOLD_MAX_QUEUED_UPLOAD_MB") * MB;
}

// Per process, on globalThis (Next may load this module once per server bundle).
const g = globalThis as unknown as { lexgoldUploadsHeld?: Map<number, number> };
const held = (): Map<number, number> => (g.lexgoldUploadsHeld ??= new Map());

/** The upload bytes of the user's queued and running jobs (each job records its own as `uploadBytes`). */
function queuedJobBytes(db: Db, userId: number): number {
  let total = 0;
  const rows = db
    .select({ input: jobs.input })
    .from(jobs)
    .where(and(eq(jobs.createdBy, userId), inArray(jobs.state, ["queued", "running"])))
    .all();
  for (const r of rows) {
    try {
      const n = (JSON.parse(r.input) as { uploadBytes?: unknown }).uploadBytes;
      if (typeof n === "number" && n > 0) total += n;
    } catch {
      /* no count */
    }
  }
  return total;
}

const mb = (n: number) => (n / MB).toFixed(1);

/**
 * Refuse `bytes` more for this user when what they have waiting plus `bytes` is over the cap.
 * The system actor (the CLI) and uploads of nothing are never refused.
 */
export function checkUploadRoom(db: Db, actor: Actor, bytes: number): void {
  const userId = actor && actor.kind === "user" ? actorUserId(actor) : null;
  if (userId === null || bytes <= 0) return;
  const waiting = queuedJobBytes(db, userId) + (held().get(userId) ?? 0);
  const cap = maxQueuedUploadBytes();
  if (waiting + bytes <= cap) return;
  throw new QueueFullError(
    waiting > 0
      ? `You have ${mb(waiting)} MB of uploads waiting to be processed; with this ${mb(bytes)} MB one that is over the limit of ${mb(cap)} MB per person. ` +
          `Wait until one of them has finished (each tab shows its jobs), then send this one again; nothing of it was kept.`
      : `This upload of ${mb(bytes)} MB is over the limit of ${mb(cap)} MB of uploads waiting per person; nothing of it was kept.`,
  );
}

/**
 * Hold `bytes` of the user's room while an upload waits in this process (a derivation carrying
 * it); checked first as `checkUploadRoom`. Returns the function that gives the room back.
 */
export function holdUploadBytes(db: Db, actor: Actor, bytes: number): () => void {
  checkUploadRoom(db, actor, bytes);
  const userId = actor && actor.kind === "user" ? actorUserId(actor) : null;
  if (userId === null || bytes <= 0) return () => {};
  const m = held();
  m.set(userId, (m.get(userId) ?? 0) + bytes);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (m.get(userId) ?? bytes) - bytes;
    if (left > 0) m.set(userId, left);
    else m.delete(userId);
  };
}

/**
 * The same check from a request's declared size (Content-Length), before its body is read: an
 * upload past the cap is refused before it reaches the disk. Who asks must be checked first.
 */
export function checkDeclaredUpload(db: Db, actor: Actor, req: Request): void {
  const declared = Number(req.headers.get("content-length") ?? 0);
  checkUploadRoom(db, actor, Number.isFinite(declared) && declared > 0 ? declared : 0);
}
