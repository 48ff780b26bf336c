/**
 * A dataset import (CoInCo XML, SWORDS JSON, TSAR/MLSP TSV; docs/datasets.md) as
 * a sequence of short transactions, as the lexelt XML import is
 * (lexelt-import.ts), so saves keep flowing while a 15,000-target file goes in,
 * and nothing is visible unless it completes:
 *
 * 1. read and check the file (no writes; a refusal names file, line and field). An
 *    entry the reader could not carry as written (DatasetIssue: repaired or left out)
 *    does not refuse the file unless `strict`: it goes into the report and, with the
 *    import record, into imports.repairs;
 * 2. a hidden holding project (projects.staging_for) receives, a slice of a few
 *    hundred targets per transaction, the new lexelts, the new instances (under
 *    the project's id but pointing at the holding project's lexelts: no reader
 *    reaches them) and every dataset_instances / dataset_gold row (under the
 *    holding project's id: readers select them by project). Instances joining a
 *    lexelt already in the project wait for the publish step, as do their rows;
 * 3. publish in one transaction: the lexelts move, the waiting instances are
 *    written, the dataset rows move to the project, the counters are set, the
 *    holding project goes.
 *
 * A refused, cancelled or killed import leaves only the holding project, which
 * `discardDatasetStaging` deletes in slices (by the job, or at the next server
 * start through recoverJobs). Free of `server-only` and of drizzle, so the job
 * worker can bundle it; lib/server/datasets/datasets.ts is the checking entry point for
 * in-process callers.
 */
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type Database from "better-sqlite3";
import { parseCoinco } from "../../lexsub/formats/coinco";
import { formatDiagnostic } from "../../lexsub/diagnostics";
import { DATASET_FORMATS, type DatasetFormat, type DatasetIssue, type DatasetParseResult, formatDatasetError } from "../../lexsub/formats/dataset";
import { parseSwords } from "../../lexsub/formats/swords";
import { parseTsar } from "../../lexsub/formats/tsar";
import { canonicalLanguage } from "../../lexsub/language";
import { InputError } from "../kernel/errors";
import { checkHolderIntact, count, discardStaging, finishPublish, setInstancesBefore } from "./lexelt-import";
import { datasetGold, datasetInstances, imports, instances, jobs, lexelts, projects } from "../../../db/schema";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const DATASET_GOLD = named(datasetGold);
const DATASET_INSTANCES = named(datasetInstances);
const I = named(instances, "i");
const IMPORTS = named(imports);
const INSTANCES = named(instances);
const JOBS = named(jobs);
const LEXELTS = named(lexelts);
const LEXELTS_Q = named(lexelts, "lexelts");
const PROJECTS = named(projects);

export {  type DatasetFormat };

export function isDatasetFormat(s: unknown): s is DatasetFormat {
  return typeof s === "string" && (DATASET_FORMATS as readonly string[]).includes(s);
}

export interface DatasetImportInput {
  format: DatasetFormat;
  fileName: string;
  /** The file as uploaded; gzip (SWORDS's .json.gz) is unpacked. */
  bytes: Uint8Array;
  /** TSAR: the instance-id prefix (default: the file name without extension). */
  idPrefix?: string;
  /** Refuse the file when any entry cannot be carried as written (default: import it and report them). */
  strict?: boolean;
  /** TSAR: an MLSP combined file's lines of this language only (a BCP 47 tag). */
  onlyLanguage?: string;
}

export interface DatasetImportReport {
  projectId: number;
  format: DatasetFormat;
  fileName: string;
  instancesInFile: number;
  instancesAdded: number;
  /** Instances already in the project with the same lexelt, text and dataset gold: left as they are. */
  instancesAlreadyPresent: number;
  /** Instances already in the project (e.g. from lexelt XML) with the same text, given the dataset's gold now. */
  goldAttached: number;
  lexeltsAdded: number;
  entriesAdded: number;
  notes: string[];
  /** Each entry not carried as written, with its line and what was done (also stored with the import record). */
  repairs: DatasetIssue[];
  /** How the page titles `repairs`. */
  repairsTitle: string;
  message: string;
}

