/**
 * A WordNet lemmatiser that never invents words: WordNet's morphy (its
 * exception lists, then its detachment rules per PoS), checked against
 * WordNet's own lemma index.
 *
 * - A form that is itself a WordNet lemma is left alone (boss, species, means,
 *   corps, ground, outer): by default a lemma of any PoS, since annotators are not
 *   shown the target's PoS and often answer in another (`willing` for prepare.v
 *   is not a form of the verb will; `waiting` for a verb stays as typed);
 *   `leave: "target-pos"` leaves only lemmas of the target's PoS.
 * - Otherwise it is mapped only to a lemma that exists in WordNet for that PoS:
 *   the exception list first (took → take, mice → mouse), then the detachment
 *   rules (films → film, happier → happy); the first candidate in WordNet's
 *   order wins (`choose: "shortest"` is NLTK's WordNetLemmatizer choice).
 * - Words WordNet does not know are left alone, and so are the modal
 *   auxiliaries, which WordNet does not describe (its exception list maps
 *   would → will, the verb of bequeathing).
 * - Phrases: the whole phrase as a WordNet collocation (words joined by `_`)
 *   first, as morphy does; then every word through morphy with the result
 *   looked up as a collocation (states of mind → state of mind); otherwise the
 *   word that inflects for the PoS (the verb's first word, the noun's head).
 * - Case is kept: the lookup is case-insensitive, an unchanged form is returned
 *   exactly as given, and a lemma takes the case pattern of the word it
 *   replaces (Took → Take, MICE → MOUSE).
 *
 * Pure: the lemma index and the exception lists come in as data (see
 * lib/wordnet/load.ts for reading them from WordNet's files).
 */

/** The four PoS of WordNet and of the task: noun, verb, adjective, adverb. */
export type WordNetPos = "n" | "v" | "a" | "r";

export const WORDNET_POS: readonly WordNetPos[] = ["n", "v", "a", "r"];

/** What the lemmatiser reads: per PoS, WordNet's lemmas and its exception lists (form → lemmas). */
export interface WordNetData {
  /** Lemmas as in WordNet's index files: lower case, words joined by `_`. */
  lemmas: Readonly<Record<WordNetPos, ReadonlySet<string>>>;
  /** The *.exc lists: inflected form → base forms, both written as in the files. */
  exceptions: Readonly<Record<WordNetPos, ReadonlyMap<string, readonly string[]>>>;
}

export interface MorphyOptions {
  /**
   * Which forms count as lemmas already and are left alone: "any-pos" (default),
   * a WordNet lemma of any PoS; "target-pos", a lemma of the target's PoS only
   * (WordNet's morphy and NLTK's lemmatiser).
   */
  leave?: "any-pos" | "target-pos";
  /**
   * Which of several existing lemmas a form maps to: "first" (default), the
   * first in WordNet's order (exception list, then rules), as WordNet's morphy
   * returns them; "shortest", the shortest (NLTK's WordNetLemmatizer).
   */
  choose?: "first" | "shortest";
}

/** WordNet's detachment rules (morph.c), suffix → replacement, per PoS. */
const RULES: Record<WordNetPos, readonly (readonly [string, string])[]> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  r: [],
};

/** Modal auxiliaries: WordNet has no entry for them, and its verb.exc maps would → will. */
const MODALS = new Set(["can", "could", "may", "might", "must", "shall", "should", "will", "would", "ought"]);

/** Prepositions that end a noun phrase's head: `states of mind` → head `states`. */
const PREPOSITIONS = new Set([
  "of", "in", "on", "at", "for", "from", "to", "with", "by", "about", "under", "over",
  "into", "onto", "between", "among", "without", "within", "than", "like", "per",
]);

function isPos(pos: string): pos is WordNetPos {
  return pos === "n" || pos === "v" || pos === "a" || pos === "r";
}

/**
 * WordNet's candidate lemmas for one lower-case form (words joined by `_`) that
 * is not itself a lemma: the exception list's entries if the form has one, else
 * the detachment rules' results, in both cases only those that are lemmas of the
 * PoS, in WordNet's order, without repeats.
 */
