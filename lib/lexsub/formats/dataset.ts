/**
 * What the dataset readers (CoInCo, SWORDS, TSAR/MLSP) return and what their
 * writers take: instances in the lexelt model (lexelt = lemma.pos, the context
 * split around the head) with the dataset's gold entries and the fields the
 * lexelt model has no place for (`meta`, kept so an export can write them back).
 * Pure: strings in, records out. See docs/datasets.md.
 */
import type { Diagnostic } from "../diagnostics";
import type { GoldEntry } from "./gold";

export type DatasetFormat = "coinco" | "swords" | "tsar";
export const DATASET_FORMATS: readonly DatasetFormat[] = ["coinco", "swords", "tsar"];

/** One substitute of the dataset's gold for one instance. */
export interface DatasetEntry {
  substitute: string;
  /** How many annotators gave it (CoInCo freq, TSAR repeats); SWORDS: its TRUE and TRUE_IMPLICIT labels. */
  count: number;
  /** SWORDS: every label, in file order (lossless); null for the other formats. */
  labels: string[] | null;
  /** Fields the gold has no place for (CoInCo subst pos, SWORDS substitute id and extra). */
  meta: Record<string, unknown> | null;
}

export interface DatasetInstance {
  instanceId: string;
  /** lemma.pos, e.g. "war.n". */
  lexelt: string;
  lemma: string;
  pos: string;
  before: string;
  head: string;
  after: string;
  /** The format's own fields for this target (see docs/datasets.md); always has `format`. */
  meta: Record<string, unknown>;
  entries: DatasetEntry[];
  /** Where it is in the file: "file:line" or "file: $.targets[…]". */
  where: string;
}

/** A located problem: where (file:line or file and JSON path), the field, what is wrong. */
export interface DatasetError {
  where: string;
  field: string;
  message: string;
}

export function formatDatasetError(e: DatasetError): string {
  return `${e.where}: ${e.field}: ${e.message}`;
}

/**
 * An entry of the file that could not be carried as written, and what was done with
 * it: kept in another form ("repaired": e.g. a `;`, which separates gold entries,
 * replaced) or left out. A Diagnostic (severity "warning"; `line` 0 when the format
 * has no lines, the place then being in the message) so the CLI, the page and the
 * import record list it as they list the lexelt reader's repairs.
 */
export interface DatasetIssue extends Diagnostic {
  /** The entry as the file has it, e.g. `target 731, substitute "genus ;"`. */
  entry: string;
  action: "repaired" | "left out";
}

/** An issue; the message reads `entry: repaired|left out: detail`. */
export function datasetIssue(file: string, line: number, entry: string, action: DatasetIssue["action"], detail: string): DatasetIssue {
  return { severity: "warning", file, line, message: `${entry}: ${action}: ${detail}`, entry, action };
}

export interface DatasetParseResult {
  format: DatasetFormat;
  instances: DatasetInstance[];
  /** What makes the file unreadable as the format: the import is refused. */
  errors: DatasetError[];
  /** Entries not carried as written (the import goes on and reports them; `strict` refuses instead). */
  issues?: DatasetIssue[];
  /** Things read but worth telling (e.g. targets flagged problematic). */
  notes: string[];
}

/** One instance of a project as the writers see it. */
export interface ExportItem {
  lexelt: string;
  instanceId: string;
  before: string;
  head: string;
  after: string;
  excluded: string | null;
  /** The dataset fields kept at import (null for instances loaded from lexelt XML). */
  meta: Record<string, unknown> | null;
  /** The imported gold entries, as imported (SWORDS zero-count substitutes included). */
  imported: DatasetEntry[];
  /** The gold entries derived from annotators' responses (pn = NAME answers), count descending. */
  derived: readonly GoldEntry[];
  /** Multiwords the annotators gave (the format has no place for them). */
  mwEntries: readonly GoldEntry[];
}

export interface ExportResult {
  /** The file's text. */
  text: string;
  /** What the format could not carry, one sentence each. */
  lost: string[];
  /** Instances written. */
  written: number;
}

/** Entries of an item as one list: imported entries, then response-derived counts added (pn left out). */
export function mergedEntries(item: ExportItem): { entries: DatasetEntry[]; names: number } {
  const out = item.imported.map((e) => ({ ...e, labels: e.labels ? [...e.labels] : null }));
  let names = 0;
  for (const d of item.derived) {
    if (d.substitute === "pn") {
      names += d.count;
      continue;
    }
    const hit = out.find((e) => e.substitute === d.substitute);
    if (hit) {
      hit.count += d.count;
      if (hit.labels) for (let k = 0; k < d.count; k++) hit.labels.push("TRUE");
    } else out.push({ substitute: d.substitute, count: d.count, labels: null, meta: null });
  }
  return { entries: out, names };
}

/** Map a coarse PoS to the lexelt's n/v/a/r. */
export const POS_LETTER: Record<string, string> = { NOUN: "n", VERB: "v", ADJ: "a", ADV: "r" };
export const POS_NAME: Record<string, string> = { n: "NOUN", v: "VERB", a: "ADJ", r: "ADV" };