export interface DatasetImportProgress {
  phase: "parsed" | "writing" | "published";
  done: number;
  total: number;
}

/** Targets written per transaction. */
const DATASET_SLICE = 200;

function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${n} bytes`;
}

/** Decode the upload: size limit, gzip, UTF-8 (with the line of a bad byte). */
function decode(fileName: string, bytes: Uint8Array, limit: number): string {
  const tooBig = (n: number) =>
    new InputError(`${fileName}: ${sizeText(n)} is over the import limit of ${sizeText(limit)}; nothing was imported.`, { file: "File too large." });
  if (bytes.byteLength > limit) throw tooBig(bytes.byteLength);
  let data = bytes;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      data = gunzipSync(bytes, { maxOutputLength: limit + 1 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooBig(limit + 1);
      throw new InputError(`${fileName}: not a readable gzip file (${(e as Error).message}); nothing was imported.`, { file: "Not readable." });
    }
    if (data.byteLength > limit) throw tooBig(data.byteLength);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data).replace(/^\uFEFF/, "");
  } catch {
    const loose = new TextDecoder("utf-8").decode(data);
    const line = loose.slice(0, Math.max(0, loose.indexOf("\uFFFD"))).split("\n").length;
    throw new InputError(`${fileName}:${line}: not UTF-8 text (invalid byte sequence); nothing was imported.`, { file: "Not UTF-8." });
  }
}

/** Read a dataset file, refusing it (InputError listing every located error) when anything is wrong. */
export function readDataset(input: DatasetImportInput, maxBytes: number, language?: string): DatasetParseResult {
  if (!isDatasetFormat(input.format)) throw new InputError(`Unknown dataset format "${String(input.format)}": one of ${DATASET_FORMATS.join(", ")}.`, { format: "Unknown format." });
  if (input.onlyLanguage !== undefined && canonicalLanguage(input.onlyLanguage) === null) {
    throw new InputError(`"${input.onlyLanguage}" is not a language tag (BCP 47, e.g. de, pt-BR); nothing was imported.`, { onlyLanguage: "Not a language tag." });
  }
  const text = decode(input.fileName, input.bytes, maxBytes);
  const parsed =
    input.format === "coinco"
      ? parseCoinco(text, input.fileName)
      : input.format === "swords"
        ? parseSwords(text, input.fileName)
        : parseTsar(text, input.fileName, { idPrefix: input.idPrefix, language, onlyLanguage: input.onlyLanguage });
  if (parsed.errors.length > 0) {
    const details = parsed.errors.map(formatDatasetError);
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : "";
    const end = more === "" && details[0].endsWith("?") ? " Nothing was imported." : "; nothing was imported.";
    throw new InputError(`${details[0]}${more}${end}`, { file: details[0] }, details);
  }
  const issues = parsed.issues ?? [];
  if (input.strict && issues.length > 0) {
    const details = issues.map(formatDiagnostic);
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : "";
    throw new InputError(`${details[0]}${more}; refused as asked (strict): nothing was imported.`, { file: details[0] }, details);
  }
  if (parsed.instances.length === 0) throw new InputError(`${input.fileName}: no targets to import; nothing was imported.`, { file: "No targets." });
  return parsed;
}

/** "3 entries not carried as written (2 repaired, 1 left out)". */
function notCarried(issues: readonly DatasetIssue[]): string {
  if (issues.length === 0) return "every entry carried as written";
  const left = issues.filter((i) => i.action === "left out").length;
  const parts = [issues.length - left > 0 ? `${issues.length - left} repaired` : "", left > 0 ? `${left} left out` : ""].filter(Boolean);
  return `${issues.length} ${issues.length === 1 ? "entry" : "entries"} not carried as written (${parts.join(", ")})`;
}

interface Staged {
  input: DatasetImportInput;
  projectId: number;
  importedBy: number | null;
  maxBytes: number;
  jobId?: number;
}

/**
 * The import, one step per slice (see the header): yields progress after each
 * transaction, returns the report once published. Throws InputError on a
 * refusal; the caller then discards `state.stagingProjectId` (discardDatasetStaging).
 */
export function* stagedDatasetImport(
  sqlite: Database.Database,
  staged: Staged,
  state: { stagingProjectId: number | null } = { stagingProjectId: null },
): Generator<DatasetImportProgress, DatasetImportReport> {
  const { input, projectId, importedBy } = staged;
  // The project's language folds case where a TSAR/MLSP word is looked for in its sentence.
  const language = (sqlite.prepare(`select ${PROJECTS.language} as language from ${PROJECTS.$} where ${PROJECTS.id} = ?`).get(projectId) as { language: string } | undefined)?.language;
  const parsed = readDataset(input, staged.maxBytes, language);
  const total = parsed.instances.length;
  const issues = parsed.issues ?? [];
  yield { phase: "parsed", done: 0, total };

  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  const holder = sqlite.transaction(() => {
    const p = sqlite.prepare(`select ${PROJECTS.id} from ${PROJECTS.$} where ${PROJECTS.id} = ? and ${PROJECTS.stagingFor} is null`).get(projectId);
    if (!p) throw new InputError(`The project was deleted before ${input.fileName} could be imported; nothing was imported.`);
    const h = sqlite
      .prepare(`insert into ${PROJECTS.$} (${PROJECTS.name}, ${PROJECTS.stagingFor}) values (?, ?) returning ${PROJECTS.id}`)
      .get(`(dataset import in progress) ${projectId} ${sha256.slice(0, 12)} ${process.pid} ${Date.now()} ${Math.random()}`, projectId) as { id: number };
    const imp = sqlite
      .prepare(
        `insert into ${IMPORTS.$} (${IMPORTS.projectId}, ${IMPORTS.fileName}, ${IMPORTS.sha256}, ${IMPORTS.lexeltsAdded}, ${IMPORTS.instancesAdded}, ${IMPORTS.instancesAlreadyPresent}, ${IMPORTS.repairs}, ${IMPORTS.importedBy}) values (?, ?, ?, 0, 0, 0, ?, ?) returning ${IMPORTS.id}`,
      )
      .get(h.id, input.fileName, sha256, JSON.stringify(issues), importedBy) as { id: number };
    if (staged.jobId) sqlite.prepare(`update ${JOBS.$} set ${JOBS.stagingProjectId} = ? where ${JOBS.id} = ?`).run(h.id, staged.jobId);
    return { id: h.id, importId: imp.id };
  }).immediate();
  state.stagingProjectId = holder.id;

  const maxPos = sqlite
    .prepare(`select coalesce((select max(${LEXELTS.position}) from ${LEXELTS.$} where ${LEXELTS.projectId} = ?), 0) as l, coalesce((select max(${INSTANCES.position}) from ${INSTANCES.$} where ${INSTANCES.projectId} = ?), 0) as i`)
    .get(projectId, projectId) as { l: number; i: number };
  let lexeltPos = maxPos.l + 1;
  let instancePos = maxPos.i + 1;
  const findLexelt = sqlite.prepare(`select ${LEXELTS.id} from ${LEXELTS.$} where ${LEXELTS.projectId} = ? and ${LEXELTS.item} = ?`).pluck();
  const insertLexelt = sqlite.prepare(`insert into ${LEXELTS.$} (${LEXELTS.projectId}, ${LEXELTS.item}, ${LEXELTS.lemma}, ${LEXELTS.pos}, ${LEXELTS.originalPos}, ${LEXELTS.position}) values (?, ?, ?, ?, null, ?) returning ${LEXELTS.id}`).pluck();
  const findInstance = sqlite.prepare(`select ${INSTANCES.id}, ${INSTANCES.lexeltId} as lexeltId, ${INSTANCES.before}, ${INSTANCES.head}, ${INSTANCES.after} from ${INSTANCES.$} where ${INSTANCES.projectId} = ? and ${INSTANCES.instanceId} = ?`);
  const hasDataset = sqlite.prepare(`select 1 from ${DATASET_INSTANCES.$} where ${DATASET_INSTANCES.instanceRef} = ?`).pluck();
  const insertInstance = sqlite
    .prepare(`insert into ${INSTANCES.$} (${INSTANCES.projectId}, ${INSTANCES.lexeltId}, ${INSTANCES.instanceId}, ${INSTANCES.before}, ${INSTANCES.head}, ${INSTANCES.after}, ${INSTANCES.position}, ${INSTANCES.importId}) values (?, ?, ?, ?, ?, ?, ?, ?) returning ${INSTANCES.id}`)
    .pluck();
  const insertDatasetInstance = sqlite.prepare(`insert into ${DATASET_INSTANCES.$} (${DATASET_INSTANCES.instanceRef}, ${DATASET_INSTANCES.projectId}, ${DATASET_INSTANCES.format}, ${DATASET_INSTANCES.meta}, ${DATASET_INSTANCES.importedBy}) values (?, ?, ?, ?, ?)`);
  const insertGold = sqlite.prepare(`insert into ${DATASET_GOLD.$} (${DATASET_GOLD.projectId}, ${DATASET_GOLD.instanceRef}, ${DATASET_GOLD.position}, ${DATASET_GOLD.substitute}, ${DATASET_GOLD.count}, ${DATASET_GOLD.labels}, ${DATASET_GOLD.meta}) values (?, ?, ?, ?, ?, ?, ?)`);

  /** The dataset rows of one target, under `owner` (the holding project while staged). */
  const writeRows = (owner: number, ref: number, inst: DatasetParseResult["instances"][number]) => {
    insertDatasetInstance.run(ref, owner, parsed.format, JSON.stringify(inst.meta), importedBy);
    inst.entries.forEach((e, position) => {
      insertGold.run(owner, ref, position, e.substitute, e.count, e.labels ? JSON.stringify(e.labels) : null, e.meta ? JSON.stringify(e.meta) : null);
    });
  };

  // Lexelts of the file: already in the project (their new instances wait for the publish step) or new (in the holding project).
  const lexeltIds = new Map<string, { id: number; existing: boolean }>();
  const deferred: { lexeltId: number; inst: DatasetParseResult["instances"][number]; position: number }[] = [];
  /** Instance ids of the file seen so far that wait for the publish step, with their lexelt and text. */
  let lexeltsAdded = 0;
  let instancesAdded = 0;
  let already = 0;
  let attached = 0;
  let entriesAdded = 0;
  let staged_ = 0;
  const slice = sqlite.transaction((from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const inst = parsed.instances[k];
      let lx = lexeltIds.get(inst.lexelt);
      if (!lx) {
        const existing = findLexelt.get(projectId, inst.lexelt) as number | undefined;
        if (existing !== undefined) lx = { id: existing, existing: true };
        else {
          lx = { id: insertLexelt.get(holder.id, inst.lexelt, inst.lemma, inst.pos, lexeltPos++) as number, existing: false };
          lexeltsAdded++;
        }
        lexeltIds.set(inst.lexelt, lx);
      }
      const existing = findInstance.get(projectId, inst.instanceId) as { id: number; lexeltId: number; before: string; head: string; after: string } | undefined;
      if (existing) {
        if (existing.lexeltId !== lx.id || existing.before !== inst.before || existing.head !== inst.head || existing.after !== inst.after) {
          throw new InputError(`${inst.where}: instance id "${inst.instanceId}" is already in the project with another lexelt or text; nothing was imported.`, { file: "Instance id taken." });
        }
        if (hasDataset.get(existing.id) !== undefined) {
          already++;
          continue;
        }
        writeRows(holder.id, existing.id, inst);
        attached++;
      } else if (lx.existing) {
        deferred.push({ lexeltId: lx.id, inst, position: instancePos++ });
        instancesAdded++;
      } else {
        const ref = insertInstance.get(projectId, lx.id, inst.instanceId, inst.before, inst.head, inst.after, instancePos++, holder.importId) as number;
        writeRows(holder.id, ref, inst);
        instancesAdded++;
        staged_++;
      }
      entriesAdded += inst.entries.length;
    }
  });
  for (let from = 0; from < total; from += DATASET_SLICE) {
    slice.immediate(from, Math.min(total, from + DATASET_SLICE));
    yield { phase: "writing", done: Math.min(total, from + DATASET_SLICE), total };
  }

  const parts = [`${input.fileName}: ${count(total, "target")} (${parsed.format})`];
  if (instancesAdded + attached === 0) parts.push(`all already in the project; nothing added`);
  else {
    parts.push(`added ${count(instancesAdded, "instance")}, ${count(lexeltsAdded, "lexelt")} and ${count(entriesAdded, "gold entry", "gold entries")}`);
    if (attached > 0) parts.push(`gold attached to ${count(attached, "instance")} already in the project`);
    if (already > 0) parts.push(`${already} already imported`);
  }
  if (issues.length > 0) parts.push(`${notCarried(issues)}`);
  const report: DatasetImportReport = {
    projectId,
    format: parsed.format,
    fileName: input.fileName,
    instancesInFile: total,
    instancesAdded,
    instancesAlreadyPresent: already,
    goldAttached: attached,
    lexeltsAdded,
    entriesAdded,
    notes: parsed.notes,
    repairs: issues,
    repairsTitle: notCarried(issues),
    message: [parts.join("; ") + ".", ...parsed.notes.map((n) => n + ".")].join(" "),
  };

  sqlite.transaction(() => {
    const project = sqlite.prepare(`select ${PROJECTS.id} from ${PROJECTS.$} where ${PROJECTS.id} = ? and ${PROJECTS.stagingFor} is null`).get(projectId);
    if (!project) throw new InputError(`The project was deleted during the import of ${input.fileName}; nothing was imported.`);
    checkHolderIntact(sqlite, holder.id, { lexelts: lexeltsAdded, instances: staged_ }, input.fileName);
    sqlite.prepare(`update ${LEXELTS.$} set ${LEXELTS.projectId} = ? where ${LEXELTS.projectId} = ?`).run(projectId, holder.id);
    for (const d of deferred) {
      const ref = insertInstance.get(projectId, d.lexeltId, d.inst.instanceId, d.inst.before, d.inst.head, d.inst.after, d.position, holder.importId) as number;
      writeRows(projectId, ref, d.inst);
    }
    sqlite.prepare(`update ${DATASET_INSTANCES.$} set ${DATASET_INSTANCES.projectId} = ? where ${DATASET_INSTANCES.projectId} = ?`).run(projectId, holder.id);
    sqlite.prepare(`update ${DATASET_GOLD.$} set ${DATASET_GOLD.projectId} = ? where ${DATASET_GOLD.projectId} = ?`).run(projectId, holder.id);
    if (instancesAdded > 0) {
      sqlite.prepare(`update ${LEXELTS.$} set ${LEXELTS.instanceCount} = (select count(*) from ${I.$} where ${I.lexeltId} = ${LEXELTS_Q.id}) where ${LEXELTS.projectId} = ?`).run(projectId);
      setInstancesBefore(sqlite, projectId);
    }
    finishPublish(sqlite, { projectId, holder: holder.id, importId: holder.importId, lexeltsAdded, instancesAdded, alreadyPresent: already, jobId: staged.jobId, total, report });
  }).immediate();
  state.stagingProjectId = null;
  yield { phase: "published", done: total, total };
  return report;
}

/**
 * Delete a dataset import's holding project, a slice per step: its dataset rows
 * first (they may belong to instances of the project), then what
 * `discardStaging` deletes. Safe to run again after a crash.
 */
export function* discardDatasetStaging(sqlite: Database.Database, stagingProjectId: number, slice = 2000): Generator<number, void> {
  const isHolder = sqlite.prepare(`select 1 from ${PROJECTS.$} where ${PROJECTS.id} = ? and ${PROJECTS.stagingFor} is not null`).get(stagingProjectId);
  if (!isHolder) return;
  for (const table of [DATASET_GOLD, DATASET_INSTANCES]) {
    const key = table === DATASET_GOLD ? DATASET_GOLD.id : DATASET_INSTANCES.instanceRef;
    const del = sqlite.prepare(`delete from ${table.$} where ${key} in (select ${key} from ${table.$} where ${table.projectId} = ? limit ?)`);
    for (;;) {
      const n = del.run(stagingProjectId, slice).changes;
      if (n === 0) break;
      yield n;
    }
  }
  yield* discardStaging(sqlite, stagingProjectId, slice);
}
