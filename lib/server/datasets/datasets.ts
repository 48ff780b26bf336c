/**
 * Datasets in and out of a project (issue #16): CoInCo XML, SWORDS JSON and
 * TSAR/MLSP TSV read into instances (lexelts made as needed) with their gold
 * entries kept in dataset_gold (counts, SWORDS labels) and their own fields in
 * dataset_instances; the project's gold written back in each format with a report
 * of what the format could not carry. Coordinators of the project only. An import
 * writes in short transactions into a holding project and publishes in one
 * (lib/server/corpus/dataset-import.ts): a refused file writes nothing, a half-done
 * import is never visible. The server runs it as a job. See docs/datasets.md.
 */
import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { READ } from "../../../db/immediate";
import { datasetGold, datasetInstances, imports, instances, lexelts, projects } from "../../../db/schema";
import { writeCoinco } from "../../lexsub/formats/coinco";
import { named } from "../../../db/sql-names";
import {
  DATASET_FORMATS,
  type DatasetEntry,
  type DatasetFormat,
  type DatasetIssue,
  type DatasetParseResult,
  type ExportItem,
  type ExportResult,
} from "../../lexsub/formats/dataset";
import { type SwordsIds, writeSwords } from "../../lexsub/formats/swords";
import { type TsarCells, writeTsar } from "../../lexsub/formats/tsar";
import { type Actor, actorUserId, requireCoordinator, requireProject } from "../kernel/actor";
import {
  createProject,
  type DatasetImportInput,
  type DatasetImportReport,
  discardDatasetStaging,
  isDatasetFormat,
  maxImportBytes,
  readDataset as readStagedDataset,
  stagedDatasetImport,
} from "../corpus";
import { InputError } from "../kernel/errors";
import { deriveResponseGold, type GoldInputs, goldInputs } from "../gold";
import { mlspLanguageTag } from "../../lexsub/formats/tsar";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const PROJECTS = named(projects);

export { type DatasetFormat, type DatasetImportInput, type DatasetImportReport, type SwordsIds, type TsarCells, isDatasetFormat };

export type ImportProgress = (p: { done: number; total: number }) => void;

/** Read a dataset file, refusing it (InputError listing every located error) when anything is wrong. */
function readDataset(input: DatasetImportInput): DatasetParseResult {
  return readStagedDataset(input, maxImportBytes());
}

/**
 * Import a dataset file into an existing project (coordinator of the project), in
 * short transactions through a holding project (lib/server/corpus/dataset-import.ts):
 * nothing is visible unless it completes, and a refusal writes nothing. The server
 * runs it as a job (kind "dataset"); this is the in-process form (CLI, tests).
 */
export function importDataset(db: Db, actor: Actor, projectId: number, input: DatasetImportInput, onProgress?: ImportProgress): DatasetImportReport {
  requireProject(db, actor, projectId, { coordinator: true });
  const importedBy = actor && actor.kind === "user" ? actorUserId(actor) : null;
  const state = { stagingProjectId: null as number | null };
  const steps = stagedDatasetImport(db.$client, { input, projectId, importedBy, maxBytes: maxImportBytes() }, state);
  try {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (onProgress && r.value.phase === "writing") onProgress({ done: r.value.done, total: r.value.total });
    }
  } catch (e) {
    if (state.stagingProjectId !== null) for (const _ of discardDatasetStaging(db.$client, state.stagingProjectId)) void _;
    throw e;
  }
}

/** Create a project and import a dataset file into it (any coordinator); a refused file leaves no project behind. */
export function importDatasetAsNewProject(db: Db, actor: Actor, projectName: string, input: DatasetImportInput, onProgress?: ImportProgress): DatasetImportReport {
  requireCoordinator(actor);
  // Refuse a bad file before making the project. An MLSP combined file names each line's language:
  // the project is made in that language, or `mul` when the lines are in several.
  const parsed = readDataset(input);
  const p = createProject(db, actor, { name: projectName, language: datasetLanguage(parsed.instances, input.onlyLanguage) });
  try {
    return importDataset(db, actor, p.id, input, onProgress);
  } catch (e) {
    db.$client.prepare(`delete from ${PROJECTS.$} where ${PROJECTS.id} = ?`).run(p.id);
    throw e;
  }
}

/** The language a new project for these instances takes: an MLSP combined file's (one, or `mul` for several); else the default. */
function datasetLanguage(instances: readonly { meta: Record<string, unknown> }[], only: string | undefined): string | undefined {
  if (only !== undefined) return only;
  const names = new Set(instances.map((i) => (i.meta.layout === "mlsp-combined" ? String(i.meta.language) : null)).filter((x) => x !== null));
  if (names.size === 0) return undefined;
  return names.size > 1 ? "mul" : mlspLanguageTag(String([...names][0]));
}

