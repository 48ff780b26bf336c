/**
 * Gold derivation (paper §2–§3, seed 000 §2.2): annotators' responses → per
 * instance the multiset H_i, the gold line, the mode, T membership, the mwgold
 * line and the multiword item status.
 *
 * - H_i: every annotator's substitutes through the lemma table (whitespace
 *   collapsed, case kept unless `foldCase`; forms the coordinator has not
 *   reviewed take the proposal of `propose` unless `unreviewed: "keep"`), a set
 *   per annotator, so a count is the number of annotators who gave the
 *   substitute. Multiwords go through the same table. The unreviewed proposals
 *   that changed a form are listed in `applied`, with how often each was used.
 *   NAME is written as the entry `pn` counting the annotators who gave NAME; NIL is
 *   not written. |H_i| counts substitutes only (pn excluded).
 * - Gold line `lexelt id :: sub n;sub n;` for every instance with at least one
 *   entry (pn included), entries by count descending, ties in code-point order.
 * - T = instances with |H_i| >= 2. The mode (for items in T only, as in the paper)
 *   is the unique most frequent substitute, pn excluded; null otherwise.
 * - mwgold line `lexelt id :: phrase n;` for every instance where anyone gave a
 *   multiword; the item is a multiword item when its most frequent phrase was given
 *   by at least two annotators and no other phrase ties it.
 * - Excluded instances are kept in the result (for review) but left out of the
 *   files and of agreement; a PoS correction rewrites the item as
 *   `lemma.ori_pos.pos` (stand.n → stand.n.v) and lemmatises with the new PoS.
 *
 * Instances are keyed by id alone, as the official scorer does (ids are unique in
 * a project). Pure: records in, records out; bad input becomes `problems`, never
 * an exception: unknown instances, a lexelt that does not match, a second response
 * from one annotator (the first counts), a form holding `;` or the substitute "pn"
 * (dropped), and forms that break the rules the workspace applies at save
 * (substitute-rules.ts: one substitute, no markup, letters of any script, at least two
 * letters…; kept, reported once each, so that the coordinator can rewrite them in
 * the lemma table), and, when heads are given, each substitute that is the target
 * word itself and each multiword without it (kept and reported: answers imported
 * as written, response-import.ts).
 */
import { cmp, collapseSpace, createLemmatiser, type LemmaReviewRow, type LemmaTable, type LemmatiserOptions } from "./normalize";
import type { GoldEntry } from "./formats/gold";
import { foldCase } from "./language";
import { type RuleBreak, goldFormBreak, phraseBreak, readsBack, ruleClause, targetBreak } from "./substitute-rules";
import { type AnnotatorResponse, type AnswerKind, type LexeltItem, parseLexeltItem } from "./types";

/** The gold entry NAME answers are written as. */
export const PN = "pn";

const POS_VALUES = new Set(["n", "v", "a", "r"]);

/** Shared empty lists (frozen: never written to). */
const NONE: readonly string[] = Object.freeze([]);
const NO_ENTRIES: readonly GoldEntry[] = Object.freeze([]);

export interface GoldInstance {
  /** The lexelt item verbatim, as loaded (e.g. "stand.n"). */
  lexelt: string;
  instanceId: string;
  /** Gold review: excluded, with this reason (same as `options.exclusions`). */
  excludedReason?: string | null;
  /** Gold review: the corrected PoS (same as `options.posCorrections`). */
  correctedPos?: string | null;
  /** The head word as it stands in the sentence: when given, a multiword without the target is listed as a problem. */
  head?: string | null;
}

/** instanceId → value, as a Map or a plain object. */
type ByInstance = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

export interface GoldOptions extends LemmatiserOptions {
  lemmaTable?: LemmaTable;
  /** instanceId → reason: left out of the gold, the mwgold and agreement. */
  exclusions?: ByInstance;
  /** instanceId → corrected PoS (n, v, a, r). */
  posCorrections?: ByInstance;
}

/** A substitute (or phrase, or `pn`) and its count: the same record the gold reader returns. */
export type { GoldEntry };

/** One annotator's answer to one instance, normalised and lemmatised. */
export interface ItemResponse {
  annotator: string;
  kind: AnswerKind;
  /** Distinct, in the order given; empty unless kind = "substitutes" (and may be empty then). */
  substitutes: readonly string[];
  multiword: string | null;
}

