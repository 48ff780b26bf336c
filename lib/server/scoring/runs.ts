/**
 * The Scoring page's system runs (uploaded best / oot / mw files) stored per project, each with
 * the gold it is scored with (golds.ts). Every function that takes an actor checks that it is the
 * project's coordinator.
 */
import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { runItems, runOutcomes, runTexts, systemRuns, users } from "../../../db/schema";
import { writeTransaction } from "../kernel/write-lock";
import { named } from "../../../db/sql-names";
import { type Diagnostic, formatDiagnostic, hasErrors, splitLines } from "../../lexsub/diagnostics";
import { SystemReader, sniffSystemKind } from "../../scorers/semeval2007/system";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { goldIdOf } from "./golds";
import { MAX_RUN_NAME, type RunType, type UploadSource, checkUploadText, decodeUpload, isGzipSource, typeFromFileName, uploadName, uploadPieces } from "./uploads";
import { readRunLines, writeRunSlices, writeRunSlicesSync } from "./run-store";

const RUN_TYPES: readonly RunType[] = ["best", "oot", "mw"];
const RT = named(runTexts);
const RI = named(runItems);
const RO = named(runOutcomes);
const SR = named(systemRuns);

export interface RunInfo {
  id: number;
  name: string;
  type: RunType;
  fileName: string;
  /** Size of the stored file in bytes (UTF-8). */
  bytes: number;
  /** The stored gold the run is scored with; null for the project's own gold. */
  goldId: number | null;
  createdBy: string | null;
  createdAt: Date;
}

// ---------------------------------------------------------------------------
// Runs

export const runColumns = {
  id: systemRuns.id,
  name: systemRuns.name,
  type: systemRuns.type,
  fileName: systemRuns.fileName,
  bytes: systemRuns.bytes,
  goldId: systemRuns.goldId,
  createdBy: users.name,
  createdAt: systemRuns.createdAt,
};

/** The project's stored runs, oldest first (without their content). */
export function listRuns(db: Db, actor: Actor, projectId: number): RunInfo[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select(runColumns)
    .from(systemRuns)
    .leftJoin(users, eq(users.id, systemRuns.createdBy))
    .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.state, "stored")))
    .orderBy(asc(systemRuns.id))
    .all();
}

export interface UploadRunInput {
  fileName: string;
  /** The file as uploaded (checked for size and UTF-8; gzip is unzipped), or its text. */
  bytes?: Uint8Array;
  text?: string;
  /** best, oot or mw; empty or "auto" to take it from the file name's extension, else from the content. */
  type?: string;
  /** The run's name in tables; empty for the file name without its extension. */
  name?: string;
  /** The gold it is scored with: a stored gold's id, or empty / "project" for the project's own gold. */
  gold?: string | number | null;
  /**
   * Store it even though lines of it have errors (lines in no format, which scoring skips).
   * Without it such a run is refused, naming the lines, with the field `CONFIRM_FIELD` set.
   */
  confirm?: boolean;
}

/**
 * The field a refusal marks when the run has errors and was not confirmed: the page then shows the
 * errors with "Store anyway", which sends the same file again with `confirm`.
 */
export const CONFIRM_FIELD = "confirm";

export interface UploadRunResult {
  run: RunInfo;
  /** The system file's diagnostics (warnings: lines not in the format, CRLF, …). */
  diagnostics: Diagnostic[];
  lines: { read: number; matched: number; refused: number };
  /** How the type was settled: chosen, from the extension, or read from the content (with the reason). */
  typeFrom: "chosen" | "extension" | "content";
  typeReason: string | null;
}

/** The type asked for: "" or "auto" to settle it from the name or the content; refused when unknown. */
function chosenRunType(type: string | undefined): RunType | "" {
  const chosen = (type ?? "").trim().toLowerCase();
  if (chosen === "" || chosen === "auto") return "";
  if (!(RUN_TYPES as readonly string[]).includes(chosen)) throw new InputError(`Unknown type "${type}": choose best, oot or mw.`, { type: "Choose best, oot or mw." });
  return chosen as RunType;
}

/** A run's name: the one given, else the file's name without its extension; refused when too long or holding control characters. */
function runName(given: string | undefined, fileName: string): string {
  const name = ((given ?? "").trim() || fileName.replace(/\.(best|oot|mw)(\.txt)?$/i, "") || fileName).replace(/\s+/g, " ");
  if (name.length > MAX_RUN_NAME) throw new InputError(`The name is longer than ${MAX_RUN_NAME} characters.`, { name: `At most ${MAX_RUN_NAME} characters.` });
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new InputError("The name holds control characters.", { name: "No control characters." });
  return name;
}

