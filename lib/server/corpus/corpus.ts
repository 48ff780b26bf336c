/** Loading lexelt XML into a project: all or nothing, in short slices. */
import "server-only";
import type { Db } from "../../../db/client";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { type ImportReport, runStagedImport } from "./lexelt-import";
import { setting } from "../../config";

export function maxImportBytes(): number {
  return setting("LEXGOLD_MAX_IMPORT_BYTES");
}

export type { ImportReport } from "./lexelt-import";

/**
 * Import a lexelt XML file into a project, in this thread (the CLI, tests, the
 * demo). Refuses oversize files before parsing, refuses anything the reader
 * cannot read (naming file and line), and writes in short slices that stay
 * invisible until one short transaction publishes them (lib/server/corpus/lexelt-import.ts),
 * so a refused import writes nothing and saves never wait behind it. Instances
 * already in the project with the same lexelt and text are counted, not
 * duplicated; an id already present with other text is refused. The web upload
 * runs the same steps in a worker thread as a job (lib/server/jobs/jobs.ts).
 */
export function importLexeltXml(
  db: Db,
  actor: Actor,
  projectId: number,
  input: { fileName: string; bytes: Uint8Array },
): ImportReport {
  requireProject(db, actor, projectId, { coordinator: true });
  const importedBy = actor && actor.kind === "user" ? actorUserId(actor) : null;
  return runStagedImport(db.$client, { projectId, fileName: input.fileName, bytes: input.bytes, importedBy, maxBytes: maxImportBytes() });
}
