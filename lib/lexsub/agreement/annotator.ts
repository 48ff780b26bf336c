/**
 * Each annotator's own figures, and the overall pairwise and mode figures recomputed
 * without them (leave-one-out: H_i, T and the modes recomputed), from the whole-number
 * sums item.ts gives item by item.
 */
import { ratio } from "../ratio";
import { type AnnotatorSums, type GroupSums, pairwiseOf } from "./item";
import type { AnnotatorAgreement } from "./types";

/** One annotator's row of the report, the leave-one-out figures from the overall sums. */
export function annotatorAgreement(annotator: string, a: AnnotatorSums, overall: GroupSums): AnnotatorAgreement {
  return {
    annotator,
    answered: a.answered,
    names: a.names,
    nils: a.nils,
    meanSubstitutes: ratio(a.substitutesGiven, a.substituteAnswers),
    multiwords: a.multiwords,
    items: a.items,
    pairs: a.pairs,
    pairwise: pairwiseOf(a.pairUnits, a.pairs),
    modeResponses: a.modeResponses,
    modeAgreement: ratio(a.modeHits, a.modeResponses),
    without: {
      items: overall.items + a.dItems,
      itemsWithMode: overall.itemsWithMode + a.dItemsWithMode,
      pairs: overall.pairs + a.dPairs,
      pairwise: pairwiseOf(overall.pairUnits + a.dPairUnits, overall.pairs + a.dPairs),
      modeResponses: overall.modeResponses + a.dModeResponses,
      modeAgreement: ratio(overall.modeHits + a.dModeHits, overall.modeResponses + a.dModeResponses),
    },
  };
}
