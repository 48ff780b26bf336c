/**
 * The Scoring page's data access: system runs (uploaded best / oot / mw files)
 * stored per project, each scored against the gold it was uploaded with — the
 * project's own gold (derived from the annotators' responses, lib/server/gold/gold.ts)
 * or a gold / mwgold pair uploaded and stored with the project (scoring_golds) —
 * and ranked only among the runs of that gold; and SENSEVAL answers scored on the
 * spot (not stored). Every function checks that the actor is the project's
 * coordinator.
 *
 * All scoring goes through `scoreTexts` (the CLI's readers, key and scorers) and
 * the SENSEVAL scorer's `scoreSensevalTexts` / `sensevalReportTexts`: there is
 * no second implementation here, only shaping for the page and the downloads.
 */
import "server-only";
import { setting } from "../../config";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { scoringGolds, systemRuns, users } from "../../../db/schema";
import { type ItemScore, type MwItem, type MwResult, type SubstitutionResult, type SubstitutionStats } from "../../scorers/semeval2007/index";
import { type RepairChange } from "../../scorers/semeval2007/repairs";
import { formatReport, mwJson, repairJson, substitutionJson } from "../../scorers/semeval2007/report";
import { substitutionScores } from "../../scorers/semeval2007/substitution";
import { scoreTexts } from "../../scorers/semeval2007/texts";
import { type Diagnostic, diag, formatDiagnostic, hasErrors, splitLines } from "../../lexsub/diagnostics";
import { named } from "../../../db/sql-names";
import {
  type Granularity,
  type SensevalJson,
  type StingyReading,
  type Treatment,
  formatSensevalScore,
  scoreSensevalTexts,
  sensevalJson,
} from "../../scorers/senseval/score";
import { type SensevalReport, formatSensevalReport, sensevalReportTexts } from "../../scorers/senseval/report";
import { SystemReader, sniffSystemKind } from "../../scorers/semeval2007/system";
import { type Actor, type ProjectRow, actorUserId, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { projectGold } from "../gold/gold";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const SCORING_GOLDS = named(scoringGolds);
const SYSTEM_RUNS = named(systemRuns);

export type RunType = "best" | "oot" | "mw";
const RUN_TYPES: readonly RunType[] = ["best", "oot", "mw"];

/** Largest system, gold or SENSEVAL file accepted (LEXGOLD_MAX_RUN_BYTES, default 20 MB). */
export const MAX_RUN_BYTES = setting("LEXGOLD_MAX_RUN_BYTES");
/** Longest run name. */
const MAX_RUN_NAME = 80;

export interface NamedText {
  name: string;
  text: string;
}

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
// Reading uploads

/** The run type a file name implies: `.best`, `.oot`, `.mw` (also `x.best.txt`), else null. */
export function typeFromFileName(fileName: string): RunType | null {
  const m = /\.(best|oot|mw)(?:\.txt)?$/i.exec(fileName.trim());
  return m ? (m[1].toLowerCase() as RunType) : null;
}

/**
 * Decode an uploaded file: refused when empty, over the size limit, not UTF-8
 * or holding NUL characters (a binary file). `field` names the form field the
 * message belongs to.
 */
export function decodeUpload(fileName: string, bytes: Uint8Array, field = "file"): NamedText {
  const name = fileName.trim() || field;
  if (bytes.byteLength === 0) throw new InputError(`${name}: the file is empty; nothing was saved.`, { [field]: "The file is empty." });
  if (bytes.byteLength > MAX_RUN_BYTES) {
    throw new InputError(`${name}: ${mb(bytes.byteLength)} is over the limit of ${mb(MAX_RUN_BYTES)}; nothing was saved.`, {
      [field]: `Over the ${mb(MAX_RUN_BYTES)} limit.`,
    });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${name}: not UTF-8 text; nothing was saved.`, { [field]: "Not UTF-8 text." });
  }
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    const line = text.slice(0, nul).split("\n").length;
    throw new InputError(`${name}:${line}: a NUL character: this is not a text file; nothing was saved.`, { [field]: "Not a text file." });
  }
  return { name, text };
}

function mb(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1048576).toFixed(n % 1048576 === 0 ? 0 : 1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

// ---------------------------------------------------------------------------
// Runs

const runColumns = {
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
  /** The file as uploaded (checked for size and UTF-8), or its text. */
  bytes?: Uint8Array;
  text?: string;
  /** best, oot or mw; empty or "auto" to take it from the file name's extension, else from the content. */
  type?: string;
  /** The run's name in tables; empty for the file name without its extension. */
  name?: string;
  /** The gold it is scored with: a stored gold's id, or empty / "project" for the project's own gold. */
  gold?: string | number | null;
}

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
 * long or taken, the file is empty, too big, not UTF-8, or has no line in the
 * type's format. Names are unique per type and gold (a system's best and oot
 * runs share its name; its trial and test runs too).
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
  const fileName = (input.fileName ?? "").trim();
  if (fileName === "") throw new InputError("Choose a system file to upload.", { file: "Choose a file." });
  if (fileName.length > 255) throw new InputError("The file name is longer than 255 characters.", { file: "File name too long." });
  const goldId = goldIdOf(db, projectId, input.gold);
  chosenRunType(input.type);
  const text =
    input.bytes !== undefined ? decodeUpload(fileName, input.bytes).text : input.text !== undefined ? decodeUpload(fileName, new TextEncoder().encode(input.text)).text : "";
  if (text === "") throw new InputError(`${fileName}: the file is empty; nothing was saved.`, { file: "The file is empty." });
  const name = runName(input.name, fileName);
  // Read it as the scorer will (unless that was done off the request thread: see `readRunUpload`).
  const { type, typeFrom, typeReason, diagnostics, lines } = reading ?? readRunUpload(fileName, text, input.type);

  const run = db.transaction((tx) => {
    const taken = tx
      .select({ id: systemRuns.id })
      .from(systemRuns)
      .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.type, type), eq(systemRuns.name, name), sameGold(goldId)))
      .get();
    if (taken) throw new InputError(`A ${type} run named "${name}" is already stored for this gold; give this one another name or delete that one.`, { name: "Name taken." });
    const row = tx
      .insert(systemRuns)
      .values({ projectId, name, type, fileName, content: text, bytes: Buffer.byteLength(text), goldId, createdBy })
      .returning({ id: systemRuns.id })
      .get();
    return row.id;
  });
  return { run: getRunInfo(db, projectId, run), diagnostics, lines, typeFrom, typeReason };
}

/** Runs scored with the given gold (null: the project's own). */
function sameGold(goldId: number | null) {
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

// ---------------------------------------------------------------------------
// Gold

/** Which gold to score against: the project's own (derived now), or a gold stored with the project. */
export type GoldSource = { kind: "project" } | { kind: "stored"; id: number };

export interface ResolvedGold {
  kind: "project" | "stored";
  /** The stored gold's id; null for the project's own. */
  id: number | null;
  /** For headings: "the gold derived from …" or the stored gold's name and files. */
  label: string;
  /** For best and oot; null when not uploaded. */
  gold: NamedText | null;
  /** For mw; null when not uploaded. */
  mwgold: NamedText | null;
}

/** A gold the Scoring page can rank runs against, with how many runs are scored with it. */
export interface GoldInfo {
  /** null for the project's own gold. */
  id: number | null;
  name: string;
  label: string;
  goldName: string | null;
  mwgoldName: string | null;
  runs: number;
  createdBy: string | null;
  createdAt: Date | null;
}

/** The id a form's gold value names (a stored gold of this project), or null for the project's own gold. */
function goldIdOf(db: Db, projectId: number, value: string | number | null | undefined): number | null {
  const v = String(value ?? "").trim();
  if (v === "" || v === "project") return null;
  const id = Number(v);
  const row =
    Number.isSafeInteger(id) && id > 0
      ? db.select({ id: scoringGolds.id }).from(scoringGolds).where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.id, id))).get()
      : undefined;
  if (!row) throw new NotFoundError(`No stored gold ${JSON.stringify(v.slice(0, 40))} in this project.`);
  return row.id;
}

function projectGoldLabel(project: ProjectRow): string {
  return `the gold derived from ${project.name}'s responses`;
}

function storedLabel(g: { name: string; goldName: string | null; mwgoldName: string | null }): string {
  const files = [g.goldName, g.mwgoldName].filter(Boolean).join(" and ");
  return files && files !== g.name ? `${g.name} (${files})` : g.name;
}

function resolveGold(db: Db, actor: Actor, project: ProjectRow, source: GoldSource): ResolvedGold {
  if (source.kind === "project") {
    const g = projectGold(db, actor, project.id);
    return {
      kind: "project",
      id: null,
      label: projectGoldLabel(project),
      gold: { name: `${project.name}.gold`, text: g.gold },
      mwgold: { name: `${project.name}.mwgold`, text: g.mwgold },
    };
  }
  const row = db
    .select()
    .from(scoringGolds)
    .where(and(eq(scoringGolds.projectId, project.id), eq(scoringGolds.id, source.id)))
    .get();
  if (!row) throw new NotFoundError("No such stored gold in this project.");
  return {
    kind: "stored",
    id: row.id,
    label: storedLabel(row),
    gold: row.goldText !== null ? { name: row.goldName ?? `${row.name}.gold`, text: row.goldText } : null,
    mwgold: row.mwgoldText !== null ? { name: row.mwgoldName ?? `${row.name}.mwgold`, text: row.mwgoldText } : null,
  };
}

/** The source a run is scored with. */
function sourceOfRun(goldId: number | null): GoldSource {
  return goldId === null ? { kind: "project" } : { kind: "stored", id: goldId };
}

/** The project's own gold and every stored gold, each with the number of runs scored with it. */
export function listGolds(db: Db, actor: Actor, projectId: number): GoldInfo[] {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const counts = new Map<number | null, number>();
  for (const r of db
    .select({ goldId: systemRuns.goldId, n: sql<number>`count(*)` })
    .from(systemRuns)
    .where(eq(systemRuns.projectId, projectId))
    .groupBy(systemRuns.goldId)
    .all()) {
    counts.set(r.goldId, r.n);
  }
  const stored = db
    .select({ id: scoringGolds.id, name: scoringGolds.name, goldName: scoringGolds.goldName, mwgoldName: scoringGolds.mwgoldName, createdBy: users.name, createdAt: scoringGolds.createdAt })
    .from(scoringGolds)
    .leftJoin(users, eq(users.id, scoringGolds.createdBy))
    .where(eq(scoringGolds.projectId, projectId))
    .orderBy(asc(scoringGolds.id))
    .all();
  return [
    { id: null, name: `${project.name} (derived)`, label: projectGoldLabel(project), goldName: null, mwgoldName: null, runs: counts.get(null) ?? 0, createdBy: null, createdAt: null },
    ...stored.map((g) => ({ ...g, label: storedLabel(g), runs: counts.get(g.id) ?? 0 })),
  ];
}

export interface StoreGoldInput {
  /** The gold's name on the page; empty for the gold file's name without its extension. */
  name?: string;
  gold: NamedText | null;
  mwgold: NamedText | null;
}

/**
 * Read an uploaded gold and/or mwgold as the scorer will; refused, naming the
 * lines, when either has errors or neither is given (the part of `storeGold`
 * that grows with the files).
 */
function checkGoldUpload(input: Pick<StoreGoldInput, "gold" | "mwgold">): void {
  if (!input.gold && !input.mwgold) throw new InputError("Upload a gold file, an mwgold file or both.", { gold: "Choose a gold or mwgold file." });
  for (const [file, type, field] of [
    [input.gold, "best", "gold"],
    [input.mwgold, "mw", "mwgold"],
  ] as const) {
    if (!file) continue;
    const diagnostics = scoreTexts({ type, system: "", gold: file.text, goldName: file.name }).goldDiagnostics;
    if (hasErrors(diagnostics)) {
      throw new InputError(`${file.name}: the ${field} file has errors; nothing was stored.`, { [field]: "This file has errors." }, diagnostics.map(formatDiagnostic));
    }
  }
}

/**
 * Store an uploaded gold and/or mwgold with the project. Refused, with nothing
 * written, when neither file is given, a file has errors or no readable line,
 * or the name is too long or taken.
 */
export function storeGold(db: Db, actor: Actor, projectId: number, input: StoreGoldInput): GoldInfo {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = storeGoldUpload(db, projectId, actorUserId(actor!), input);
  return listGolds(db, actor, projectId).find((g) => g.id === id)!;
}

/** `storeGold` once the caller is checked (the "scoring-gold" job, as `storeRunUpload`): the stored gold's id. */
export function storeGoldUpload(db: Db, projectId: number, createdBy: number | null, input: StoreGoldInput): number {
  checkGoldUpload(input);
  const fallback = (input.gold ?? input.mwgold)!.name.replace(/\.(gold|mwgold)(\.txt)?$/i, "");
  const name = ((input.name ?? "").trim() || fallback || "gold").replace(/\s+/g, " ");
  if (name.length > MAX_RUN_NAME) throw new InputError(`The name is longer than ${MAX_RUN_NAME} characters.`, { goldName: `At most ${MAX_RUN_NAME} characters.` });
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new InputError("The name holds control characters.", { goldName: "No control characters." });
  return db.transaction((tx) => {
    const taken = tx
      .select({ id: scoringGolds.id })
      .from(scoringGolds)
      .where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.name, name)))
      .get();
    if (taken) throw new InputError(`A gold named "${name}" is already stored; give this one another name or delete that one.`, { goldName: "Name taken." });
    return tx
      .insert(scoringGolds)
      .values({
        projectId,
        name,
        goldName: input.gold?.name ?? null,
        goldText: input.gold?.text ?? null,
        mwgoldName: input.mwgold?.name ?? null,
        mwgoldText: input.mwgold?.text ?? null,
        createdBy,
      })
      .returning({ id: scoringGolds.id })
      .get().id;
  });
}