export interface GoldItem {
  /** The item as exported: the loaded one, or `lemma.ori_pos.pos` after a PoS correction. */
  lexelt: string;
  /** The item as loaded. */
  originalLexelt: string;
  instanceId: string;
  /** The PoS the item is lemmatised and grouped with (the corrected one if any); "" when unknown. */
  pos: string;
  /** The exclusion reason, null when the instance is in the gold. */
  excluded: string | null;
  /** Every annotator's answer, in the order the responses came. */
  responses: ItemResponse[];
  /** The gold line's entries (pn included), count descending, ties in code-point order. */
  entries: readonly GoldEntry[];
  /** |H_i|: substitutes given, pn excluded. */
  size: number;
  /** Annotators who answered NAME (the pn count). */
  names: number;
  /** Annotators who answered NIL. */
  nils: number;
  /** In T: |H_i| >= 2. */
  inT: boolean;
  /** The unique most frequent substitute (pn excluded), for items in T; else null. */
  mode: string | null;
  /** The gold line (no newline), null when no entry. */
  line: string | null;
  /** The multiwords given, count descending, ties in code-point order. */
  mwEntries: readonly GoldEntry[];
  /** The mwgold line, null when nobody gave a multiword. */
  mwLine: string | null;
  /** The multiword by majority of at least two annotators with no tie, else null. */
  multiword: string | null;
}

export interface GoldProblem {
  instanceId: string;
  lexelt: string;
  annotator: string | null;
  message: string;
  /**
   * Set on a problem reported once per derivation however often it occurs (a stored form that
   * breaks a save rule): the same key marks it wherever it occurs, so a caller that derives
   * instance by instance keeps the first in corpus order (lib/server/derived).
   */
  once?: string;
}

export interface GoldSummary {
  instances: number;
  excluded: number;
  /** Instances (not excluded) with a gold line. */
  goldLines: number;
  /** |T| among the instances not excluded. */
  inT: number;
  /** |TM|: items in T with a mode. */
  withMode: number;
  mwLines: number;
  /** Multiword items (majority of at least two, no tie). */
  mwItems: number;
}

/** An unreviewed proposal the derivation applied: what was typed, what was written instead. */
export interface AppliedProposal {
  /** The form as typed (whitespace collapsed). */
  form: string;
  /** What the gold writes for it. */
  lemma: string;
  /** The PoS it was lemmatised with. */
  pos: string;
  /** Substitutes and multiwords it replaced (one per response that gave it). */
  count: number;
}

/**
 * The proposals a lemma review row applies while nobody has decided it: one per PoS whose proposal
 * changes the form, with the answers it rewrites (the Gold page's list of what the "with proposals
 * applied" download applies; the download itself applies them in deriveGold). A choice between two
 * readings is none: nothing applies it by itself.
 */
export function proposalsOfRow(r: Pick<LemmaReviewRow, "form" | "changed" | "choice" | "proposals" | "pos" | "proposed" | "count">): AppliedProposal[] {
  if (!r.changed || r.choice) return [];
  const perPos = r.proposals ?? r.pos.map((pos) => ({ pos, proposed: r.proposed, count: r.pos.length === 1 ? r.count : 0 }));
  // Without per-PoS counts (one proposal for every PoS) the whole count goes to the first PoS.
  if (!r.proposals && perPos.length > 1) perPos[0].count = r.count;
  const out: AppliedProposal[] = [];
  for (const p of perPos) if (p.proposed !== r.form && p.count > 0) out.push({ form: r.form, lemma: p.proposed, pos: p.pos, count: p.count });
  return out;
}

/** The order of applied proposals: by count descending, then form, then PoS (code points). */
export function proposalOrder(a: AppliedProposal, b: AppliedProposal): number {
  return b.count - a.count || cmp(a.form, b.form) || cmp(a.pos, b.pos);
}

export interface GoldResult {
  items: GoldItem[];
  problems: GoldProblem[];
  summary: GoldSummary;
  /** Unreviewed proposals that changed a form, by count descending, then form. */
  applied: AppliedProposal[];
}

function lookup(m: ByInstance | undefined, key: string): string | undefined {
  if (!m) return undefined;
  if (m instanceof Map) return m.get(key);
  const rec = m as Readonly<Record<string, string>>;
  return Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined;
}

