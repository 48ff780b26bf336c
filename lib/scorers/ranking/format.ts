/** How ranking figures print (shared by the CLI and the page). Pure. */
import { pyRepr } from "../shared/pyfloat";
import { cFixed } from "../shared/table";

/** Python 3's str(float) (= repr): shortest round-trip digits, `1.0`, `1e-05`, `inf`, `nan`. */
export function pyFloat(x: number): string {
  return pyRepr(x);
}

/** A figure as the table prints it: the benchmark's digits, or as is (tsar's truncated floats). */
export function formatFigure(x: number | null, digits: number | null): string {
  if (x === null) return "n/a";
  return digits === null ? pyFloat(x) : cFixed(x, digits);
}

