/**
 * Substitute normalisation and semi-automatic lemmatisation (paper §2: "all
 * annotations were semi-automatically lemmatised (substitutes and identified
 * multiwords) unless the lemmatised version would change the meaning").
 *
 * - normaliseForm: trim, single spaces, lower case. The result is the key of the
 *   lemma table and of the coordinator's review.
 * - proposeLemma: wink-lemmatizer (WordNet's morphy over bundled data, no I/O)
 *   with the target's PoS; in a phrase only the word that inflects for that PoS
 *   is lemmatised.
 * - LemmaTable: the coordinator's decisions, normalised form → {lemma, decision}.
 *   The entry's lemma is written to the gold verbatim (so an entry may keep upper
 *   case: `nato` → `NATO`); forms without an entry use the proposal (or, with
 *   `unreviewed: "keep"`, the normalised form).
 *
 * Pure: strings in, records out. Hyphens are kept as typed (the scorer, not the
 * gold, accepts a space for a hyphen).
 */
import wink from "wink-lemmatizer";
import { type AnnotatorResponse, parseLexeltItem } from "./types";

/** The four PoS of the task: noun, verb, adjective, adverb. */
export type Pos = "n" | "v" | "a" | "r";

/** Trim and collapse every run of whitespace to one space. */
export function collapseSpace(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The normalised form of what an annotator typed: trimmed, single spaces, lower case. */
export function normaliseForm(raw: string): string {
  return collapseSpace(raw).toLowerCase();
}

const wordLemmatisers: Partial<Record<string, (w: string) => string>> = {
  n: wink.noun,
  v: wink.verb,
  a: wink.adjective,
  // Adverbs: wink has no adverb lemmatiser and the adjective one would map the
  // adverb "better" to "good"; adverbs are kept as typed.
};

/** Lemmatise one word with the lemmatiser for `pos`; the word itself when it cannot. */
function lemmatiseWord(word: string, pos: string): string {
  const f = wordLemmatisers[pos];
  if (!f || word === "") return word;
  let out: unknown;
  try {
    out = f(word);
  } catch {
    return word;
  }
  if (typeof out !== "string" || out === "") return word;
  if (out === word && (pos === "n" || pos === "v")) {
    // A hyphenated compound inflects on its last part: do-nothings, cross-checked.
    const i = word.lastIndexOf("-");
    if (i > 0 && i < word.length - 1) {
      const tail = word.slice(i + 1);
      const lemma = lemmatiseWord(tail, pos);
      if (lemma !== tail) return word.slice(0, i + 1) + lemma;
    }
  }
  return out;
}

/** Prepositions that end a noun phrase's head: `states of mind` → head `states`. */
const PREPOSITIONS = new Set([
  "of", "in", "on", "at", "for", "from", "to", "with", "by", "about", "under", "over",
  "into", "onto", "between", "among", "without", "within", "than", "like", "per",
]);

/** Verbs ending in -ly, so that they are not mistaken for a leading adverb. */
const LY_VERBS = new Set([
  "apply", "rely", "reply", "supply", "fly", "ally", "comply", "multiply", "imply",
  "bully", "rally", "tally", "sully", "dally", "belly", "jelly", "dilly", "shilly",
]);

/**
 * Which word of a phrase inflects for the target's PoS: for a verb the first word
 * that is not a leading -ly adverb (`took place`, `quickly ran off`); for a noun
 * the head, the last word before a preposition or else the last word (`bus stops`,
 * `states of mind`). Adjective and adverb phrases are left alone (-1).
 */
function inflectingWord(words: string[], pos: string): number {
  if (pos === "v") {
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (i < words.length - 1 && w.length > 3 && w.endsWith("ly") && !LY_VERBS.has(w)) continue;
      return i;
    }
    return 0;
  }
  if (pos === "n") {
    for (let i = 1; i < words.length; i++) if (PREPOSITIONS.has(words[i])) return i - 1;
    return words.length - 1;
  }
  if (pos === "a" && words.length === 1) return 0;
  return -1;
}

/**
 * The lemma the lemmatiser proposes for a typed form, given the target's PoS
 * (n, v, a, r; anything else: the normalised form unchanged).
 */
export function proposeLemma(form: string, pos: string): string {
  const f = normaliseForm(form);
  if (f === "") return f;
  const words = f.split(" ");
  const i = inflectingWord(words, pos);
  if (i < 0) return f;
  const lemma = lemmatiseWord(words[i], pos);
  if (lemma === words[i]) return f;
  words[i] = lemma;
  return words.join(" ");
}

/** What the coordinator decided for a form: take the proposal, give another lemma, or keep the form. */
export type LemmaDecision = "accepted" | "overridden" | "kept";

export interface LemmaTableEntry {
  /** Written to the gold as is (whitespace collapsed, case kept). */
  lemma: string;
  decision: LemmaDecision;
}

/** Normalised form → the coordinator's decision. Build it with `lemmaTable`. */
export type LemmaTable = ReadonlyMap<string, LemmaTableEntry>;

export interface LemmaTableRow {
  form: string;
  lemma: string;
  decision: LemmaDecision;
}

/**
 * A lemma table from plain rows (e.g. db rows): keys are normalised, lemmas
 * whitespace-collapsed; rows with an empty form or lemma are skipped; a later row
 * for the same form wins.
 */
export function lemmaTable(rows: Iterable<LemmaTableRow>): LemmaTable {
  const table = new Map<string, LemmaTableEntry>();
  for (const r of rows) {
    const form = normaliseForm(r.form);
    const lemma = collapseSpace(r.lemma);
    if (form === "" || lemma === "") continue;
    table.set(form, { lemma, decision: r.decision });
  }
  return table;
}