/** Entries count descending, ties in code-point order. */
export function sortEntries(entries: GoldEntry[]): GoldEntry[] {
  // Insertion sort: an item has a handful of entries.
  for (let i = 1; i < entries.length; i++) {
    const e = entries[i];
    let j = i;
    while (j > 0 && before(e, entries[j - 1])) {
      entries[j] = entries[j - 1];
      j--;
    }
    entries[j] = e;
  }
  return entries;
}

function before(a: GoldEntry, b: GoldEntry): boolean {
  return a.count > b.count || (a.count === b.count && a.substitute < b.substitute);
}

/**
 * `lexelt id :: sub n;sub n;` — the official files' spacing, every entry followed
 * by `;`. For entries already sorted and checked (`readsBack`) this is what
 * formats/gold.ts's formatGoldLine writes, without its per-line sort and checks.
 */
function goldLine(lexelt: string, instanceId: string, entries: readonly GoldEntry[]): string {
  // Joined, not concatenated: a flat string, where `+=` would keep a tree of pieces.
  const parts: (string | number)[] = [lexelt, " ", instanceId, " :: "];
  for (let k = 0; k < entries.length; k++) parts.push(entries[k].substitute, " ", entries[k].count, ";");
  return parts.join("");
}

/** The unique most frequent entry (count > every other), pn excluded; null on a tie or none. */
export function uniqueMostFrequent(entries: readonly GoldEntry[], skip: string | null = PN): string | null {
  let best: string | null = null;
  let bestCount = 0;
  let tie = false;
  for (const e of entries) {
    if (e.substitute === skip) continue;
    if (e.count > bestCount) {
      best = e.substitute;
      bestCount = e.count;
      tie = false;
    } else if (e.count === bestCount) tie = true;
  }
  return tie ? null : best;
}

/** A corrected item: `stand.n` + v → `stand.n.v`; back to the original PoS → `stand.n`. */
export function correctedItem(lexelt: string, pos: string): string | null {
  const p = parseLexeltItem(lexelt);
  if (!p) return null;
  const original = p.originalPos ?? p.pos;
  return pos === original ? `${p.lemma}.${original}` : `${p.lemma}.${original}.${pos}`;
}

/**
 * Derive the gold, mwgold, modes and T from responses. Items come in the order of
 * `instances`. The input is never modified; an item response may share its
 * `substitutes` array with the response it came from when nothing in it changed.
 */
