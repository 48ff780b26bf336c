/**
 * TSAR-2022 / MLSP 2024 TSV ↔ instances and a gold with counts.
 *
 * `sentence<TAB>complex word<TAB>annotation 1<TAB>…` (the `_none` files stop after
 * the complex word). A substitute given by k annotators appears k times: its count
 * is k. Each line becomes an instance (id = prefix:line, lexelt = the complex word
 * lower-cased `.x`, since the format gives no PoS; the head = where
 * locateComplexWord finds the complex word: as written, in another case, as a German
 * lemma's form, stray spaces trimmed, each reported). The annotations are also kept
 * in file order and the complex word as the file has it, so an unchanged gold is
 * written back column for column. A cell that a spreadsheet would run as a formula is
 * written as it is (the published files hold such cells), or with `cells:
 * "spreadsheet-safe"` neutralised as in every other TSV lexgold writes
 * (./spreadsheet.ts); either reads back restored.
 *
 * A CSV-quoted file (MLSP 2024's `multilex_test_all_combined_ls_unlabelled.tsv`: a
 * cell holding `,` or `"` is written in double quotes, inner quotes doubled) is
 * recognised (csvQuotedFile) and each line read with csv-parse; its lines are
 * written back quoted the same way. A line that cannot be carried (the complex word
 * not in its sentence, an empty or ";" cell, a control character) is left out and
 * reported; in a plain file only while such lines are a tenth of it at most (and
 * at most MAX_LEFT_OUT): past that the file is refused, each line named. Pure.
 */
import {
  type DatasetEntry,
  type DatasetError,
  type DatasetInstance,
  type DatasetIssue,
  type DatasetParseResult,
  type ExportItem,
  type ExportResult,
  countLoss,
  counted,
  datasetIssue,
  formatMeta,
  lexeltLemma,
  mergedEntries,
  someIds,
} from "./dataset";
import { parse as parseCsv } from "csv-parse/sync";
import { neutraliseCell, restoreCell } from "./spreadsheet";

/** The PoS letter of TSAR lexelts: the format has none. */
const TSAR_POS = "x";

/** Default instance-id prefix: the file name without directory and extension, spaces as "_". */
function tsarPrefix(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(tsv|txt|csv)$/i, "").replace(/\s+/g, "_") || "tsar";
}

/** A letter, mark, digit or underscore: what a whole-word occurrence may not touch. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const isWordChar = (c: string | undefined) => c !== undefined && WORD_CHAR.test(c);

/** Where the complex word was found: its start and length in the sentence, and how. */
interface Location {
  at: number;
  length: number;
  /** exact: as written; case: in another case (locale-aware folding); lemma: a form of the lemma (German). */
  how: "exact" | "case" | "lemma";
}

/** A located word, or why there is none: not found, or several forms of the lemma tie. */
export type LocateResult = Location | { tie: string[] } | null;

/** Positions where `word` stands in `sentence` (whole words first), compared after `fold`. */
function occurrences(sentence: string, word: string, fold: (s: string) => string): { whole: number; any: number } {
  const target = fold(word);
  let any = -1;
  for (let at = 0; at + word.length <= sentence.length; at++) {
    if (fold(sentence.slice(at, at + word.length)) !== target) continue;
    if (!isWordChar(sentence[at - 1]) && !isWordChar(sentence[at + word.length])) return { whole: at, any: at };
    if (any < 0) any = at;
  }
  return { whole: -1, any };
}

/**
 * A German infinitive's forms in the sentence: words that begin with its stem (the
 * infinitive without its -en/-n: überwältigen → überwältigte, nominieren → nominiert),
 * or with ge- and the stem (the participle: wählen → gewählt), or its zu-infinitive
 * (a "zu" after a separable prefix: aufgreifen → aufzugreifen). Only for a single
 * word ending in -n whose stem has at least 3 letters; ablaut (gehen → ging) and a
 * separable verb's participle (aufgegriffen) are not forms this rule knows.
 */