/** A lexelt lemma with no spaces (the gold line's fields are space-separated). */
export function lexeltLemma(s: string): string {
  return s.trim().replace(/\s+/g, "_");
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** 1-based lines of ascending character offsets, in one pass over the text. */
export function linesAt(text: string, offsets: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let i = 0;
  for (const o of offsets) {
    for (; i < o && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
    out.push(line);
  }
  return out;
}

/** Common tail of the "lost" reports. */
export function countLoss(lost: string[], n: number, what: string): void {
  if (n > 0) lost.push(counted(n, what));
}

/** Nouns a report line opens with, and their singulars. */
const SINGULAR: Array<[RegExp, string]> = [
  [/^instances'/, "instance's"],
  [/^(NAME )?answers\b/, "$1answer"],
  [/^excluded instances\b/, "excluded instance"],
  [/^(instances|substitutes|lines|contexts)\b/, "$1"],
];

/**
 * `n` and a report line written for many (`instances had …`, `answers (pn) were
 * dropped`), agreeing with n: for 1, the opening noun and the first verb in the
 * singular (`1 instance had …`, `1 answer (pn) was dropped`).
 */
export function counted(n: number, text: string): string {
  if (n !== 1) return `${n} ${text}`;
  let t = text;
  for (const [re, one] of SINGULAR) {
    if (!re.test(t)) continue;
    t = re === SINGULAR[SINGULAR.length - 1][0] ? t.replace(re, (w) => w.slice(0, -1)) : t.replace(re, one);
    break;
  }
  // An instance's fields (a possessive) keep their plural verb; otherwise the verbs follow the one.
  if (!/^instance's/.test(t)) {
    t = t
      .replace(/ (were|have|are) /, (_, v: string) => ` ${v === "were" ? "was" : v === "have" ? "has" : "is"} `)
      .replace(/ and were /g, " and was ")
      .replace(/\btheir (head|target|lexelt)\b/g, "its $1");
  }
  return `1 ${t}`;
}

/** Up to `n` instance ids for a report, "e.g. a, b, c" (all of them when there are no more). */
export function someIds(ids: readonly string[], n = 10): string {
  const shown = ids.slice(0, n).join(", ");
  return ids.length > n ? `e.g. ${shown}, …` : shown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The key of a SWORDS `extra` object under which lexgold's SWORDS writer keeps another
 * format's fields (a CoInCo or TSAR instance's `meta`, a CoInCo substitute's PoS), so
 * that the SWORDS import keeps them and the other writers find them again.
 */
export const CARRIED_KEY = "lexgold_meta";

/**
 * A dataset meta as the SWORDS writer carries it in `extra`: CoInCo's three context
 * blocks are given by their lengths when they make up the instance's context (the
 * context is in the file already), else as they are.
 */
export function carryMeta(meta: Record<string, unknown>, context: string): Record<string, unknown> {
  const { pre, target, post } = meta;
  if (meta.format !== "coinco" || typeof pre !== "string" || typeof target !== "string" || typeof post !== "string") return meta;
  if ([pre, target, post].filter((x) => x !== "").join(" ") !== context) return meta;
  const { pre: _p, target: _t, post: _o, ...rest } = meta;
  return { ...rest, blocks: [pre.length, target.length, post.length] };
}

/**
 * An instance's fields of `format`: its own meta when it was imported from that format,
 * or the meta a lexgold SWORDS file carried (`targets[id].extra.lexgold_meta`, see
 * CARRIED_KEY) and the SWORDS import kept; null when it has none.
 */
export function formatMeta(meta: Record<string, unknown> | null, format: DatasetFormat, context: string): Record<string, unknown> | null {
  if (!meta) return null;
  if (meta.format === format) return meta;
  if (meta.format !== "swords" || !isRecord(meta.extra)) return null;
  const carried = meta.extra[CARRIED_KEY];
  if (!isRecord(carried) || carried.format !== format) return null;
  const blocks = carried.blocks;
  if (!Array.isArray(blocks) || blocks.length !== 3 || !blocks.every((n) => Number.isInteger(n) && n >= 0)) return carried;
  const [a, b, c] = blocks as number[];
  const pre = context.slice(0, a);
  const target = context.slice(a === 0 ? 0 : a + 1).slice(0, b);
  const post = c === 0 ? "" : context.slice(context.length - c);
  if ([pre, target, post].filter((x) => x !== "").join(" ") !== context) return null;
  const { blocks: _b, ...rest } = carried;
  return { ...rest, pre, target, post };
}

/** CoInCo: the sentence a target's fields belong to (its index in the file, its MASC ids and text: two imports' sentence 0 are not one sentence). */
export function coincoSentenceKey(m: Record<string, unknown>): string {
  return JSON.stringify([m.sent, m.masc ?? null, m.target ?? null]);
}

/**
 * CoInCo: each sentence's tokens, from whichever of its targets keeps them (the first in
 * the file), excluded ones included, so that a writer can put them on the first target
 * it writes.
 */
export function coincoSentenceTokens(items: readonly ExportItem[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const item of items) {
    const m = formatMeta(item.meta, "coinco", item.before + item.head + item.after);
    if (m && Array.isArray(m.tokens)) out.set(coincoSentenceKey(m), m.tokens);
  }
  return out;
}

/** A gold entry's own fields (e.g. a CoInCo substitute's PoS), whether kept as imported or carried by a lexgold SWORDS file. */
export function entryMeta(e: DatasetEntry): Record<string, unknown> | null {
  const carried = isRecord(e.meta?.extra) ? e.meta.extra[CARRIED_KEY] : undefined;
  return isRecord(carried) ? carried : e.meta;
}
