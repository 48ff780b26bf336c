/**
 * The rules an answer must follow, in any language and script. One module, used
 * everywhere an answer enters or leaves: the workspace (in the browser, before
 * sending), the server's save (lib/server/annotate/responses.ts), the TSV import
 * (formats/responses.ts, lib/server/annotate/response-import.ts) and the gold
 * derivation, which lists stored answers that break them (gold.ts), so these can
 * never disagree.
 *
 * A gold line is `lexelt id :: sub n;sub n;` (formats/gold.ts, reference §2), and
 * the scorer reads each `;`-separated field with `(\w[\w' -\s]+) (\d+)`. Read as
 * UTF-8 text (`perl -CSD score.pl`, `lexgold score --utf8`), `\w` is every letter,
 * mark and digit, so an answer may be written as people write it. A substitute
 * - holds one answer: `;` separates entries, and a comma list is several answers
 *   (rule "list");
 * - holds only letters and combining marks of any script (`\p{L}\p{M}`: `naïve`,
 *   `pequeño`, `Fußweg`, Greek, Cyrillic), digits, `_`, spaces, hyphens and
 *   apostrophes: markup (`<`, `>`, `&`; rule "markup"), invisible characters
 *   (rule "control"), `.`, `:` and the rest make the scorer start reading after
 *   them or not at all (rule "characters");
 * - starts with a letter or digit (rule "start") and has at least two letters
 *   (rule "letters": the pattern needs two characters; `x` and `--` are not
 *   answers);
 * - is not `pn`, the entry NAME answers are written as (rule "pn");
 * - has at most MAX_SUBSTITUTE_LENGTH characters, the same limit as the
 *   workspace field's maxLength (rule "length").
 * Nothing is folded: `crío` stays `crío`. What the workspace keeps is tidied
 * (`tidy`): NFC (`e` + combining acute is stored as `é`), curly apostrophes read
 * as `'`, runs of spaces, tabs and line breaks read as one space and the ends
 * trimmed. Answers imported as written are not tidied (NFC aside); one with other
 * spacing breaks rule "spacing" (`spacingBreak`), which only they can break.
 *
 * A multiword phrase follows the same character rules (mwgold lines have the same
 * form), has at most MAX_PHRASE_LENGTH characters and at least two words, apart
 * or hyphenated (`cross section`, `cross-section`; rule "words"), and contains a form of the target: its lemma or its head word as it
 * appears in the sentence, as a whole word, ignoring case (rule "target").
 *
 * A substitute is not the target word itself (its lemma or head word, case
 * ignored in the project's language, `Target.language`; rule "target",
 * `targetBreak`). A whole response (`checkResponse`) adds what the workspace
 * asks of an answer: at most three substitutes, none repeated, at least one
 * unless the answer is NAME or NIL, none with NAME or NIL.
 *
 * Pure (no fs, db or next): imported by the browser too.
 */
import { officialEntry } from "./formats/gold";
import { foldCase } from "./language";

export const MAX_SUBSTITUTES = 3;
/** Longest substitute, in characters (after tidying): the workspace field's maxLength too. */
export const MAX_SUBSTITUTE_LENGTH = 60;
/** Longest multiword phrase, in characters (after tidying): the phrase field's maxLength too. */
export const MAX_PHRASE_LENGTH = 80;

/** The gold entry NAME answers are written as (gold.ts writes it; the scorer drops it). */
const PN = "pn";

type SubstituteRule = "length" | "list" | "markup" | "control" | "characters" | "pn" | "letters" | "start" | "target" | "spacing";
type PhraseRule = Exclude<SubstituteRule, "pn"> | "words";
export type Rule = SubstituteRule | PhraseRule;

/** A broken rule: which one, and a sentence for the annotator. */
export interface RuleBreak {
  rule: Rule;
  message: string;
}

/**
 * Where the text was typed: a workspace field ("field") or a cell of a responses
 * TSV ("file"), which separates substitutes with `;`. Only the hint differs.
 */
export type Where = "field" | "file";

/** The target of an instance: its lemma and the head word as it stands in the sentence. */
export interface Target {
  lemma: string;
  head: string;
  /** The project's language (a BCP 47 tag), for case folding; English rules when absent. */
  language?: string;
}

/** Curly apostrophes and the modifier letter apostrophe, read as `'`. */
const APOSTROPHES = /[\u2018\u2019\u02bc]/gu;