function lemmaForms(sentence: string, lemma: string, fold: (s: string) => string): { at: number; word: string }[] {
  const l = fold(lemma);
  if (!/^[\p{L}\p{M}]+n$/u.test(l)) return [];
  const stem = l.replace(/e?n$/, "");
  if (stem.length < 3) return [];
  const out: { at: number; word: string }[] = [];
  for (const m of sentence.matchAll(/[\p{L}\p{M}\p{N}_]+/gu)) {
    const w = fold(m[0]);
    const zu = w.indexOf("zu", 1);
    const stemmed = (w.startsWith(stem) && w !== l) || (w.startsWith("ge") && w.slice(2).startsWith(stem));
    if (stemmed || (zu > 0 && w.slice(0, zu) + w.slice(zu + 2) === l)) out.push({ at: m.index, word: m[0] });
  }
  return out;
}

/**
 * Where the complex word stands in the sentence (stray spaces around it trimmed): its
 * first whole-word occurrence as written, else in another case (folded with the
 * language's lower-casing), else its first occurrence inside a word as written, else
 * in another case, else a form of the lemma (lemmaForms; when a language is given,
 * only for German, `mul` or `und`) — the one form the sentence has; two different forms tie and
 * nothing is chosen.
 */
export function locateComplexWord(sentence: string, word: string, language?: string): LocateResult {
  const w = word.trim();
  if (w === "") return null;
  const same = (s: string) => s;
  const fold = (s: string) => (language ? s.toLocaleLowerCase(language) : s.toLowerCase());
  const exact = occurrences(sentence, w, same);
  if (exact.whole >= 0) return { at: exact.whole, length: w.length, how: "exact" };
  const folded = occurrences(sentence, w, fold);
  if (folded.whole >= 0) return { at: folded.whole, length: w.length, how: "case" };
  if (exact.any >= 0) return { at: exact.any, length: w.length, how: "exact" };
  if (folded.any >= 0) return { at: folded.any, length: w.length, how: "case" };
  // The lemma rule is German's: with a language given, only for German — or for `mul` (several languages,
  // MLSP's All files) and `und` (not known), where a line may be German: the last resort before refusing it.
  const forms = !language || /^(de|mul|und)(-|$)/i.test(language) ? lemmaForms(sentence, w, fold) : [];
  const distinct = new Map(forms.map((f) => [fold(f.word), f.word] as const));
  if (distinct.size > 1) return { tie: [...distinct.values()] };
  if (forms.length === 0) return null;
  return { at: forms[0].at, length: forms[0].word.length, how: "lemma" };
}

/** The start of the head a reader places for `word` (-1: none). */
function locate(sentence: string, word: string, language?: string): { at: number; length: number } {
  const r = locateComplexWord(sentence, word, language);
  return r && "at" in r ? r : { at: -1, length: 0 };
}

/** Control characters (C0 but tab, DEL, C1): no sentence, word or substitute holds one (NUL would end a C string downstream). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/**
 * C1 control characters that Windows-1252 prints (U+0092 for ’, U+0096 for –…): a text
 * saved as Windows-1252 and read as Latin-1 somewhere holds them. Read as the letters
 * they stand for; the five code points Windows-1252 leaves unassigned stay controls.
 */
const CP1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";
const C1 = /[\u0080-\u009f]/g;
const fromCp1252 = (s: string) => s.replace(C1, (c) => CP1252[c.charCodeAt(0) - 0x80]);

/** The name of column i (0-based) in the diagnostics. */
function columnName(i: number): string {
  return i === 0 ? "sentence (column 1)" : i === 1 ? "complex word (column 2)" : `annotation ${i - 1} (column ${i + 1})`;
}

/** What the report says of a complex word found otherwise than as written. */
function howFound(word: string, sentence: string, where: Location): string | null {
  const found = sentence.slice(where.at, where.at + where.length);
  const trimmed = word.trim() !== word ? "stray spaces trimmed" : "";
  const how =
    where.how === "case"
      ? `found in another case, as "${found}"`
      : where.how === "lemma"
        ? `not in the sentence; found as "${found}", a form of the lemma (its stem, ge- and its stem, or its zu-infinitive)`
        : "";
  const parts = [trimmed, how].filter(Boolean);
  return parts.length === 0 ? null : `${parts.join("; ")}; the head is "${found}" and an export writes the complex word back as the file has it`;
}

