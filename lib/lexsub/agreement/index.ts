/**
 * Inter-annotator agreement (paper §2.2, seed 000 §6) over derived gold items.
 *
 * Over T (items in the gold, not excluded, |H_i| >= 2):
 * - pairwise: for every item and every pair of annotators who both gave
 *   substitutes, |A ∩ B| / |A ∪ B| of their sets; the mean over all such pairs;
 * - agreement with the mode: over items with a mode and the annotators who gave
 *   substitutes there, the share whose set contains the mode;
 * - both again without each annotator in turn (H_i, T and the modes recomputed
 *   without them), and each annotator's own figures;
 * - Krippendorff's α with the MASI distance over the substitute sets of annotators
 *   who gave substitutes (coder = annotator, item = instance, label = set), exactly
 *   as NLTK's AnnotationTask(distance=masi_distance).alpha() computes it, degenerate
 *   cases included (GroupAcc.alpha); checked against NLTK 3.10.3.
 * Over all instances not excluded: multiword detection (pairs of annotators who
 * both answered: both flagged or both not) and identification (pairs who both
 * flagged: the same normalised, lemmatised phrase).
 * Everything also per PoS and per lexelt; a seeded bootstrap over T's items gives
 * 95% intervals for pairwise agreement and α.
 *
 * Pairwise, mode and multiword sums are whole numbers (item.ts: Jaccard values in units of
 * 1/PAIR_SCALE), so an item's sums can be added and taken away again in any order with the
 * same figures to the last bit (lib/server/derived keeps them as answers change).
 * Linear in the number of responses: α's observed disagreement is summed per item,
 * its expected disagreement is counted through shared subsets (never a loop over
 * all pairs of values), and the bootstrap resamples per-item sums.
 * Proportions are unrounded; null where a denominator is zero (or NLTK raises).
 *
 * Where each part lives: types.ts (the report's shape and options), report.ts
 * (computeAgreement: the pass over the items and the report), item.ts (one item's whole-number
 * sums, overall and per annotator with leave-one-out), group.ts (one group's
 * sums: pairwise, mode, multiword, α's observed disagreement and degenerate cases),
 * pairwise.ts (Jaccard per item, as the review queue orders by it, and per pair of annotators), text.ts (the report as text), masi.ts (MASI
 * and α's expected disagreement), sets.ts (the sorted-id sets), annotator.ts (each
 * annotator's figures and leave-one-out), bootstrap.ts (the intervals).
 */
export type {
  AgreementFigures,
  
  AgreementOptions,
  AgreementReport,
  AnnotatorAgreement,
  HistogramBin,
  Interval,
  ItemAgreement,
  
} from "./types";
export { comparePos, computeAgreement, histogramBin, itemAgreement } from "./report";
export {
  ANNOTATOR_FIELDS,
  type AgreementItem,
  type AnnotatorSums,
  GROUP_FIELDS,
  type GroupSums,
  emptyAnnotatorSums,
  emptyGroupSums,
  itemSums,
} from "./item";
export { groupFigures } from "./group";
export { annotatorAgreement } from "./annotator";
export { itemPairwise, pairAgreement, type PairAgreement, topPairs } from "./pairwise";
export { formatAgreement } from "./text";
export { masiAgreementSum, masiDistance } from "./masi";
export { binomialDraw, mulberry32, quantile } from "./bootstrap";
