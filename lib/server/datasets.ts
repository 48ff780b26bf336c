/**
 * Datasets in and out of a project (issue #16): CoInCo XML, SWORDS JSON and
 * TSAR/MLSP TSV read into instances (lexelts made as needed) with their gold
 * entries kept in dataset_gold (counts, SWORDS labels) and their own fields in
 * dataset_instances; the project's gold written back in each format with a report
 * of what the format could not carry. Coordinators of the project only. An import
 * is one transaction: a refused file writes nothing. See docs/datasets.md.
 *
 * `importDataset(db, actor, projectId, input, onProgress?)` has the shape of a
 * background job (lib/server/jobs.ts can register it as a job kind).
 */
import "server-only";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { and, asc, eq, max, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { datasetGold, datasetInstances, imports, instances, lexelts } from "../../db/schema";
import { parseCoinco, writeCoinco } from "../lexsub/formats/coinco";
import {
  DATASET_FORMATS,
  type DatasetEntry,
  type DatasetFormat,
  type DatasetParseResult,
  type ExportItem,
  type ExportResult,
  formatDatasetError,
} from "../lexsub/formats/dataset";
import { parseSwords, writeSwords } from "../lexsub/formats/swords";
import { parseTsar, writeTsar } from "../lexsub/formats/tsar";
import { type Actor, actorUserId, requireCoordinator, requireProject } from "./actor";
import { maxImportBytes } from "./corpus";
import { InputError } from "./errors";
import { deriveResponseGold, goldInputs } from "./gold";
import { createProject } from "./projects";
import { recountLexelts } from "./queue";

export { DATASET_FORMATS, type DatasetFormat };

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

export type ImportProgress = (p: { done: number; total: number }) => void;

function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${n} bytes`;
}

/** Decode the upload: size limit, gzip, UTF-8 (with the line of a bad byte). */
function decode(fileName: string, bytes: Uint8Array): string {
  const limit = maxImportBytes();
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
export function readDataset(input: DatasetImportInput): DatasetParseResult {
  if (!isDatasetFormat(input.format)) throw new InputError(`Unknown dataset format "${String(input.format)}": one of ${DATASET_FORMATS.join(", ")}.`, { format: "Unknown format." });
  const text = decode(input.fileName, input.bytes);
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

/** Write a parsed dataset into a project. Call inside a transaction. */
function writeParsed(tx: Db, actor: Actor, projectId: number, input: DatasetImportInput, parsed: DatasetParseResult, onProgress?: ImportProgress): DatasetImportReport {
  const importedBy = actor && actor.kind === "user" ? actorUserId(actor) : null;
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  const total = parsed.instances.length;
  let lexeltsAdded = 0;
  let instancesAdded = 0;
  let already = 0;
  let attached = 0;
  let entriesAdded = 0;
  let lexeltPos = (tx.select({ m: max(lexelts.position) }).from(lexelts).where(eq(lexelts.projectId, projectId)).get()?.m ?? 0) + 1;
  let instancePos = (tx.select({ m: max(instances.position) }).from(instances).where(eq(instances.projectId, projectId)).get()?.m ?? 0) + 1;
  const importRow = tx
    .insert(imports)
    .values({ projectId, fileName: input.fileName, sha256, lexeltsAdded: 0, instancesAdded: 0, instancesAlreadyPresent: 0, repairs: "[]", importedBy })
    .returning({ id: imports.id })
    .get();
  const lexeltIds = new Map<string, number>();
  // Statements prepared once: a full CoInCo file is 15,000 targets and 100,000 entries.
  const sqlite = tx.$client;
  const findInstance = sqlite.prepare("select id, lexelt_id as lexeltId, before, head, after from instances where project_id = ? and instance_id = ?");
  const hasDataset = sqlite.prepare("select 1 from dataset_instances where instance_ref = ?").pluck();
  const insertInstance = sqlite.prepare(
    "insert into instances (project_id, lexelt_id, instance_id, before, head, after, position, import_id) values (?, ?, ?, ?, ?, ?, ?, ?) returning id",
  ).pluck();
  const insertDatasetInstance = sqlite.prepare("insert into dataset_instances (instance_ref, project_id, format, meta, imported_by) values (?, ?, ?, ?, ?)");
  const insertGold = sqlite.prepare("insert into dataset_gold (project_id, instance_ref, position, substitute, count, labels, meta) values (?, ?, ?, ?, ?, ?, ?)");
  parsed.instances.forEach((inst, k) => {
    let lexeltId = lexeltIds.get(inst.lexelt);
    if (lexeltId === undefined) {
      lexeltId = tx.select({ id: lexelts.id }).from(lexelts).where(and(eq(lexelts.projectId, projectId), eq(lexelts.item, inst.lexelt))).get()?.id;
      if (lexeltId === undefined) {
        lexeltId = tx
          .insert(lexelts)
          .values({ projectId, item: inst.lexelt, lemma: inst.lemma, pos: inst.pos, originalPos: null, position: lexeltPos++ })
          .returning({ id: lexelts.id })
          .get().id;
        lexeltsAdded++;
      }
      lexeltIds.set(inst.lexelt, lexeltId);
    }
    const existing = findInstance.get(projectId, inst.instanceId) as { id: number; lexeltId: number; before: string; head: string; after: string } | undefined;
    let ref: number;
    if (existing) {
      if (existing.lexeltId !== lexeltId || existing.before !== inst.before || existing.head !== inst.head || existing.after !== inst.after) {
        throw new InputError(`${inst.where}: instance id "${inst.instanceId}" is already in the project with another lexelt or text; nothing was imported.`, { file: "Instance id taken." });
      }
      if (hasDataset.get(existing.id) !== undefined) {
        already++;
        return;
      }
      ref = existing.id;
      attached++;
    } else {
      ref = insertInstance.get(projectId, lexeltId, inst.instanceId, inst.before, inst.head, inst.after, instancePos++, importRow.id) as number;
      instancesAdded++;
    }
    insertDatasetInstance.run(ref, projectId, parsed.format, JSON.stringify(inst.meta), importedBy);
    inst.entries.forEach((e, position) => {
      insertGold.run(projectId, ref, position, e.substitute, e.count, e.labels ? JSON.stringify(e.labels) : null, e.meta ? JSON.stringify(e.meta) : null);
    });
    entriesAdded += inst.entries.length;
    if (onProgress && ((k + 1) % 500 === 0 || k + 1 === total)) onProgress({ done: k + 1, total });
  });
  if (instancesAdded > 0) recountLexelts(tx, projectId);
  tx.update(imports).set({ lexeltsAdded, instancesAdded, instancesAlreadyPresent: already }).where(eq(imports.id, importRow.id)).run();
  const parts = [`${input.fileName}: ${total} targets (${parsed.format})`];
  if (instancesAdded + attached === 0) parts.push(`all already in the project; nothing added`);
  else {
    parts.push(`added ${instancesAdded} instances, ${lexeltsAdded} lexelts and ${entriesAdded} gold entries`);
    if (attached > 0) parts.push(`gold attached to ${attached} instances already in the project`);
    if (already > 0) parts.push(`${already} already imported`);
  }
  return {
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
}

/** Import a dataset file into an existing project (coordinator of the project). All or nothing. */
export function importDataset(db: Db, actor: Actor, projectId: number, input: DatasetImportInput, onProgress?: ImportProgress): DatasetImportReport {
  requireProject(db, actor, projectId, { coordinator: true });
  const parsed = readDataset(input);
  return db.transaction(() => writeParsed(db, actor, projectId, input, parsed, onProgress));
}

/** Create a project and import a dataset file into it, in one transaction (any coordinator). */
export function importDatasetAsNewProject(db: Db, actor: Actor, projectName: string, input: DatasetImportInput, onProgress?: ImportProgress): DatasetImportReport {
  requireCoordinator(actor);
  const parsed = readDataset(input);
  return db.transaction(() => {
    const p = createProject(db, actor, { name: projectName });
    return writeParsed(db, actor, p.id, input, parsed, onProgress);
  });
}

export interface DatasetExport extends ExportResult {
  format: DatasetFormat;
  fileName: string;
  contentType: string;
}

const EXPORT_NAMES: Record<DatasetFormat, { ext: string; type: string }> = {
  coinco: { ext: "coinco.xml", type: "application/xml; charset=utf-8" },
  swords: { ext: "swords.json", type: "application/json; charset=utf-8" },
  tsar: { ext: "tsar.tsv", type: "text/tab-separated-values; charset=utf-8" },
};

/** The items the writers take: every instance with its imported and response-derived gold. */
function exportItems(db: Db, actor: Actor, projectId: number): { name: string; items: ExportItem[] } {
  const inputs = goldInputs(db, actor, projectId);
  const derived = deriveResponseGold(inputs);
  const byId = new Map(derived.items.map((i) => [i.instanceId, i]));
  return db.transaction(() => {
    const rows = db
      .select({
        ref: instances.id,
        lexelt: lexelts.item,
        instanceId: instances.instanceId,
        before: instances.before,
        head: instances.head,
        after: instances.after,
        excluded: instances.excludedReason,
        meta: datasetInstances.meta,
      })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      .leftJoin(datasetInstances, eq(datasetInstances.instanceRef, instances.id))
      .where(eq(instances.projectId, projectId))
      // Import order: a dataset comes back in its file's order (lexelt XML files are loaded lexelt by lexelt, so theirs too).
      .orderBy(asc(instances.position))
      .all();
    const entries = new Map<number, DatasetEntry[]>();
    for (const g of db.select().from(datasetGold).where(eq(datasetGold.projectId, projectId)).orderBy(asc(datasetGold.instanceRef), asc(datasetGold.position)).all()) {
      let list = entries.get(g.instanceRef);
      if (!list) entries.set(g.instanceRef, (list = []));
      list.push({ substitute: g.substitute, count: g.count, labels: g.labels ? (JSON.parse(g.labels) as string[]) : null, meta: g.meta ? (JSON.parse(g.meta) as Record<string, unknown>) : null });
    }
    const items = rows.map((r): ExportItem => {
      const d = byId.get(r.instanceId);
      return {
        lexelt: d?.lexelt ?? r.lexelt,
        instanceId: r.instanceId,
        before: r.before,
        head: r.head,
        after: r.after,
        excluded: r.excluded,
        meta: r.meta ? (JSON.parse(r.meta) as Record<string, unknown>) : null,
        imported: entries.get(r.ref) ?? [],
        derived: d?.entries ?? [],
        mwEntries: d?.mwEntries ?? [],
      };
    });
    return { name: inputs.project.name, items };
  });
}

/** The project's gold in a dataset format, with what the format could not carry (coordinator of the project). */
export function exportDataset(db: Db, actor: Actor, projectId: number, format: DatasetFormat, options: { goldOnly?: boolean } = {}): DatasetExport {
  if (!isDatasetFormat(format)) throw new InputError(`Unknown dataset format "${String(format)}": one of ${DATASET_FORMATS.join(", ")}.`, { format: "Unknown format." });
  const { name, items } = exportItems(db, actor, projectId);
  const result = format === "coinco" ? writeCoinco(items) : format === "swords" ? writeSwords(items) : writeTsar(items, options);
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "_") || "project";
  return { ...result, format, fileName: `${safe}.${EXPORT_NAMES[format].ext}`, contentType: EXPORT_NAMES[format].type };
}

export interface DatasetSummary {
  formats: { format: DatasetFormat; instances: number; entries: number }[];
  instances: number;
}

/** What the project holds from datasets, for the Datasets page (coordinator of the project). */
export function datasetSummary(db: Db, actor: Actor, projectId: number): DatasetSummary {
  requireProject(db, actor, projectId, { coordinator: true });
  const inst = db
    .select({ format: datasetInstances.format, n: sql<number>`count(*)` })
    .from(datasetInstances)
    .where(eq(datasetInstances.projectId, projectId))
    .groupBy(datasetInstances.format)
    .all();
  const ent = db
    .select({ format: datasetInstances.format, n: sql<number>`count(*)` })
    .from(datasetGold)
    .innerJoin(datasetInstances, eq(datasetInstances.instanceRef, datasetGold.instanceRef))
    .where(eq(datasetGold.projectId, projectId))
    .groupBy(datasetInstances.format)
    .all();
  const total = db.select({ n: sql<number>`count(*)` }).from(instances).where(eq(instances.projectId, projectId)).get()?.n ?? 0;
  return {
    formats: inst.map((r) => ({ format: r.format, instances: r.n, entries: ent.find((e) => e.format === r.format)?.n ?? 0 })),
    instances: total,
  };
}