export function deriveGold(
  instances: Iterable<GoldInstance>,
  responses: Iterable<AnnotatorResponse>,
  options: GoldOptions = {},
): GoldResult {
  const lemmatise = createLemmatiser(options.lemmaTable, { unreviewed: options.unreviewed, propose: options.propose, foldCase: options.foldCase, language: options.language });
  // pos → typed text → the applied proposal and how often it was used.
  const applied = new Map<string, Map<string, AppliedProposal>>();
  const noteApplied = (raw: string, pos: string) => {
    const lemma = lemmatise.applied(raw, pos);
    if (lemma === null) return;
    let byForm = applied.get(pos);
    if (!byForm) applied.set(pos, (byForm = new Map()));
    const form = raw.normalize("NFC");
    const a = byForm.get(form);
    if (a) a.count++;
    else byForm.set(form, { form, lemma, pos, count: 1 });
  };
  const problems: GoldProblem[] = [];
  const items: GoldItem[] = [];
  const byId = new Map<string, GoldItem>();
  const parsedItems = new Map<string, LexeltItem | null>();
  /** instanceId → head word, for the instances that carry one (the multiword target rule). */
  let heads: Map<string, string> | null = null;

  for (const inst of instances) {
    const id = inst.instanceId;
    if (byId.has(id)) {
      problems.push({ instanceId: id, lexelt: inst.lexelt, annotator: null, message: `instance id ${id} appears twice; the first is used` });
      continue;
    }
    let parsed = parsedItems.get(inst.lexelt);
    if (parsed === undefined) parsedItems.set(inst.lexelt, (parsed = parseLexeltItem(inst.lexelt)));
    let lexelt = inst.lexelt;
    let pos = parsed?.pos ?? "";
    const corrected = lookup(options.posCorrections, id) ?? inst.correctedPos ?? null;
    if (corrected != null && corrected !== "") {
      const item = POS_VALUES.has(corrected) ? correctedItem(inst.lexelt, corrected) : null;
      if (item === null) {
        problems.push({
          instanceId: id,
          lexelt: inst.lexelt,
          annotator: null,
          message: POS_VALUES.has(corrected)
            ? `cannot correct the PoS of "${inst.lexelt}": not lemma.pos or lemma.ori_pos.pos`
            : `corrected PoS "${corrected}" is not one of n, v, a, r; ignored`,
        });
      } else {
        lexelt = item;
        pos = corrected;
      }
    }
    if (hasSpace(lexelt) || hasSpace(id) || id === "") {
      problems.push({ instanceId: id, lexelt: inst.lexelt, annotator: null, message: `lexelt "${lexelt}" or instance id "${id}" is empty or holds a space, so its gold lines cannot be read back` });
    }
    const excluded = lookup(options.exclusions, id) ?? inst.excludedReason ?? null;
    const item: GoldItem = {
      lexelt,
      originalLexelt: inst.lexelt,
      instanceId: id,
      pos,
      excluded,
      responses: [],
      entries: NO_ENTRIES,
      size: 0,
      names: 0,
      nils: 0,
      inT: false,
      mode: null,
      line: null,
      mwEntries: NO_ENTRIES,
      mwLine: null,
      multiword: null,
    };
    byId.set(id, item);
    items.push(item);
    if (inst.head != null) (heads ??= new Map()).set(id, inst.head);
  }

  // Each distinct form is checked once against the rules the workspace applies at
  // save (substitute-rules.ts), so the Gold tab lists exactly the stored answers
  // that would be refused today; a multiword is checked against its target too
  // when the instance's head word is known.
  const checked = new Set<string>();
  const check = (form: string, r: AnnotatorResponse, what: "substitute" | "multiword", item: GoldItem): boolean => {
    if (form.includes(";")) {
      problems.push(responseProblem(r, `${what} "${form}" contains ';', which the gold format cannot hold; dropped`));
      return false;
    }
    if (what === "substitute" && form === PN) {
      problems.push(responseProblem(r, `substitute "pn" would be read as the NAME entry; dropped`));
      return false;
    }
    const key = what === "substitute" ? form : `\u0000${form}`;
    if (!checked.has(key)) {
      checked.add(key);
      const broken = goldFormBreak(form, what);
      if (broken) problems.push({ ...responseProblem(r, brokenRuleMessage(what, form, broken)), once: `${what}\u0000${form}` });
    }
    if (what === "multiword" && heads !== null) {
      const head = heads.get(item.instanceId);
      const lemma = parseLexeltItem(item.lexelt)?.lemma;
      if (head !== undefined && lemma !== undefined) {
        const broken = phraseBreak(form, { lemma, head, language: options.language });
        if (broken?.rule === "target") problems.push(responseProblem(r, brokenRuleMessage(what, form, broken)));
      }
    }
    return true;
  };

  // What the gold records for a typed substitute, per PoS and raw form; null: dropped
  // (its problem is reported again at each occurrence, by the slow path).
  const bySubstitute = new Map<string, Map<string, string | null>>();
  // Raw forms (per PoS) whose result came from an applied proposal: few, so a cheap check per substitute.
  const proposedRaw = new Map<string, Set<string>>();
  let memoPos: string | null = null;
  let memo = new Map<string, string | null>();
  let memoProposed = new Set<string>();
  const substituteOf = (raw: string, pos: string, r: AnnotatorResponse, item: GoldItem): string | null => {
    if (pos !== memoPos) {
      let m = bySubstitute.get(pos);
      if (!m) bySubstitute.set(pos, (m = new Map()));
      memo = m;
      let p = proposedRaw.get(pos);
      if (!p) proposedRaw.set(pos, (p = new Set()));
      memoProposed = p;
      memoPos = pos;
    }
    let s = memo.get(raw);
    if (s === undefined) {
      const form = lemmatise(raw, pos);
      s = form !== "" && check(form, r, "substitute", item) ? form : null;
      memo.set(raw, s);
      if (s !== null && lemmatise.applied(raw, pos) !== null) memoProposed.add(raw);
    } else if (s === null) {
      const form = lemmatise(raw, pos);
      if (form !== "") check(form, r, "substitute", item);
    }
    return s;
  };

  // The target rule (a substitute is not the target word: its lemma or head word, case ignored),
  // checked per response when heads are given: answers imported as written may break it.
  const fold = (s: string) => foldCase(s, options.language ?? "en");
  let targetOf: GoldItem | undefined;
  let targetForms: string[] = [];
  const checkTarget = (s: string, r: AnnotatorResponse, item: GoldItem) => {
    if (heads === null) return;
    if (targetOf !== item) {
      targetOf = item;
      const head = heads.get(item.instanceId);
      const lemma = parseLexeltItem(item.lexelt)?.lemma;
      targetForms = head === undefined || lemma === undefined ? [] : [lemma, head].map((f) => fold(collapseSpace(f))).filter((f) => f !== "");
    }
    if (targetForms.length === 0) return;
    const lower = fold(s);
    if (lower !== targetForms[0] && lower !== targetForms[1]) return;
    const broken = targetBreak(s, { lemma: targetForms[0], head: targetForms[1] ?? "", language: options.language });
    if (broken) problems.push(responseProblem(r, brokenRuleMessage("substitute", s, broken)));
  };

  const scratch: string[] = [];
  let last: GoldItem | undefined;
  for (const r of responses) {
    // Responses usually come instance by instance.
    const item = last !== undefined && last.instanceId === r.instanceId ? last : byId.get(r.instanceId);
    if (!item) {
      problems.push(responseProblem(r, `response to unknown instance ${r.instanceId}; ignored`));
      continue;
    }
    last = item;
    if (r.lexelt !== item.originalLexelt && r.lexelt !== item.lexelt) {
      problems.push(responseProblem(r, `response names lexelt ${r.lexelt} but instance ${r.instanceId} is ${item.originalLexelt}; ignored`));
      continue;
    }
    if (answeredBy(item, r.annotator)) {
      problems.push(responseProblem(r, `second response from ${r.annotator} to instance ${r.instanceId}; the first is used`));
      continue;
    }
    let substitutes: readonly string[] = NONE;
    if (r.kind === "substitutes" && r.substitutes.length > 0) {
      let n = 0;
      let same = true;
      for (const raw of r.substitutes) {
        const s = substituteOf(raw, item.pos, r, item);
        if (s === null || seenBefore(scratch, n, s)) {
          same = false;
          continue;
        }
        if (memoProposed.size > 0 && memoProposed.has(raw)) noteApplied(raw, item.pos);
        checkTarget(s, r, item);
        if (s !== raw) same = false;
        scratch[n++] = s;
      }
      // Nothing changed: share the caller's array (it is never written to) and save
      // the copy; else an exact-size copy (half a million arrays must not reserve room).
      if (same) substitutes = r.substitutes;
      else if (n > 0) substitutes = scratch.slice(0, n);
    }
    let multiword: string | null = null;
    if (r.multiword != null) {
      const m = lemmatise(r.multiword, item.pos);
      if (m !== "" && check(m, r, "multiword", item)) {
        multiword = m;
        noteApplied(r.multiword, item.pos);
      }
    }
    item.responses.push({ annotator: r.annotator, kind: r.kind, substitutes, multiword });
  }

  const summary: GoldSummary = { instances: items.length, excluded: 0, goldLines: 0, inT: 0, withMode: 0, mwLines: 0, mwItems: 0 };
  const entryScratch: GoldEntry[] = [];
  const mwScratch: GoldEntry[] = [];
  for (const item of items) {
    finishItem(item, entryScratch, mwScratch);
    if (item.excluded !== null) {
      summary.excluded++;
      continue;
    }
    if (item.line !== null) summary.goldLines++;
    if (item.inT) summary.inT++;
    if (item.mode !== null) summary.withMode++;
    if (item.mwLine !== null) summary.mwLines++;
    if (item.multiword !== null) summary.mwItems++;
  }
  const appliedList: AppliedProposal[] = [];
  for (const byForm of applied.values()) appliedList.push(...byForm.values());
  appliedList.sort(proposalOrder);
  return { items, problems, summary, applied: appliedList };
}

