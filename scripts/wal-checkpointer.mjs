/**
 * WAL checkpoints off the serving processes' event loops (issue #28 item 7).
 *
 * SQLite copies the WAL back into the database file (a checkpoint, with an fsync) inside the COMMIT
 * that finds the WAL past wal_autocheckpoint pages: in the server, inside a request, with that
 * process's event loop stopped until the disk answers. A save writes about ten pages, so every
 * hundred saves or so one of them stopped its process for the copy and the fsync; measured without
 * Next (a plain HTTP handler calling the save), taking those checkpoints away raised saves/s 1.7x
 * at the same CPU per save.
 *
 * serve.mjs's primary, which serves no requests, runs this: every `everyMs` a PASSIVE checkpoint
 * on a connection of its own (it never waits for a lock and never blocks a writer). Each serving
 * process, told so by being a cluster worker, raises its own wal_autocheckpoint to
 * WAL_BACKSTOP_PAGES (db/client.ts getDb), so it checkpoints only if this stopped keeping up.
 */
import Database from "better-sqlite3";

/** How often the primary checkpoints: at a few hundred saves a second, a few hundred pages each time. */
export const CHECKPOINT_EVERY_MS = 100;

/**
 * Checkpoint `file` every `everyMs` from this process. `onCheckpoint` gets SQLite's answer
 * ({ busy, log, checkpointed }: pages in the WAL and pages copied); a failure is logged once and the
 * next tick tries again. `tick` runs one checkpoint now (tests).
 */
export function startCheckpointer(file, { everyMs = CHECKPOINT_EVERY_MS, onCheckpoint, log = console.error } = {}) {
  let db = null;
  let failing = false;
  const tick = () => {
    try {
      db ??= new Database(file, { fileMustExist: true });
      const [result] = db.pragma("wal_checkpoint(PASSIVE)");
      failing = false;
      onCheckpoint?.(result);
    } catch (e) {
      if (!failing) log(`serve: checkpointing ${file} failed (each server process checkpoints itself past its backstop): ${e instanceof Error ? e.message : e}`);
      failing = true;
      try {
        db?.close();
      } catch {
        /* already unusable */
      }
      db = null;
    }
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    tick,
    stop() {
      clearInterval(timer);
      db?.close();
      db = null;
    },
  };
}