/** What reading an uploaded system file found: its type and how that was settled, the reader's diagnostics and counts. */
export interface RunUploadReading {
  type: RunType;
  typeFrom: UploadRunResult["typeFrom"];
  typeReason: string | null;
  diagnostics: Diagnostic[];
  lines: { read: number; matched: number; refused: number };
}

/**
 * Read an uploaded system file as the scorer will — its type (chosen, from the
 * name, else from the content) and every line through the system reader —
 * refused when the type cannot be settled or no line is in its format. The
 * part of `uploadRun` that grows with the file, pure: a caller that has read the
 * file already (the WordNet baselines) hands the reading to `uploadRun`.
 */
export function readRunUpload(fileName: string, text: string, typeAsked: string | undefined): RunUploadReading {
  const chosen = chosenRunType(typeAsked);
  let type: RunType;
  let typeFrom: UploadRunResult["typeFrom"];
  let typeReason: string | null = null;
  if (chosen === "") {
    const t = typeFromFileName(fileName);
    if (t) {
      type = t;
      typeFrom = "extension";
    } else {
      const guess = sniffSystemKind(text);
      if (!guess.kind) {
        throw new InputError(`${fileName}: neither the name (.best, .oot or .mw) nor the content tells the type: ${guess.reason}; choose the type.`, {
          type: "Choose best, oot or mw.",
        });
      }
      type = guess.kind;
      typeFrom = "content";
      typeReason = guess.reason;
    }
  } else {
    type = chosen;
    typeFrom = "chosen";
  }
  const reader = new SystemReader(fileName, type);
  for (const l of splitLines(text)) reader.push(l.crlf ? l.text + "\r" : l.text);
  const diagnostics = reader.finish();
  const lines = { read: reader.lines, matched: reader.matched, refused: reader.refused };
  if (reader.matched === 0) {
    const details = diagnostics.map(formatDiagnostic);
    throw new InputError(
      reader.refused > 0
        ? `${fileName}: no line is in the ${type} format (${formatExample(type)}); nothing was saved.`
        : `${fileName}: no answers in the file; nothing was saved.`,
      { file: `No line in the ${type} format.` },
      details,
    );
  }
  return { type, typeFrom, typeReason, diagnostics, lines };
}

/**
 * Store a system file as a run, scored with the chosen gold. Refused, with
 * nothing written, when the type is neither given nor implied by the extension
 * nor readable from the content, the gold is not the project's, the name is too
 * long or taken, the file is empty, too big (as sent or unzipped), not UTF-8, or
 * has no line in the type's format; and, unless `confirm` is set, when lines of
 * it have errors (a cut-off file): the refusal then lists them and marks
 * `CONFIRM_FIELD`. A gzip file is stored unzipped. Names are unique per type and
 * gold (a system's best and oot runs share its name; its trial and test runs too).
 */
export function uploadRun(db: Db, actor: Actor, projectId: number, input: UploadRunInput, reading?: RunUploadReading): UploadRunResult {
  requireProject(db, actor, projectId, { coordinator: true });
  return storeRunUpload(db, projectId, actorUserId(actor!), input, reading);
}

/**
 * `uploadRun` once the caller is checked: for the "scoring-run" job (lib/server/jobs/jobs-kinds.ts),
 * which the route starts only for a coordinator of the project, so that decoding, reading and
 * writing a file of tens of MB happen off the request thread (the insert of a 19 MB run alone
 * takes 85-170 ms).
 */
export function storeRunUpload(db: Db, projectId: number, createdBy: number | null, input: UploadRunInput, reading?: RunUploadReading): UploadRunResult {
  const given = checkFileName(input.fileName);
  const goldId = goldIdOf(db, projectId, input.gold);
  chosenRunType(input.type);
  // A gzip file is stored unzipped, under its name without `.gz`.
  const file = input.bytes !== undefined ? decodeUpload(given, input.bytes) : checkUploadText(given, input.text ?? "");
  const { name: fileName, text } = file;
  const name = runName(input.name, fileName);
  // Read it as the scorer will (unless that was done off the request thread: see `readRunUpload`).
  const { type, typeFrom, typeReason, diagnostics, lines } = reading ?? readRunUpload(fileName, text, input.type);
  checkStorable(db, projectId, { name, type, goldId }, fileName, input.confirm === true, diagnostics, lines);
  // Written a slice at a time, each id's outcome beside it (run-store.ts).
  const id = writeRunSlicesSync(db, { projectId, name, type, fileName, goldId, createdBy }, text);
  return { run: getRunInfo(db, projectId, id), diagnostics, lines, typeFrom, typeReason };
}