/** The problem for a stored form that breaks a save rule: which rule, and whether the scorer still reads it back. */
function brokenRuleMessage(what: string, form: string, broken: RuleBreak): string {
  const why = ruleClause(broken);
  const read = readsBack(form) ? "" : ", but the official scorer will not read it back as written";
  return `${what} "${form}" is written as given${read}; it breaks the "${broken.rule}" rule the workspace applies at save (${why}); a lemma-table entry can rewrite it`;
}

/** Whether s holds whitespace (what the gold reader's `\S+` refuses in a lexelt or id). */
function hasSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32) return true;
    if (c >= 128) return /\s/.test(s);
  }
  return false;
}

/** Whether xs[0..n) holds s. */
function seenBefore(xs: readonly string[], n: number, s: string): boolean {
  for (let i = 0; i < n; i++) if (xs[i] === s) return true;
  return false;
}

function answeredBy(item: GoldItem, annotator: string): boolean {
  for (const x of item.responses) if (x.annotator === annotator) return true;
  return false;
}

function responseProblem(r: AnnotatorResponse, message: string): GoldProblem {
  return { instanceId: r.instanceId, lexelt: r.lexelt, annotator: r.annotator, message };
}

/**
 * Count the distinct values into xs[0..n) (a linear scan: an item holds a handful)
 * and return the new n.
 */
