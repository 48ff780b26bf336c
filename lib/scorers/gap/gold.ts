/**
 * The weighted gold GAP reads, as each reference script reads a SemEval-style
 * gold (`lexelt id :: sub n;sub n;…`). Pure.
 *
 * - `parseLstGapGold`: orenmel/lexsub lst_gap.py's read_gold_line (Python 2,
 *   lines split on `\n` only). The key is the text before `::` stripped
 *   (`take.v 25`); the text after the first `::` (up to a second) is stripped
 *   and split on `;`; each non-empty entry splits at its **last space**
 *   (`11.27 kilograms 1` is `11.27 kilograms`; `x 1` is `x`); with no space the
 *   last character is the count (`quux7` is `quux` 7); entries are not
 *   stripped (`a 1; b 2` has the candidate ` b`). The count is read with
 *   Python's int(): anything else stops the script (an error here). Its no-mwe
 *   filter drops candidates with a space or a hyphen before the count is read.
 *   A line without `::` stops it (IndexError): an error; blank lines stop it
 *   too but are passed over here (the SemEval gold files start with one). A
 *   key given twice: the last line (a dict).
 * - `parseLexsubgenGold`: Samsung/LexSubGen's LexSubDatasetReader gold part
 *   (Python 3, universal newlines, empty lines dropped): keyed by the id alone
 *   (the last word before `::`; an id given twice stops it), each entry
 *   stripped and split at its last run of whitespace, the weight read with
 *   float(); an entry of one word stops it (IndexError).
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import { py2IntParse, py2Strip, py3RsplitOnce, py3Strip, pyFloatParse } from "../shared/pyfloat";
import { type CountGold, parseTsarGold, tsarCountGold } from "../ranking/input";

/** A gold substitute and its weight (the shape of score.ts's WeightedSubstitute). */
interface GoldWeight {
  substitute: string;
  weight: number;
}

export interface GapGoldItem {
  /** What the reference matches the run on: lst_gap.py `lexelt id` as written (stripped), LexSubGen the id, a TSAR gold `sentence__word`. */
  key: string;
  /** The instance id where the gold names one (for matching by id), else null. */
  id: string | null;
  /** In file order, repeats kept. */
  weights: GoldWeight[];
  line: number;
}

export type GapGoldReader = "lst_gap" | "lexsubgen" | "tsv";

export interface GapGold {
  file: string;
  reader: GapGoldReader;
  items: GapGoldItem[];
  diagnostics: Diagnostic[];
}

/** The instance id of a `lexelt id` key: its last word. */
export function idOfKey(key: string): string {
  const words = key.trim().split(/\s+/);
  return words[words.length - 1] ?? "";
}

/** lst_gap.py's filter under no-mwe: no space and no hyphen. */
export function lstGapKeeps(candidate: string): boolean {
  return !candidate.includes(" ") && !candidate.includes("-");
}

/**
 * A SemEval gold as lst_gap.py reads it (see above); `noMwe` its no-mwe argument.
 * Entries after a `; ` (GermEval 2015 writes its gold so) start with a space, which
 * lst_gap.py keeps in the candidate, so no run's candidate matches them: a warning
 * counts them and names the first line; `repaired` strips the space.
 */
export function parseLstGapGold(text: string, file: string, options: { noMwe?: boolean; repaired?: boolean } = {}): GapGold {
  const diagnostics: Diagnostic[] = [];
  const byKey = new Map<string, GapGoldItem>();
  const spaced = { entries: 0, line: 0, entry: "" };
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    // Blank lines (the SemEval gold files start with one) are passed over; lst_gap.py stops on them (IndexError).
    if (py2Strip(raw) === "") return;
    const segments = raw.split("::");
    if (segments.length < 2) {
      diagnostics.push(diag("error", file, line, `no "::" (lst_gap.py stops on it: IndexError): expected lexelt id :: substitute count;…`));
      return;
    }
    const key = py2Strip(segments[0]);
    const weights: GoldWeight[] = [];
    for (const written of py2Strip(segments[1]).split(";")) {
      let entry = written;
      if (entry.length === 0) continue;
      if (/^[ \t]/.test(entry) && py2Strip(entry) !== "") {
        if (spaced.entries++ === 0) Object.assign(spaced, { line, entry });
        if (options.repaired) entry = entry.replace(/^[ \t]+/, "");
      }
      const at = entry.lastIndexOf(" ");
      const candidate = at < 0 ? entry.slice(0, -1) : entry.slice(0, at);
      if (options.noMwe && !lstGapKeeps(candidate)) continue;
      const countText = at < 0 ? entry.slice(-1) : entry.slice(at);
      const count = py2IntParse(countText);
      if (count === null) {
        diagnostics.push(diag("error", file, line, `entry ${JSON.stringify(entry)}: the count after its last space, ${JSON.stringify(countText.trim())}, is not a whole number (lst_gap.py stops: ValueError)`));
        return;
      }
      weights.push({ substitute: candidate, weight: count });
    }
    const prev = byKey.get(key);
    if (prev) {
      diagnostics.push(diag("warning", file, line, `item ${JSON.stringify(key)} given again (line ${prev.line}); this line is used, as lst_gap.py's dict keeps it`));
      byKey.delete(key);
    }
    byKey.set(key, { key, id: idOfKey(key), weights, line });
  });
  if (spaced.entries > 0) {
    const what = `${spaced.entries} ${spaced.entries === 1 ? "entry starts" : "entries start"} with a space (the first on line ${spaced.line}: ${JSON.stringify(spaced.entry)}; a gold written with "; " between entries, as GermEval 2015's is)`;
    diagnostics.push(
      diag(
        "warning",
        file,
        spaced.line,
        options.repaired
          ? `${what}: the space is stripped (repaired)`
          : `${what}: lst_gap.py keeps the space in the candidate, so no run's candidate matches ${spaced.entries === 1 ? "it" : "them"} and GAP comes out low; --repaired strips it`,
      ),
    );
  }
  return { file, reader: "lst_gap", items: [...byKey.values()], diagnostics };
}

