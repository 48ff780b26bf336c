/**
 * Annotators' responses as TSV, for moving existing annotation in and out:
 *
 *   annotator	lexelt	instance	answer	multiword
 *   annotator2	quiet.a	d1	silent;hushed;still
 *   annotator2	shell.n	d20	NAME
 *   annotator3	launch.v	d9	start;begin	launch into
 *
 * One line per annotator × instance. `answer` is `NAME`, `NIL` (in capitals), or
 * up to three substitutes separated by `;`; `multiword` is the phrase the target
 * is part of, or empty. The header is optional but, when present, must name these
 * columns in this order (`id` is accepted for `instance`, as issue #4 spells it).
 * A line with only four cells has no multiword; the export's two further cells
 * (flag, note: the annotator's flag and note) are accepted and ignored. Blank lines are skipped; CRLF
 * endings and a byte-order mark are tolerated.
 *
 * Every bad line gets an error with its number: a wrong number of cells, an empty
 * annotator, lexelt or instance, an empty answer, a placeholder kind (NONE, N/A…),
 * NAME or NIL mixed with substitutes, more than three substitutes, an empty or
 * repeated substitute, an annotator × instance given twice, and a substitute or
 * phrase that breaks a rule of the workspace (substitute-rules.ts: a list in one
 * substitute, markup, characters other than letters of any script, digits,
 * spaces, hyphens and apostrophes, fewer than two letters, too long…),
 * named with its field and the rule. The rules that need the instance's target
 * (a phrase holds the target word) are checked by the importer, which knows it.
 *
 * With `rules: "mark"` (answers people already gave, collected elsewhere) a
 * substitute or phrase that breaks a rule of the workspace is not an error: the
 * line is read as written and each such field is listed in the record's `broken`
 * with the rule. What the format itself cannot read stays an error either way.
 *
 * Substitutes and phrases are read exactly as written, NFC aside (`e` + combining
 * acute is `é`): curly apostrophes, a double space and a space at either end are
 * kept (the released LST gold has `deliver 1;deliver  1;`, two substitutes to the
 * official scorer). White space other than one space between words breaks the
 * "spacing" rule (listed with `rules: "mark"`, an error otherwise), and answers to
 * one instance that differ only in spacing are reported as warnings; the lemma
 * review decides whether they are one answer. Accents are never folded.
 *
 * Cells are safe to open in a spreadsheet (./spreadsheet.ts): one beginning with
 * =, +, - or @ is written with a leading apostrophe, which reading removes again.
 * Pure: strings in, records out.
 */
import { type Diagnostic, diag, splitLines } from "../diagnostics";
import { MAX_SUBSTITUTES, type Rule, type RuleBreak, phraseBreak, ruleClause, spacingBreak, substituteBreak } from "../substitute-rules";
import { neutraliseCell, restoreCell } from "./spreadsheet";
import type { AnnotatorResponse } from "../types";

const RESPONSE_COLUMNS = ["annotator", "lexelt", "instance", "answer", "multiword"] as const;
/**
 * Columns an export adds when the coordinator adjudicated responses (issue #15):
 * the answer the gold counts and the decisions. Read back, they are ignored: the
 * file imports as the annotators answered.
 */
const ADJUDICATION_COLUMNS = ["adjudicated", "adjudication"] as const;
/** The export's two columns after those: the annotator's flag and note (read back, they are ignored). */
const FLAG_COLUMNS = ["flag", "note"] as const;

/** An error naming the field, what it holds and the rule broken: `answer, substitute 2 "x": … (rule: letters)`. */
export function ruleError(field: string, value: string, broken: RuleBreak): string {
  const shown = value.length > 40 ? `${value.slice(0, 37)}…` : value;
  return `${field} ${JSON.stringify(shown)}: ${ruleClause(broken)} (rule: ${broken.rule})`;
}

/** Answers that look like someone's "no answer" convention rather than NAME or NIL. */
const PLACEHOLDER_KINDS = new Set(["NONE", "NULL", "NA", "N/A", "SKIP", "UNKNOWN", "?", "-"]);