/** The decision a stored (form, lemma) pair amounts to, given the proposal. */
export function decisionFor(form: string, lemma: string, proposed: string): LemmaDecision {
  const l = collapseSpace(lemma);
  if (l === collapseSpace(proposed) && l !== normaliseForm(form)) return "accepted";
  if (l.toLowerCase() === normaliseForm(form)) return "kept";
  return "overridden";
}

export interface LemmatiserOptions {
  /**
   * Forms without a table entry: "propose" (default) writes the lemmatiser's
   * proposal, "keep" the normalised form.
   */
  unreviewed?: "propose" | "keep";
}

/** Maps what an annotator typed to what the gold records; "" when nothing is left. */
export type Lemmatiser = (raw: string, pos: string) => string;

/**
 * The gold's view of a typed form: normalise, then the table entry's lemma, else
 * the proposal for `pos`. Memoised per (raw, pos): one instance per derivation.
 */
export function createLemmatiser(table: LemmaTable = new Map(), options: LemmatiserOptions = {}): Lemmatiser {
  const propose = (options.unreviewed ?? "propose") === "propose";
  // Per PoS: raw → result, and normalised form → result (many raw spellings, one form).
  const memo = new Map<string, { byRaw: Map<string, string>; byForm: Map<string, string> }>();
  let lastPos: string | null = null;
  let last: { byRaw: Map<string, string>; byForm: Map<string, string> } | undefined;
  return (raw, pos) => {
    if (pos !== lastPos) {
      last = memo.get(pos);
      if (!last) memo.set(pos, (last = { byRaw: new Map(), byForm: new Map() }));
      lastPos = pos;
    }
    const m = last!;
    let out = m.byRaw.get(raw);
    if (out === undefined) {
      const form = normaliseForm(raw);
      out = m.byForm.get(form);
      if (out === undefined) {
        const entry = form === "" ? undefined : table.get(form);
        out = entry ? entry.lemma : propose ? proposeLemma(form, pos) : form;
        m.byForm.set(form, out);
      }
      m.byRaw.set(raw, out);
    }
    return out;
  };
}

/** Which PoS to lemmatise a response's forms with. */
export type PosLookup = (response: AnnotatorResponse) => string | null | undefined;

/** The PoS written in the response's lexelt item (the corrected one for `stand.n.v`). */
export const posFromLexelt: PosLookup = (r) => parseLexeltItem(r.lexelt)?.pos ?? null;

export interface LemmaReviewRow {
  /** The normalised form (the table's key). */
  form: string;
  /** The lemmatiser's proposal for the PoS the form was most often given under. */
  proposed: string;
  /** How often the form was typed: once per response that gave it as a substitute or multiword. */
  count: number;
  /** The proposal differs from the form. */
  changed: boolean;
  /** The coordinator's decision, null while unreviewed. */
  decision: LemmaDecision | null;
  /** What the gold records now: the table's lemma, else the proposal (or the form, with unreviewed "keep"). */
  lemma: string;
  /** The PoS the form was given under, most frequent first (ties n, v, a, r, then alphabetical). */
  pos: string[];
  /** Only when the proposal depends on the PoS (e.g. `leaves`: n → leaf, v → leave). */
  proposals?: { pos: string; proposed: string; count: number }[];
}

const POS_ORDER: Record<string, number> = { n: 0, v: 1, a: 2, r: 3 };
const posRank = (p: string) => POS_ORDER[p] ?? 4;

/**
 * The coordinator's review table: one row per distinct normalised form among the
 * substitutes and multiwords typed (NAME and NIL carry none), changed forms first,
 * then by count descending, then by form.
 */
export function buildLemmaReview(
  responses: Iterable<AnnotatorResponse>,
  posOf: PosLookup = posFromLexelt,
  table: LemmaTable = new Map(),
  options: LemmatiserOptions = {},
): LemmaReviewRow[] {
  const counts = new Map<string, Map<string, number>>(); // form → pos → count
  const add = (raw: string, pos: string) => {
    const form = normaliseForm(raw);
    if (form === "") return;
    let byPos = counts.get(form);
    if (!byPos) counts.set(form, (byPos = new Map()));
    byPos.set(pos, (byPos.get(pos) ?? 0) + 1);
  };
  for (const r of responses) {
    const pos = posOf(r) ?? "";
    if (r.kind === "substitutes") {
      const seen = new Set<string>();
      for (const s of r.substitutes) {
        const f = normaliseForm(s);
        if (seen.has(f)) continue;
        seen.add(f);
        add(s, pos);
      }
    }
    if (r.multiword != null) add(r.multiword, pos);
  }
  const propose = (options.unreviewed ?? "propose") === "propose";
  const rows: LemmaReviewRow[] = [];
  for (const [form, byPos] of counts) {
    const perPos = [...byPos]
      .map(([pos, count]) => ({ pos, count, proposed: proposeLemma(form, pos) }))
      .sort((a, b) => b.count - a.count || posRank(a.pos) - posRank(b.pos) || cmp(a.pos, b.pos));
    const proposed = perPos[0].proposed;
    const entry = table.get(form);
    const row: LemmaReviewRow = {
      form,
      proposed,
      count: perPos.reduce((n, p) => n + p.count, 0),
      changed: perPos.some((p) => p.proposed !== form),
      decision: entry?.decision ?? null,
      lemma: entry ? entry.lemma : propose ? proposed : form,
      pos: perPos.map((p) => p.pos),
    };
    if (perPos.some((p) => p.proposed !== proposed)) row.proposals = perPos;
    rows.push(row);
  }
  rows.sort((a, b) => Number(b.changed) - Number(a.changed) || b.count - a.count || cmp(a.form, b.form));
  return rows;
}

/** Code-point order: the same on every machine and locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
