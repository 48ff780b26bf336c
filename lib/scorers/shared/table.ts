/**
 * Report plumbing shared by the scorers: C-compatible fixed-point formatting
 * (so figures print exactly as the C and Perl scorers print them) and a
 * fixed-width text table. Pure: strings in, strings out.
 */

/**
 * The decimal expansion of a finite double, exactly: |x| = digits / 10^scale.
 * A double is m·2^e; for e < 0 that is m·5^-e / 10^-e, so no digit is lost.
 */
export function exactDecimal(x: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074; // subnormal
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (exponent >= 0) return { digits: mantissa << BigInt(exponent), scale: 0 };
  return { digits: mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}

/**
 * `printf("%.<digits>f", x)` as glibc prints it: the exact binary value rounded
 * to nearest, ties to even (so 0.125 → "0.12", unlike toFixed's "0.13"); NaN
 * prints "-nan" (the default NaN of x86 division 0/0 carries the sign bit),
 * infinities "inf" / "-inf".
 */
export function cFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return "-nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const negative = x < 0 || Object.is(x, -0);
  const { digits: d, scale } = exactDecimal(x);
  let q: bigint;
  if (scale <= digits) {
    q = d * 10n ** BigInt(digits - scale);
  } else {
    const unit = 10n ** BigInt(scale - digits);
    q = d / unit;
    const r = d % unit;
    const half = unit / 2n;
    if (r > half || (r === half && q % 2n === 1n)) q += 1n;
  }
  let s = q.toString();
  if (digits > 0) {
    s = s.padStart(digits + 1, "0");
    s = `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  }
  return negative ? `-${s}` : s;
}

/** A proportion (or any figure) with fixed decimals, or `n/a` when undefined. */
export function fixedOrNA(x: number | null, digits: number): string {
  return x === null ? "n/a" : cFixed(x, digits);
}

export type Align = "left" | "right";

/** A label drawn over `span` columns from column `from` (0-based), as `--- label ---`. */
export interface TableGroup {
  label: string;
  from: number;
  span: number;
}

/**
 * Lay rows out in columns separated by `gap` spaces, each column as wide as its
 * widest cell; `align[i]` says how column i is padded (default left). Trailing
 * spaces are trimmed. With `groups`, a first line labels runs of columns.
 * Returns one string per line, without newlines.
 */
export function formatTable(rows: readonly (readonly string[])[], align: readonly Align[] = [], gap = 2, groups: readonly TableGroup[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const header: string[] = [];
  if (groups.length > 0) {
    let line = "";
    let col = 0;
    for (const g of groups) {
      for (; col < g.from; col++) line += " ".repeat(widths[col] ?? 0) + " ".repeat(gap);
      let span = 0;
      for (let i = g.from; i < g.from + g.span; i++) span += widths[i] ?? 0;
      span += gap * (g.span - 1);
      const text = g.label.length + 2 <= span ? ` ${g.label} ` : g.label;
      const left = Math.max(0, Math.floor((span - text.length) / 2));
      const right = Math.max(0, span - text.length - left);
      line += "-".repeat(left) + text + "-".repeat(right) + " ".repeat(gap);
      col = g.from + g.span;
    }
    header.push(line.replace(/\s+$/, ""));
  }
  return header.concat(rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = widths[i] - cell.length;
        return align[i] === "right" ? " ".repeat(pad) + cell : cell + " ".repeat(pad);
      })
      .join(" ".repeat(gap))
      .replace(/\s+$/, ""),
  ));
}