/** A field of a line that breaks a rule of the workspace, kept as written (`rules: "mark"`). */
export interface BrokenField {
  /** `substitute 2`, `multiword`. */
  field: string;
  value: string;
  rule: Rule;
}

interface ResponseLine extends AnnotatorResponse {
  /** 1-based line number in the file. */
  line: number;
  /** With `rules: "mark"`: the fields kept as written that break a rule (absent when none). */
  broken?: BrokenField[];
}

export interface ResponsesParseResult {
  responses: ResponseLine[];
  diagnostics: Diagnostic[];
}

export interface ResponsesParseOptions {
  /** Stop listing errors after this many (default 50); the count of the rest is reported. */
  maxErrors?: number;
  /**
   * A substitute or phrase that breaks a rule of the workspace: "refuse" (default)
   * makes it an error; "mark" keeps it as written and lists it in `broken`.
   */
  rules?: "refuse" | "mark";
}

function isHeader(cells: string[]): boolean {
  return cells[0]?.trim().toLowerCase() === "annotator";
}

/** How the error for a wrong header begins (an importer refuses such a file whole). */
export const HEADER_ERROR = "the header must be";

function checkHeader(cells: string[], file: string, line: number): Diagnostic | null {
  const got = cells.map((c) => c.trim().toLowerCase());
  // The five columns, then the export's optional ones, in this order: adjudication, flags.
  const layouts = [RESPONSE_COLUMNS, [...RESPONSE_COLUMNS, ...ADJUDICATION_COLUMNS], [...RESPONSE_COLUMNS, ...FLAG_COLUMNS], [...RESPONSE_COLUMNS, ...ADJUDICATION_COLUMNS, ...FLAG_COLUMNS]];
  const ok =
    (got.length === 4 || layouts.some((l) => l.length === got.length)) &&
    layouts.some((all) => got.every((c, k) => c === all[k] || (k === 2 && c === "id")));
  return ok ? null : diag("error", file, line, `${HEADER_ERROR} "${RESPONSE_COLUMNS.join("\\t")}", not "${cells.join("\\t")}"`);
}

type Answer = { kind: AnnotatorResponse["kind"]; substitutes: string[]; broken?: BrokenField[] } | { error: string };

/**
 * Read the answer cell: NAME, NIL, or up to three substitutes. With `rules: "mark"`
 * (answers people already gave) each substitute is kept exactly as written, NFC
 * aside — a double space or a space at an end included — and a substitute that
 * breaks a rule (rule "spacing" among them) is listed in `broken`. With "refuse"
 * such a substitute is an error.
 */
export function parseAnswer(cell: string, rules: "refuse" | "mark" = "refuse"): Answer {
  const answer = cell.trim();
  if (answer === "") return { error: "the answer is empty: give substitutes, NAME or NIL" };
  if (answer === "NAME" || answer === "NIL") return { kind: answer, substitutes: [] };
  if (PLACEHOLDER_KINDS.has(answer)) return { error: `unknown kind "${answer}": the kinds are NAME and NIL (in capitals)` };
  // The cell's own spaces belong to its substitutes: `deliver ` is not `deliver`.
  const parts = cell.split(";").map((p) => p.normalize("NFC"));
  if (parts.some((p) => p.trim() === "NAME" || p.trim() === "NIL")) {
    return { error: `"${answer}": NAME and NIL stand alone, never among substitutes` };
  }
  if (parts.length > MAX_SUBSTITUTES) {
    return { error: `${parts.length} substitutes in "${answer}": at most ${MAX_SUBSTITUTES} are allowed` };
  }
  const empty = parts.findIndex((p) => p.trim() === "");
  if (empty >= 0) return { error: `substitute ${empty + 1} of "${answer}" is empty (a stray ";"?)` };
  let marked: BrokenField[] | undefined;
  for (let k = 0; k < parts.length; k++) {
    const broken = substituteBreak(parts[k], "file") ?? spacingBreak(parts[k]);
    if (!broken) continue;
    if (rules === "refuse") return { error: ruleError(`answer, substitute ${k + 1}`, parts[k], broken) };
    (marked ??= []).push({ field: `substitute ${k + 1}`, value: parts[k], rule: broken.rule });
  }
  const seen = new Set<string>();
  for (const p of parts) {
    const key = p.toLowerCase();
    if (seen.has(key)) return { error: `substitute "${p}" is given twice in "${answer}"` };
    seen.add(key);
  }
  return marked ? { kind: "substitutes", substitutes: parts, broken: marked } : { kind: "substitutes", substitutes: parts };
}

