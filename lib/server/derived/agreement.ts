/**
 * The agreement report from the kept sums (#39): every figure lib/lexsub/agreement computes over
 * a project's gold, from agreement_sums, annotator_sums, the counts and the items' rows, except
 * Krippendorff's α and the bootstrap intervals — global by nature — which come from the last
 * computation over every item (`alphaOf`, run in the background: lib/server/gold/agreement.ts).
 */
import "server-only";
import type { Db } from "../../../db/client";
import { goldItems } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import {
  type AgreementOptions,
  type AgreementReport,
  type HistogramBin,
  type ItemAgreement,
  annotatorAgreement,
  comparePos,
  computeAgreement,
  groupFigures,
  itemAgreement,
  itemSums,
  type PairAgreement,
  pairAgreement,
  topPairs,
} from "../../lexsub/agreement";
import { cmp } from "../../lexsub/normalize";
import { all } from "../kernel/statements";
import type { StoredItem } from "./instance";
import { catchUpNow } from "./queue";
import { agreementItems, agreementSumsOf, countsOf, lexeltSumsOf } from "./read";
import { type Snapshot, computeSnapshot, readSnapshot } from "./snapshots";

const GI = named(goldItems);

/** α overall, per PoS and per lexelt, and the bootstrap intervals: computed over every item at once. */
export interface AlphaFigures {
  alphaMasi: number | null;
  byPos: Record<string, number | null>;
  byLexelt: Record<string, number | null>;
  intervals: AgreementReport["intervals"];
  /** The heatmap's pairs of annotators (lib/lexsub/agreement/pairwise.ts), global as α is; absent in figures kept before it was added. */
  pairs?: { pairs: PairAgreement[]; annotators: number };
}

/** The most annotators the Agreement page's heatmap of pairs draws (the page's size stays bounded whatever the crowd's). */
const PAIR_CHART_MAX = 20;

/** α and the intervals over the project's items as kept now (streamed in corpus order: one item in memory at a time, α's values beside). */
export function alphaOf(db: Db, projectId: number, options: AgreementOptions): AlphaFigures {
  const r = computeAgreement(agreementItems(db, projectId), { ...options, lowestCount: 0 });
  return {
    alphaMasi: r.alphaMasi,
    byPos: Object.fromEntries(r.byPos.map((p) => [p.pos, p.alphaMasi])),
    byLexelt: Object.fromEntries(r.byLexelt.map((l) => [l.lexelt, l.alphaMasi])),
    intervals: r.intervals,
    pairs: topPairs(pairAgreement(agreementItems(db, projectId)), PAIR_CHART_MAX),
  };
}

/** The lowest `k` items (lowest pairwise first; ties: more pairs first, then corpus order), with their stored items. */
export function lowestOf(db: Db, projectId: number, k: number): { row: ItemAgreement; item: StoredItem; lexelt: string }[] {
  if (k <= 0) return [];
  return all<{ item: string; lexelt: string }>(
    db,
    `select ${GI.item} as item, ${GI.lexelt} as lexelt from ${GI.$} indexed by gold_items_lowest
      where ${GI.projectId} = ? and ${GI.rank} < 2 order by ${GI.rank}, ${GI.pairs} desc, ${GI.lexeltPosition}, ${GI.position} limit ?`,
    projectId,
    k,
  ).map((r) => {
    const item = JSON.parse(r.item) as StoredItem;
    return { row: itemAgreement(item, itemSums(item)), item, lexelt: r.lexelt };
  });
}

/** Ten bins of per-item pairwise agreement, from the counts. */
function histogramOf(counts: ReadonlyMap<string, number>): HistogramBin[] {
  const bins: HistogramBin[] = [];
  for (let b = 0; b < 10; b++) bins.push({ from: b / 10, to: (b + 1) / 10, count: counts.get(`hist:${b}`) ?? 0 });
  return bins;
}

/** Every item of T's row (the items table of the download), in corpus order. */
function* perItemOf(db: Db, projectId: number): Generator<ItemAgreement> {
  for (const item of agreementItems(db, projectId)) if (item.inT) yield itemAgreement(item, itemSums(item));
}

/** The intervals when α has not been computed: none. */
function noIntervals(options: AgreementOptions): AgreementReport["intervals"] {
  return { iterations: Math.max(0, Math.floor(options.bootstrapIterations ?? 1000)), seed: options.seed ?? 1, level: options.level ?? 0.95, pairwise: null, alphaMasi: null };
}

/**
 * The report from the kept figures; α and the intervals from `alpha` (null: not computed yet,
 * α null and no intervals). `perItem` is left empty unless asked for (it lists every item of T);
 * `byLexelt` unless `withLexelts` (a row per lexelt: the Agreement page reads only the page it shows).
 */
export function keptReport(db: Db, projectId: number, alpha: AlphaFigures | null, options: AgreementOptions = {}, withItems = false, withLexelts = true): AgreementReport {
  const view = agreementSumsOf(db, projectId, { lexelts: withLexelts });
  const counts = countsOf(db, projectId);
  return {
    ...groupFigures(view.overall, alpha?.alphaMasi ?? null),
    perAnnotator: view.annotators.sort((x, y) => cmp(x.annotator, y.annotator)).map((a) => annotatorAgreement(a.annotator, a.sums, view.overall)),
    byPos: view.byPos.sort((x, y) => comparePos(x.pos, y.pos)).map((p) => ({ pos: p.pos, ...groupFigures(p.sums, alpha?.byPos[p.pos] ?? null) })),
    byLexelt: view.byLexelt.sort((x, y) => cmp(x.lexelt, y.lexelt)).map((l) => ({ lexelt: l.lexelt, pos: l.pos, ...groupFigures(l.sums, alpha?.byLexelt[l.lexelt] ?? null) })),
    intervals: alpha?.intervals ?? noIntervals(options),
    perItem: withItems ? [...perItemOf(db, projectId)] : [],
    lowest: lowestOf(db, projectId, options.lowestCount ?? 20).map((l) => l.row),
    histogram: histogramOf(counts),
  };
}

/** The rows of some lexelts (the page's) with their figures, in the order given: those with an answer counted. */
export function keptLexeltRows(db: Db, projectId: number, alpha: AlphaFigures | null, lexelts: readonly string[]): AgreementReport["byLexelt"] {
  const sums = lexeltSumsOf(db, projectId, lexelts);
  const out: AgreementReport["byLexelt"] = [];
  for (const lexelt of lexelts) {
    const s = sums.get(lexelt);
    if (s) out.push({ lexelt, pos: s.pos, ...groupFigures(s.sums, alpha?.byLexelt[lexelt] ?? null) });
  }
  return out;
}

/** The bootstrap the Agreement tab reports: percentile intervals from 1,000 resamples, seed 1. */
export const AGREEMENT_OPTIONS = { bootstrapIterations: 1000, seed: 1, level: 0.95, lowestCount: 20 } as const;

/** The snapshot kind of α and the intervals. */
const ALPHA = "agreement";

/** The last α and intervals computed for the project (null: never), with their age. */
export function alphaSnapshot(db: Db, projectId: number): Snapshot<AlphaFigures> | null {
  return readSnapshot<AlphaFigures>(db, projectId, ALPHA);
}

/** Compute α and the intervals over the kept items now, and keep them (in the background: lib/server/jobs/derive-pool.ts). */
export function computeAlphaSnapshot(db: Db, projectId: number): Snapshot<AlphaFigures> {
  catchUpNow(db, projectId);
  return computeSnapshot(db, projectId, ALPHA, () => alphaOf(db, projectId, AGREEMENT_OPTIONS));
}
