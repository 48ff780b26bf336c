/**
 * The derivation worker's entry (lib/server/runtime/derive-pool.ts bundles it with
 * esbuild and starts it as a child process at a lower CPU priority, talking
 * over Node's IPC channel with structured-clone serialization). It opens its
 * own read-only connection to the app's database file (WAL: it reads committed
 * data while the request thread writes) and answers jobs one at a time with
 * runDeriveJob's result (its large texts through a temporary file: see `spill`),
 * or the error's class, message and fields.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import * as schema from "../../../db/schema";
import type { Db } from "../../../db/client";
import { type DeriveJob, runDeriveJob } from "../derive-jobs";
import { AuthError, InputError, NotFoundError } from "../errors";
import { keepDerivationInputs } from "../gold";

function kindOf(e: unknown): string {
  return e instanceof AuthError ? "auth" : e instanceof NotFoundError ? "notFound" : e instanceof InputError ? "input" : "other";
}

const file = process.env.LEXGOLD_DERIVE_DB;
if (!file || !process.send) {
  process.stderr.write("derive-worker: started without LEXGOLD_DERIVE_DB or an IPC channel\n");
  process.exit(2);
}
const send = process.send.bind(process);
const sqlite = new Database(file, { readonly: true, fileMustExist: true });
sqlite.pragma("busy_timeout = 5000");
const db = drizzle(sqlite, { schema }) as unknown as Db;
// This process only derives: keep the last project's inputs and gold while its data version holds.
keepDerivationInputs(true);
// The server went away (or closed the channel): nothing left to answer.
process.on("disconnect", () => process.exit(0));

/**
 * An answer's large texts (a top-level string over SPILL_CHARS: a run's detail, an agreement
 * download) go through a temporary file, which the server reads back asynchronously and deletes:
 * a message of tens of MB over the IPC channel is parsed on the server's event loop in one piece
 * (measured: 75–150 ms for 30 MB), a file read is not. (LEXGOLD_DERIVE_SPILL_CHARS sets the
 * threshold, for tests.)
 */
const SPILL_CHARS = Number(process.env.LEXGOLD_DERIVE_SPILL_CHARS) > 0 ? Number(process.env.LEXGOLD_DERIVE_SPILL_CHARS) : 1 << 20;
function spill(id: number, value: unknown): { value: unknown; files?: Record<string, string> } {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { value };
  let files: Record<string, string> | undefined;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [k, v] of Object.entries(out)) {
    if (typeof v !== "string" || v.length <= SPILL_CHARS) continue;
    const file = path.join(os.tmpdir(), `lexgold-derive-${process.pid}-${id}-${k}.txt`);
    fs.writeFileSync(file, v);
    (files ??= {})[k] = file;
    out[k] = "";
  }
  return files ? { value: out, files } : { value };
}

process.on("message", (m: { id: number; job: DeriveJob }) => {
  try {
    send({ id: m.id, ...spill(m.id, runDeriveJob(db, m.job)) });
  } catch (e) {
    const err = e as Error & { status?: number; fieldErrors?: Record<string, string>; details?: string[] };
    send({
      id: m.id,
      error: {
        kind: kindOf(e),
        message: String(err?.message ?? e),
        status: err?.status,
        fieldErrors: err?.fieldErrors,
        details: err?.details,
        stack: err?.stack,
      },
    });
  }
});