/**
 * Answers to one instance that differ only in spacing (`deliver` and `deliver `,
 * whoever gave them): both are kept as written — the official scorer counts two
 * substitutes — and each later spelling is reported with the line of the first,
 * for the lemma review to decide whether they are one answer.
 */
function spacingTwins(responses: readonly ResponseLine[], file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byInstance = new Map<string, Map<string, { spelling: string; line: number }[]>>();
  for (const r of responses) {
    let forms = byInstance.get(r.instanceId);
    const written = r.multiword === null ? r.substitutes : [...r.substitutes, r.multiword];
    for (const s of written) {
      const key = s.replace(/\s+/gu, " ").trim();
      if (!forms) byInstance.set(r.instanceId, (forms = new Map()));
      let spellings = forms.get(key);
      if (!spellings) forms.set(key, (spellings = []));
      if (spellings.some((x) => x.spelling === s)) continue;
      if (spellings.length > 0) {
        const first = spellings[0];
        out.push(
          diag(
            "warning",
            file,
            r.line,
            `instance ${r.instanceId}: ${JSON.stringify(s)} differs from ${JSON.stringify(first.spelling)} (line ${first.line}) only in spacing: both kept as written (the scorer counts them as two substitutes); the lemma review proposes ${JSON.stringify(key)} for the coordinator to decide`,
          ),
        );
      }
      spellings.push({ spelling: s, line: r.line });
    }
  }
  return out;
}

/** Parse a responses TSV file into records plus line-numbered diagnostics. */
export function parseResponsesTsv(text: string, file: string, opts: ResponsesParseOptions = {}): ResponsesParseResult {
  const maxErrors = opts.maxErrors ?? 50;
  const rules = opts.rules ?? "refuse";
  const diagnostics: Diagnostic[] = [];
  const responses: ResponseLine[] = [];
  let errors = 0;
  const error = (line: number, message: string) => {
    errors++;
    if (errors <= maxErrors) diagnostics.push(diag("error", file, line, message));
  };
  const firstLine = new Map<string, number>();
  let first = true;
  let crlf = 0;
  /** The header names the export's extra columns (adjudication, flags): lines may carry them (ignored). */
  let extra = 0;

  for (const src of splitLines(text.replace(/^\uFEFF/, ""))) {
    if (src.crlf) crlf++;
    if (src.text.trim() === "") continue;
    if (src.text.includes("\r")) {
      // A CR not ending the line: old Mac line endings (the whole file is one line), or a CR inside a cell.
      error(src.line, "a carriage return (CR) inside the line; lines must end in LF or CRLF (was the file saved with old Mac line endings?)");
      continue;
    }
    const cells = src.text.split("\t").map(restoreCell);
    if (first) {
      first = false;
      if (isHeader(cells)) {
        const bad = checkHeader(cells, file, src.line);
        if (bad) error(bad.line, bad.message);
        extra = bad ? 0 : Math.max(0, cells.length - RESPONSE_COLUMNS.length);
        continue;
      }
    }
    if (extra > 0 && cells.length === RESPONSE_COLUMNS.length + extra) cells.length = RESPONSE_COLUMNS.length;
    if (cells.length !== 5 && cells.length !== 4) {
      error(
        src.line,
        `${cells.length} tab-separated cells; expected 5 (${RESPONSE_COLUMNS.join(", ")})` +
          (cells.length === 1 && /\S\s+\S/.test(src.text) ? " — are the columns separated by spaces instead of tabs?" : ""),
      );
      continue;
    }
    const [annotator, lexelt, instanceId] = cells.slice(0, 3).map((c) => c.trim());
    const missing = [["annotator", annotator], ["lexelt", lexelt], ["instance", instanceId]].find(([, v]) => v === "");
    if (missing) {
      error(src.line, `the ${missing[0]} cell is empty`);
      continue;
    }
    const answer = parseAnswer(cells[3], rules);
    if ("error" in answer) {
      error(src.line, answer.error);
      continue;
    }
    let broken = answer.broken;
    // The phrase as written too (NFC aside); a blank cell is no phrase.
    const multiword = (cells[4] ?? "").trim() === "" ? "" : (cells[4] ?? "").normalize("NFC");
    const phraseBroken = multiword === "" ? null : (phraseBreak(multiword) ?? spacingBreak(multiword));
    if (phraseBroken && rules === "refuse") {
      error(src.line, ruleError("multiword", multiword, phraseBroken));
      continue;
    }
    if (phraseBroken) broken = [...(broken ?? []), { field: "multiword", value: multiword, rule: phraseBroken.rule }];
    const key = `${annotator}\t${instanceId}`;
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      error(src.line, `${annotator} already answered instance ${instanceId} on line ${earlier}; one response per annotator and instance`);
      continue;
    }
    firstLine.set(key, src.line);
    const record: ResponseLine = { annotator, lexelt, instanceId, kind: answer.kind, substitutes: answer.substitutes, multiword: multiword || null, line: src.line };
    if (broken) record.broken = broken;
    responses.push(record);
  }
  diagnostics.push(...spacingTwins(responses, file));
  if (errors > maxErrors) diagnostics.push(diag("error", file, 0, `${errors - maxErrors} more errors not listed (${errors} in all)`));
  if (crlf > 0) diagnostics.push(diag("warning", file, 0, `${crlf} lines end in CRLF; read as LF`));
  return { responses, diagnostics };
}