/** Delete a stored gold; refused while runs are scored with it (they are named). Returns its name. */
export function deleteGold(db: Db, actor: Actor, projectId: number, goldId: number): string {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = goldIdOf(db, projectId, goldId)!;
  return db.transaction((tx) => {
    const runs = tx.select({ name: systemRuns.name, type: systemRuns.type }).from(systemRuns).where(eq(systemRuns.goldId, id)).all();
    const g = tx.select({ name: scoringGolds.name }).from(scoringGolds).where(eq(scoringGolds.id, id)).get()!;
    if (runs.length > 0) {
      const names = runs.slice(0, 5).map((r) => `${r.name} (${r.type})`).join(", ");
      throw new InputError(`${runs.length} run${runs.length === 1 ? " is" : "s are"} scored with ${g.name}: ${names}${runs.length > 5 ? ", …" : ""}. Delete ${runs.length === 1 ? "it" : "them"} first.`);
    }
    tx.delete(scoringGolds).where(eq(scoringGolds.id, id)).run();
    return g.name;
  });
}

// ---------------------------------------------------------------------------
// Scores

/**
 * Which figures to compute: score.pl's (the default, `repaired: false`) or
 * those of the documented repairs (docs/scorer.md, lib/scorers/semeval2007/repairs.ts).
 */
