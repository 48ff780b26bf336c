/**
 * Lemma decisions as TSV, for deciding many typed forms at once
 * (`lexgold lemmas import FILE.tsv`):
 *
 *   form	decision
 *   films	accept
 *   boss	keep
 *   nato	NATO
 *   took	reset
 *
 * `decision` is `accept` (take the proposal), `keep` (keep the form as typed),
 * `reset` (back to undecided) or any other text: the lemma to record instead.
 * The header is optional; blank lines and lines starting with `#` are skipped;
 * CRLF endings and a byte-order mark are tolerated. Forms are matched as the
 * review keys them (trimmed, single spaces, lower case); a lemma is written as
 * given (whitespace collapsed, case kept).
 *
 * Every bad line gets an error with its number: not two cells, an empty form or
 * decision, a lemma holding `;` or over-long, a form decided twice. Pure.
 */
import { type Diagnostic, diag, splitLines } from "../diagnostics";
import { collapseSpace, normaliseForm } from "../normalize";
import { restoreCell } from "./spreadsheet";

/** Longest lemma accepted, in characters (the Gold page's override field says the same). */
export const MAX_LEMMA_LENGTH = 80;

type LemmaDecisionLine =
  | { line: number; form: string; decision: "accepted" | "kept" | "reset" }
  | { line: number; form: string; decision: "overridden"; lemma: string };

export interface LemmaDecisionsParseResult {
  decisions: LemmaDecisionLine[];
  diagnostics: Diagnostic[];
}

const WORDS: Record<string, "accepted" | "kept" | "reset"> = { accept: "accepted", keep: "kept", reset: "reset" };

/** Read a decisions TSV; `file` names it in the diagnostics. */
/** `language`: the project's (BCP 47), whose rules fold the forms' case (English when absent). */
export function parseLemmaDecisionsTsv(text: string, file: string, language?: string): LemmaDecisionsParseResult {
  const decisions: LemmaDecisionLine[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, number>();
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (const { line, text: t } of splitLines(src)) {
    if (t.trim() === "" || t.startsWith("#")) continue;
    // A cell a spreadsheet would run as a formula may come neutralised (./spreadsheet.ts): read its value.
    const cells = t.split("\t").map(restoreCell);
    if (decisions.length === 0 && seen.size === 0 && cells[0].trim().toLowerCase() === "form" && (cells[1] ?? "").trim().toLowerCase() === "decision") {
      continue;
    }
    const err = (m: string) => diagnostics.push(diag("error", file, line, m));
    if (cells.length !== 2) {
      err(`expected 2 tab-separated cells (form, decision), found ${cells.length}`);
      continue;
    }
    const form = normaliseForm(cells[0], language);
    const value = collapseSpace(cells[1]);
    if (form === "") {
      err("the form is empty");
      continue;
    }
    if (value === "") {
      err(`no decision for "${form}" (accept, keep, reset or the lemma)`);
      continue;
    }
    const first = seen.get(form);
    if (first !== undefined) {
      err(`"${form}" is decided twice (first on line ${first})`);
      continue;
    }
    seen.set(form, line);
    const word = WORDS[value.toLowerCase()];
    if (word) {
      decisions.push({ line, form, decision: word });
      continue;
    }
    if (value.includes(";")) err(`the lemma "${value}" holds ';', the gold file's separator`);
    else if (value.length > MAX_LEMMA_LENGTH) err(`the lemma for "${form}" is over ${MAX_LEMMA_LENGTH} characters`);
    else decisions.push({ line, form, decision: "overridden", lemma: value });
  }
  return { decisions, diagnostics };
}