/** The name of the file chosen, checked. */
function checkFileName(fileName: string | undefined): string {
  const given = (fileName ?? "").trim();
  if (given === "") throw new InputError("Choose a system file to upload.", { file: "Choose a file." });
  if (given.length > 255) throw new InputError("The file name is longer than 255 characters.", { file: "File name too long." });
  return given;
}

/** Refused when the name is taken for this type and gold, or the file has errors not confirmed. */
function checkStorable(
  db: Db,
  projectId: number,
  run: { name: string; type: RunType; goldId: number | null },
  fileName: string,
  confirm: boolean,
  diagnostics: Diagnostic[],
  lines: RunUploadReading["lines"],
): void {
  const taken = db
    .select({ id: systemRuns.id })
    .from(systemRuns)
    .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.type, run.type), eq(systemRuns.name, run.name), sameGold(run.goldId)))
    .get();
  if (taken) throw new InputError(`A ${run.type} run named "${run.name}" is already stored for this gold; give this one another name or delete that one.`, { name: "Name taken." });
  if (!confirm && hasErrors(diagnostics)) throw unconfirmed(fileName, run.type, diagnostics, lines);
}

/**
 * Store a system file waiting on disk as a run (the "scoring-run" job, lib/server/jobs/jobs-kinds.ts,
 * which the route starts only for a coordinator of the project): the file is read twice as it is
 * decoded, never held whole — once to check it (its type, every line, its errors), once to write it
 * a slice at a time (run-store.ts), `between` called after each slice (the job records progress and
 * pauses there so annotators' saves get the write lock). A refused file writes nothing.
 */
export async function storeRunFile(
  db: Db,
  projectId: number,
  createdBy: number | null,
  input: Omit<UploadRunInput, "bytes" | "text"> & { source: UploadSource },
  between: (done: number, total: number) => Promise<void> = async () => {},
): Promise<UploadRunResult> {
  const given = checkFileName(input.fileName);
  const goldId = goldIdOf(db, projectId, input.gold);
  const chosen = chosenRunType(input.type);
  const fileName = uploadName(given, await isGzipSource(input.source));
  const name = runName(input.name, fileName);
  const read = await readRunLines(fileName, uploadPieces(given, input.source), chosen, typeFromFileName(fileName));
  checkStorable(db, projectId, { name, type: read.type, goldId }, fileName, input.confirm === true, read.diagnostics, read.lines);
  const total = read.lines.read;
  const id = await writeRunSlices(db, { projectId, name, type: read.type, fileName, goldId, createdBy }, uploadPieces(given, input.source), (done) => between(done, total));
  return { run: getRunInfo(db, projectId, id), diagnostics: read.diagnostics, lines: read.lines, typeFrom: read.typeFrom, typeReason: read.typeReason };
}

/**
 * The refusal of a run with errors not confirmed: how many lines scoring would skip, the first
 * of them, every error located (file:line) in the details, and the field `CONFIRM_FIELD`.
 */
function unconfirmed(fileName: string, type: RunType, diagnostics: Diagnostic[], lines: RunUploadReading["lines"]): InputError {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const skipped = lines.refused;
  const first = errors.find((d) => d.line > 0);
  const what =
    skipped > 0
      ? `${skipped} line${skipped === 1 ? " is" : "s are"} not in the ${type} format and would be skipped${first ? ` (the first: line ${first.line})` : ""}`
      : `${errors.length} error${errors.length === 1 ? "" : "s"}`;
  return new InputError(
    `${fileName}: ${what}; ${lines.matched} answer line${lines.matched === 1 ? "" : "s"} read. A cut-off or damaged file looks like this. Nothing was stored: store it anyway, or cancel.`,
    { [CONFIRM_FIELD]: `${skipped > 0 ? skipped : errors.length} error${(skipped > 0 ? skipped : errors.length) === 1 ? "" : "s"}: store anyway?` },
    errors.map(formatDiagnostic),
  );
}

