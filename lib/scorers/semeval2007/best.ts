/**
 * best (seed 000 §4.1, formulas 1–4): the system gives as many guesses as it
 * likes, best first; the credit is divided by the number of guesses.
 *
 *   credit_i = Σ_{g ∈ a_i} freq(g) / |H_i|      score_i = credit_i / |a_i|
 *   P = Σ_{i ∈ A} score_i / |A|                  R = Σ_{i ∈ A} score_i / |T|
 *   Mode P = hits / |AM|, Mode R = hits / |TM|, a hit when the first guess is the mode.
 *
 * Both seed texts garble formula (1); their worked example settles it: glad 3,
 * merry 2, cheerful 1, jovial 1 (|H_i| = 7) and the answer `glad;cheerful`
 * give (3 + 1) / (2 · 7) = .286. |a_i| counts every `;`-separated guess,
 * repeats and empty ones included, as the official scorer does. Pure.
 */
import { itemScore } from "./rules";
import { type SystemLine } from "./system";
import { type ScoringKey } from "./key";
import { type GoldView, type ItemOutcome, type ScorerOptions, type SubstitutionResult, SubstitutionScorer } from "./substitution";

/** The best rule for one item (guesses already matched and filtered, at least one). */
function bestItem(gold: GoldView, guesses: string[]): ItemOutcome {
  let credit = 0;
  let firstIsMode = false;
  for (let i = 0; i < guesses.length; i++) {
    const e = gold.match(guesses[i]);
    if (i === 0) firstIsMode = gold.modeMatched;
    if (e >= 0) credit += gold.count / gold.humanResponses;
  }
  return {
    guesses,
    credit,
    score: itemScore(false, credit, guesses.length),
    modeHit: !gold.hasMode ? null : firstIsMode,
    truncated: false,
    repeated: [],
  };
}

/** A streaming best scorer: `add` each system line, then `finish`. */
export function bestScorer(key: ScoringKey, options: ScorerOptions = {}): SubstitutionScorer {
  return new SubstitutionScorer(key, "best", bestItem, options);
}

/** Score parsed best lines against a key. */
export function scoreBest(key: ScoringKey, lines: Iterable<SystemLine>, options: ScorerOptions = {}): SubstitutionResult {
  const s = bestScorer(key, options);
  for (const l of lines) s.add(l);
  return s.finish();
}
