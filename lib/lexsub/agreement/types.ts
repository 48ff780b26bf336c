/** The agreement report's shape and its options (computed by report.ts). */

export interface AgreementOptions {
  /** Bootstrap resamples (default 1000; 0 leaves the intervals null). */
  bootstrapIterations?: number;
  /** Seed of the bootstrap's PRNG (default 1): the same seed gives the same intervals. */
  seed?: number;
  /** Interval coverage (default 0.95). */
  level?: number;
  /** How many items `lowest` lists (default 20). */
  lowestCount?: number;
  /**
   * MASI's weights: "exact" 2/3 and 1/3 (default: Passonneau 2006, and NLTK since
   * nltk/nltk#3695, e.g. 3.10.3) or "rounded" 0.67 and 0.33 (older NLTK releases).
   */
  masiWeights?: "exact" | "rounded";
}

/** The figures reported overall and for each PoS and lexelt. */
export interface AgreementFigures {
  /** |T|. */
  items: number;
  /** |TM|: items in T with a mode. */
  itemsWithMode: number;
  /** Pairs of annotators who both gave substitutes, over T. */
  pairs: number;
  pairwise: number | null;
  /** Substitute responses on items with a mode. */
  modeResponses: number;
  modeAgreement: number | null;
  /** Instances (not excluded, any |H_i|) with at least one pair of answers. */
  mwInstances: number;
  mwDetectionPairs: number;
  mwDetection: number | null;
  mwIdentificationPairs: number;
  mwIdentification: number | null;
  alphaMasi: number | null;
}

interface LeaveOneOut {
  items: number;
  itemsWithMode: number;
  pairs: number;
  pairwise: number | null;
  modeResponses: number;
  modeAgreement: number | null;
}

export interface AnnotatorAgreement {
  annotator: string;
  /** Instances (not excluded) the annotator answered, and how. */
  answered: number;
  names: number;
  nils: number;
  /** Mean number of substitutes over the answers that gave substitutes; null when none. */
  meanSubstitutes: number | null;
  multiwords: number;
  /** Items in T where the annotator gave substitutes. */
  items: number;
  /** Pairs with the others over T, and the mean agreement over them. */
  pairs: number;
  pairwise: number | null;
  /** Their substitute responses on items with a mode, and the share containing the mode. */
  modeResponses: number;
  modeAgreement: number | null;
  /** The overall pairwise and mode figures recomputed without this annotator. */
  without: LeaveOneOut;
}

export interface ItemAgreement {
  lexelt: string;
  instanceId: string;
  pos: string;
  /** Annotators who gave substitutes. */
  annotators: number;
  pairs: number;
  /** Mean over the item's pairs; null with fewer than two annotators. */
  pairwise: number | null;
  mode: string | null;
  modeResponses: number;
  modeAgreement: number | null;
}

export interface Interval {
  low: number;
  high: number;
}

export interface AgreementIntervals {
  iterations: number;
  seed: number;
  level: number;
  pairwise: Interval | null;
  /** Expected disagreement held at the full sample's value (Hayes & Krippendorff 2007). */
  alphaMasi: Interval | null;
}

export interface HistogramBin {
  /** [from, to), the last bin [0.9, 1] closed. */
  from: number;
  to: number;
  count: number;
}

export interface AgreementReport extends AgreementFigures {
  perAnnotator: AnnotatorAgreement[];
  byPos: ({ pos: string } & AgreementFigures)[];
  byLexelt: ({ lexelt: string; pos: string } & AgreementFigures)[];
  intervals: AgreementIntervals;
  /** Every item in T, in gold order. */
  perItem: ItemAgreement[];
  /** Items in T with a pairwise figure, lowest first (ties: more pairs first, then gold order). */
  lowest: ItemAgreement[];
  /** Ten bins of per-item pairwise agreement. */
  histogram: HistogramBin[];
}