export interface ScoreMode {
  repaired?: boolean;
}

/** What the documented repairs would change in a run scored as score.pl does (null when no figure differs). */
interface RunRepairs {
  /** The run's figures with the repairs. */
  figures: RunFigures;
  /** Each rule that changed items, with its score.pl / repaired reading, how many items and the first few ids. */
  changes: RepairChange[];
}

/** The figures of one run: best/oot or mw, as the JSON of `lexgold score --json`. */
export type RunFigures = ReturnType<typeof substitutionJson> | ReturnType<typeof mwJson>;

export interface RunSummary {
  run: RunInfo;
  /** null when the run could not be scored (see `problem`). */
  figures: RunFigures | null;
  /** Why there are no figures: no gold of the run's kind, or a gold with errors. */
  problem: string | null;
  errors: number;
  warnings: number;
  /** System lines in no format, skipped. */
  skipped: number;
  /** best and oot: the figures per PoS, in the gold's order. */
  byPos: { group: string; figures: RunFigures }[];
  /** In score.pl's mode, the repaired figures and the rules behind them when they differ; else null. */
  repaired: RunRepairs | null;
}

export interface ScoreBoard {
  /** The figures shown: score.pl's or the repaired ones. */
  mode: "official" | "repaired";
  gold: { kind: ResolvedGold["kind"]; id: number | null; label: string; goldName: string | null; mwgoldName: string | null; items: number | null };
  /** Every gold of the project with its number of runs (the project's own first): runs are ranked only among those of their gold. */
  golds: GoldInfo[];
  /** Diagnostics of the gold and mwgold themselves (once, not per run). */
  goldDiagnostics: Diagnostic[];
  runs: RunSummary[];
}