/** Stored runs scored with the given gold (null: the project's own); runs still being written are in no list. */
export function sameGold(goldId: number | null) {
  return and(goldId === null ? isNull(systemRuns.goldId) : eq(systemRuns.goldId, goldId), eq(systemRuns.state, "stored"));
}

function formatExample(type: RunType): string {
  return type === "best" ? "lexelt id :: guess;guess" : type === "oot" ? "lexelt id ::: guess;guess;…" : "lexelt id :: multiword";
}

function getRunInfo(db: Db, projectId: number, runId: number): RunInfo {
  const r = db
    .select(runColumns)
    .from(systemRuns)
    .leftJoin(users, eq(users.id, systemRuns.createdBy))
    .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.id, runId), eq(systemRuns.state, "stored")))
    .get();
  if (!r) throw new NotFoundError("No such run in this project.");
  return r;
}

/** Delete a stored run (its items, outcomes and text with it, in one transaction: the command line, tests). Returns its name. */
export function deleteRun(db: Db, actor: Actor, projectId: number, runId: number): string {
  requireProject(db, actor, projectId, { coordinator: true });
  const run = getRunInfo(db, projectId, runId);
  db.delete(systemRuns).where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.id, runId))).run();
  return run.name;
}

/** Rows taken away per slice when a run is deleted. */
const DELETE_SLICE = 20_000;

/**
 * Delete a stored run from the page: out of every list at once, then its rows — a million ids of a
 * large run — a slice at a time through the write lock, so saves go on meanwhile. Returns its name.
 * Coordinators of the project only.
 */
export async function deleteRunInSlices(db: Db, actor: Actor, projectId: number, runId: number): Promise<string> {
  requireProject(db, actor, projectId, { coordinator: true });
  const info = getRunInfo(db, projectId, runId);
  await writeTransaction(db, () => db.$client.prepare(`update ${SR.$} set ${SR.state} = 'deleting' where ${SR.id} = ?`).run(runId));
  await clearRunInSlices(db, runId);
  return info.name;
}

/** Take away a run's rows a slice at a time, then the run (a run being deleted, or one whose storing was cut off). */
async function clearRunInSlices(db: Db, runId: number): Promise<void> {
  for (const t of [RI, RO, RT]) {
    const del = `delete from ${t.$} where rowid in (select rowid from ${t.$} where ${t.runId} = ? limit ${DELETE_SLICE})`;
    while ((await writeTransaction(db, () => db.$client.prepare(del).run(runId).changes)) > 0) await new Promise((r) => setImmediate(r));
  }
  await writeTransaction(db, () => db.$client.prepare(`delete from ${SR.$} where ${SR.id} = ?`).run(runId));
}

/** Runs left "storing" or "deleting" by a server that stopped: taken away in slices at the next start. */
export async function discardUnfinishedRuns(db: Db): Promise<void> {
  const ids = db.$client.prepare(`select ${SR.id} from ${SR.$} where ${SR.state} in ('storing', 'deleting')`).pluck().all() as number[];
  for (const id of ids) await clearRunInSlices(db, id);
}

/** A stored run with its file (for scoring it whole: a run's detail, its report). */
export function runFile(db: Db, actor: Actor, projectId: number, runId: number): RunInfo & { content: string } {
  requireProject(db, actor, projectId, { coordinator: true });
  const info = getRunInfo(db, projectId, runId);
  return { ...info, content: [...runTextPieces(db, runId)].join("") };
}

/**
 * A stored run's file as it was uploaded, in its pieces (run_texts), read one at a time while the
 * caller pulls — or the one text of a run stored before #39 (system_runs.content).
 */
export function* runTextPieces(db: Db, runId: number): Generator<string> {
  const content = db.select({ content: systemRuns.content }).from(systemRuns).where(eq(systemRuns.id, runId)).get()?.content ?? "";
  if (content !== "") yield content;
  for (let seq = 0; ; seq++) {
    const piece = db.$client.prepare(`select ${RT.text} from ${RT.$} where ${RT.runId} = ? and ${RT.seq} = ?`).pluck().get(runId, seq) as string | undefined;
    if (piece === undefined) return;
    yield piece;
  }
}

/** A stored run's file for download, streamed a piece at a time. Coordinators of the project only. */
export function runFileDownload(db: Db, actor: Actor, projectId: number, runId: number): { run: RunInfo; pieces: Iterable<string> } {
  requireProject(db, actor, projectId, { coordinator: true });
  return { run: getRunInfo(db, projectId, runId), pieces: runTextPieces(db, runId) };
}