/** A dataset import's record with the entries it could not carry as written. */
export interface DatasetImportRecord {
  id: number;
  fileName: string;
  createdAt: Date;
  instancesAdded: number;
  repairs: DatasetIssue[];
}

/**
 * The project's dataset imports that could not carry every entry as written, newest
 * first, each with its report as stored with the import (coordinator of the project).
 */
export function datasetImportRecords(db: Db, actor: Actor, projectId: number, limit = 10): DatasetImportRecord[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select({ id: imports.id, fileName: imports.fileName, createdAt: imports.createdAt, instancesAdded: imports.instancesAdded, repairs: imports.repairs })
    .from(imports)
    // A dataset reader's entries carry an action; the lexelt XML reader's repairs do not.
    .where(and(eq(imports.projectId, projectId), sql`json_extract(${imports.repairs}, '$[0].action') is not null`))
    .orderBy(desc(imports.id))
    .limit(limit)
    .all()
    .map((r) => ({ ...r, repairs: JSON.parse(r.repairs) as DatasetIssue[] }));
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

export interface DatasetExportItems {
  name: string;
  language: string;
  items: ExportItem[];
}

/**
 * The items the writers take: every instance with its imported and response-derived gold
 * (coordinator of the project). `given`: the gold inputs already read in the caller's transaction
 * (a release reads everything in one), else they are read here.
 */
export function datasetExportItems(db: Db, actor: Actor, projectId: number, given?: GoldInputs): DatasetExportItems {
  if (given) requireProject(db, actor, projectId, { coordinator: true });
  const inputs = given ?? goldInputs(db, actor, projectId);
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
      // By the lexelt's project: an import still being written has instances under the project's id, not in its lexelts.
      .where(eq(lexelts.projectId, projectId))
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
        // The gold's own exclusion (attention checks included: they never enter the gold), else the instance's.
        excluded: d ? d.excluded : r.excluded,
        meta: r.meta ? (JSON.parse(r.meta) as Record<string, unknown>) : null,
        imported: entries.get(r.ref) ?? [],
        derived: d?.entries ?? [],
        mwEntries: d?.mwEntries ?? [],
      };
    });
    return { name: inputs.project.name, language: inputs.project.language, items };
  }, READ);
}

/** The download's file name and content type for a project's name (the route names the file as the project is called now). */
export function datasetFileInfo(projectName: string, format: DatasetFormat): { fileName: string; contentType: string } {
  const safe = projectName.replace(/[^A-Za-z0-9._-]+/g, "_") || "project";
  return { fileName: `${safe}.${EXPORT_NAMES[format].ext}`, contentType: EXPORT_NAMES[format].type };
}

/**
 * The project's gold in a dataset format, with what the format could not carry
 * (coordinator of the project). Seconds on a CoInCo-sized project: the server derives
 * it in the derivation process (derive-jobs.ts, op "datasetFile"); the CLI and tests
 * call it here. TSAR: `goldOnly` leaves out instances without a substitute; `cells`
 * "spreadsheet-safe" writes a cell beginning with =, +, -, @ with a leading apostrophe
 * (default "raw": as the published files have it; docs/datasets.md says why). SWORDS:
 * `ids` "as-imported" keeps an imported file's own ids (default "recipe": eval.py's).
 */
export function exportDataset(db: Db, actor: Actor, projectId: number, format: DatasetFormat, options: { goldOnly?: boolean; cells?: TsarCells; ids?: SwordsIds } = {}): DatasetExport {
  if (!isDatasetFormat(format)) throw new InputError(`Unknown dataset format "${String(format)}": one of ${DATASET_FORMATS.join(", ")}.`, { format: "Unknown format." });
  return writeDatasetExport(datasetExportItems(db, actor, projectId), format, options);
}

/** The items in one dataset format, with what it could not carry: the one writer of each format, for the download and a release. */
export function writeDatasetExport(
  { name, language, items }: DatasetExportItems,
  format: DatasetFormat,
  options: { goldOnly?: boolean; cells?: TsarCells; ids?: SwordsIds } = {},
): DatasetExport {
  const result =
    format === "coinco" ? writeCoinco(items) : format === "swords" ? writeSwords(items, { ids: options.ids }) : writeTsar(items, { goldOnly: options.goldOnly, cells: options.cells, language });
  return { ...result, format, ...datasetFileInfo(name, format) };
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
  // Through the lexelts' counters: an import still being written has instances under the project's id, not yet in its lexelts.
  const total = db.select({ n: sql<number>`coalesce(sum(${lexelts.instanceCount}), 0)` }).from(lexelts).where(eq(lexelts.projectId, projectId)).get()?.n ?? 0;
  return {
    formats: inst.map((r) => ({ format: r.format, instances: r.n, entries: ent.find((e) => e.format === r.format)?.n ?? 0 })),
    instances: total,
  };
}
