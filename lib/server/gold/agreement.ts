/**
 * What the Agreement page and its downloads read (issue #5): the project's
 * agreement report (lib/lexsub/agreement/ over the gold of lib/server/gold/gold.ts),
 * the lowest-agreement items with each annotator's answer, and the report as JSON
 * or CSV. Coordinators of the project only.
 *
 * Every figure comes from the sums kept as answers change (#39, lib/server/derived):
 * a page costs the same in a project of 2,000 instances as in one of 200,000, while
 * annotators save. Krippendorff's α and the bootstrap intervals, global by nature,
 * come from the last computation over every kept item (derived_snapshots), made in the
 * background (lib/server/jobs/derive-pool.ts refreshAgreementAlpha) and shown with its
 * time; a command line or test connection computes them on the spot when missing.
 */
import "server-only";
import { csvCell } from "../../lexsub/formats/spreadsheet";
import type { Db } from "../../../db/client";
import type { AgreementOptions, AgreementReport, ItemAgreement, PairAgreement } from "../../lexsub/agreement";
import type { GoldSummary, ItemResponse } from "../../lexsub/gold";
import { type Actor, type ProjectRow, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { type Paged, pageOf } from "./gold-review";
import { AGREEMENT_OPTIONS, type AlphaFigures, alphaOf, alphaSnapshot, computeAlphaSnapshot, keptLexeltRows, keptReport, lexeltKeysOf, lowestOf, type Snapshot, catchUpNow, isServed, queuedCount, countsOf, goldSummaryOf } from "../derived/actor-free";
import { cmp } from "../../lexsub/normalize";

export { AGREEMENT_OPTIONS };

/** One of the lowest-agreement items, with what each annotator answered (normalised and lemmatised, as compared). */
export interface LowItem extends ItemAgreement {
  /** The lexelt as loaded (the Gold page filters by it; `lexelt` may carry a PoS correction). */
  originalLexelt: string;
  /** The gold line from the responses, null when none. */
  line: string | null;
  responses: ItemResponse[];
}

/** When α and the intervals were computed, and whether anything they are computed from changed since. */
interface AlphaAge {
  /** null: not computed yet (being computed in the background). */
  computedAt: Date | null;
  computeMs: number | null;
  stale: boolean;
}

export interface AgreementPageData {
  project: ProjectRow;
  report: AgreementReport;
  lowest: LowItem[];
  summary: GoldSummary;
  /** Annotators with at least one answer (not excluded), by name. */
  annotators: string[];
  /** α and the intervals: their age (every other figure is current). */
  alpha: AlphaAge;
  /** Instances whose figures are still being brought up to date (after a change to many): the rest are current. */
  queued: number;
  /** Items with at least one pair of annotators who both gave substitutes. */
  itemsWithPairs: number;
  /** Pairwise agreement of each pair among the annotators (at most PAIR_CHART_MAX, lib/server/derived/agreement.ts) sharing the most items (the heatmap), and how many annotators there are in all: computed with α, of its time. */
  pairs: { pairs: PairAgreement[]; annotators: number };
}

/**
 * The project's agreement report from the kept figures. `withItems` adds the row of every item
 * of T, and `freshAlpha` computes α and the intervals now rather than taking the last ones kept
 * (the downloads, made in the derivation process). The project and the actor's right to it are
 * checked first.
 */
export function agreementPageData(db: Db, actor: Actor, projectId: number, { withItems = false, freshAlpha = false }: { withItems?: boolean; freshAlpha?: boolean } = {}): AgreementPageData {
  const { more: _none, ...data } = agreementData(db, actor, projectId, { withItems, freshAlpha, withLexelts: true }, () => null);
  return data;
}

/** agreementPageData, the lexelts' rows left out unless `withLexelts`, with what `more` reads in the same read transaction (given α). */
function agreementData<T>(
  db: Db,
  actor: Actor,
  projectId: number,
  { withItems, freshAlpha, withLexelts }: { withItems: boolean; freshAlpha: boolean; withLexelts: boolean },
  more: (alpha: AlphaFigures | null) => T,
): AgreementPageData & { more: T } {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, project.id);
  // α where none was computed yet: here, off the server (the command line, tests); the server's pages ask for it in the background.
  let alpha = freshAlpha ? freshAlphaOf(db, project.id) : alphaSnapshot(db, project.id);
  if (alpha === null && !isServed(db)) alpha = computeAlphaSnapshot(db, project.id);
  return db.$client.transaction(() => {
    const report = keptReport(db, project.id, alpha?.body ?? null, AGREEMENT_OPTIONS, withItems, withLexelts);
    const counts = countsOf(db, project.id);
    const lowest: LowItem[] = lowestOf(db, project.id, AGREEMENT_OPTIONS.lowestCount).map(({ row, item, lexelt }) => ({ ...row, originalLexelt: lexelt, line: item.line, responses: item.responses }));
    return {
      project,
      report,
      lowest,
      summary: goldSummaryOf(counts, "responses"),
      annotators: report.perAnnotator.map((a) => a.annotator),
      alpha: { computedAt: alpha?.computedAt ?? null, computeMs: alpha?.computeMs ?? null, stale: alpha === null || alpha.stale },
      queued: queuedCount(db, project.id),
      itemsWithPairs: counts.get("withPairs") ?? 0,
      pairs: alpha?.body.pairs ?? { pairs: [], annotators: 0 },
      more: more(alpha?.body ?? null),
    };
  })();
}

