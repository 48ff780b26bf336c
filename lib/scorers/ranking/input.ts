/**
 * Ranked system outputs and the gold the ranking measures read (issue #16).
 * Pure: strings in, records plus located diagnostics out.
 *
 * System formats (`RankedFormat`):
 * - `tsv`: TSAR-2022 / MLSP predictions, `sentence<TAB>complex word<TAB>sub1<TAB>sub2…`,
 *   best first; the key is `sentence__word` as tsar_eval.py forms it.
 * - `swords-json`: SWORDS results, `{"substitutes": {target id: [[substitute, score], …]}}`
 *   (or the bare map), read as Python's json.loads reads it (`NaN`, `Infinity`,
 *   `-Infinity` are numbers); a score given as text is read with Python's float();
 *   a bare string instead of a pair scores −(its index), as swords' LexSubResult
 *   reads it; the list is sorted as Python sorts by −score (ties in the order given).
 * - `oot`: the SemEval-2007 out-of-ten file (`lexelt id ::: a;b;c`) read as a
 *   ranking, best first, keyed by `lexelt id` (lines read by semeval2007/system.ts).
 * - `lst`: the ranking file of the GAP reference script (lst_gap.py):
 *   `RESULT<TAB>lexelt id<TAB>candidate score<TAB>…`, keyed by `lexelt id` as
 *   the script keys it (see parseLstRanking).
 * - `germeval`: GermEval 2015's ranked run (the `.rank` file its scoreGAP.pl reads),
 *   `lexelt id :::: a;b;c`, best first, keyed by `lexelt id` (see parseGermevalRanking).
 *
 * Gold readers: the SemEval gold / the project's gold (`lexelt id :: sub n;…`,
 * counts), the TSAR/MLSP gold TSV (an annotation repeated k times → count k),
 * SWORDS JSON (per substitute its judgement labels).
 */
import { type Diagnostic, diag, splitLines } from "../../lexsub/diagnostics";
import { parseGold } from "../../lexsub/formats/gold";
import { parseSystem } from "../semeval2007/system";
import { pyReadLines } from "../shared/python-text";
import { parseJsonPython, py2Strip, py3Strip, pyFloatParse } from "../shared/pyfloat";
import { pySorted } from "../shared/pysort";

export type RankedFormat = "tsv" | "swords-json" | "oot" | "lst" | "germeval";
export const RANKED_FORMATS: readonly RankedFormat[] = ["tsv", "swords-json", "oot", "lst", "germeval"];

export interface RankedCandidate {
  substitute: string;
  /** The system's score, when the format carries one. */
  score: number | null;
}

export interface RankedItem {
  /** What the item is matched on: `sentence__word` (tsv), target id (swords-json), `lexelt id` (oot, lst). */
  key: string;
  /** tsv: the complex word. */
  target: string | null;
  /** Candidates in rank order, best first, as the format's reference reader orders them. */
  candidates: RankedCandidate[];
  /** 1-based line (0 for JSON). */
  line: number;
  /** lst: the candidates in file order, before the script's sort. */
  asGiven?: RankedCandidate[];
}

export interface RankedRun {
  file: string;
  format: RankedFormat;
  /** In file order; a key given twice appears once, at its first place, with the last line's list (as a Python dict keeps it). */
  items: RankedItem[];
  diagnostics: Diagnostic[];
}

/** The item key tsar_eval.py forms: `sentence__word`. */
export function tsarKey(sentence: string, word: string): string {
  return `${sentence}__${word}`;
}

