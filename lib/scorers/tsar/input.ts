/**
 * The TSAR-2022 / MLSP files as tsar_eval.py reads them (read for its reading
 * rules; none of its code is used). Pure: decoded text in (see
 * `decodePythonUtf8`: a file that is not UTF-8 is refused before this), records
 * plus located diagnostics out.
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
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import { type RankedItem, type RankedRun, type TsarGold, type TsarGoldItem, tsarKey } from "../ranking/input";
import { pyReadLines, pyStrip } from "./python-text";

export interface TsarReadOptions {
  /** Drop a leading byte-order mark; read keys with `__` whole. */
  repaired?: boolean;
}

const BOM = "\uFEFF";

function fieldsOf(raw: string): string[] {
  return pyStrip(raw).split("\t");
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
  const blank = pyStrip(raw) === "";
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
    const candidates = fields.slice(2).map((s) => ({ substitute: pyStrip(s), score: null }));
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
    items.set(key, { key, sentence: fields[0], word: fields[1], annotations: fields.slice(2).map(pyStrip), line });
  }
  return { file, items, diagnostics };
}