interface Scored {
  out: ReturnType<typeof scoreTexts>;
  goldDiagnostics: Diagnostic[];
}

function goldFor(g: ResolvedGold, type: RunType): NamedText | null {
  return type === "mw" ? g.mwgold : g.gold;
}

function missingGold(g: ResolvedGold, type: RunType): string {
  return type === "mw" ? "No mwgold file uploaded: mw runs are scored against an mwgold." : "No gold file uploaded: best and oot runs are scored against a gold.";
}

function scoreOne(g: ResolvedGold, run: { type: RunType; fileName: string; content: string }, by: "pos" | "lexelt" | undefined, mode: ScoreMode): Scored | null {
  const gold = goldFor(g, run.type);
  if (!gold) return null;
  const out = scoreTexts({
    type: run.type,
    system: run.content,
    gold: gold.text,
    systemName: run.fileName,
    goldName: gold.name,
    by: run.type === "mw" ? undefined : by,
    repaired: mode.repaired === true,
  });
  return { out, goldDiagnostics: out.goldDiagnostics };
}

function figuresOf(result: SubstitutionResult | MwResult): RunFigures {
  return result.type === "mw" ? mwJson(result.stats) : substitutionJson(result.type, result.stats);
}

/** The repaired figures and the rules behind them, when a repair changes a figure (default mode only). */
function repairsOf(out: ReturnType<typeof scoreTexts>): RunRepairs | null {
  const r = out.repairs;
  if (!r || !r.figuresDiffer) return null;
  return { figures: figuresOf(r.result), changes: r.changes };
}

