/**
 * The derivation worker's entry (lib/server/derive-pool.ts bundles it with
 * esbuild and starts it as a child process at a lower CPU priority, talking
 * over Node's IPC channel with structured-clone serialization). It opens its
 * own read-only connection to the app's database file (WAL: it reads committed
 * data while the request thread writes) and answers jobs one at a time with
 * runDeriveJob's result, or the error's class, message and fields.
 */
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { type DeriveJob, runDeriveJob } from "./derive-jobs";
import { AuthError, InputError, NotFoundError } from "./errors";
import { keepDerivationInputs } from "./gold";

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

process.on("message", (m: { id: number; job: DeriveJob }) => {
  try {
    const value = runDeriveJob(db, m.job);
    send({ id: m.id, value });
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