export function morphyCandidates(data: WordNetData, key: string, pos: WordNetPos): string[] {
  const lemmas = data.lemmas[pos];
  const out: string[] = [];
  const add = (c: string) => {
    if (c !== key && c !== "" && lemmas.has(c) && !out.includes(c)) out.push(c);
  };
  const exc = data.exceptions[pos].get(key);
  if (exc) {
    for (const c of exc) add(c);
    return out;
  }
  // morph.c: nouns ending in -ss, and words of two letters or fewer, are not detached.
  if (key.length <= 2 || (pos === "n" && key.endsWith("ss"))) return out;
  for (const [suffix, ending] of RULES[pos]) {
    if (key.endsWith(suffix)) add(key.slice(0, key.length - suffix.length) + ending);
  }
  return out;
}

function pick(candidates: readonly string[], options: MorphyOptions): string | null {
  if (candidates.length === 0) return null;
  if (options.choose !== "shortest") return candidates[0];
  let best = candidates[0];
  for (const c of candidates) if (c.length < best.length) best = c;
  return best;
}

/** `word` in the case pattern of `typed`: Title, UPPER (two letters or more), else as is. */
function inCaseOf(typed: string, word: string): string {
  if (typed.length > 1 && typed === typed.toUpperCase() && typed !== typed.toLowerCase()) return word.toUpperCase();
  const first = typed.charAt(0);
  if (first !== first.toLowerCase() && typed.slice(1) === typed.slice(1).toLowerCase()) return word.charAt(0).toUpperCase() + word.slice(1);
  return word;
}

/** Replace the words of `typed` with those of `lemma` (a `_`-joined key), each in the case of the word it replaces. */
function withCase(typed: readonly string[], lemma: string): string {
  const words = lemma.split("_");
  if (words.length !== typed.length) return words.join(" ");
  return words.map((w, i) => (w === typed[i].toLowerCase() ? typed[i] : inCaseOf(typed[i], w))).join(" ");
}

/**
 * Which word of a phrase inflects for the target's PoS: for a verb the first word
 * that is not a leading -ly adverb WordNet does not know as a verb (`quickly ran
 * off`); for a noun the head, the last word before a preposition or else the last
 * word (`bus stops`, `states of mind`). Adjective and adverb phrases: none (-1).
 */
function inflectingWord(data: WordNetData, words: readonly string[], pos: WordNetPos): number {
  if (pos === "v") {
    for (let i = 0; i < words.length - 1; i++) {
      const w = words[i];
      if (!(w.length > 3 && w.endsWith("ly") && !data.lemmas.v.has(w))) return i;
    }
    return words.length - 1;
  }
  if (pos === "n") {
    for (let i = 1; i < words.length; i++) if (PREPOSITIONS.has(words[i])) return i - 1;
    return words.length - 1;
  }
  return -1;
}

/** Whether `key` is left alone as a lemma already (of the PoS, or of any PoS: see MorphyOptions.leave). */
function isLemma(data: WordNetData, key: string, pos: WordNetPos, options: MorphyOptions): boolean {
  if (data.lemmas[pos].has(key)) return true;
  if (options.leave === "target-pos") return false;
  return data.lemmas.n.has(key) || data.lemmas.v.has(key) || data.lemmas.a.has(key) || data.lemmas.r.has(key);
}

/** One lower-case word's lemma for the PoS, or null when it stays as it is. */
function wordLemma(data: WordNetData, word: string, pos: WordNetPos, options: MorphyOptions): string | null {
  if (word === "" || isLemma(data, word, pos, options) || MODALS.has(word)) return null;
  return pick(morphyCandidates(data, word, pos), options);
}

/**
 * What WordNet's morphy would also map a form to for the PoS although the form is
 * left alone (a lemma already, or a modal): `better` (a) → good, well; `waiting`
 * (v) → wait. For the coordinator to choose from; never applied by itself.
 */
export function wordnetAlternatives(data: WordNetData, form: string, pos: string): string[] {
  if (!isPos(pos)) return [];
  const key = form.split(/\s+/).filter((w) => w !== "").join("_").toLowerCase();
  if (key === "") return [];
  return morphyCandidates(data, key, pos).map((c) => c.replace(/_/g, " "));
}