/** A cell as a CSV writer quotes it: whole in double quotes, every inner quote doubled. */
const CSV_QUOTED = /^"(?:[^"]|"")*"$/;

/**
 * Whether the file's cells are CSV-quoted rather than plain TSAR: some quoted cell
 * holds a doubled quote (`"d'""ajudar"`, a CSV writer's escape, which no plain TSAR
 * sentence wrapped in quotes has), and most cells holding a quote are such quoted
 * cells (the lines of those that are not are left out and reported).
 * A plain TSAR file holds quotes inside its sentences (`said "yes" and`), which are
 * not quoted cells, so it reads as before.
 */
function csvQuotedFile(lines: readonly string[]): boolean {
  let quoted = 0;
  let escaped = 0;
  let other = 0;
  for (const line of lines) {
    if (!line.includes('"')) continue;
    for (const cell of line.replace(/\r$/, "").split("\t")) {
      if (!cell.includes('"')) continue;
      if (CSV_QUOTED.test(cell)) {
        quoted++;
        if (cell.slice(1, -1).includes('""')) escaped++;
      } else other++;
    }
  }
  return escaped > 0 && other < quoted;
}

/** One line of a CSV-quoted file as its cells (csv-parse, tab-separated), or why it cannot be read. */
function csvCells(line: string): string[] | { error: string } {
  try {
    const records = parseCsv(line, { delimiter: "\t", quote: '"', escape: '"', relax_column_count: true }) as string[][];
    if (records.length !== 1) return { error: "a quoted cell runs past the end of the line (a TSAR line holds no line break)" };
    return records[0];
  } catch (e) {
    return { error: `not readable as CSV-quoted cells (${(e as Error).message.replace(/ at line \d+/g, "")})` };
  }
}

/** A cell as a CSV-quoted MLSP file writes it: in double quotes, inner quotes doubled, when it holds `,`, `"` or a line break. */
function csvQuote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * MLSP 2024's languages as its combined files name them (column 2), with their BCP 47
 * tags: each line is read with its own language (case folding, the German lemma rule).
 */
const MLSP_LANGUAGES: Record<string, string> = {
  catalan: "ca",
  english: "en",
  filipino: "fil",
  french: "fr",
  german: "de",
  italian: "it",
  japanese: "ja",
  portuguese: "pt",
  sinhala: "si",
  spanish: "es",
};

/** An MLSP language name's BCP 47 tag (`german` → `de`), or `und` when unknown. */
export function mlspLanguageTag(name: string): string {
  return MLSP_LANGUAGES[name.trim().toLowerCase()] ?? "und";
}

/** A line's language tag from its language name, else its id's prefix (`xx_1`), else `und`. */
function mlspLanguage(name: string, id: string): string {
  return MLSP_LANGUAGES[name.trim().toLowerCase()] ?? /^([a-z]{2,3})_/i.exec(id)?.[1].toLowerCase() ?? "und";
}

/** A combined file's id (`ca_1`, `es_100_[4]`) and language name (`catalan`). */
const MLSP_ID = /^[a-z]{2,3}_\S+$/i;
const MLSP_LANGUAGE_NAME = /^[a-z]+$/i;
/** A complexity (column 5 of a combined or LCP file): a number. */
const COMPLEXITY = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/**
 * The layout of MLSP 2024's `combined` and `lcp` files: `id<TAB>language<TAB>sentence<TAB>complex
 * word[<TAB>complexity][<TAB>substitute…]`, recognised when most lines open with an id (`ca_1`)
 * and a language name. `lcp`: no line holds a substitute (a complexity-prediction file).
 */
function mlspLayout(rows: readonly string[][]): { lcp: boolean } | null {
  let combined = 0;
  let total = 0;
  let substitutes = 0;
  for (const cells of rows) {
    total++;
    if (cells.length < 4 || !MLSP_ID.test(cells[0]) || !MLSP_LANGUAGE_NAME.test(cells[1])) continue;
    combined++;
    const rest = cells.slice(4);
    if (rest.length > (rest.length > 0 && COMPLEXITY.test(rest[0]) ? 1 : 0)) substitutes++;
  }
  if (total === 0 || combined * 10 < total * 9) return null;
  return { lcp: substitutes === 0 };
}