/**
 * The whole report (every item of T included) from the kept figures, with α and the intervals
 * computed now with `options` (`lexgold agreement`'s --bootstrap and --seed). Coordinators of the project only.
 */
export function agreementReport(db: Db, actor: Actor, projectId: number, options: AgreementOptions = AGREEMENT_OPTIONS): AgreementReport {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, project.id);
  return keptReport(db, project.id, alphaOf(db, project.id, options), options, true);
}

/** α and the intervals computed now over the kept items, not kept (a download's). */
function freshAlphaOf(db: Db, projectId: number): Snapshot<AlphaFigures> {
  const t0 = performance.now();
  const body = alphaOf(db, projectId, AGREEMENT_OPTIONS);
  return { version: 0, computedAt: new Date(), computeMs: Math.round(performance.now() - t0), body, stale: false };
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
  const d = agreementPageData(db, actor, projectId, { withItems: true, freshAlpha: true });
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
 * report without its per-item and per-lexelt rows, and one page of the lexelt rows,
 * searched and sorted on the server (undefined figures last, ties in corpus order).
 */
export interface AgreementPageView extends Omit<AgreementPageData, "report"> {
  report: Omit<AgreementReport, "perItem" | "byLexelt">;
  lexelts: Paged<LexeltRow> & { q: string; sort: LexeltSortKey; dir: "asc" | "desc"; all: number };
}

const collator = new Intl.Collator("en", { numeric: true });

function sortLexelts<R extends object>(rows: readonly R[], sort: LexeltSortKey, dir: "asc" | "desc"): R[] {
  const sign = dir === "asc" ? 1 : -1;
  const text = sort === "lexelt" || sort === "pos";
  const at = (r: R) => (r as Record<string, unknown>)[sort];
  return rows
    .map((r, i) => ({ r, i }))
    .sort((x, y) => {
      const a = at(x.r);
      const b = at(y.r);
      if (a === null || b === null) return a === b ? x.i - y.i : a === null ? 1 : -1;
      const c = text ? collator.compare(String(a), String(b)) : Number(a) - Number(b);
      return c !== 0 ? sign * c : x.i - y.i;
    })
    .map((e) => e.r);
}

/** How many orders of lexelts by name are kept (a few projects' at once). */
const KEPT_ORDERS = 8;
const orders = new Map<string, { keys: string; rows: { lexelt: string; pos: string }[] }>();

/**
 * The project's lexelts with sums, sorted by lexelt or PoS as the page sorts them (sortLexelts over the
 * report's order), kept while the same lexelts have sums: sorting 4,167 names with the collator was a
 * fifth of the page's reading, and the names change only when a lexelt gets its first answer or loses its last.
 */
function lexeltOrder(projectId: number, keys: readonly [string, string][], sort: "lexelt" | "pos", dir: "asc" | "desc"): { lexelt: string; pos: string }[] {
  const signature = keys.map(([l, p]) => `${l}\u0001${p}`).join("\u0000");
  const id = `${projectId} ${sort} ${dir}`;
  const kept = orders.get(id);
  if (kept && kept.keys === signature) return kept.rows;
  const rows = sortLexelts(
    keys.map(([lexelt, pos]) => ({ lexelt, pos })).sort((x, y) => cmp(x.lexelt, y.lexelt)),
    sort,
    dir,
  );
  orders.delete(id);
  orders.set(id, { keys: signature, rows });
  if (orders.size > KEPT_ORDERS) orders.delete(orders.keys().next().value!);
  return rows;
}

export function agreementPageView(db: Db, actor: Actor, projectId: number, query: AgreementPageQuery = {}): AgreementPageView {
  const sort: LexeltSortKey = (LEXELT_SORT_KEYS as readonly string[]).includes(query.sort ?? "") ? (query.sort as LexeltSortKey) : "lexelt";
  const dir = query.dir === "desc" ? "desc" : "asc";
  const q = (query.q ?? "").trim().toLowerCase();
  const shown = { q: query.q?.trim() ?? "", sort, dir } as const;
  if (sort === "lexelt" || sort === "pos") {
    // By name: the lexelts' names are sorted, and only the page's rows are read with their figures (#39).
    const { more: lexelts, ...d } = agreementData(db, actor, projectId, { withItems: false, freshAlpha: false, withLexelts: false }, (alpha) => {
      const order = lexeltOrder(projectId, lexeltKeysOf(db, projectId), sort, dir);
      const page = pageOf(q === "" ? order : order.filter((l) => l.lexelt.toLowerCase().includes(q)), query.page, LEXELT_PAGE_SIZE);
      return { ...page, rows: keptLexeltRows(db, projectId, alpha, page.rows.map((l) => l.lexelt)), all: order.length };
    });
    const { perItem: _items, byLexelt: _none, ...report } = d.report;
    return { ...d, report, lexelts: { ...lexelts, ...shown } };
  }
  // By a figure: every lexelt's figures, sorted.
  const d = agreementPageData(db, actor, projectId);
  const { perItem: _items, byLexelt, ...report } = d.report;
  const kept = q === "" ? byLexelt : byLexelt.filter((l) => l.lexelt.toLowerCase().includes(q));
  const page = pageOf(sortLexelts(kept, sort, dir), query.page, LEXELT_PAGE_SIZE);
  return { ...d, report, lexelts: { ...page, ...shown, all: byLexelt.length } };
}
