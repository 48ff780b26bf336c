/** How ranking figures print (shared by the CLI and the page). Pure. */
import { cFixed } from "../shared/table";

/** Python's str(float): shortest round-trip digits, integers with ".0". */
export function pyFloat(x: number): string {
  const s = String(x);
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}

/** A figure as the table prints it: the benchmark's digits, or as is (tsar's truncated floats). */
export function formatFigure(x: number | null, digits: number | null): string {
  if (x === null) return "n/a";
  return digits === null ? pyFloat(x) : cFixed(x, digits);
}