/*
 * TSAR-2022 / MLSP files as tsar_eval.py reads them (read for its reading
 * rules; none of its code is used).
 * (Decoded text in: see `decodePythonUtf8` in shared/python-text.ts, which refuses
 * a file that is not UTF-8 before this.)
 *
 * Both files: `open(path).readlines()` — universal newlines, so `\n`, `\r\n`
 * and a lone `\r` each end a line; each line `strip()`ped (Python's whitespace,
 * so leading and trailing tabs go too) and split on tabs; field 1 the sentence,
 * field 2 the complex word (as split, not stripped again), the rest the
 * substitutes / annotations, each stripped — an empty field between tabs is an
 * empty substitute, kept; matching is exact and case-sensitive. A blank line or
 * a line without a tab stops the script (IndexError): an error here. A leading
 * byte-order mark is kept as part of the first sentence, as Python's 'utf-8'
 * codec keeps it (that line then matches nothing); `repaired` drops it.
 * Predictions: a key given twice keeps its first place with the last list (a
 * dict); a key with `__` inside the sentence or word splits into more than two
 * parts and stops the script (ValueError): an error unless `repaired`.
 * Gold: a key given twice, the last line.
 */
export interface TsarReadOptions {
  /** Drop a leading byte-order mark; read keys with `__` whole. */
  repaired?: boolean;
}

const BOM = "\uFEFF";

function fieldsOf(raw: string): string[] {
  return py3Strip(raw).split("\t");
}

function bomCheck(text: string, file: string, repaired: boolean, diagnostics: Diagnostic[]): string {
  if (!text.startsWith(BOM)) return text;
  if (repaired) {
    diagnostics.push(diag("warning", file, 1, "a byte-order mark at the start: dropped (repaired)"));
    return text.slice(1);
  }
  diagnostics.push(diag("warning", file, 1, "a byte-order mark at the start: Python keeps it as part of the first sentence, so tsar_eval.py matches that line to nothing (--repaired drops it)"));
  return text;
}

function shapeError(file: string, line: number, raw: string, what: string): Diagnostic {
  const blank = py3Strip(raw) === "";
  return diag("error", file, line, blank ? `blank line (tsar_eval.py stops on it with IndexError): expected sentence<TAB>complex word<TAB>${what}…` : `expected sentence<TAB>complex word<TAB>${what}…, found no tab (tsar_eval.py stops on it with IndexError)`);
}

/** TSAR/MLSP predictions as tsar_eval.py reads them. */
export function parseTsarPredictions(text: string, file: string, options: TsarReadOptions = {}): RankedRun {
  const diagnostics: Diagnostic[] = [];
  const repaired = !!options.repaired;
  const items = new Map<string, RankedItem>();
  for (const { line, text: raw } of pyReadLines(bomCheck(text, file, repaired, diagnostics))) {
    const fields = fieldsOf(raw);
    if (fields.length < 2) {
      diagnostics.push(shapeError(file, line, raw, "substitutes"));
      continue;
    }
    const word = fields[1];
    const key = tsarKey(fields[0], word);
    if (key.split("__").length !== 2) {
      if (repaired) diagnostics.push(diag("warning", file, line, "`__` inside the sentence or the complex word: tsar_eval.py stops on it (ValueError); read whole (repaired)"));
      else diagnostics.push(diag("error", file, line, "`__` inside the sentence or the complex word: tsar_eval.py splits its key on `__` and stops (ValueError); --repaired reads it whole"));
    }
    const candidates = fields.slice(2).map((s) => ({ substitute: py3Strip(s), score: null }));
    const prev = items.get(key);
    if (prev) {
      diagnostics.push(diag("warning", file, line, `instance given again (first on line ${prev.line}); the last list is used at the first place, as tsar_eval.py's dict keeps it`));
      prev.candidates = candidates;
      prev.target = word;
      continue;
    }
    items.set(key, { key, target: word, candidates, line });
  }
  return { file, format: "tsv", items: [...items.values()], diagnostics };
}

