/**
 * What the Agreement page and its downloads read (issue #5): the project's
 * agreement report (lib/lexsub/agreement/ over the gold derived by
 * lib/server/gold/gold.ts), the lowest-agreement items with each annotator's answer,
 * and the report as JSON or CSV. Coordinators of the project only.
 *
 * Deriving the gold and bootstrapping the intervals takes a noticeable fraction
 * of a second on a few thousand instances, so the result is kept per database
 * and project under the project's data version (data_versions, raised by
 * triggers in the transaction of every response, corpus change and review
 * decision). Any save or review decision therefore gives the next request a
 * fresh computation. The app runs this on a worker thread
 * (lib/server/jobs/derive-pool.ts) and sends the page one page of lexelt rows
 * (agreementPageView).
 */
import "server-only";
import { csvCell } from "../../lexsub/formats/spreadsheet";
import type { Db } from "../../../db/client";
import { type AgreementReport, type ItemAgreement, pairAgreement, type PairAgreement, topPairs } from "../../lexsub/agreement";
import type { GoldSummary, ItemResponse } from "../../lexsub/gold";
import { type Actor, type ProjectRow, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { projectAgreement } from "./gold";
import { type Paged, pageOf } from "./gold-review";
import { dataVersion } from "../kernel/data-version";

export { dataVersion };

/** The bootstrap the page reports: NLTK-style percentile intervals from 1,000 resamples, seed 1. */
export const AGREEMENT_OPTIONS = { bootstrapIterations: 1000, seed: 1, level: 0.95, lowestCount: 20 } as const;

/** The most annotators the Agreement page's heatmap of pairs draws (the page's size stays bounded whatever the crowd's). */
const PAIR_CHART_MAX = 20;

/** One of the lowest-agreement items, with what each annotator answered (normalised and lemmatised, as compared). */
export interface LowItem extends ItemAgreement {
  /** The lexelt as loaded (the Gold page filters by it; `lexelt` may carry a PoS correction). */
  originalLexelt: string;
  /** The derived gold line, null when none. */
  line: string | null;
  responses: ItemResponse[];
}

export interface AgreementPageData {
  project: ProjectRow;
  report: AgreementReport;
  lowest: LowItem[];
  summary: GoldSummary;
  /** Annotators with at least one answer (not excluded), by name. */
  annotators: string[];
  /** Pairwise agreement of each pair among the PAIR_CHART_MAX annotators sharing the most items (the heatmap), and how many annotators there are in all. */
  pairs: { pairs: PairAgreement[]; annotators: number };
  /** When the figures were computed, and how long it took (ms). */
  computedAt: Date;
  computeMs: number;
  /** Served from the per-project cache (nothing changed since it was computed). */
  cached: boolean;
}

interface Computed {
  fingerprint: string;
  data: Omit<AgreementPageData, "project" | "cached">;
}

/** Per database, per project: the last computation and the fingerprint it was made at. */
const cache = new WeakMap<Db, Map<number, Computed>>();
/** Projects kept per database (least recently used dropped first). */
const CACHE_PROJECTS = 16;

/** Everything the report is derived from: the project's data version (raised by triggers on every change to it). */
function fingerprint(db: Db, projectId: number): string {
  return String(dataVersion(db, projectId));
}

function compute(db: Db, actor: Actor, projectId: number): Computed["data"] {
  const t0 = performance.now();
  const { gold, agreement } = projectAgreement(db, actor, projectId, AGREEMENT_OPTIONS);
  const byKey = new Map(gold.items.map((i) => [`${i.lexelt}\u0000${i.instanceId}`, i]));
  const lowest: LowItem[] = agreement.lowest.map((it) => {
    const g = byKey.get(`${it.lexelt}\u0000${it.instanceId}`);
    return { ...it, originalLexelt: g?.originalLexelt ?? it.lexelt, line: g?.line ?? null, responses: g ? [...g.responses] : [] };
  });
  const annotators = agreement.perAnnotator.map((a) => a.annotator);
  const pairs = topPairs(pairAgreement(gold.items), PAIR_CHART_MAX);
  return { report: agreement, lowest, summary: gold.summary, annotators, pairs, computedAt: new Date(), computeMs: performance.now() - t0 };
}

/**
 * The project's agreement report and the page's extras, computed now or taken
 * from the cache when nothing it depends on has changed. The project and the
 * actor's right to it are checked on every call, before the cache is read.
 */
export function agreementPageData(db: Db, actor: Actor, projectId: number): AgreementPageData {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  // Read the fingerprint and the inputs in one transaction, so the cached result is exactly the fingerprint's.
  return db.transaction(() => {
    const fp = fingerprint(db, project.id);
    const hit = perDb.get(project.id);
    if (hit && hit.fingerprint === fp) {
      perDb.delete(project.id);
      perDb.set(project.id, hit);
      return { project, ...hit.data, cached: true };
    }
    const data = compute(db, actor, project.id);
    perDb.delete(project.id);
    perDb.set(project.id, { fingerprint: fp, data });
    while (perDb.size > CACHE_PROJECTS) perDb.delete(perDb.keys().next().value!);
    return { project, ...data, cached: false };
  });
}

export type AgreementTable = "items" | "annotators" | "lexelts";
const AGREEMENT_TABLES: readonly AgreementTable[] = ["items", "annotators", "lexelts"];

function csv(header: string[], rows: (string | number | null)[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

const FIGURE_COLUMNS = [
  "items",
  "itemsWithMode",
  "pairs",
  "pairwise",
  "modeResponses",
  "modeAgreement",
  "mwInstances",
  "mwDetectionPairs",
  "mwDetection",
  "mwIdentificationPairs",
  "mwIdentification",
  "alphaMasi",
] as const;

/**
 * One table of the report as CSV (RFC 4180, CRLF): proportions unrounded as in
 * the JSON, empty where undefined; column names are the JSON's keys
 * (`without.pairwise` for the leave-one-out figures).
 */
export function agreementCsv(report: AgreementReport, table: AgreementTable): string {
  switch (table) {
    case "items":
      return csv(
        ["lexelt", "instanceId", "pos", "annotators", "pairs", "pairwise", "mode", "modeResponses", "modeAgreement"],
        report.perItem.map((i) => [i.lexelt, i.instanceId, i.pos, i.annotators, i.pairs, i.pairwise, i.mode, i.modeResponses, i.modeAgreement]),
      );
    case "annotators": {
      const without = ["items", "itemsWithMode", "pairs", "pairwise", "modeResponses", "modeAgreement"] as const;
      return csv(
        [
          "annotator",
          "answered",
          "names",
          "nils",
          "meanSubstitutes",
          "multiwords",
          "items",
          "pairs",
          "pairwise",
          "modeResponses",
          "modeAgreement",
          ...without.map((k) => `without.${k}`),
        ],
        report.perAnnotator.map((a) => [
          a.annotator,
          a.answered,
          a.names,
          a.nils,
          a.meanSubstitutes,
          a.multiwords,
          a.items,
          a.pairs,
          a.pairwise,
          a.modeResponses,
          a.modeAgreement,
          ...without.map((k) => a.without[k]),
        ]),
      );
    }
    case "lexelts":
      return csv(
        ["lexelt", "pos", ...FIGURE_COLUMNS],
        report.byLexelt.map((l) => [l.lexelt, l.pos, ...FIGURE_COLUMNS.map((k) => l[k])]),
      );
  }
}

export interface AgreementFile {
  fileName: string;
  contentType: string;
  body: string;
}

/**
 * A download of the report: `format` json (the whole AgreementReport, keys as
 * in the library) or csv with `table` items, annotators or lexelts. Anything
 * else is refused naming the parameter. Coordinators of the project only.
 */
export function agreementDownload(db: Db, actor: Actor, projectId: number, query: { format?: unknown; table?: unknown }): AgreementFile {
  const d = agreementPageData(db, actor, projectId);
  const format = query.format ?? "json";
  const base = d.project.name.replace(/[^A-Za-z0-9._-]+/g, "-") + "-agreement";
  if (format === "json") {
    return { fileName: `${base}.json`, contentType: "application/json; charset=utf-8", body: JSON.stringify(d.report, null, 2) + "\n" };
  }
  if (format !== "csv") {
    throw new InputError(`Unknown format "${String(format)}": ask for json or csv.`, { format: "One of json, csv." });
  }
  const table = query.table ?? "items";
  if (!AGREEMENT_TABLES.includes(table as AgreementTable)) {
    throw new InputError(`Unknown table "${String(table)}": ask for items, annotators or lexelts.`, { table: "One of items, annotators, lexelts." });
  }
  return { fileName: `${base}-${String(table)}.csv`, contentType: "text/csv; charset=utf-8", body: agreementCsv(d.report, table as AgreementTable) };
}

/** The lexelt table's columns a reader can sort by. */
const LEXELT_SORT_KEYS = ["lexelt", "pos", ...FIGURE_COLUMNS] as const;
type LexeltSortKey = (typeof LEXELT_SORT_KEYS)[number];
type LexeltRow = AgreementReport["byLexelt"][number];

export interface AgreementPageQuery {
  /** Lexelts whose item contains this (case-insensitive). */
  q?: string;
  sort?: string;
  dir?: string;
  page?: unknown;
}

/** Lexelt rows a page. */
export const LEXELT_PAGE_SIZE = 50;

/**
 * What the Agreement page renders, of bounded size whatever the project's: the
 * report without its per-item and per-lexelt rows, how many items have a pair,
 * and one page of the lexelt rows, searched and sorted on the server (undefined
 * figures last, ties in corpus order).
 */
export interface AgreementPageView extends Omit<AgreementPageData, "report"> {
  report: Omit<AgreementReport, "perItem" | "byLexelt">;
  /** Items with at least one pair of annotators who both gave substitutes. */
  itemsWithPairs: number;
  lexelts: Paged<LexeltRow> & { q: string; sort: LexeltSortKey; dir: "asc" | "desc"; all: number };
}

const collator = new Intl.Collator("en", { numeric: true });

function sortLexelts(rows: readonly LexeltRow[], sort: LexeltSortKey, dir: "asc" | "desc"): LexeltRow[] {
  const sign = dir === "asc" ? 1 : -1;
  const text = sort === "lexelt" || sort === "pos";
  return rows
    .map((r, i) => ({ r, i }))
    .sort((x, y) => {
      const a = x.r[sort];
      const b = y.r[sort];
      if (a === null || b === null) return a === b ? x.i - y.i : a === null ? 1 : -1;
      const c = text ? collator.compare(String(a), String(b)) : Number(a) - Number(b);
      return c !== 0 ? sign * c : x.i - y.i;
    })
    .map((e) => e.r);
}

export function agreementPageView(db: Db, actor: Actor, projectId: number, query: AgreementPageQuery = {}): AgreementPageView {
  const d = agreementPageData(db, actor, projectId);
  const { perItem, byLexelt, ...report } = d.report;
  const sort: LexeltSortKey = (LEXELT_SORT_KEYS as readonly string[]).includes(query.sort ?? "") ? (query.sort as LexeltSortKey) : "lexelt";
  const dir = query.dir === "desc" ? "desc" : "asc";
  const q = (query.q ?? "").trim().toLowerCase();
  const kept = q === "" ? byLexelt : byLexelt.filter((l) => l.lexelt.toLowerCase().includes(q));
  const page = pageOf(sortLexelts(kept, sort, dir), query.page, LEXELT_PAGE_SIZE);
  let itemsWithPairs = 0;
  for (const i of perItem) if (i.pairwise !== null) itemsWithPairs++;
  return { ...d, report, itemsWithPairs, lexelts: { ...page, q: query.q?.trim() ?? "", sort, dir, all: byLexelt.length } };
}