/**
 * The lemma WordNet gives a typed form for the target's PoS (n, v, a, r), or the
 * form itself (whitespace collapsed, case kept) when it is a lemma already, when
 * WordNet does not know it, or when the PoS is none of the four.
 */
export function wordnetLemma(data: WordNetData, form: string, pos: string, options: MorphyOptions = {}): string {
  const typed = form.split(/\s+/).filter((w) => w !== "");
  const text = typed.join(" ");
  if (typed.length === 0 || !isPos(pos)) return text;
  const lower = typed.map((w) => w.toLowerCase());
  const key = lower.join("_");
  const lemmas = data.lemmas[pos];
  if (isLemma(data, key, pos, options)) return text;
  if (typed.length === 1) {
    const lemma = wordLemma(data, key, pos, options);
    return lemma === null ? text : withCase(typed, lemma);
  }
  // The phrase as a collocation: the exception list and the rules on the whole.
  const whole = pick(morphyCandidates(data, key, pos), options);
  if (whole !== null) return withCase(typed, whole);
  // Every word through morphy, the result looked up as a collocation.
  const each = lower.map((w) => wordLemma(data, w, pos, options) ?? w).join("_");
  if (each !== key && lemmas.has(each)) return withCase(typed, each);
  // Otherwise the word that inflects, when WordNet knows its lemma.
  const i = inflectingWord(data, lower, pos);
  if (i < 0) return text;
  const lemma = wordLemma(data, lower[i], pos, options);
  if (lemma === null || lemma.includes("_")) return text;
  const out = [...typed];
  out[i] = inCaseOf(typed[i], lemma);
  return out.join(" ");
}

/**
 * A verb target's participle that WordNet also lists as an adjective (`selected`,
 * `broken`, `excited`): left alone by wordnetLemma (a lemma of another PoS), it is
 * offered here as the verb's lemma (`select`, `break`, `excite`) — a choice between the
 * two readings for the coordinator, never applied by itself. null for anything else:
 * another PoS, a phrase, a verb lemma, a modal, or a form WordNet does not list as an
 * adjective or whose verb reading it does not know.
 */
export function participleChoice(data: WordNetData, form: string, pos: string): string | null {
  if (pos !== "v") return null;
  const typed = form.split(/\s+/).filter((w) => w !== "");
  if (typed.length !== 1) return null;
  const key = typed[0].toLowerCase();
  if (data.lemmas.v.has(key) || !data.lemmas.a.has(key) || MODALS.has(key)) return null;
  const verb = pick(morphyCandidates(data, key, "v"), {});
  return verb === null || verb.includes("_") ? null : inCaseOf(typed[0], verb);
}

/**
 * A proposer: typed form and the target's PoS → the proposed lemma (the form itself when
 * none). `choice`, when given: a lemma offered beside a form the proposer leaves alone, for
 * the coordinator to choose (participleChoice); the review shows it, nothing applies it.
 */
export type LemmaProposer = ((form: string, pos: string) => string) & { choice?: (form: string, pos: string) => string | null };

/** wordnetLemma over fixed data and options, as a proposer for lib/lexsub/normalize.ts, with participleChoice as its choice. */
export function wordnetProposer(data: WordNetData, options: MorphyOptions = {}): LemmaProposer {
  const propose: LemmaProposer = (form, pos) => wordnetLemma(data, form, pos, options);
  propose.choice = (form, pos) => participleChoice(data, form, pos);
  return propose;
}

/** Parse an index.* file's text into its lemmas (the first field of each line; licence lines start with spaces). */
export function parseIndexLemmas(text: string, into: Set<string> = new Set()): Set<string> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (text.charCodeAt(start) !== 32 && end > start) {
      const sp = text.indexOf(" ", start);
      if (sp > start && sp < end) into.add(text.slice(start, sp));
    }
    start = end + 1;
  }
  return into;
}

/** Parse a *.exc file's text: `form lemma lemma…` per line. */
export function parseExceptions(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 2 || fields[0] === "") continue;
    const prev = out.get(fields[0]);
    if (prev) prev.push(...fields.slice(1));
    else out.set(fields[0], fields.slice(1));
  }
  return out;
}