/** How the columns of a line are named in the report: TSAR's (sentence 1, word 2) or a combined file's (sentence 3, word 4). */
interface Columns {
  sentence: number;
  word: number;
  /** Column (1-based) of the first annotation. */
  annotations: number;
}

function columnLabel(cols: Columns, field: "sentence" | "word" | number): string {
  if (field === "sentence") return `sentence (column ${cols.sentence})`;
  if (field === "word") return `complex word (column ${cols.word})`;
  return `annotation ${field + 1} (column ${cols.annotations + field})`;
}

export interface TsarReadOptions {
  /** Instance ids are PREFIX:line (default: the file name without extension); a combined file's ids are its own, under this prefix when given. */
  idPrefix?: string;
  /** The project's language (BCP 47): case folding and the German lemma rule. A combined file's lines are read with their own. */
  language?: string;
  /** A combined file: import only the lines of this language (a BCP 47 tag, e.g. `de`); the others are counted in a note. */
  onlyLanguage?: string;
}

/** Lines of a plain TSAR file left out (and reported) at most, and never more than a tenth of its lines; past that the file is refused. */
const MAX_LEFT_OUT = 50;

export function parseTsar(text: string, file: string, options: TsarReadOptions = {}): DatasetParseResult {
  const errors: DatasetError[] = [];
  const issues: DatasetIssue[] = [];
  const notes: string[] = [];
  const instances: DatasetInstance[] = [];
  const prefix = options.idPrefix ?? tsarPrefix(file);
  if (/\s/.test(prefix)) errors.push({ where: file, field: "id prefix", message: "must hold no spaces" });
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  // A line that cannot be carried is left out and reported (a published file is not refused for a few
  // lines): always in a CSV-quoted file (each line read with csv-parse); in a plain one while such lines
  // are at most MAX_LEFT_OUT and a tenth of the file, else the file is refused with each line named
  // (what fails that often is no TSAR file, or not this one).
  const csv = csvQuotedFile(lines);
  if (csv) notes.push(`${file}: read as CSV-quoted cells (a cell holding "," or a quote is in double quotes, inner quotes doubled); an export writes its lines back quoted the same way`);
  const cellsOf = (line: string): string[] | { error: string } => {
    if (!csv) return line.split("\t").map(restoreCell);
    const read = csvCells(line);
    return Array.isArray(read) ? read.map(restoreCell) : read;
  };
  const rows = lines.map((raw) => (raw.endsWith("\r") ? raw.slice(0, -1) : raw)).filter((l) => l.trim() !== "").map(cellsOf).filter((c): c is string[] => Array.isArray(c));
  const layout = mlspLayout(rows);
  if (layout?.lcp) {
    errors.push({
      where: file,
      field: "file",
      message:
        "an MLSP 2024 complexity-prediction (LCP) file, not a substitution file: its lines are id, language, sentence, complex word (and a complexity) with no substitutes, so it holds no gold to import; MLSP's substitution data is in its `_ls` files, and in the `_combined` files that have substitutes",
    });
    return { format: "tsar", instances, errors, issues, notes };
  }
  const combined = layout !== null;
  if (!combined && options.onlyLanguage !== undefined) errors.push({ where: file, field: "language", message: "lines of one language can be chosen only in an MLSP combined file (id, language, sentence, …): this file has no language column" });
  const languages = new Map<string, number>();
  const otherLanguages = new Map<string, number>();
  const failed: Array<{ n: number; field: string; message: string }> = [];
  lines.forEach((raw, i) => {
    const n = i + 1;
    const where = `${file}:${n}`;
    const fail = (field: string, message: string) => void failed.push({ n, field, message });
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return void fail("line", "empty line");
    const read = cellsOf(line);
    if (!Array.isArray(read)) return void fail("line", read.error);
    const cells = read;
    const cols = cells.map(fromCp1252);
    // A combined line: id, language, sentence, complex word, a complexity (when a number), the substitutes.
    let id: string | null = null;
    let language = options.language;
    let complexity: string | null = null;
    let body = cols;
    const columns: Columns = { sentence: 1, word: 2, annotations: 3 };
    if (combined) {
      if (cols.length < 4) return void fail("line", "missing cells: a combined line is id<TAB>language<TAB>sentence<TAB>complex word<TAB>complexity<TAB>substitutes…");
      id = cols[0].trim();
      language = mlspLanguage(cols[1], id);
      if (options.onlyLanguage !== undefined && language.toLowerCase() !== options.onlyLanguage.toLowerCase()) {
        otherLanguages.set(cols[1], (otherLanguages.get(cols[1]) ?? 0) + 1);
        return;
      }
      languages.set(cols[1], (languages.get(cols[1]) ?? 0) + 1);
      const withComplexity = cols.length > 4 && COMPLEXITY.test(cols[4]);
      complexity = withComplexity ? cols[4] : null;
      body = [cols[2], cols[3], ...cols.slice(withComplexity ? 5 : 4)];
      Object.assign(columns, { sentence: 3, word: 4, annotations: withComplexity ? 6 : 5 });
    }
    if (body.length < 2) return void fail(columnLabel(columns, "word"), "missing: a line is sentence<TAB>complex word<TAB>annotations…");
    const bad = cols.findIndex((c) => CONTROL.test(c));
    if (bad >= 0) {
      const at = CONTROL.exec(cols[bad])!;
      const code = at[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      const name = combined ? (bad < 2 ? `${bad === 0 ? "id" : "language"} (column ${bad + 1})` : bad === 4 && complexity !== null ? "complexity (column 5)" : `column ${bad + 1}`) : columnName(bad);
      return void fail(name, `holds a control character (U+${code}) at character ${at.index + 1}: remove it`);
    }
    const [sentence, word, ...annotations] = body;
    if (sentence.trim() === "") return void fail(columnLabel(columns, "sentence"), "empty");
    if (word.trim() === "") return void fail(columnLabel(columns, "word"), "empty");
    const empty = annotations.findIndex((a) => a.trim() === "");
    if (empty >= 0) return void fail(columnLabel(columns, empty), "empty");
    const semi = annotations.findIndex((a) => a.includes(";"));
    if (semi >= 0) return void fail(columnLabel(columns, semi), `"${annotations[semi]}" holds a ";", which no gold line can carry`);
    const found = locateComplexWord(sentence, word, language);
    if (found === null || !("at" in found)) {
      const message =
        found === null
          ? `"${word}" does not occur in the sentence, in any case, nor as a form of its lemma`
          : `"${word}" does not occur in the sentence; its lemma's forms ${found.tie.map((t) => `"${t}"`).join(", ")} tie, so the head is not chosen`;
      return void fail(columnLabel(columns, "word"), message);
    }
    const c1 = cells.findIndex((c, k) => c !== cols[k]);
    if (c1 >= 0) {
      const chars = [...new Set(cells.join("\t").match(C1))].map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} as "${fromCp1252(c)}"`);
      const detail = `control characters read as Windows-1252 letters (${chars.join(", ")}); an export writes them back as the file has them`;
      const name = combined ? `column ${c1 + 1}` : columnName(c1);
      issues.push(datasetIssue(file, n, `${name}${cells.filter((c, k) => c !== cols[k]).length > 1 ? " and others" : ""}`, "repaired", detail));
    }
    const how = howFound(word, sentence, found);
    if (how) issues.push(datasetIssue(file, n, `complex word "${word}"`, "repaired", how));
    const { at, length } = found;
    const entries: DatasetEntry[] = [];
    for (const a of annotations) {
      const hit = entries.find((e) => e.substitute === a);
      if (hit) hit.count++;
      else entries.push({ substitute: a, count: 1, labels: null, meta: null });
    }
    const folded = language ? word.trim().toLocaleLowerCase(language) : word.trim().toLowerCase();
    const lemma = lexeltLemma(folded);
    const mlsp = combined ? { layout: "mlsp-combined", id, language: cols[1], ...(complexity !== null ? { complexity } : {}) } : {};
    instances.push({
      instanceId: id !== null ? (options.idPrefix !== undefined ? `${prefix}:${id}` : id) : `${prefix}:${n}`,
      lexelt: `${lemma}.${TSAR_POS}`,
      lemma,
      pos: TSAR_POS,
      before: sentence.slice(0, at),
      head: sentence.slice(at, at + length),
      after: sentence.slice(at + length),
      meta: { format: "tsar", line: n, annotations, complexWord: word, ...mlsp, ...(c1 >= 0 ? { cells } : {}), ...(csv ? { quoting: "csv" } : {}) },
      entries,
      where,
    });
  });
  if (combined) {
    const each = (m: Map<string, number>) => [...m].map(([l, k]) => `${l} ${k}`).join(", ");
    notes.push(
      `${file}: read as MLSP 2024's combined layout (id, language, sentence, complex word, complexity, substitutes): each line is read with its own language (${each(languages)}); the instance ids are the file's, and an export writes the lines back in this layout`,
    );
    if (otherLanguages.size > 0) notes.push(`${file}: only the lines in ${options.onlyLanguage} were imported; not imported: ${each(otherLanguages)}`);
    else if (languages.size > 1 && options.language !== undefined && options.language.toLowerCase() !== "mul") {
      notes.push(
        `${file}: the lines are in ${languages.size} languages and the project's language is ${options.language}: import the file into a project whose language is mul (several languages), or one language's lines into a project of that language (--only-language)`,
      );
    }
  }
  const leaveOut = csv || (failed.length <= MAX_LEFT_OUT && failed.length * 10 <= lines.length);
  for (const f of failed) {
    if (leaveOut) issues.push(datasetIssue(file, f.n, f.field === "line" ? "the line" : f.field, "left out", f.message));
    else errors.push({ where: `${file}:${f.n}`, field: f.field, message: f.message });
  }
  // In line order, with the repairs made while reading (a stable sort keeps a line's own order).
  issues.sort((a, b) => a.line - b.line);
  if (lines.length === 0) errors.push({ where: file, field: "file", message: "no lines" });
  return { format: "tsar", instances, errors, issues, notes };
}

/** Same multiset of annotations? */
function sameAnnotations(stored: readonly string[], entries: readonly DatasetEntry[]): boolean {
  const counts = new Map<string, number>();
  for (const a of stored) counts.set(a, (counts.get(a) ?? 0) + 1);
  if (counts.size !== entries.length) return false;
  return entries.every((e) => counts.get(e.substitute) === e.count);
}

/** Kinds of dataset fields TSAR has no column for, by the format an instance came from. */
const FIELDS_LOST: Record<string, string> = {
  coinco: "CoInCo fields (MASC file and sentence ids, the sentence's tokens with their lemmas, posMASC, posTT and problematic flags, each substitute's PoS)",
  swords: "SWORDS fields (context, target and substitute ids, their extra)",
};

/**
 * A project's gold as TSAR TSV: one line per instance (not excluded), the sentence,
 * the head, then each substitute repeated by its count. An imported line whose gold
 * is unchanged keeps its original column order; otherwise count descending.
 * `goldOnly` (default false) leaves out instances without a substitute, which the
 * `_gold` files never hold; with it off they are written as `_none` lines.
 * `cells` (default "raw") writes every cell exactly, as the published files do;
 * "spreadsheet-safe" gives a cell beginning with `=`, `+`, `-`, `@` a leading
 * apostrophe (issue #27's defence); the report names such lines either way. A line
 * read from a CSV-quoted file is written quoted as that file quotes it.
 *
 * TSAR gives the complex word but not where it stands: a reader (parseTsar) takes
 * its first whole-word occurrence (locateComplexWord). An instance whose
 * head is elsewhere (the word occurs earlier in its context) is written as it is and
 * reported with its id: no column can say where it was, and a mark in the sentence
 * would change the sentence the task's scripts compare.
 */
/** How the TSAR export writes a cell a spreadsheet would run as a formula: as it is (raw, the default) or with a leading apostrophe. */
export type TsarCells = "raw" | "spreadsheet-safe";

export function writeTsar(items: readonly ExportItem[], options: { goldOnly?: boolean; language?: string; cells?: TsarCells } = {}): ExportResult {
  const lost: string[] = [];
  const out: string[] = [];
  let names = 0;
  const mw: string[] = [];
  let excluded = 0;
  const tabs: string[] = [];
  let empty = 0;
  let written = 0;
  const moved: string[] = [];
  const formulas: string[] = [];
  const shortened: string[] = [];
  const spreadsheetSafe = options.cells === "spreadsheet-safe";
  let unjudged = 0;
  let combinedCount = 0;
  let labelled = 0;
  let derived = 0;
  const fields = new Map<string, number>();
  for (const item of items) {
    if (item.excluded !== null) {
      excluded++;
      continue;
    }
    const { entries, names: n } = mergedEntries(item);
    const positive = entries.filter((e) => e.count > 0);
    if (positive.length === 0) {
      empty++;
      if (options.goldOnly) continue;
    }
    names += n;
    if (item.mwEntries.length > 0) mw.push(item.instanceId);
    if (item.derived.some((d) => d.substitute !== "pn")) derived++;
    unjudged += entries.length - positive.length;
    // Labels other than TRUE (TRUE_IMPLICIT, FALSE, UNSURE…) are more than a count says.
    if (entries.some((e) => e.labels?.some((l) => l !== "TRUE"))) labelled++;
    const origin = item.meta?.format;
    if (typeof origin === "string" && FIELDS_LOST[origin]) fields.set(origin, (fields.get(origin) ?? 0) + 1);
    const context = item.before + item.head + item.after;
    const clean = (f: string) => f.replace(/[\t\n\r]+/g, " ");
    const [sentence, head, before] = [context, item.head, item.before].map(clean);
    if (sentence !== context || head !== item.head) tabs.push(item.instanceId);
    const tsarMeta = formatMeta(item.meta, "tsar", context);
    // The complex word as the file had it (another case, a lemma, stray spaces) when a reader puts the head where it is.
    const asRead = tsarMeta && typeof tsarMeta.complexWord === "string" && !/[\t\n\r]/.test(tsarMeta.complexWord) ? tsarMeta.complexWord : null;
    // A combined line's own language, as the import read it.
    const lineLanguage = tsarMeta?.layout === "mlsp-combined" && typeof tsarMeta.language === "string" ? mlspLanguage(tsarMeta.language, String(tsarMeta.id ?? "")) : options.language;
    const placed = (w: string) => {
      const at = locate(sentence, w, lineLanguage);
      return at.at === before.length && at.length === head.length;
    };
    const word = asRead !== null && placed(asRead) ? asRead : head;
    if (word === head && !placed(head)) moved.push(item.instanceId);
    const stored = tsarMeta && Array.isArray(tsarMeta.annotations) ? (tsarMeta.annotations as string[]) : null;
    let annotations: string[];
    if (stored && sameAnnotations(stored, positive)) annotations = stored;
    else {
      annotations = [];
      const sorted = positive.map((e, i) => ({ e, i })).sort((a, b) => b.e.count - a.e.count || a.i - b.i);
      for (const { e } of sorted) for (let k = 0; k < e.count; k++) annotations.push(e.substitute);
    }
    // A line of an MLSP combined file goes back in its layout: id, language, sentence, word, complexity, substitutes.
    const combinedLine = tsarMeta?.layout === "mlsp-combined" && typeof tsarMeta.id === "string" && typeof tsarMeta.language === "string";
    if (combinedLine) combinedCount++;
    let row = combinedLine
      ? [tsarMeta.id as string, tsarMeta.language as string, sentence, word, ...(typeof tsarMeta.complexity === "string" ? [tsarMeta.complexity] : []), ...annotations]
      : [sentence, word, ...annotations];
    // A line read with Windows-1252 repairs goes back as the file had it while it is unchanged.
    const cells = tsarMeta && Array.isArray(tsarMeta.cells) ? (tsarMeta.cells as unknown[]) : null;
    if (cells && cells.length === row.length && cells.every((c, k) => typeof c === "string" && fromCp1252(c) === row[k])) row = cells as string[];
    // A cell a spreadsheet would run as a formula: written as it is (the default, as the published files
    // have it) or with a leading apostrophe (spreadsheet-safe); either way the report names the line.
    const safe = row.map(neutraliseCell);
    if (safe.some((c, k) => c !== row[k])) formulas.push(item.instanceId);
    // A raw cell that itself begins with apostrophes before such a character reads back one apostrophe short.
    if (!spreadsheetSafe && row.some((c) => restoreCell(c) !== c)) shortened.push(item.instanceId);
    const cellsOut = spreadsheetSafe ? safe : row;
    out.push((tsarMeta?.quoting === "csv" ? cellsOut.map(csvQuote) : cellsOut).join("\t"));
    written++;
  }
  countLoss(lost, excluded, "excluded instances were left out");
  if (empty > 0) lost.push(counted(empty, options.goldOnly ? "instances without a substitute were left out" : "instances without a substitute were written with no annotation column"));
  if (moved.length > 0) {
    lost.push(
      counted(
        moved.length,
        `instances have their head at another occurrence of the word than the one a reader takes (the first whole-word occurrence in the sentence, else the first): TSAR gives no position, so an import (lexgold's too) puts the head there (${someIds(moved)})`,
      ),
    );
  }
  if (formulas.length > 0 && spreadsheetSafe) {
    lost.push(
      counted(
        formulas.length,
        `lines have a cell beginning with =, +, -, @ (a spreadsheet would run it as a formula), written with a leading apostrophe (spreadsheet-safe cells, as asked); the shared task's scripts read the apostrophe as part of the sentence or word — the default, raw cells, writes them as they are (${someIds(formulas)})`,
      ),
    );
  } else if (formulas.length > 0) {
    lost.push(
      counted(
        formulas.length,
        `lines have a cell beginning with =, +, -, @, written as it is (raw cells, as the shared task's files have them): a spreadsheet opening this file would run it as a formula — download with spreadsheet-safe cells to open it in one (${someIds(formulas)})`,
      ),
    );
  }
  if (shortened.length > 0) {
    lost.push(
      counted(
        shortened.length,
        `lines have a cell beginning with an apostrophe before =, +, -, @: written as it is, but a reader that restores spreadsheet-safe cells (lexgold's import) reads it one apostrophe short (${someIds(shortened)})`,
      ),
    );
  }
  countLoss(lost, names, "NAME answers (pn) were dropped: TSAR has no proper-name entry");
  if (mw.length > 0) lost.push(counted(mw.length, `instances had multiword answers, which TSAR cannot carry (${someIds(mw)})`));
  if (tabs.length > 0) lost.push(counted(tabs.length, `contexts held tabs or line breaks, written as spaces (${someIds(tabs)})`));
  countLoss(lost, unjudged, "substitutes nobody gave (count 0: SWORDS substitutes with no TRUE label) were left out");
  countLoss(lost, labelled, "instances' SWORDS labels are written as counts (TRUE + TRUE_IMPLICIT): which were TRUE_IMPLICIT, the FALSE and UNSURE ones and their order are not written");
  if (derived > 0) lost.push(counted(derived, `instances have annotators' substitutes: which annotator gave each is not written, only how many did`));
  for (const [origin, n] of fields) lost.push(counted(n, `instances' ${FIELDS_LOST[origin]} are not written`));
  if (combinedCount > 0 && combinedCount < written) {
    lost.push(counted(combinedCount, `of the ${written} lines are written in MLSP's combined layout (id, language, sentence, word, complexity, substitutes), as imported; the others as plain TSAR lines (sentence, word, substitutes): a reader takes one layout per file`));
  }
  lost.push(
    combinedCount > 0
      ? "lexelts (lemma and PoS) are not written, nor instance ids but those of MLSP's combined lines: TSAR lines are the sentence and the complex word only"
      : "lexelts (lemma and PoS) and instance ids are not written: TSAR lines are the sentence and the complex word only",
  );
  lost.push("modes are not written: TSAR keeps counts (the mode follows from them)");
  return { text: out.map((l) => l + "\n").join(""), lost, written };
}
