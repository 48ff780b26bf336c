/**
 * Substitute normalisation and semi-automatic lemmatisation (paper §2: "all
 * annotations were semi-automatically lemmatised (substitutes and identified
 * multiwords) unless the lemmatised version would change the meaning").
 *
 * - normaliseForm: trim, single spaces, lower case. The key of the lemma table
 *   and of the coordinator's review (one row for `TV` and `tv`, and for `deliver`
 *   and `deliver ` imported as written); never what the gold writes, which keeps
 *   the form as typed — case and spacing — unless a decision says otherwise or the
 *   coordinator asks to fold case (`foldCase`).
 * - Proposals come from a LemmaProposer given in the options (the WordNet
 *   lemmatiser of ./morphy.ts, whose data lib/wordnet/load.ts reads); without one
 *   nothing is proposed and every form is kept as typed.
 * - LemmaTable: the coordinator's decisions, normalised form → {lemma, decision}.
 *   An overridden entry's lemma is written to the gold verbatim (so an entry may
 *   keep upper case: `nato` → `NATO`); a kept entry writes each spelling as it
 *   was typed; an accepted entry writes the proposal for each spelling (`Films`
 *   → `Film`, `films` → `film`) while it is the proposal accepted, else the lemma
 *   recorded; forms without an entry take the proposal (or, with
 *   `unreviewed: "keep"`, the form as typed).
 *
 * Pure: strings in, records out. Hyphens are kept as typed (the scorer, not the
 * gold, accepts a space for a hyphen).
 */
import { collator, foldCase } from "./language";
import type { LemmaProposer } from "./morphy";
import { type AnnotatorResponse, parseLexeltItem } from "./types";

/** NFC (what the gold writes: `e` + combining acute is `é`), every run of whitespace one space, trimmed. Never folds accents. */
export function collapseSpace(s: string): string {
  return s.normalize("NFC").replace(/\s+/g, " ").trim();
}

/**
 * The normalised form of what an annotator typed: NFC, trimmed, single spaces,
 * lower case in the project's language (`language`, a BCP 47 tag; English rules
 * when absent). One review row for `TV` and `tv`, and for `deliver` and an answer
 * imported as written `deliver ` (whose spellings the gold keeps apart until the
 * row is decided).
 */
export function normaliseForm(raw: string, language?: string): string {
  const s = collapseSpace(raw);
  return language === undefined ? s.toLowerCase() : foldCase(s, language);
}

/**
 * The proposer of a language with no lemmatiser (every language but English):
 * proposes nothing, so every form is kept as typed (whitespace collapsed) and
 * the coordinator's lemma table is the only source of lemmas.
 */
export const proposeNothing: LemmaProposer = (form) => collapseSpace(form);

/** What the coordinator decided for a form: take the proposal, give another lemma, or keep the form. */
export type LemmaDecision = "accepted" | "overridden" | "kept";

