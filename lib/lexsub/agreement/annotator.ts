/**
 * Each annotator's own figures, and the overall pairwise and mode figures recomputed
 * without them (leave-one-out: H_i, T and the modes recomputed), from the sums
 * report.ts accumulates item by item.
 */
import { ratio } from "../ratio";
import { type GoldEntry, PN } from "../gold";
import type { GroupAcc } from "./group";
import type { AnnotatorAgreement } from "./types";

export class AnnotatorAcc {
  answered = 0;
  names = 0;
  nils = 0;
  substituteAnswers = 0;
  substitutesGiven = 0;
  multiwords = 0;
  items = 0;
  pairs = 0;
  pairSum = 0;
  modeResponses = 0;
  modeHits = 0;
  // What removing this annotator changes in the overall sums, item by item.
  dItems = 0;
  dItemsWithMode = 0;
  dPairs = 0;
  dPairSum = 0;
  dModeResponses = 0;
  dModeHits = 0;

  constructor(readonly annotator: string) {}
}

/** The mode of H_i without one annotator's substitutes (pn excluded), or null. */
export function modeWithoutAnnotator(entries: readonly GoldEntry[], removed: readonly string[]): string | null {
  let best: string | null = null;
  let bestCount = 0;
  let tie = false;
  for (const e of entries) {
    if (e.substitute === PN) continue;
    const count = removed.includes(e.substitute) ? e.count - 1 : e.count;
    if (count <= 0) continue;
    if (count > bestCount) {
      best = e.substitute;
      bestCount = count;
      tie = false;
    } else if (count === bestCount) tie = true;
  }
  return tie ? null : best;
}

/** One annotator's row of the report, the leave-one-out figures from the overall sums. */
export function annotatorAgreement(a: AnnotatorAcc, overall: GroupAcc): AnnotatorAgreement {
  return {
    annotator: a.annotator,
    answered: a.answered,
    names: a.names,
    nils: a.nils,
    meanSubstitutes: ratio(a.substitutesGiven, a.substituteAnswers),
    multiwords: a.multiwords,
    items: a.items,
    pairs: a.pairs,
    pairwise: ratio(a.pairSum, a.pairs),
    modeResponses: a.modeResponses,
    modeAgreement: ratio(a.modeHits, a.modeResponses),
    without: {
      items: overall.items + a.dItems,
      itemsWithMode: overall.itemsWithMode + a.dItemsWithMode,
      pairs: overall.pairs + a.dPairs,
      pairwise: ratio(overall.pairSum + a.dPairSum, overall.pairs + a.dPairs),
      modeResponses: overall.modeResponses + a.dModeResponses,
      modeAgreement: ratio(overall.modeHits + a.dModeHits, overall.modeResponses + a.dModeResponses),
    },
  };
}