/**
 * What is stored of an answer as typed: NFC, curly apostrophes read as `'`,
 * every run of whitespace (spaces, tabs, line breaks) read as one space, the
 * ends trimmed.
 */
export function tidy(s: string): string {
  return s.normalize("NFC").replace(APOSTROPHES, "'").replace(/\s+/gu, " ").trim();
}

/** Lower case in the language's rules (English when none is given). */
function fold(s: string, language: string | undefined): string {
  return foldCase(s, language ?? "en");
}

/** Characters that separate a list of answers typed into one field. */
const LIST_SEPARATORS = /[,;|/，、；]+/u;
const MARKUP = /[<>&]/;
/** Invisible characters: control, format (zero-width, bidi, BOM), private use, unassigned. */
const CONTROL = /\p{C}/u;
/** What an answer may hold: letters and marks of any script, digits, `_`, spaces, hyphens, apostrophes. */
const ANSWER_CHARS = /^[\p{L}\p{M}\p{Nd}_' -]+$/u;
const ANSWER_CHAR = /[\p{L}\p{M}\p{Nd}_' -]/u;
const WORD_START = /^[\p{L}\p{Nd}_]/u;
const LETTER = /\p{L}/gu;
const ASCII = /^[\x20-\x7e]*$/;

const quote = (s: string) => `“${s}”`;

/** A list of two or more answers in one text (`calm, peaceful`, `calm; still`, `calm/still`). */
function isList(raw: string): boolean {
  let parts = 0;
  for (const p of raw.split(LIST_SEPARATORS)) if (p.trim() !== "") parts++;
  return parts >= 2;
}

/**
 * The character rules shared by substitutes and phrases, on tidied text: markup,
 * invisible characters, anything else the entry pattern does not read.
 */
function characterBreak(s: string, what: string): RuleBreak | null {
  if (MARKUP.test(s)) {
    return /[<>]/.test(s)
      ? { rule: "markup", message: `No markup: the gold files cannot hold ${quote("<")} or ${quote(">")}.` }
      : { rule: "markup", message: `The gold files cannot hold ${quote("&")}; write ${quote("and")}.` };
  }
  const control = CONTROL.exec(s);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return { rule: "control", message: `This holds an invisible character (U+${code}); retype the ${what} without it.` };
  }
  if (ANSWER_CHARS.test(s)) return null;
  const bad = [...s].find((c) => !ANSWER_CHAR.test(c)) ?? [...s][0];
  return {
    rule: "characters",
    message: `${quote(bad)} cannot be part of a ${what}: write letters (any script, accents too), digits, spaces, hyphens and apostrophes.`,
  };
}

function letterCount(s: string): number {
  return s.match(LETTER)?.length ?? 0;
}

/**
 * Whether the entry pattern reads `s` back as written: for plain ASCII, the
 * official scorer's byte-level reading (formats/gold.ts); any other text passing
 * the character and start rules is read back by the UTF-8 reading, where `\w`
 * is every letter, mark and digit.
 */
function readsBackAsWritten(s: string): boolean {
  return !ASCII.test(s) || readsBack(s);
}

/** Whether the official scorer reads `s` back exactly as written in an entry `s 1` (formats/gold.ts). */
export function readsBack(s: string): boolean {
  const m = officialEntry(`${s} 1`);
  return m !== null && m.index === 0 && m[1] === s && m[2] === "1";
}

/**
 * The first rule a substitute breaks, or null. `raw` is as typed (it is tidied
 * here); the caller skips blank fields.
 */
export function substituteBreak(raw: string, where: Where = "field"): RuleBreak | null {
  const s = tidy(raw);
  if (s.length > MAX_SUBSTITUTE_LENGTH) {
    return { rule: "length", message: `A substitute has at most ${MAX_SUBSTITUTE_LENGTH} characters (this one has ${s.length}).` };
  }
  // Markup first: the "/" of a closing tag is not a list.
  if (MARKUP.test(s)) return characterBreak(s, "substitute");
  if (isList(raw)) {
    return {
      rule: "list",
      message:
        where === "field"
          ? "One substitute per field — put the others in the next fields."
          : `One substitute per field — separate substitutes with ${quote(";")} (at most ${MAX_SUBSTITUTES}).`,
    };
  }
  const chars = characterBreak(s, "substitute");
  if (chars) return chars;
  if (s.toLowerCase() === PN) return { rule: "pn", message: `${quote(PN)} is how the gold writes NAME answers; choose NAME instead.` };
  if (letterCount(s) < 2) return { rule: "letters", message: "A substitute has at least two letters." };
  if (!WORD_START.test(s)) return { rule: "start", message: `A substitute starts with a letter or digit, not ${quote(s[0])}.` };
  if (!readsBackAsWritten(s)) return { rule: "characters", message: "The official scorer would not read this back as written; rephrase it." };
  return null;
}

/**
 * Whether `phrase` contains the target's lemma or head word as a whole word
 * (case ignored): `take place` and `took place` both contain the target of
 * `<head>took</head>` (lemma take).
 */
export function containsTarget(phrase: string, target: Target): boolean {
  const p = fold(tidy(phrase), target.language);
  for (const form of targetForms(target)) {
    let at = p.indexOf(form);
    while (at >= 0) {
      const end = at + form.length;
      if ((at === 0 || !isWordChar(p[at - 1])) && (end === p.length || !isWordChar(p[end]))) return true;
      at = p.indexOf(form, at + 1);
    }
  }
  return false;
}

function isWordChar(c: string): boolean {
  return /[\p{L}\p{M}\p{N}]/u.test(c);
}

/** The target's lemma and head word, tidied and lower-cased in its language, blanks left out. */
function targetForms(target: Target): string[] {
  const forms = new Set<string>();
  for (const f of [target.lemma, target.head]) {
    const t = fold(tidy(f), target.language);
    if (t !== "") forms.add(t);
  }
  return [...forms];
}

/** Whether a substitute is the target word itself (its lemma or head word, case ignored): rule "target". */
export function targetBreak(substitute: string, target: Target): RuleBreak | null {
  const s = tidy(substitute);
  return targetForms(target).includes(fold(s, target.language))
    ? { rule: "target", message: `"${s}" is the target word itself; give a different word or phrase.` }
    : null;
}

/**
 * The first rule a multiword phrase breaks, or null. `raw` as typed; the caller
 * skips a blank phrase. Without a target the "target" rule is not checked.
 */
export function phraseBreak(raw: string, target?: Target): RuleBreak | null {
  const p = tidy(raw);
  if (p.length > MAX_PHRASE_LENGTH) {
    return { rule: "length", message: `A multiword phrase has at most ${MAX_PHRASE_LENGTH} characters (this one has ${p.length}).` };
  }
  if (MARKUP.test(p)) return characterBreak(p, "phrase");
  if (isList(raw)) return { rule: "list", message: "One phrase only: the one the target word is part of in this sentence." };
  const chars = characterBreak(p, "phrase");
  if (chars) return chars;
  if (letterCount(p) < 2) return { rule: "letters", message: "A multiword phrase has at least two letters." };
  if (!WORD_START.test(p)) return { rule: "start", message: `A multiword phrase starts with a letter or digit, not ${quote(p[0])}.` };
  if (!/[ -]/.test(p.slice(1, -1))) return { rule: "words", message: "A multiword phrase has at least two words." };
  if (target && !containsTarget(p, target)) {
    const forms = [...new Set([tidy(target.head), tidy(target.lemma)].filter((f) => f !== "").map((f) => fold(f, target.language)))];
    return { rule: "target", message: `The phrase must contain the target word: ${forms.map(quote).join(" or ")}.` };
  }
  if (!readsBackAsWritten(p)) return { rule: "characters", message: "The official scorer would not read this back as written; rephrase it." };
  return null;
}

/**
 * Rule "spacing": white space other than one space between words (two spaces in a
 * row, a space at either end, a tab or another space character). The workspace
 * tidies what is typed, so only answers imported as written (`deliver `,
 * `secretion  producing` in the released LST gold) break it; they are kept as
 * written, and the lemma review proposes the tidied form.
 */
export function spacingBreak(raw: string): RuleBreak | null {
  const s = raw.normalize("NFC");
  return s === s.replace(/\s+/gu, " ").trim() ? null : { rule: "spacing", message: `White space is one space between words, none at either end (${JSON.stringify(s)}).` };
}

/**
 * The rule a form written into the gold (a substitute after the lemma table, or
 * a multiword phrase) breaks, or null: what the Gold tab lists for answers stored
 * before these rules, imported as written, or rewritten by a lemma-table entry.
 */
export function goldFormBreak(form: string, what: "substitute" | "multiword", target?: Target): RuleBreak | null {
  if (what !== "substitute") return phraseBreak(form, target) ?? spacingBreak(form);
  let broken = substituteBreaks.get(form);
  if (broken === undefined) {
    if (substituteBreaks.size >= SUBSTITUTE_BREAKS_KEPT) substituteBreaks.clear();
    const found = substituteBreak(form) ?? spacingBreak(form);
    substituteBreaks.set(form, (broken = found && Object.freeze(found)));
  }
  return broken;
}

/**
 * goldFormBreak's answers for substitutes, kept (a function of the form alone): the derived figures are kept
 * one instance at a time, and every save of an instance checks all of its substitutes again (20 annotators'
 * in a small project's busy instances). Frozen, since they are shared; dropped all at once when full.
 */
const substituteBreaks = new Map<string, RuleBreak | null>();
const SUBSTITUTE_BREAKS_KEPT = 20_000;

/** A broken rule's message as a clause inside a longer sentence: no final stop, lower-case start. */
export function ruleClause(broken: RuleBreak): string {
  const m = broken.message.replace(/\.$/, "");
  return m.charAt(0).toLowerCase() + m.slice(1);
}

// ---------------------------------------------------------------------------
// A whole response

export type ResponseKind = "substitutes" | "NAME" | "NIL";

/** The field keys errors are reported under (the workspace's fields, and "form" for the whole). */
type ResponseField = "substitute1" | "substitute2" | "substitute3" | "multiword" | "form";

/** What the workspace sends: the three fields as typed (blank = unfilled). */
export interface ResponseDraft {
  kind: ResponseKind;
  substitutes: readonly string[];
  multiword: boolean;
  phrase: string;
}

export interface ResponseCheck {
  /** The substitutes kept, tidied, in order (empty unless kind = "substitutes"). */
  substitutes: string[];
  /** The tidied phrase, or null when the target is not part of a multiword. */
  multiword: string | null;
  /** One message per field that breaks a rule, in field order; empty when the response may be saved. */
  errors: Partial<Record<ResponseField, string>>;
}

/**
 * Check a whole response against the rules for the instance's target. The
 * browser runs this before sending and the server again before storing.
 */
export function checkResponse(input: ResponseDraft, target: Target): ResponseCheck {
  const errors: Partial<Record<ResponseField, string>> = {};
  if (input.substitutes.length > MAX_SUBSTITUTES) {
    errors.form = `At most ${MAX_SUBSTITUTES} substitutes.`;
    return { substitutes: [], multiword: null, errors };
  }
  const kept: string[] = [];
  const seen = new Map<string, number>();
  let fieldIssues = 0;
  input.substitutes.forEach((raw, i) => {
    const field = `substitute${i + 1}` as ResponseField;
    const s = tidy(raw);
    if (s === "") return; // an unfilled field
    const fail = (m: string) => {
      fieldIssues++;
      errors[field] = m;
    };
    const lower = fold(s, target.language);
    const broken = input.kind === "substitutes" ? (substituteBreak(raw) ?? targetBreak(s, target)) : null;
    if (input.kind !== "substitutes") fail(`${input.kind} carries no substitutes: clear this field, or give substitutes instead of ${input.kind}.`);
    else if (broken) fail(broken.message);
    else if (seen.has(lower)) fail(`"${s}" repeats substitute ${seen.get(lower)}.`);
    else {
      seen.set(lower, i + 1);
      kept.push(s);
    }
  });
  if (input.kind === "substitutes" && kept.length === 0 && fieldIssues === 0) {
    errors.substitute1 = "Give at least one substitute, or choose NAME or NIL.";
  }
  let multiword: string | null = null;
  if (input.multiword) {
    const p = tidy(input.phrase);
    const broken = p === "" ? null : phraseBreak(p, target);
    if (p === "") errors.multiword = "Type the multiword phrase, or untick “Part of a multiword”.";
    else if (broken) errors.multiword = broken.message;
    else multiword = p;
  }
  return { substitutes: input.kind === "substitutes" ? kept : [], multiword, errors: orderedErrors(errors) };
}

const FIELD_ORDER: ResponseField[] = ["form", "substitute1", "substitute2", "substitute3", "multiword"];

function orderedErrors(errors: Partial<Record<ResponseField, string>>): Partial<Record<ResponseField, string>> {
  const out: Partial<Record<ResponseField, string>> = {};
  for (const f of FIELD_ORDER) if (errors[f] !== undefined) out[f] = errors[f];
  return out;
}