/** A SemEval gold as LexSubGen's reader reads it (see above). */
export function parseLexsubgenGold(text: string, file: string): GapGold {
  const diagnostics: Diagnostic[] = [];
  const items: GapGoldItem[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw === "") return;
    const parts = raw.split("::").map(py3Strip);
    if (parts.length < 2) {
      diagnostics.push(diag("error", file, line, `no "::" (LexSubGen's reader stops on it: IndexError): expected lexelt id :: substitute weight;…`));
      return;
    }
    const head = py3RsplitOnce(parts[0]);
    if (head.length < 2) {
      diagnostics.push(diag("error", file, line, `expected "lexelt id" before "::", found ${JSON.stringify(parts[0])}`));
      return;
    }
    const id = head[1];
    if (seen.has(id)) {
      diagnostics.push(diag("error", file, line, `id ${JSON.stringify(id)} given again (line ${seen.get(id)}): LexSubGen's reader stops ("Duplicated gold id occurred!")`));
      return;
    }
    seen.set(id, line);
    const weights: GoldWeight[] = [];
    for (const subst of parts[1].split(";")) {
      if (subst === "") continue;
      const pair = py3RsplitOnce(subst);
      if (pair.length === 0) continue;
      if (pair.length === 1) {
        diagnostics.push(diag("error", file, line, `entry ${JSON.stringify(subst)} has no weight (LexSubGen's reader stops: IndexError)`));
        return;
      }
      const w = pyFloatParse(pair[1], 3);
      if (w === null) {
        diagnostics.push(diag("error", file, line, `entry ${JSON.stringify(subst)}: the weight ${JSON.stringify(pair[1])} is not a number (LexSubGen's reader stops: ValueError)`));
        return;
      }
      weights.push({ substitute: pair[0], weight: w });
    }
    items.push({ key: id, id, weights, line });
  });
  return { file, reader: "lexsubgen", items, diagnostics };
}

/** A count gold (the TSAR TSV read as counts) as GAP gold, matched on its keys. */
export function gapGoldFromCounts(gold: CountGold): GapGold {
  return {
    file: gold.file,
    reader: "tsv",
    items: gold.items.map((i) => ({ key: i.key, id: null, weights: i.counts.map((c) => ({ substitute: c.substitute, weight: c.count })), line: i.line })),
    diagnostics: gold.diagnostics,
  };
}

/**
 * The gold as the variant's reference reads it: a TSAR/MLSP gold TSV (tabs on
 * the first line and no ` :: `) as counts; else a SemEval gold as LexSubGen
 * reads it (lexsubgen) or as lst_gap.py reads it (melamud, swords).
 */
export function readGapGold(text: string, file: string, options: { variant?: "melamud" | "lexsubgen" | "swords"; noMwe?: boolean; keepComplexWord?: boolean; repaired?: boolean } = {}): GapGold {
  const first = text.replace(/^\uFEFF/, "").split("\n", 1)[0] ?? "";
  if (first.includes("\t") && !first.includes(" :: ")) return gapGoldFromCounts(tsarCountGold(parseTsarGold(text, file), options.keepComplexWord));
  if (options.variant === "lexsubgen") return parseLexsubgenGold(text, file);
  return parseLstGapGold(text, file, { noMwe: options.variant !== "swords" && options.noMwe, repaired: options.repaired });
}
