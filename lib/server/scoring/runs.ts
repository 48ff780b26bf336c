/**
 * The Scoring page's system runs (uploaded best / oot / mw files) stored per project, each with
 * the gold it is scored with (golds.ts). Every function that takes an actor checks that it is the
 * project's coordinator.
 */
import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { systemRuns, users } from "../../../db/schema";
import { type Diagnostic, formatDiagnostic, hasErrors, splitLines } from "../../lexsub/diagnostics";
import { SystemReader, sniffSystemKind } from "../../scorers/semeval2007/system";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { goldIdOf } from "./golds";
import { MAX_RUN_NAME, type RunType, checkUploadText, decodeUpload, typeFromFileName } from "./uploads";

const RUN_TYPES: readonly RunType[] = ["best", "oot", "mw"];

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
    .where(eq(systemRuns.projectId, projectId))
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
  const given = (input.fileName ?? "").trim();
  if (given === "") throw new InputError("Choose a system file to upload.", { file: "Choose a file." });
  if (given.length > 255) throw new InputError("The file name is longer than 255 characters.", { file: "File name too long." });
  const goldId = goldIdOf(db, projectId, input.gold);
  chosenRunType(input.type);
  // A gzip file is stored unzipped, under its name without `.gz`.
  const file = input.bytes !== undefined ? decodeUpload(given, input.bytes) : checkUploadText(given, input.text ?? "");
  const { name: fileName, text } = file;
  const name = runName(input.name, fileName);
  // Read it as the scorer will (unless that was done off the request thread: see `readRunUpload`).
  const { type, typeFrom, typeReason, diagnostics, lines } = reading ?? readRunUpload(fileName, text, input.type);
  const taken = (tx: Pick<Db, "select">) =>
    tx
      .select({ id: systemRuns.id })
      .from(systemRuns)
      .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.type, type), eq(systemRuns.name, name), sameGold(goldId)))
      .get();
  const nameTaken = () => new InputError(`A ${type} run named "${name}" is already stored for this gold; give this one another name or delete that one.`, { name: "Name taken." });
  if (taken(db)) throw nameTaken();
  if (!input.confirm && hasErrors(diagnostics)) throw unconfirmed(fileName, type, diagnostics, lines);

  const run = db.transaction((tx) => {
    if (taken(tx)) throw nameTaken();
    const row = tx
      .insert(systemRuns)
      .values({ projectId, name, type, fileName, content: text, bytes: Buffer.byteLength(text), goldId, createdBy })
      .returning({ id: systemRuns.id })
      .get();
    return row.id;
  });
  return { run: getRunInfo(db, projectId, run), diagnostics, lines, typeFrom, typeReason };
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

/** Runs scored with the given gold (null: the project's own). */
export function sameGold(goldId: number | null) {
  return goldId === null ? isNull(systemRuns.goldId) : eq(systemRuns.goldId, goldId);
}

function formatExample(type: RunType): string {
  return type === "best" ? "lexelt id :: guess;guess" : type === "oot" ? "lexelt id ::: guess;guess;…" : "lexelt id :: multiword";
}

function getRunInfo(db: Db, projectId: number, runId: number): RunInfo {
  const r = db
    .select(runColumns)
    .from(systemRuns)
    .leftJoin(users, eq(users.id, systemRuns.createdBy))
    .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.id, runId)))
    .get();
  if (!r) throw new NotFoundError("No such run in this project.");
  return r;
}

/** Delete a stored run. Returns its name. */
export function deleteRun(db: Db, actor: Actor, projectId: number, runId: number): string {
  requireProject(db, actor, projectId, { coordinator: true });
  const run = getRunInfo(db, projectId, runId);
  db.delete(systemRuns).where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.id, runId))).run();
  return run.name;
}

/** A stored run with its file, for download. */
export function runFile(db: Db, actor: Actor, projectId: number, runId: number): RunInfo & { content: string } {
  requireProject(db, actor, projectId, { coordinator: true });
  const info = getRunInfo(db, projectId, runId);
  const row = db
    .select({ content: systemRuns.content })
    .from(systemRuns)
    .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.id, runId)))
    .get()!;
  return { ...info, content: row.content };
}
