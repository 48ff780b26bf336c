/**
 * NLTK's WordNetLemmatizer, reproduced for SWORDS parity only (swords/eval.py
 * lemmatises system and gold substitutes with it). Never use it for the
 * project's gold: it maps lemmas to shorter lemmas (boss → bos, species →
 * specie), which lib/lexsub/morphy.ts's `wordnetLemma` refuses to do.
 *
 * Semantics of `WordNetLemmatizer().lemmatize(word, pos)` over WordNet 3.0:
 * - `_morphy(word, pos)`: if the word is in the PoS's exception list, the
 *   word and its listed base forms that are lemmas of the PoS; otherwise the
 *   word itself and each result of the PoS's detachment rules applied once,
 *   kept when a lemma of the PoS (in that order, without repeats); when none
 *   is, the rules are applied again to the results until some are lemmas or
 *   nothing is left to detach.
 * - The shortest of those wins (the first among equals); none: the word as given.
 * - Case-sensitive (WordNet's lemmas are lower case, so `Boss` stays `Boss`),
 *   spaces are not joined to `_` (a phrase is looked up as typed, so stays).
 *
 * Pure: WordNet's lemma index and exception lists come in as data.
 */
import type { WordNetData, WordNetPos } from "../../lexsub/morphy";

/** NLTK's MORPHOLOGICAL_SUBSTITUTIONS (nouns have `ves → f`, which WordNet's morph.c does not). */
const NLTK_RULES: Record<WordNetPos, readonly (readonly [string, string])[]> = {
  n: [["s", ""], ["ses", "s"], ["ves", "f"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  r: [],
};

function applyRules(forms: readonly string[], pos: WordNetPos): string[] {
  const out: string[] = [];
  for (const form of forms) {
    for (const [old, repl] of NLTK_RULES[pos]) {
      if (form.endsWith(old)) out.push(form.slice(0, form.length - old.length) + repl);
    }
  }
  return out;
}

function filterForms(data: WordNetData, forms: readonly string[], pos: WordNetPos): string[] {
  const out: string[] = [];
  for (const f of forms) if (data.lemmas[pos].has(f) && !out.includes(f)) out.push(f);
  return out;
}

/** NLTK's `_morphy(form, pos)`: the candidate lemmas, in NLTK's order. */
export function nltkMorphy(data: WordNetData, form: string, pos: WordNetPos): string[] {
  const exc = data.exceptions[pos].get(form);
  if (exc) return filterForms(data, [form, ...exc], pos);
  let forms = applyRules([form], pos);
  const first = filterForms(data, [form, ...forms], pos);
  if (first.length > 0) return first;
  // Bounded: every rule shortens or keeps the length of a form; stop on a repeat round.
  let guard = 0;
  while (forms.length > 0 && guard++ < 32) {
    forms = applyRules(forms, pos);
    const found = filterForms(data, forms, pos);
    if (found.length > 0) return found;
  }
  return [];
}

/** The universal PoS of a SWORDS target → NLTK's lemmatiser PoS (anything else: noun, as swords/lemma.py does). */
export function nltkPos(pos: string | null | undefined): WordNetPos {
  switch ((pos ?? "").toUpperCase()) {
    case "VERB":
      return "v";
    case "ADJ":
      return "a";
    case "ADV":
      return "r";
    default:
      return "n";
  }
}

/** NLTK's `WordNetLemmatizer().lemmatize(word, pos)`: the shortest lemma morphy finds, else the word unchanged. */
export function nltkLemmatize(data: WordNetData, word: string, pos: WordNetPos): string {
  const lemmas = nltkMorphy(data, word, pos);
  if (lemmas.length === 0) return word;
  let best = lemmas[0];
  for (const l of lemmas) if (l.length < best.length) best = l;
  return best;
}