function goldItems(g: ResolvedGold): number | null {
  if (!g.gold) return null;
  let n = 0;
  for (const l of splitLines(g.gold.text)) if (l.text.trim() !== "") n++;
  return n;
}

/**
 * What the Scoring board depends on besides the project's data: its stored runs and golds
 * (ids, names, the gold each run is scored with). Cheap: one indexed read of a few rows.
 */
export function scoringFingerprint(db: Db, projectId: number): string {
  const r = db.$client
    .prepare(
      `select (select coalesce(group_concat(${SYSTEM_RUNS.id} || ':' || ${SYSTEM_RUNS.name} || ':' || coalesce(${SYSTEM_RUNS.goldId}, ''), ','), '') from ${SYSTEM_RUNS.$} where ${SYSTEM_RUNS.projectId} = ?) as runs,
              (select coalesce(group_concat(${SCORING_GOLDS.id} || ':' || ${SCORING_GOLDS.name}, ','), '') from ${SCORING_GOLDS.$} where ${SCORING_GOLDS.projectId} = ?) as golds`,
    )
    .get(projectId, projectId) as { runs: string; golds: string };
  return `${r.runs};${r.golds}`;
}

/** The runs scored with the chosen gold, ranked among themselves: the page's results table (derived off the request thread: derive-jobs.ts). */
export function scoreBoard(db: Db, actor: Actor, projectId: number, source: GoldSource, mode: ScoreMode = {}): ScoreBoard {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const g = resolveGold(db, actor, project, source);
  const rows = db
    .select({ ...runColumns, content: systemRuns.content })
    .from(systemRuns)
    .leftJoin(users, eq(users.id, systemRuns.createdBy))
    .where(and(eq(systemRuns.projectId, projectId), sameGold(g.id)))
    .orderBy(asc(systemRuns.id))
    .all();
  const goldDiagnostics = new Map<string, Diagnostic[]>();
  const runs: RunSummary[] = rows.map(({ content, ...run }) => {
    const s = scoreOne(g, { type: run.type, fileName: run.fileName, content }, "pos", mode);
    if (!s) return { run, figures: null, problem: missingGold(g, run.type), errors: 0, warnings: 0, skipped: 0, byPos: [], repaired: null };
    const kind = run.type === "mw" ? "mw" : "gold";
    if (!goldDiagnostics.has(kind)) goldDiagnostics.set(kind, s.goldDiagnostics);
    const sys = s.out.systemDiagnostics;
    const counts = {
      errors: sys.filter((d) => d.severity === "error").length,
      warnings: sys.filter((d) => d.severity === "warning").length,
      skipped: s.out.lines.refused,
    };
    if (hasErrors(s.goldDiagnostics)) return { run, figures: null, problem: `${goldFor(g, run.type)!.name} has errors; nothing scored.`, ...counts, byPos: [], repaired: null };
    const res = s.out.result;
    const byPos = res.type === "mw" ? [] : (res.groups ?? []).map((x) => ({ group: x.group, figures: substitutionJson(res.type, x.stats) }));
    return { run, figures: figuresOf(res), problem: null, ...counts, byPos, repaired: repairsOf(s.out) };
  });
  // The gold's own problems, even when no run is stored yet.
  if (g.gold && !goldDiagnostics.has("gold")) goldDiagnostics.set("gold", scoreTexts({ type: "best", system: "", gold: g.gold.text, goldName: g.gold.name }).goldDiagnostics);
  if (g.mwgold && !goldDiagnostics.has("mw")) goldDiagnostics.set("mw", scoreTexts({ type: "mw", system: "", gold: g.mwgold.text, goldName: g.mwgold.name }).goldDiagnostics);
  return {
    mode: mode.repaired ? "repaired" : "official",
    gold: { kind: g.kind, id: g.id, label: g.label, goldName: g.gold?.name ?? null, mwgoldName: g.mwgold?.name ?? null, items: goldItems(g) },
    golds: listGolds(db, actor, projectId),
    goldDiagnostics: [...(goldDiagnostics.get("gold") ?? []), ...(goldDiagnostics.get("mw") ?? [])],
    runs,
  };
}

