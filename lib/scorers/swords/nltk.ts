/**
 * NLTK 3.5's WordNetLemmatizer over WordNet 3.0, reproduced for SWORDS parity
 * only (swords/eval.py lemmatises system and gold substitutes with it; the data
 * comes from lib/wordnet/wn30.ts). Never use it for the project's gold: it maps
 * lemmas to shorter lemmas (boss → bos, species → specie), which
 * lib/lexsub/morphy.ts's `wordnetLemma` refuses to do.
 *
 * `WordNetLemmatizer().lemmatize(word, pos)` is `min(_morphy(word, pos), key=len)`,
 * or the word itself when `_morphy` finds nothing; `_morphy(form, pos)`:
 * - form in the PoS's exception list (NLTK keeps the last line of a repeated
 *   key): `[form] + bases`, kept when a lemma of the PoS's index, first
 *   occurrences only, and nothing else is tried;
 * - otherwise `[form] + rules(form)` filtered the same way; when that is empty,
 *   the rules are applied again to every form of the last round (not only the
 *   lemmas) until a round gives a lemma or no rule applies.
 * - `min(…, key=len)`: the first of the shortest.
 * - Case-sensitive (WordNet's lemmas are lower case, so `Boss` stays `Boss`);
 *   spaces are not joined to `_`, so a phrase is looked up as typed and stays.
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

/**
 * NLTK's reading of a *.exc file: each line split on whitespace, the first
 * field the key, the rest its bases; a key met again replaces the earlier line
 * (a Python dict assignment). Blank lines (none in WordNet's files) are skipped.
 */
export function parseNltkExceptions(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const fields = line.split(/\s+/).filter((f) => f !== "");
    if (fields.length === 0) continue;
    out.set(fields[0], fields.slice(1));
  }
  return out;
}

/**
 * NLTK's apply_rules. Repeats are dropped here (NLTK keeps them): the lemmas
 * found are the same, in the same order, since filter_forms keeps first
 * occurrences and a repeated form only repeats its own results later.
 */
function applyRules(forms: readonly string[], pos: WordNetPos): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const form of forms) {
    for (const [old, repl] of NLTK_RULES[pos]) {
      if (!form.endsWith(old)) continue;
      const f = form.slice(0, form.length - old.length) + repl;
      if (!seen.has(f)) {
        seen.add(f);
        out.push(f);
      }
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
function nltkMorphy(data: WordNetData, form: string, pos: WordNetPos): string[] {
  const exc = data.exceptions[pos].get(form);
  if (exc) return filterForms(data, [form, ...exc], pos);
  let forms = applyRules([form], pos);
  const first = filterForms(data, [form, ...forms], pos);
  if (first.length > 0) return first;
  // Every rule shortens a form, so this ends.
  while (forms.length > 0) {
    forms = applyRules(forms, pos);
    const found = filterForms(data, forms, pos);
    if (found.length > 0) return found;
  }
  return [];
}

/** The universal PoS of a SWORDS target → NLTK's lemmatiser PoS (anything else: noun, as swords/lemma.py does). */
export function nltkPos(pos: string | null | undefined): WordNetPos {
  switch (pos) {
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
