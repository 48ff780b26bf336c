/**
 * oot, "out of ten" (seed 000 §4.2, formulas 5–8): up to ten guesses, the
 * credit not divided by their number.
 *
 *   score_i = Σ_{g ∈ a_i} freq(g) / |H_i|  over the first ten guesses
 *   P = Σ_{i ∈ A} score_i / |A|             R = Σ_{i ∈ A} score_i / |T|
 *   Mode P = hits / |AM|, Mode R = hits / |TM|, a hit when any scored guess is the mode.
 *
 * Guesses after the tenth are dropped. A guess given twice earns credit twice,
 * as in the official scorer (so P can exceed 100%); kept for parity and
 * reported as a warning, as later versions of the official scorer do. Pure.
 */
import { type SystemLine } from "../formats/system";
import { type ScoringKey } from "./key";
import { type GoldView, type ItemOutcome, type ScorerOptions, type SubstitutionResult, SubstitutionScorer } from "./substitution";

/** Guesses scored per item. */
export const OOT_LIMIT = 10;

/** The oot rule for one item (guesses already matched and filtered, at least one). */
export function ootItem(gold: GoldView, all: string[]): ItemOutcome {
  const truncated = all.length > OOT_LIMIT;
  const guesses = truncated ? all.slice(0, OOT_LIMIT) : all;
  let credit = 0;
  let modeHit = false;
  const repeated: string[] = [];
  for (let i = 0; i < guesses.length; i++) {
    const g = guesses[i];
    credit += gold.norm(g);
    if (!modeHit && gold.isMode(g)) modeHit = true;
    if (guesses.indexOf(g) < i && !repeated.includes(g)) repeated.push(g);
  }
  return { guesses, credit, score: credit, modeHit: gold.mode === null ? null : modeHit, truncated, repeated };
}

/** A streaming oot scorer: `add` each system line, then `finish`. */
export function ootScorer(key: ScoringKey, options: ScorerOptions = {}): SubstitutionScorer {
  return new SubstitutionScorer(key, "oot", ootItem, options);
}

/** Score parsed oot lines against a key. */
export function scoreOot(key: ScoringKey, lines: Iterable<SystemLine>, options: ScorerOptions = {}): SubstitutionResult {
  const s = ootScorer(key, options);
  for (const l of lines) s.add(l);
  return s.finish();
}