/**
 * The JSON download: the figures of every run scored with the chosen gold (as `lexgold score --json`, with
 * `--repaired` in the repaired mode) with its per-PoS breakdown and, in score.pl's
 * mode, the `repaired` object when a repair changes a figure.
 */
export function scoresJson(db: Db, actor: Actor, projectId: number, source: GoldSource, mode: ScoreMode = {}) {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const g = resolveGold(db, actor, project, source);
  const rows = db
    .select({ id: systemRuns.id, name: systemRuns.name, type: systemRuns.type, fileName: systemRuns.fileName, content: systemRuns.content })
    .from(systemRuns)
    .where(and(eq(systemRuns.projectId, projectId), sameGold(g.id)))
    .orderBy(asc(systemRuns.id))
    .all();
  return {
    project: project.name,
    figures: mode.repaired ? "repaired" : "score.pl",
    gold: { kind: g.kind, id: g.id, label: g.label, gold: g.gold?.name ?? null, mwgold: g.mwgold?.name ?? null },
    runs: rows.map((r) => {
      const head = { id: r.id, name: r.name, fileName: r.fileName };
      const s = scoreOne(g, r, "pos", mode);
      if (!s) return { ...head, type: r.type, scores: null, problem: missingGold(g, r.type) };
      if (hasErrors(s.goldDiagnostics)) return { ...head, type: r.type, scores: null, problem: `${goldFor(g, r.type)!.name} has errors; nothing scored.` };
      const res = s.out.result;
      const groups = res.type === "mw" ? undefined : (res.groups ?? []).map((x) => ({ pos: x.group, ...substitutionJson(res.type, x.stats) }));
      const repaired = repairJson(s.out.repairs);
      return {
        ...head,
        scores: figuresOf(res),
        ...(groups ? { groups } : {}),
        ...(repaired ? { repaired } : {}),
        diagnostics: s.out.systemDiagnostics.map(formatDiagnostic),
      };
    }),
  };
}

/** One row of a breakdown: a PoS or a lexelt. */
export interface GroupRow {
  group: string;
  stats: SubstitutionStats;
  scores: ReturnType<typeof substitutionScores>;
}