interface LemmaTableEntry {
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
export function lemmaTable(rows: Iterable<LemmaTableRow>, language?: string): LemmaTable {
  const table = new Map<string, LemmaTableEntry>();
  for (const r of rows) {
    const form = normaliseForm(r.form, language);
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
   * Forms without a table entry: "propose" (default) writes the proposal,
   * "keep" the form as typed.
   */
  unreviewed?: "propose" | "keep";
  /** Where proposals come from (default: none, every form is kept as typed). */
  propose?: LemmaProposer;
  /**
   * Fold case: forms kept or taken from a proposal are written in lower case
   * (`TV` and `tv` become one entry). A coordinator's choice, off by default;
   * an accepted or overridden lemma is still written as recorded.
   */
  foldCase?: boolean;
  /** The project's language (BCP 47): case is folded, and the review sorted, in its rules. English when absent. */
  language?: string;
}

/** Maps what an annotator typed to what the gold records; "" when nothing is left. */
export interface Lemmatiser {
  (raw: string, pos: string): string;
  /**
   * The proposal the last result for (raw, pos) came from, when it was an
   * unreviewed proposal that changed the form; else null. Call after the lemmatiser.
   */
  applied(raw: string, pos: string): string | null;
}

interface Outcome {
  out: string;
  /** An unreviewed proposal that changed the form. */
  applied: boolean;
}

/**
 * The gold's view of a typed form: the table entry for its normalised form, else
 * the proposal for `pos` (or the form as typed). Memoised per (raw, pos): one
 * instance per derivation.
 */
export function createLemmatiser(table: LemmaTable = new Map(), options: LemmatiserOptions = {}): Lemmatiser {
  const usePropose = (options.unreviewed ?? "propose") === "propose";
  const propose = options.propose ?? proposeNothing;
  const fold = options.foldCase === true;
  const lower = (s: string) => normaliseForm(s, options.language);
  // Per PoS: raw → outcome, and typed text → outcome (many raw spellings, one text).
  const memo = new Map<string, { byRaw: Map<string, Outcome>; byText: Map<string, Outcome> }>();
  let lastPos: string | null = null;
  let last: { byRaw: Map<string, Outcome>; byText: Map<string, Outcome> } | undefined;
  const outcome = (raw: string, pos: string): Outcome => {
    if (pos !== lastPos) {
      last = memo.get(pos);
      if (!last) memo.set(pos, (last = { byRaw: new Map(), byText: new Map() }));
      lastPos = pos;
    }
    const m = last!;
    let o = m.byRaw.get(raw);
    if (o === undefined) {
      // As typed: NFC, spacing kept (an answer imported as written, `deliver `, is not `deliver`
      // until the lemma review says so); `typed` is the form's key in the table, `text` tidied.
      const typed = raw.normalize("NFC");
      o = m.byText.get(typed);
      if (o === undefined) {
        const text = collapseSpace(typed);
        const key = lower(typed);
        const entry = text === "" ? undefined : table.get(key);
        if (entry?.decision === "kept") o = { out: fold ? key : typed, applied: false };
        else if (entry?.decision === "accepted" && collapseSpace(propose(collapseSpace(key), pos)) === entry.lemma) {
          // The proposal accepted is still the proposal: written for this spelling, in its case.
          const p = collapseSpace(propose(text, pos)) || text;
          o = { out: fold ? lower(p) : p, applied: false };
        } else if (entry) o = { out: entry.lemma, applied: false };
        else if (text === "" || !usePropose) o = { out: text === "" ? "" : fold ? key : typed, applied: false };
        else {
          // The proposal for a form typed with odd spacing is at least the tidied form.
          const proposed = collapseSpace(propose(text, pos)) || text;
          o = proposed === typed ? { out: fold ? key : typed, applied: false } : { out: fold ? lower(proposed) : proposed, applied: true };
        }
        m.byText.set(typed, o);
      }
      m.byRaw.set(raw, o);
    }
    return o;
  };
  const lemmatise = ((raw: string, pos: string) => outcome(raw, pos).out) as Lemmatiser;
  lemmatise.applied = (raw, pos) => {
    const o = outcome(raw, pos);
    return o.applied ? o.out : null;
  };
  return lemmatise;
}

/** Which PoS to lemmatise a response's forms with. */
export type PosLookup = (response: AnnotatorResponse) => string | null | undefined;

/** The PoS written in the response's lexelt item (the corrected one for `stand.n.v`). */
export const posFromLexelt: PosLookup = (r) => parseLexeltItem(r.lexelt)?.pos ?? null;

export interface LemmaReviewRow {
  /** The normalised form (the table's key). */
  form: string;
  /** The proposal for the PoS the form was most often given under (the form itself when none). */
  proposed: string;
  /** How often the form was typed: once per response that gave it as a substitute or multiword. */
  count: number;
  /** The proposal differs from the form, or some spelling of it has other spacing (`spacing`). */
  changed: boolean;
  /**
   * Spellings imported as written with other spacing than the form's (`deliver `,
   * `secretion  producing`): the gold keeps each apart, as typed, until the form is
   * decided (accepting or overriding writes one form for all; keeping keeps them apart).
   */
  spacing?: string[];
  /** The coordinator's decision, null while unreviewed. */
  decision: LemmaDecision | null;
  /** What the gold records now: the table's lemma (the form, as typed, when kept), else the proposal (or the form, with unreviewed "keep"). */
  lemma: string;
  /** The PoS the form was given under, most frequent first (ties n, v, a, r, then alphabetical). */
  pos: string[];
  /** Only when the proposal depends on the PoS (e.g. `leaves`: n → leaf, v → leave). */
  proposals?: { pos: string; proposed: string; count: number }[];
  /**
   * A verb target's participle that WordNet also lists as an adjective (`selected`): the
   * verb's lemma is proposed (`proposed`, here `select`) as a choice between the two
   * readings, for the coordinator to decide one by one — nothing applies it by itself
   * (the gold writes the form until decided; "accept all" leaves it open).
   */
  choice?: { asTyped: string; proposed: string; pos: string };
}

const POS_ORDER: Record<string, number> = { n: 0, v: 1, a: 2, r: 3 };
const posRank = (p: string) => POS_ORDER[p] ?? 4;

/** The normalised forms typed (per PoS) and the spellings with other spacing, as counted by countForms. */
export interface FormCounts {
  /** form → PoS → count. */
  counts: Map<string, Map<string, number>>;
  /** form → spellings imported as written with other spacing than the form's → how often met. */
  spaced: Map<string, Map<string, number>>;
}

/**
 * How often each normalised form was typed, per PoS: once per response that gave it as a
 * substitute (a response repeating it counts once) or as its multiword. NAME and NIL carry none.
 * With the spellings of each form typed with other spacing (`deliver `), repeats included.
 */
export function countForms(responses: Iterable<AnnotatorResponse>, posOf: PosLookup = posFromLexelt, language?: string): FormCounts {
  const counts = new Map<string, Map<string, number>>(); // form → pos → count
  const spaced = new Map<string, Map<string, number>>(); // form → spellings with other spacing
  const noteSpacing = (raw: string) => {
    const typed = raw.normalize("NFC");
    if (typed === collapseSpace(typed) || typed.trim() === "") return;
    const form = normaliseForm(typed, language);
    let byTyped = spaced.get(form);
    if (!byTyped) spaced.set(form, (byTyped = new Map()));
    byTyped.set(typed, (byTyped.get(typed) ?? 0) + 1);
  };
  const add = (raw: string, pos: string) => {
    const form = normaliseForm(raw, language);
    if (form === "") return;
    noteSpacing(raw);
    let byPos = counts.get(form);
    if (!byPos) counts.set(form, (byPos = new Map()));
    byPos.set(pos, (byPos.get(pos) ?? 0) + 1);
  };
  for (const r of responses) {
    const pos = posOf(r) ?? "";
    if (r.kind === "substitutes") {
      const seen = new Set<string>();
      for (const s of r.substitutes) {
        const f = normaliseForm(s, language);
        if (seen.has(f)) {
          noteSpacing(s);
          continue;
        }
        seen.add(f);
        add(s, pos);
      }
    }
    if (r.multiword != null) add(r.multiword, pos);
  }
  return { counts, spaced };
}

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
  const { counts, spaced } = countForms(responses, posOf, options.language);
  const rows: LemmaReviewRow[] = [];
  for (const [form, byPos] of counts) rows.push(lemmaReviewRow(form, byPos, table, options, { spacing: spaced.get(form)?.keys() }));
  rows.sort(lemmaReviewOrder(options.language));
  return rows;
}

/** What a review row knows beside its counts (kept with them, or computed by buildLemmaReview). */
export interface LemmaRowKnown {
  /** The proposal for each PoS, when known (the rest come from `options.propose`). */
  proposals?: ReadonlyMap<string, string>;
  /** The choice offered for each PoS (null: none), when known (the rest from `options.propose.choice`). */
  choices?: ReadonlyMap<string, string | null>;
  /** The spellings of the form with other spacing. */
  spacing?: Iterable<string>;
}

/**
 * One row of the review: a normalised form and how often it was given under each PoS (`byPos`,
 * in any order), with the proposals and choices for each PoS (`known`, e.g. kept with the counts;
 * the rest come from `options.propose`), its spellings with other spacing, and the coordinator's
 * decision in `table`.
 */
export function lemmaReviewRow(
  form: string,
  byPos: Iterable<[string, number]>,
  table: LemmaTable = new Map(),
  options: LemmatiserOptions = {},
  known: LemmaRowKnown = {},
): LemmaReviewRow {
  const usePropose = (options.unreviewed ?? "propose") === "propose";
  const proposeFor = options.propose ?? proposeNothing;
  const perPos = [...byPos]
    .filter(([, count]) => count > 0)
    .map(([pos, count]) => ({ pos, count, proposed: known.proposals?.get(pos) ?? proposeFor(form, pos) }))
    .sort((a, b) => b.count - a.count || posRank(a.pos) - posRank(b.pos) || cmp(a.pos, b.pos));
  const proposed = perPos[0]?.proposed ?? form;
  // A participle WordNet also has as an adjective, under a verb target: the verb's lemma, as a choice.
  const top = perPos[0]?.pos;
  const choiceFor = (pos: string) => (known.choices?.has(pos) ? (known.choices.get(pos) ?? null) : (proposeFor.choice?.(form, pos) ?? null));
  const chosen = top !== undefined && proposed === form ? choiceFor(top) : null;
  const spacing = [...(known.spacing ?? [])];
  const entry = table.get(form);
  const row: LemmaReviewRow = {
    form,
    proposed: chosen ?? proposed,
    count: perPos.reduce((n, p) => n + p.count, 0),
    changed: perPos.some((p) => p.proposed !== form) || spacing.length > 0 || chosen !== null,
    decision: entry?.decision ?? null,
    lemma: entry ? (entry.decision === "kept" ? form : entry.lemma) : usePropose ? proposed : form,
    pos: perPos.map((p) => p.pos),
  };
  if (chosen !== null) row.choice = { asTyped: form, proposed: chosen, pos: top! };
  if (perPos.some((p) => p.proposed !== proposed)) row.proposals = perPos;
  if (spacing.length > 0) row.spacing = spacing.sort(cmp);
  return row;
}

/** The review's order: changed forms first, then by count descending, then by form (the language's collation, then code points). */
export function lemmaReviewOrder(language?: string): (a: Pick<LemmaReviewRow, "form" | "count" | "changed">, b: Pick<LemmaReviewRow, "form" | "count" | "changed">) => number {
  const byForm = language === undefined ? cmp : collator(language).compare;
  return (a, b) => Number(b.changed) - Number(a.changed) || b.count - a.count || byForm(a.form, b.form) || cmp(a.form, b.form);
}

/** Code-point order: the same on every machine and locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
