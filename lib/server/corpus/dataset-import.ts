/**
 * A dataset import (CoInCo XML, SWORDS JSON, TSAR/MLSP TSV; docs/datasets.md) as
 * a sequence of short transactions, as the lexelt XML import is
 * (lexelt-import.ts), so saves keep flowing while a 15,000-target file goes in,
 * and nothing is visible unless it completes:
 *
 * 1. read and check the file (no writes; a refusal names file, line and field);
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
import { DATASET_FORMATS, type DatasetFormat, type DatasetParseResult, formatDatasetError } from "../../lexsub/formats/dataset";
import { parseSwords } from "../../lexsub/formats/swords";
import { parseTsar } from "../../lexsub/formats/tsar";
import { InputError } from "../kernel/errors";
import { checkHolderIntact, discardStaging, finishPublish, setInstancesBefore } from "./lexelt-import";

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
export function readDataset(input: DatasetImportInput, maxBytes: number): DatasetParseResult {
  if (!isDatasetFormat(input.format)) throw new InputError(`Unknown dataset format "${String(input.format)}": one of ${DATASET_FORMATS.join(", ")}.`, { format: "Unknown format." });
  const text = decode(input.fileName, input.bytes, maxBytes);
  const parsed =
    input.format === "coinco"
      ? parseCoinco(text, input.fileName)
      : input.format === "swords"
        ? parseSwords(text, input.fileName)
        : parseTsar(text, input.fileName, { idPrefix: input.idPrefix });
  if (parsed.errors.length > 0) {
    const details = parsed.errors.map(formatDatasetError);
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : "";
    throw new InputError(`${details[0]}${more}; nothing was imported.`, { file: details[0] }, details);
  }
  if (parsed.instances.length === 0) throw new InputError(`${input.fileName}: no targets to import; nothing was imported.`, { file: "No targets." });
  return parsed;
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
  const parsed = readDataset(input, staged.maxBytes);
  const total = parsed.instances.length;
  yield { phase: "parsed", done: 0, total };

  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  const holder = sqlite.transaction(() => {
    const p = sqlite.prepare("select id from projects where id = ? and staging_for is null").get(projectId);
    if (!p) throw new InputError(`The project was deleted before ${input.fileName} could be imported; nothing was imported.`);
    const h = sqlite
      .prepare("insert into projects (name, staging_for) values (?, ?) returning id")
      .get(`(dataset import in progress) ${projectId} ${sha256.slice(0, 12)} ${process.pid} ${Date.now()} ${Math.random()}`, projectId) as { id: number };
    const imp = sqlite
      .prepare(
        "insert into imports (project_id, file_name, sha256, lexelts_added, instances_added, instances_already_present, repairs, imported_by) values (?, ?, ?, 0, 0, 0, '[]', ?) returning id",
      )
      .get(h.id, input.fileName, sha256, importedBy) as { id: number };
    if (staged.jobId) sqlite.prepare("update jobs set staging_project_id = ? where id = ?").run(h.id, staged.jobId);
    return { id: h.id, importId: imp.id };
  })();
  state.stagingProjectId = holder.id;

  const maxPos = sqlite
    .prepare("select coalesce((select max(position) from lexelts where project_id = ?), 0) as l, coalesce((select max(position) from instances where project_id = ?), 0) as i")
    .get(projectId, projectId) as { l: number; i: number };
  let lexeltPos = maxPos.l + 1;
  let instancePos = maxPos.i + 1;
  const findLexelt = sqlite.prepare("select id from lexelts where project_id = ? and item = ?").pluck();
  const insertLexelt = sqlite.prepare("insert into lexelts (project_id, item, lemma, pos, original_pos, position) values (?, ?, ?, ?, null, ?) returning id").pluck();
  const findInstance = sqlite.prepare("select id, lexelt_id as lexeltId, before, head, after from instances where project_id = ? and instance_id = ?");
  const hasDataset = sqlite.prepare("select 1 from dataset_instances where instance_ref = ?").pluck();
  const insertInstance = sqlite
    .prepare("insert into instances (project_id, lexelt_id, instance_id, before, head, after, position, import_id) values (?, ?, ?, ?, ?, ?, ?, ?) returning id")
    .pluck();
  const insertDatasetInstance = sqlite.prepare("insert into dataset_instances (instance_ref, project_id, format, meta, imported_by) values (?, ?, ?, ?, ?)");
  const insertGold = sqlite.prepare("insert into dataset_gold (project_id, instance_ref, position, substitute, count, labels, meta) values (?, ?, ?, ?, ?, ?, ?)");

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
    slice(from, Math.min(total, from + DATASET_SLICE));
    yield { phase: "writing", done: Math.min(total, from + DATASET_SLICE), total };
  }

  const parts = [`${input.fileName}: ${total} targets (${parsed.format})`];
  if (instancesAdded + attached === 0) parts.push(`all already in the project; nothing added`);
  else {
    parts.push(`added ${instancesAdded} instances, ${lexeltsAdded} lexelts and ${entriesAdded} gold entries`);
    if (attached > 0) parts.push(`gold attached to ${attached} instances already in the project`);
    if (already > 0) parts.push(`${already} already imported`);
  }
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
    message: [parts.join("; ") + ".", ...parsed.notes.map((n) => n + ".")].join(" "),
  };

  sqlite.transaction(() => {
    const project = sqlite.prepare("select id from projects where id = ? and staging_for is null").get(projectId);
    if (!project) throw new InputError(`The project was deleted during the import of ${input.fileName}; nothing was imported.`);
    checkHolderIntact(sqlite, holder.id, { lexelts: lexeltsAdded, instances: staged_ }, input.fileName);
    sqlite.prepare("update lexelts set project_id = ? where project_id = ?").run(projectId, holder.id);
    for (const d of deferred) {
      const ref = insertInstance.get(projectId, d.lexeltId, d.inst.instanceId, d.inst.before, d.inst.head, d.inst.after, d.position, holder.importId) as number;
      writeRows(projectId, ref, d.inst);
    }
    sqlite.prepare("update dataset_instances set project_id = ? where project_id = ?").run(projectId, holder.id);
    sqlite.prepare("update dataset_gold set project_id = ? where project_id = ?").run(projectId, holder.id);
    if (instancesAdded > 0) {
      sqlite.prepare("update lexelts set instance_count = (select count(*) from instances i where i.lexelt_id = lexelts.id) where project_id = ?").run(projectId);
      setInstancesBefore(sqlite, projectId);
    }
    finishPublish(sqlite, { projectId, holder: holder.id, importId: holder.importId, lexeltsAdded, instancesAdded, alreadyPresent: already, jobId: staged.jobId, total, report });
  })();
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
  const isHolder = sqlite.prepare("select 1 from projects where id = ? and staging_for is not null").get(stagingProjectId);
  if (!isHolder) return;
  for (const table of ["dataset_gold", "dataset_instances"]) {
    const key = table === "dataset_gold" ? "id" : "instance_ref";
    const del = sqlite.prepare(`delete from ${table} where ${key} in (select ${key} from ${table} where project_id = ? limit ?)`);
    for (;;) {
      const n = del.run(stagingProjectId, slice).changes;
      if (n === 0) break;
      yield n;
    }
  }
  yield* discardStaging(sqlite, stagingProjectId, slice);
}