/** One attempted item, as the per-item table shows it. */
export type ItemRow =
  | {
      kind: "substitution";
      line: number;
      id: string;
      lexelt: string;
      guesses: string[];
      mode: string | null;
      modeHit: boolean | null;
      credit: number;
      score: number;
      humanResponses: number;
      truncated: boolean;
    }
  | { kind: "mw"; line: number; id: string; lexelt: string; answer: string; mode: string | null; genuine: boolean; matched: boolean };

export interface RunDetail {
  run: RunInfo;
  /** The figures, report, breakdowns and items shown: score.pl's or the repaired ones. */
  mode: "official" | "repaired";
  goldName: string | null;
  /** null when the run could not be scored (`problem`). */
  figures: RunFigures | null;
  problem: string | null;
  /** The official output, as `lexgold score` prints it (the totals). */
  report: string;
  byPos: GroupRow[];
  byLexelt: GroupRow[];
  items: ItemRow[];
  lines: { read: number; matched: number; refused: number };
  ignored: { outsideT?: number; repeats: number } | null;
  goldDiagnostics: Diagnostic[];
  systemDiagnostics: Diagnostic[];
  /**
   * Where score.pl's figures and the repaired ones differ (in either mode): both
   * sets of figures and each rule with the ids of the items it changed; else null.
   */
  repairs: { official: RunFigures; repaired: RunFigures; changes: RepairChange[] } | null;
}

function itemRow(i: ItemScore | MwItem, type: RunType): ItemRow {
  if (type === "mw") {
    const m = i as MwItem;
    return { kind: "mw", line: m.line, id: m.id, lexelt: m.systemLexelt, answer: m.answer, mode: m.mode, genuine: m.genuine, matched: m.matched };
  }
  const s = i as ItemScore;
  return {
    kind: "substitution",
    line: s.line,
    id: s.id,
    lexelt: s.lexelt,
    guesses: s.guesses,
    mode: s.mode,
    modeHit: s.modeHit,
    credit: s.credit,
    score: s.score,
    humanResponses: s.humanResponses,
    truncated: s.truncated,
  };
}

/**
 * One run in full, scored against the gold it was uploaded with: the official
 * report, breakdowns per PoS and per lexelt, every attempted item, all diagnostics.
 */
export function runDetail(db: Db, actor: Actor, projectId: number, runId: number, mode: ScoreMode = {}): RunDetail {
  const { verboseReport: _v, ...detail } = detailOf(db, actor, projectId, runId, mode);
  return detail;
}

function detailOf(db: Db, actor: Actor, projectId: number, runId: number, mode: ScoreMode): RunDetail & { verboseReport: string } {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const run = runFile(db, actor, projectId, runId);
  const g = resolveGold(db, actor, project, sourceOfRun(run.goldId));
  const { content, ...info } = run;
  const empty = { byPos: [], byLexelt: [], items: [], lines: { read: 0, matched: 0, refused: 0 }, ignored: null, systemDiagnostics: [], repairs: null };
  const shown = mode.repaired ? ("repaired" as const) : ("official" as const);
  const gold = goldFor(g, run.type);
  if (!gold) return { run: info, mode: shown, goldName: null, figures: null, problem: missingGold(g, run.type), report: "", verboseReport: "", goldDiagnostics: [], ...empty };
  const byPos = scoreOne(g, run, "pos", mode)!;
  const goldDiagnostics = byPos.goldDiagnostics;
  if (hasErrors(goldDiagnostics)) {
    return { run: info, mode: shown, goldName: gold.name, figures: null, problem: `${gold.name} has errors; nothing scored.`, report: "", verboseReport: "", goldDiagnostics, ...empty };
  }
  const out = byPos.out;
  const result = out.result;
  const report = formatReport(result);
  let posRows: GroupRow[] = [];
  let lexeltRows: GroupRow[] = [];
  if (result.type !== "mw") {
    posRows = result.groups ?? [];
    const byLexelt = scoreOne(g, run, "lexelt", mode)!.out.result as SubstitutionResult;
    lexeltRows = byLexelt.groups ?? [];
  }
  // The other mode's figures and the rules behind the difference: a default run
  // holds them; in the repaired mode, score.pl's run is made for them.
  const officialOut = mode.repaired ? scoreOne(g, run, undefined, {})!.out : out;
  const diff = repairsOf(officialOut);
  const repairs = diff ? { official: figuresOf(officialOut.result), repaired: diff.figures, changes: diff.changes } : null;
  return {
    run: info,
    mode: shown,
    goldName: gold.name,
    figures: figuresOf(result),
    problem: null,
    report,
    verboseReport: formatReport(result, out.items),
    byPos: posRows,
    byLexelt: lexeltRows,
    items: out.items.map((i) => itemRow(i, run.type)),
    lines: out.lines,
    ignored: result.ignored,
    goldDiagnostics,
    systemDiagnostics: out.systemDiagnostics,
    repairs,
  };
}

