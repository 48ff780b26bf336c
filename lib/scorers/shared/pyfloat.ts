/**
 * Python's floats as text, both ways, for the figures and inputs of the
 * reference scripts written in Python. Pure.
 *
 * Printing:
 * - `pyRepr`: `repr(x)` (Python 2.7 and 3), which is also Python 3's `str(x)` and
 *   what Python 3's `print(x)` writes: the shortest digits that read back as x,
 *   in exponent form below 1e-4 or from 1e16 on (`1e-05`, `1e+16`), an integer
 *   value with `.0`, `inf`, `-inf`, `nan`.
 * - `py2Str`: Python 2's `str(x)` (what Python 2's `print x` and `str()` write):
 *   12 significant digits rounded exactly (half to even on the binary value),
 *   exponent form below 1e-4 or from 1e11 on, `.0` added to an integer value.
 * - `pyRound`: Python 3's `round(x, n)`, correctly rounded.
 *
 * Reading: `pyFloatParse` is Python's `float(s)` on a text (2 or 3), including
 * `inf`, `-Infinity`, `nan`; `parseJsonPython` is Python's `json.loads`, which
 * reads the tokens `NaN`, `Infinity` and `-Infinity`.
 */
import { exactDecimal } from "./table";

/** The exact decimal expansion of a finite non-zero |x|: digits (no trailing zero) and the exponent of the first. */
function exactDigits(x: number): { digits: string; exp: number } {
  const { digits, scale } = exactDecimal(x);
  const text = digits.toString();
  return { digits: text.replace(/0+$/, "") || "0", exp: text.length - 1 - scale };
}

/** Round a digit string (first digit at 10^exp) to `keep` digits, half to even; keep may be ≤ 0. */
function roundDigits(digits: string, exp: number, keep: number): { digits: string; exp: number } {
  if (keep >= digits.length) return { digits, exp };
  let head: string;
  let rest: string;
  if (keep <= 0) {
    head = "0";
    rest = keep === 0 ? digits : "0".repeat(-keep) + digits;
  } else {
    head = digits.slice(0, keep);
    rest = digits.slice(keep);
  }
  let up: boolean;
  if (rest[0] > "5") up = true;
  else if (rest[0] < "5") up = false;
  else if (/[1-9]/.test(rest.slice(1))) up = true;
  else up = Number(head[head.length - 1]) % 2 === 1;
  let headExp = keep <= 0 ? exp - keep + 1 : exp;
  if (up) {
    const next = (BigInt(head) + 1n).toString();
    if (next.length > head.length && head !== "0") headExp++;
    head = next.length > Math.max(keep, 1) ? next.slice(0, Math.max(keep, 1)) : next;
  }
  const trimmed = head.replace(/0+$/, "");
  if (trimmed === "") return { digits: "0", exp: 0 };
  return { digits: trimmed, exp: headExp };
}