function countInto(xs: GoldEntry[], n: number, value: string): number {
  for (let i = 0; i < n; i++) {
    if (xs[i].substitute === value) {
      xs[i].count++;
      return n;
    }
  }
  xs[n] = { substitute: value, count: 1 };
  return n + 1;
}

/** xs[0..n) sorted (count descending, then code-point order) as an exact-size array. */
function sortedEntries(xs: GoldEntry[], n: number): readonly GoldEntry[] {
  if (n === 0) return NO_ENTRIES;
  const out = xs.slice(0, n);
  return sortEntries(out);
}

/** Fill in the counted fields of an item from its responses (scratch: reused lists). */
function finishItem(item: GoldItem, scratch: GoldEntry[], mwScratch: GoldEntry[]): void {
  let n = 0;
  let m = 0;
  let size = 0;
  for (const r of item.responses) {
    if (r.kind === "NAME") item.names++;
    else if (r.kind === "NIL") item.nils++;
    for (const s of r.substitutes) n = countInto(scratch, n, s);
    size += r.substitutes.length;
    if (r.multiword !== null) m = countInto(mwScratch, m, r.multiword);
  }
  // NAME answers are the entry pn (a typed "pn" was dropped with a problem).
  if (item.names > 0) scratch[n++] = { substitute: PN, count: item.names };
  item.entries = sortedEntries(scratch, n);
  item.size = size;
  item.inT = size >= 2;
  item.mode = item.inT ? uniqueMostFrequent(item.entries) : null;
  item.line = n > 0 ? goldLine(item.lexelt, item.instanceId, item.entries) : null;

  item.mwEntries = sortedEntries(mwScratch, m);
  item.mwLine = m > 0 ? goldLine(item.lexelt, item.instanceId, item.mwEntries) : null;
  const top = uniqueMostFrequent(item.mwEntries, null);
  item.multiword = top !== null && item.mwEntries[0].count > 1 ? top : null;
}

export interface FormatGoldOptions {
  /**
   * Start with an empty line, as the official gold.trial, gold.test, mwgold.trial
   * and mwgold.test all do (default true). Every line ends with a newline.
   */
  leadingBlankLine?: boolean;
}

function formatLines(lines: string[], options: FormatGoldOptions): string {
  const head = options.leadingBlankLine ?? true ? "\n" : "";
  return head + lines.map((l) => l + "\n").join("");
}

/** The whole gold file (best/oot): every instance not excluded with at least one entry. */
export function formatGold(items: readonly GoldItem[], options: FormatGoldOptions = {}): string {
  const lines: string[] = [];
  for (const i of items) if (i.excluded === null && i.line !== null) lines.push(i.line);
  return formatLines(lines, options);
}

/** The whole mwgold file: every instance not excluded where anyone gave a multiword. */
export function formatMwGold(items: readonly GoldItem[], options: FormatGoldOptions = {}): string {
  const lines: string[] = [];
  for (const i of items) if (i.excluded === null && i.mwLine !== null) lines.push(i.mwLine);
  return formatLines(lines, options);
}