/** Guess a ranked file's format from its content. */
export function detectRankedFormat(text: string): RankedFormat {
  const head = text.replace(/^\uFEFF/, "").trimStart();
  if (head.startsWith("{")) return "swords-json";
  const first = head.split("\n", 1)[0] ?? "";
  if (first.startsWith("RESULT\t")) return "lst";
  if (/^\S+ \S+ ::::(\s|$)/.test(first)) return "germeval";
  if (/^\S+ \S+ ::: /.test(first) || /^\S+ \S+ :::\s*$/.test(first)) return "oot";
  return "tsv";
}

function put(items: Map<string, RankedItem>, item: RankedItem, file: string, diagnostics: Diagnostic[]): void {
  const prev = items.get(item.key);
  if (prev) {
    diagnostics.push(diag("warning", file, item.line, `item given again (first on line ${prev.line}); the last list is used, as the reference scripts read it`));
    prev.candidates = item.candidates;
    prev.target = item.target;
    prev.asGiven = item.asGiven;
    return;
  }
  items.set(item.key, item);
}

/** The 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** JSON.parse with the error located (file and line). */
export function parseJsonLocated(text: string, file: string): { value: unknown; diagnostics: Diagnostic[] } {
  try {
    return { value: parseJsonPython(text.replace(/^\uFEFF/, "")), diagnostics: [] };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(msg);
    const line = pos ? lineAt(text, Number(pos[1])) : 0;
    return { value: null, diagnostics: [diag("error", file, line, `not valid JSON: ${msg}`)] };
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * By score, descending, as Python's sorted(key=lambda x: -x[1]) orders them: ties
 * in the order given, ±inf in place, NaN where Python's sort leaves it (CPython's
 * timsort up to 3.10; 3.11's merge order can differ for 64 or more with a NaN).
 */
export function byScore(candidates: readonly RankedCandidate[]): RankedCandidate[] {
  return pySorted(candidates, (c) => -(c.score ?? 0), false);
}

/** A JSON score as Python's float() takes it: a number (NaN and ±inf included), a numeric text, a boolean; null where it raises. */
function pythonScore(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return pyFloatParse(v, 3);
  return null;
}

/** SWORDS results JSON: `{substitutes: {tid: [[sub, score] | sub, …]}}` or the bare map. */
export function parseSwordsResult(text: string, file: string): RankedRun {
  const { value, diagnostics } = parseJsonLocated(text, file);
  const items: RankedItem[] = [];
  if (value === null) return { file, format: "swords-json", items, diagnostics };
  const map = isRecord(value) && isRecord(value.substitutes) ? value.substitutes : value;
  if (!isRecord(map)) {
    diagnostics.push(diag("error", file, 0, "expected an object {target id: [[substitute, score], …]} (or {\"substitutes\": …})"));
    return { file, format: "swords-json", items, diagnostics };
  }
  for (const [tid, list] of Object.entries(map)) {
    if (!Array.isArray(list)) {
      diagnostics.push(diag("error", file, 0, `target ${tid}: expected a list of [substitute, score] pairs`));
      continue;
    }
    const candidates: RankedCandidate[] = [];
    let bad = false;
    list.forEach((entry, i) => {
      if (typeof entry === "string") candidates.push({ substitute: entry, score: -i });
      else if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string" && pythonScore(entry[1]) !== null) {
        candidates.push({ substitute: entry[0], score: pythonScore(entry[1]) });
      } else if (!bad) {
        bad = true;
        diagnostics.push(diag("error", file, 0, `target ${tid}, entry ${i + 1}: expected [substitute, score] or a substitute, found ${JSON.stringify(entry)?.slice(0, 60)}`));
      }
    });
    items.push({ key: tid, target: null, candidates: byScore(candidates), line: 0 });
  }
  return { file, format: "swords-json", items, diagnostics };
}

/** How the oot reader reads a lexelt: score.pl's bytes (`Plünderung.n` is `nderung.n`) or UTF-8 text (`perl -CSD`: read whole). */
export interface RankedReadOptions {
  utf8?: boolean;
}

/** The oot file read as a ranking: the guesses in order, keyed by `lexelt id`. */
export function parseOotRanking(text: string, file: string, options: RankedReadOptions = {}): RankedRun {
  const parsed = parseSystem(text, file, "oot", { reading: options.utf8 ? "utf8" : "bytes" });
  const diagnostics = [...parsed.diagnostics];
  const items = new Map<string, RankedItem>();
  for (const l of parsed.lines) {
    put(items, { key: `${l.lexelt} ${l.id}`, target: null, candidates: l.guesses.map((g) => ({ substitute: g, score: null })), line: l.line }, file, diagnostics);
  }
  return { file, format: "oot", items: [...items.values()], diagnostics };
}

/**
 * lst_gap.py's ranking file, `RESULT<TAB>lexelt id<TAB>candidate score<TAB>…`,
 * read as the script reads it (Python 2, lines split on `\n` only): the key is
 * the second field stripped (`lexelt id`); each non-empty later field splits at
 * its last space — with no space, the last character is the score (`quux7` is
 * `quux` scored 7; a last field `quux7` keeps its line's `\n` and is skipped);
 * the score is read with Python's float() (`inf`, `-Infinity`, `nan` included),
 * a field whose score does not read is skipped with a warning, as the script
 * skips it. A line with no tab stops the script: an error (blank lines, on
 * which it stops too, are passed over).
 * Candidates are ranked as the script's sorted(key=score, reverse=True) ranks them.
 */
export function parseLstRanking(text: string, file: string): RankedRun {
  const diagnostics: Diagnostic[] = [];
  const items = new Map<string, RankedItem>();
  const body = text.replace(/^\uFEFF/, "");
  const lines = body.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((content, i) => {
    const line = i + 1;
    const raw = i < lines.length - 1 || body.endsWith("\n") ? `${content}\n` : content;
    // Blank lines are passed over (lst_gap.py stops on them: IndexError).
    if (py2Strip(content) === "") return;
    const segs = raw.split("\t");
    if (segs.length < 2) {
      diagnostics.push(diag("error", file, line, "no tab (lst_gap.py stops on it: IndexError): expected RESULT<TAB>lexelt id<TAB>candidate score<TAB>…"));
      return;
    }
    const key = py2Strip(segs[1]);
    const given: RankedCandidate[] = [];
    for (const cw of segs.slice(2)) {
      if (cw.length === 0) continue;
      const at = cw.lastIndexOf(" ");
      const substitute = at < 0 ? cw.slice(0, -1) : cw.slice(0, at);
      const weight = at < 0 ? cw.slice(-1) : cw.slice(at);
      const score = pyFloatParse(weight, 2);
      if (score === null) {
        if (cw.trim() !== "") diagnostics.push(diag("warning", file, line, `${JSON.stringify(cw.replace(/\n$/, ""))}: no score after the last space reads as a number; skipped, as lst_gap.py skips it`));
        continue;
      }
      given.push({ substitute, score });
    }
    put(items, { key, target: null, candidates: pySorted(given, (c) => c.score ?? 0, true), line, asGiven: given }, file, diagnostics);
  });
  return { file, format: "lst", items: [...items.values()], diagnostics };
}

/**
 * GermEval 2015's ranked run, `lexelt id :::: a;b;c` (best first: the `.rank` file its
 * scoreGAP.pl reads, as the task's systems wrote it), keyed by `lexelt id` read whole
 * (UTF-8 text, `Plünderung.n` included); each candidate stripped, empty ones passed
 * over. Blank lines are passed over; a line without `::::` is an error.
 */
export function parseGermevalRanking(text: string, file: string): RankedRun {
  const diagnostics: Diagnostic[] = [];
  const items = new Map<string, RankedItem>();
  for (const { line, text: raw } of splitLines(text.replace(/^\uFEFF/, ""))) {
    if (py3Strip(raw) === "") continue;
    const at = raw.indexOf("::::");
    if (at < 0) {
      diagnostics.push(diag("error", file, line, "no \"::::\": expected lexelt id :::: substitute;substitute;… (GermEval 2015's ranked run)"));
      continue;
    }
    const key = py3Strip(raw.slice(0, at)).split(/\s+/).join(" ");
    const candidates = raw
      .slice(at + 4)
      .split(";")
      .map(py3Strip)
      .filter((c) => c !== "")
      .map((substitute) => ({ substitute, score: null }));
    put(items, { key, target: null, candidates, line }, file, diagnostics);
  }
  return { file, format: "germeval", items: [...items.values()], diagnostics };
}

export function parseRanked(text: string, file: string, format: RankedFormat = detectRankedFormat(text), options: RankedReadOptions = {}): RankedRun {
  switch (format) {
    case "germeval":
      return parseGermevalRanking(text, file);
    case "tsv":
      return parseTsarPredictions(text, file);
    case "swords-json":
      return parseSwordsResult(text, file);
    case "oot":
      return parseOotRanking(text, file, options);
    case "lst":
      return parseLstRanking(text, file);
  }
}

// ---------------------------------------------------------------------------
// Gold

/** One gold item with weighted substitutes, in file order. */
export interface CountGoldItem {
  key: string;
  /** tsv: the complex word. */
  target: string | null;
  /** Substitutes with their counts, in file order (first appearance for TSV). */
  counts: { substitute: string; count: number }[];
  line: number;
}

export interface CountGold {
  file: string;
  items: CountGoldItem[];
  diagnostics: Diagnostic[];
}

/** A TSAR/MLSP gold line: sentence, complex word and the annotations (stripped), as read. */
export interface TsarGoldItem {
  key: string;
  sentence: string;
  word: string;
  annotations: string[];
  line: number;
}

export interface TsarGold {
  file: string;
  items: Map<string, TsarGoldItem>;
  diagnostics: Diagnostic[];
}

/** The TSAR/MLSP gold TSV as tsar_eval.py reads it (a repeated key: the last line wins). */
export function parseTsarGold(text: string, file: string, options: TsarReadOptions = {}): TsarGold {
  const diagnostics: Diagnostic[] = [];
  const items = new Map<string, TsarGoldItem>();
  for (const { line, text: raw } of pyReadLines(bomCheck(text, file, !!options.repaired, diagnostics))) {
    const fields = fieldsOf(raw);
    if (fields.length < 2) {
      diagnostics.push(shapeError(file, line, raw, "annotations"));
      continue;
    }
    const key = tsarKey(fields[0], fields[1]);
    const prev = items.get(key);
    if (prev) diagnostics.push(diag("warning", file, line, `instance given again (line ${prev.line}); the last line is used`));
    items.set(key, { key, sentence: fields[0], word: fields[1], annotations: fields.slice(2).map(py3Strip), line });
  }
  return { file, items, diagnostics };
}

/**
 * A TSAR gold item's counts as tsar_eval.py forms them: each annotation counted,
 * the complex word left out unless `keepComplexWord` (MLSP's flag).
 */
export function tsarGoldCounts(item: TsarGoldItem, keepComplexWord = false): { substitute: string; count: number }[] {
  const m = new Map<string, number>();
  for (const a of item.annotations) {
    if (!keepComplexWord && a === item.word) continue;
    m.set(a, (m.get(a) ?? 0) + 1);
  }
  return [...m].map(([substitute, count]) => ({ substitute, count }));
}

/** The TSAR gold as count items (for GAP and P@k over it). */
export function tsarCountGold(gold: TsarGold, keepComplexWord = false): CountGold {
  const items = [...gold.items.values()].map((i) => ({ key: i.key, target: i.word, counts: tsarGoldCounts(i, keepComplexWord), line: i.line }));
  return { file: gold.file, items, diagnostics: gold.diagnostics };
}

/** A SemEval-2007 gold file (or the project's gold) as count items keyed by instance id, entries in file order. */
export function parseCountGold(text: string, file: string): CountGold {
  const parsed = parseGold(text, file, "gold");
  const items: CountGoldItem[] = parsed.lines.map((l) => ({ key: l.id, target: null, counts: l.entries.map((e) => ({ substitute: e.substitute, count: e.count })), line: l.line }));
  return { file, items, diagnostics: parsed.diagnostics };
}

/** Either count-gold format, by content: tabs → TSAR TSV, else SemEval gold. */
export function parseAnyCountGold(text: string, file: string, options: { keepComplexWord?: boolean } = {}): CountGold {
  const first = text.replace(/^\uFEFF/, "").split("\n", 1)[0] ?? "";
  if (first.includes("\t") && !first.includes(" :: ")) return tsarCountGold(parseTsarGold(text, file), options.keepComplexWord);
  return parseCountGold(text, file);
}

// SWORDS

export type SwordsLabel = "TRUE" | "FALSE" | "UNSURE" | "TRUE_IMPLICIT" | "FALSE_IMPLICIT";
const SWORDS_LABELS = new Set<string>(["TRUE", "FALSE", "UNSURE", "TRUE_IMPLICIT", "FALSE_IMPLICIT"]);

export interface SwordsTarget {
  id: string;
  target: string;
  pos: string | null;
  /** In the JSON's order. */
  substitutes: { id: string; substitute: string; labels: SwordsLabel[] }[];
}

export interface SwordsGold {
  file: string;
  targets: Map<string, SwordsTarget>;
  /** Substitute count (before any preprocessing). */
  substitutes: number;
  diagnostics: Diagnostic[];
}

/** A SWORDS dataset JSON (contexts, targets, substitutes, substitute_labels). */
export function parseSwordsGold(text: string, file: string): SwordsGold {
  const { value, diagnostics } = parseJsonLocated(text, file);
  const targets = new Map<string, SwordsTarget>();
  let substitutes = 0;
  if (value === null) return { file, targets, substitutes, diagnostics };
  if (!isRecord(value) || !isRecord(value.targets) || !isRecord(value.substitutes) || !isRecord(value.substitute_labels)) {
    diagnostics.push(diag("error", file, 0, "expected a SWORDS dataset: an object with targets, substitutes and substitute_labels"));
    return { file, targets, substitutes, diagnostics };
  }
  for (const [tid, t] of Object.entries(value.targets)) {
    if (!isRecord(t) || typeof t.target !== "string") {
      diagnostics.push(diag("error", file, 0, `targets.${tid}: expected {target, pos, …}`));
      continue;
    }
    targets.set(tid, { id: tid, target: t.target, pos: typeof t.pos === "string" ? t.pos : null, substitutes: [] });
  }
  for (const [sid, s] of Object.entries(value.substitutes)) {
    if (!isRecord(s) || typeof s.substitute !== "string" || typeof s.target_id !== "string") {
      diagnostics.push(diag("error", file, 0, `substitutes.${sid}: expected {target_id, substitute}`));
      continue;
    }
    const t = targets.get(s.target_id);
    if (!t) {
      diagnostics.push(diag("error", file, 0, `substitutes.${sid}: target ${s.target_id} is not in targets`));
      continue;
    }
    const raw = value.substitute_labels[sid];
    if (!Array.isArray(raw) || raw.length === 0 || raw.some((l) => typeof l !== "string" || !SWORDS_LABELS.has(l))) {
      diagnostics.push(diag("error", file, 0, `substitute_labels.${sid}: expected a non-empty list of TRUE, FALSE, UNSURE, TRUE_IMPLICIT, FALSE_IMPLICIT`));
      continue;
    }
    t.substitutes.push({ id: sid, substitute: s.substitute, labels: raw as SwordsLabel[] });
    substitutes++;
  }
  return { file, targets, substitutes, diagnostics };
}
