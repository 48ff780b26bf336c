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
  if (n > 0) lost.push(`${n} ${what}`);
}