function expPart(e: number): string {
  return `e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** Digits and decimal exponent laid out as Python's float formatting does, ".0" added to integers. */
function layout(sign: string, digits: string, exp: number, useExp: boolean): string {
  if (useExp) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mant}${expPart(exp)}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

function special(x: number): string | null {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  return null;
}

/** Python's repr(float) (= Python 3's str and print). */
export function pyRepr(x: number): string {
  const s = special(x);
  if (s !== null) return s;
  // JavaScript's toExponential() gives the shortest round-trip digits, as Python's repr does.
  const m = /^-?(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential());
  if (!m) throw new Error(`unexpected number text ${x.toExponential()}`);
  const digits = (m[1] + (m[2] ?? "")).replace(/0+$/, "") || "0";
  const exp = Number(m[3]);
  return layout(x < 0 ? "-" : "", digits, exp, exp < -4 || exp >= 16);
}

/** Python 2's str(float): '%.12g' with ".0" added to an integer value. */
export function py2Str(x: number): string {
  const s = special(x);
  if (s !== null) return s;
  const exact = exactDigits(x);
  const r = roundDigits(exact.digits, exact.exp, 12);
  // Python 2's float_str: with ".0" to add, exponent form from 11 on (123456789012.0 → 1.23456789012e+11).
  return layout(x < 0 ? "-" : "", r.digits, r.exp, r.exp < -4 || r.exp >= 11);
}

/** Python 3's round(x, n) for a float: the double nearest the exactly rounded decimal (half to even). */
export function pyRound(x: number, n: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const exact = exactDigits(x);
  const r = roundDigits(exact.digits, exact.exp, exact.exp + 1 + n);
  if (r.digits === "0") return x < 0 ? -0 : 0;
  return Number(`${x < 0 ? "-" : ""}0.${r.digits}e${r.exp + 1}`);
}

// ---------------------------------------------------------------------------
// Reading

/** Python 2's whitespace for str (bytes): strip() and float()/int() skip these. */
const PY2_SPACE = " \t\n\r\v\f";
/** Python 3's str.isspace() characters (strip(), split() and float() skip these). */
const PY3_SPACE = " \t\n\r\v\f\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

function stripSet(s: string, set: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && set.includes(s[a])) a++;
  while (b > a && set.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

/** Python 2's str.strip() on a line read as bytes: ASCII whitespace only. */
export function py2Strip(s: string): string {
  return stripSet(s, PY2_SPACE);
}

/** Python 3's str.strip(). */
export function py3Strip(s: string): string {
  return stripSet(s, PY3_SPACE);
}

/** Python 3's str.rsplit(maxsplit=1). */
export function py3RsplitOnce(s: string): string[] {
  const t = py3Strip(s);
  if (t === "") return [];
  let i = t.length - 1;
  while (i >= 0 && !PY3_SPACE.includes(t[i])) i--;
  if (i < 0) return [t];
  const tail = t.slice(i + 1);
  return [py3Strip(t.slice(0, i)), tail];
}

const DIGITS2 = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$/;
// Python 3.6+: an underscore may stand between two digits.
const DIGITS3 = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;

/**
 * Python's float(s) on a text: null where Python raises ValueError. `inf`,
 * `infinity` and `nan` in any case with an optional sign; whitespace around.
 * (Python 3 also reads non-ASCII decimal digits; those are refused here.)
 */
export function pyFloatParse(s: string, python: 2 | 3 = 3): number | null {
  const t = python === 2 ? py2Strip(s) : py3Strip(s);
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (m) {
    if (m[2].toLowerCase() === "nan") return NaN;
    return m[1] === "-" ? -Infinity : Infinity;
  }
  if (!(python === 2 ? DIGITS2 : DIGITS3).test(t)) return null;
  return Number(t.replace(/_/g, ""));
}

/** Python 2's int(s) (base 10): whitespace around, an optional sign, digits; null where Python raises. */
export function py2IntParse(s: string): number | null {
  const t = py2Strip(s);
  return /^[+-]?\d+$/.test(t) ? Number(t) : null;
}

/**
 * JSON as Python's json.loads reads it: JSON plus the bare tokens `NaN`,
 * `Infinity` and `-Infinity` (outside strings). Throws SyntaxError as JSON.parse.
 */
export function parseJsonPython(text: string): unknown {
  if (!/NaN|Infinity/.test(text)) return JSON.parse(text);
  // A marker the text does not contain stands for NaN; ±Infinity read as ±1e999.
  let marker = "py-nan";
  while (text.includes(marker)) marker += "~";
  const parts: string[] = [];
  // Where each replacement starts in the new text, and how much it shifted what follows.
  const shifts: { at: number; delta: number }[] = [];
  let outLength = 0;
  let last = 0;
  let i = 0;
  let inString = false;
  let prev = "";
  const put = (at: number, length: number, replacement: string) => {
    parts.push(text.slice(last, at), replacement);
    outLength += at - last + replacement.length;
    shifts.push({ at: outLength, delta: replacement.length - length });
    last = at + length;
    prev = "v";
  };
  while (i < text.length) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      i++;
      continue;
    }
    if (ch === '"') {
      inString = true;
      prev = ch;
      i++;
      continue;
    }
    // A value starts here only after `[`, `,`, `:` or at the start (whitespace between).
    const atValue = prev === "" || prev === "[" || prev === "," || prev === ":";
    if (atValue && text.startsWith("NaN", i)) put(i, 3, `"${marker}"`);
    else if (atValue && text.startsWith("-Infinity", i)) put(i, 9, "-1e999");
    else if (atValue && text.startsWith("Infinity", i)) put(i, 8, "1e999");
    else {
      if (!/\s/.test(ch)) prev = ch;
      i++;
      continue;
    }
    i = last;
  }
  parts.push(text.slice(last));
  const out = parts.join("");
  try {
    return JSON.parse(out, (_k, v) => (v === marker ? NaN : v));
  } catch (e) {
    // Report the position in the text as given.
    const m = e instanceof SyntaxError ? /position (\d+)/.exec(e.message) : null;
    if (!m) throw e;
    const pos = Number(m[1]);
    const back = shifts.filter((x) => x.at <= pos).reduce((n, x) => n + x.delta, 0);
    throw new SyntaxError(e instanceof Error ? e.message.replace(/position \d+/, `position ${pos - back}`) : String(e));
  }
}
