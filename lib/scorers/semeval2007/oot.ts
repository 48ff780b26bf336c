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
 * reported (`repeated`: the guesses that matched an entry already credited),
 * as later versions of the official scorer warn about it. Pure.
 */
import { OOT_LIMIT, itemScore } from "./rules";
import { type SystemLine } from "./system";
import { type ScoringKey } from "./key";
import { type GoldView, type ItemOutcome, type ScorerOptions, type SubstitutionResult, SubstitutionScorer } from "./substitution";

const NONE: string[] = [];

/** The oot rule for one item (guesses already matched and filtered, at least one). */
function ootItem(gold: GoldView, all: string[]): ItemOutcome {
  const truncated = all.length > OOT_LIMIT;
  const guesses = truncated ? all.slice(0, OOT_LIMIT) : all;
  let credit = 0;
  let modeHit = false;
  let repeated: string[] = NONE;
  // Entries already credited: a bit each for the first 31, a list beyond.
  let seen = 0;
  let seenMore: number[] | null = null;
  for (let i = 0; i < guesses.length; i++) {
    const e = gold.match(guesses[i]);
    if (e < 0) continue;
    credit += gold.count / gold.humanResponses;
    if (gold.modeMatched) modeHit = true;
    const again = e < 31 ? (seen & (1 << e)) !== 0 : (seenMore ??= []).includes(e);
    if (again) {
      if (repeated === NONE) repeated = [];
      if (!repeated.includes(guesses[i])) repeated.push(guesses[i]);
    } else if (e < 31) seen |= 1 << e;
    else seenMore!.push(e);
  }
  return { guesses, credit, score: itemScore(true, credit, guesses.length), modeHit: !gold.hasMode ? null : modeHit, truncated, repeated };
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