/** A cell written back: no tabs or line breaks inside it, whatever the record holds. */
function cell(s: string): string {
  return s.replace(/[\t\r\n]+/g, " ");
}

/** A cell as the file holds it: as above, and never taken for a formula by a spreadsheet. */
function safe(s: string): string {
  return neutraliseCell(cell(s));
}

/** The answer cell for a response: NAME, NIL, or the substitutes joined by ";". */
export function formatAnswer(r: Pick<AnnotatorResponse, "kind" | "substitutes">): string {
  return r.kind === "substitutes" ? r.substitutes.map((s) => cell(s).replace(/;/g, ",")).join(";") : r.kind;
}

export interface WriteResponsesOptions {
  /**
   * With this, the file has the adjudication columns: for each response, the
   * answer the gold counts and the decisions in words (null: not adjudicated).
   */
  adjudication?: (r: AnnotatorResponse) => { answer: string; note: string } | null;
  /** With this, two more columns (after any adjudication columns): the annotator's flag and note on the instance. */
  flags?: (r: AnnotatorResponse) => { flag: string | null; note: string } | undefined;
}

/** Write responses as TSV, header first, one line each, in the order given. */
export function writeResponsesTsv(responses: readonly AnnotatorResponse[], options: WriteResponsesOptions = {}): string {
  const adj = options.adjudication;
  const flagOf = options.flags;
  const lines = [[...RESPONSE_COLUMNS, ...(adj ? ADJUDICATION_COLUMNS : []), ...(flagOf ? FLAG_COLUMNS : [])].join("\t")];
  for (const r of responses) {
    const cells = [safe(r.annotator), safe(r.lexelt), safe(r.instanceId), neutraliseCell(formatAnswer(r)), safe(r.multiword ?? "")];
    if (adj) {
      const a = adj(r);
      cells.push(a ? neutraliseCell(cell(a.answer)) : "", a ? safe(a.note) : "");
    }
    if (flagOf) {
      const f = flagOf(r);
      cells.push(safe(f?.flag ?? ""), safe(f?.note ?? ""));
    }
    lines.push(cells.join("\t"));
  }
  return lines.join("\n") + "\n";
}
