/**
 * The task's own vocabulary as types, shared across lib/lexsub.
 * Pure: no fs, db or next.
 */

/** What an annotator gave for one instance. */
export type AnswerKind = "substitutes" | "NAME" | "NIL";

/** One annotator's response to one instance, as stored and as imported by TSV. */
export interface AnnotatorResponse {
  annotator: string;
  /** The lexelt item verbatim, e.g. "bright.a" or "stand.n.v". */
  lexelt: string;
  /** The instance id as in the lexelt file (a string: ids are keys, never numbers). */
  instanceId: string;
  kind: AnswerKind;
  /** Up to three substitutes, in the order given; empty unless kind = "substitutes". */
  substitutes: string[];
  /** The multiword phrase the target is part of, or null when none. */
  multiword: string | null;
}

/** A lexelt item split into its parts: `lemma.pos` or `lemma.oriPos.pos`. */
export interface LexeltItem {
  item: string;
  lemma: string;
  pos: string;
  /** The original PoS when the item was corrected, e.g. "n" in "stand.n.v". */
  originalPos: string | null;
}

export function parseLexeltItem(item: string): LexeltItem | null {
  const m = /^(.+?)\.([a-z])(?:\.([a-z]))?$/.exec(item);
  if (!m) return null;
  if (m[3]) return { item, lemma: m[1], originalPos: m[2], pos: m[3] };
  return { item, lemma: m[1], pos: m[2], originalPos: null };
}
