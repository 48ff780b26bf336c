/**
 * The measure for known-answer items (training items and attention checks).
 *
 * An answer MATCHES an item when at least one substitute it gives shares a lemma
 * with one of the item's accepted substitutes: both sides are normalised (trimmed,
 * single spaces, lower case) and lemmatised for the lexelt's PoS the way the gold
 * lemmatises (WordNet's morphy, given as `lemmatise`). NAME and NIL answers match an
 * item whose accepted answers include the same (NAME never matches NIL). An item answered with nothing
 * does not match.
 *
 * The training SCORE is the percentage of the attempt's items that matched,
 * rounded down to a whole percent; an attempt PASSES when score ≥ the project's
 * threshold (percent). Pure: strings in, verdicts out.
 */
import { normaliseForm } from "./normalize";

export type Lemmatise = (form: string, pos: string) => string;

export interface KnownAnswerVerdict {
  matched: boolean;
  /** The substitutes of the answer that share a lemma with an accepted substitute. */
  matchedSubstitutes: string[];
}

const SPECIAL = new Set(["NAME", "NIL"]);

export function judgeAnswer(answer: readonly string[], accepted: readonly string[], pos: string, lemmatise: Lemmatise): KnownAnswerVerdict {
  const key = (s: string) => {
    const t = s.trim();
    if (SPECIAL.has(t.toUpperCase())) return t.toUpperCase();
    return normaliseForm(lemmatise(normaliseForm(t), pos));
  };
  const targets = new Set(accepted.map(key).filter((k) => k !== ""));
  const matchedSubstitutes = answer.filter((a) => a.trim() !== "" && targets.has(key(a)));
  return { matched: matchedSubstitutes.length > 0, matchedSubstitutes };
}

/** Percent of items matched, rounded down; 0 for no items. */
export function trainingScore(matched: number, items: number): number {
  return items === 0 ? 0 : Math.floor((100 * matched) / items);
}

export function passes(score: number, threshold: number): boolean {
  return score >= threshold;
}

/** Split an accepted list as typed in a form or a TSV cell: `sub1;sub2;…`, blanks dropped, duplicates once. */
export function parseAcceptedList(cell: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of cell.split(";")) {
    const s = part.replace(/\s+/g, " ").trim();
    if (s === "" || seen.has(s.toLowerCase())) continue;
    seen.add(s.toLowerCase());
    out.push(s);
  }
  return out;
}