/**
 * The text report of one run (against its own gold), for download (`verbose`: with the `-v` lines
 * first): score.pl's output, or in the repaired mode `lexgold score --repaired`'s.
 */
export function runReport(
  db: Db,
  actor: Actor,
  projectId: number,
  runId: number,
  verbose = false,
  mode: ScoreMode = {},
): { run: RunInfo; text: string } {
  const d = detailOf(db, actor, projectId, runId, mode);
  if (d.problem) throw new InputError(`${d.run.name}: ${d.problem}`, {}, d.goldDiagnostics.map(formatDiagnostic));
  return { run: d.run, text: verbose ? d.verboseReport : d.report };
}

// ---------------------------------------------------------------------------
// SENSEVAL (issue #7): scored on submit, not stored

export interface SensevalUpload {
  answers: NamedText;
  key: NamedText;
  sensemap: NamedText | null;
  granularity?: string;
  treatment?: string;
  stingy?: string;
}

export interface SensevalOutcome {
  granularity: Granularity;
  treatment: Treatment;
  stingy: StingyReading;
  /** scorer2's output. */
  text: string;
  json: SensevalJson;
  /** The SENSEVAL-1 grid, when a sense map was given. */
  report: Omit<SensevalReport, "diagnostics"> | null;
  reportText: string | null;
  diagnostics: Diagnostic[];
}

/** Score SENSEVAL answers against a key (and sense map) as scorer2 does, with the SENSEVAL-1 grid. */
export function scoreSensevalUpload(db: Db, actor: Actor, projectId: number, input: SensevalUpload): SensevalOutcome {
  requireProject(db, actor, projectId, { coordinator: true });
  const granularity = (input.granularity || "fine") as Granularity;
  if (!["fine", "coarse", "mixed"].includes(granularity)) throw new InputError(`Unknown granularity "${input.granularity}".`, { granularity: "fine, coarse or mixed" });
  const treatment = (input.treatment || "generous") as Treatment;
  if (!["minimal", "generous", "stingy"].includes(treatment)) throw new InputError(`Unknown treatment "${input.treatment}".`, { treatment: "minimal, generous or stingy" });
  const stingy = (input.stingy || "product") as StingyReading;
  if (!["product", "overlap"].includes(stingy)) throw new InputError(`Unknown stingy reading "${input.stingy}".`, { stingy: "product or overlap" });
  if (granularity !== "fine" && !input.sensemap) {
    throw new InputError(`${granularity} scoring needs a sense map.`, { sensemap: "Choose a sense map for coarse or mixed scoring." });
  }
  const files = { answers: input.answers, key: input.key, sensemap: input.sensemap };
  const result = scoreSensevalTexts(files, { granularity, treatment, stingy });
  let report: SensevalOutcome["report"] = null;
  let reportText: string | null = null;
  if (input.sensemap) {
    const r = sensevalReportTexts({ answers: input.answers, key: input.key, sensemap: input.sensemap }, { stingy });
    const { diagnostics: _d, ...grid } = r;
    report = grid;
    reportText = formatSensevalReport(r, { answers: input.answers.name, key: input.key.name, sensemap: input.sensemap.name });
  }
  const diagnostics = [...result.diagnostics];
  if (result.total === 0 && !hasErrors(diagnostics)) diagnostics.push(diag("warning", input.key.name, 0, "the key holds no instance; every figure is undefined"));
  return {
    granularity: result.granularity,
    treatment: result.treatment,
    stingy: result.stingy,
    text: formatSensevalScore(result, input.answers.name, input.key.name),
    json: sensevalJson(result),
    report,
    reportText,
    diagnostics,
  };
}
