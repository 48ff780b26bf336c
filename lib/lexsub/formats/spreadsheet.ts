/**
 * Cells safe to open in a spreadsheet (OWASP's CSV-injection rule): a cell that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a
 * formula, so it is written with a leading apostrophe, which spreadsheets show
 * as text and do not display. A value that already begins with apostrophes
 * before such a character gets one more, so reading back (`restoreCell`) is
 * exact: every TSV/CSV lexgold writes and reads follows this rule.
 * Pure: strings in, strings out.
 */

const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The cell as written to a TSV/CSV file: never taken for a formula. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? "'" + value : value;
}

/** The value a neutralised cell holds (the inverse of neutraliseCell). */
export function restoreCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/** A CSV cell: neutralised, and quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const s = neutraliseCell(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
