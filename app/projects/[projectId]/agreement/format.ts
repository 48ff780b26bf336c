/** Number formatting for the Agreement page (pure: used by server and client components). */
import { int } from "@/app/_ui/format";

export const DASH = "—";

/** A proportion as a percentage with one decimal ("35.6%"), "—" when undefined. */
export function pct(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? DASH : `${(100 * x).toFixed(1)}%`;
}

/** Krippendorff's α with three decimals ("0.199", "−0.042"), "—" when undefined. */
export function alpha(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return DASH;
  const s = x.toFixed(3);
  return s.startsWith("-") ? "−" + s.slice(1) : s;
}

/** A mean with two decimals, "—" when undefined. */
export function dec(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? DASH : x.toFixed(2);
}

/** A change in percentage points, signed ("+5.5 pts", "−0.3 pts", "±0.0 pts"). */
export function points(d: number): string {
  const v = (100 * d).toFixed(1);
  if (v === "0.0" || v === "-0.0") return "±0.0 pts";
  return d > 0 ? `+${v} pts` : `−${v.slice(1)} pts`;
}

export type Kind = "text" | "int" | "pct" | "alpha" | "dec";

export function formatCell(kind: Kind, v: string | number | null): string {
  if (v === null) return DASH;
  switch (kind) {
    case "text":
      return String(v);
    case "int":
      return int(Number(v));
    case "pct":
      return pct(Number(v));
    case "alpha":
      return alpha(Number(v));
    case "dec":
      return dec(Number(v));
  }
}
