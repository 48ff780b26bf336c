/**
 * Python's float text, both ways. Each expected string is what CPython prints
 * or reads for that value (repr: shortest round-trip digits, exponent form for
 * a decimal exponent below -4 or from 16 on; Python 2's str: 12 significant
 * digits, half to even on the exact binary value, exponent form from 1e11 on
 * because room is kept for ".0").
 */
import { describe, expect, it } from "vitest";
import { parseJsonPython, py2IntParse, py2Str, pyFloatParse, pyRepr, pyRound } from "../../../lib/scorers/shared/pyfloat";
import { pySorted } from "../../../lib/scorers/shared/pysort";

describe("pyRepr (Python 3 str/print, repr)", () => {
  it.each([
    [1, "1.0"],
    [0, "0.0"],
    [-0, "-0.0"],
    [1e-5, "1e-05"],
    [2.5e-5, "2.5e-05"],
    [0.0001, "0.0001"],
    [1e16, "1e+16"],
    [1e15, "1000000000000000.0"],
    [0.1 + 0.2, "0.30000000000000004"],
    [1 / 3, "0.3333333333333333"],
    [5e-324, "5e-324"],
    [1.5e300, "1.5e+300"],
    [-(2 ** -18), "-3.814697265625e-06"],
    [Infinity, "inf"],
    [-Infinity, "-inf"],
    [NaN, "nan"],
  ])("%s → %s", (x, s) => expect(pyRepr(x)).toBe(s));
});

describe("py2Str (Python 2 str/print, what lst_gap.py writes)", () => {
  it.each([
    [1, "1.0"],
    [0, "0.0"],
    [1 / 3, "0.333333333333"],
    [2 / 3, "0.666666666667"],
    [0.1 + 0.2, "0.3"],
    [1e-5, "1e-05"],
    [99999999999.95, "99999999999.9"],
    [123456789012, "1.23456789012e+11"],
    [999999999999.5, "1e+12"],
    [1e16, "1e+16"],
    // 2^-18 = 3.814697265625e-06 exactly: a tie at 12 digits, to even.
    [2 ** -18, "3.81469726562e-06"],
    [Infinity, "inf"],
    [NaN, "nan"],
  ])("%s → %s", (x, s) => expect(py2Str(x)).toBe(s));
});

describe("pyRound (Python 3 round(x, n))", () => {
  it.each([
    [2.675, 2, 2.67], // 2.67499999… in binary
    [0.125, 2, 0.12], // an exact tie: to even
    [0.375, 2, 0.38],
    [1.005, 2, 1],
    [0.5, 0, 0],
    [1.5, 0, 2],
    [0.006, 2, 0.01],
    [1e-9, 2, 0],
    [99.995, 2, 100],
    [66.66666666666667, 2, 66.67],
  ])("round(%s, %s) = %s", (x, n, r) => expect(pyRound(x, n)).toBe(r));
  it("keeps the sign of a zero result and passes inf and nan through", () => {
    expect(Object.is(pyRound(-0.004, 2), -0)).toBe(true);
    expect(pyRound(-Infinity, 2)).toBe(-Infinity);
    expect(pyRound(NaN, 2)).toBeNaN();
  });
});

describe("pyFloatParse (Python float()) and py2IntParse (Python 2 int())", () => {
  it.each([
    [" -Infinity ", 3, -Infinity],
    ["inf", 2, Infinity],
    ["+inf", 2, Infinity],
    ["nAn", 3, NaN],
    ["-nan", 2, NaN],
    ["1e5", 2, 100000],
    [".5", 3, 0.5],
    ["5.", 3, 5],
    ["+.5e-3", 3, 0.0005],
    [" 5\n", 2, 5],
    ["1_000", 3, 1000],
    ["1_000", 2, null],
    ["\u00a05", 3, 5],
    ["\u00a05", 2, null],
    ["1__0", 3, null],
    ["_1", 3, null],
    ["0x10", 3, null],
    ["", 3, null],
    ["1e", 3, null],
    ["in", 3, null],
  ])("float(%j) in Python %s", (s, py, v) => {
    const r = pyFloatParse(s, py as 2 | 3);
    if (v === null) expect(r).toBeNull();
    else expect(r).toBe(v);
  });
  it.each([
    [" 1", 1],
    ["+2", 2],
    [" 3 \n", 3],
    ["1.0", null],
    ["", null],
  ])("int(%j)", (s, v) => expect(py2IntParse(s)).toBe(v));
});

describe("parseJsonPython (json.loads)", () => {
  it("reads NaN, Infinity and -Infinity as values, leaves them alone inside strings, refuses them elsewhere", () => {
    const v = parseJsonPython('{"t:1": [["a", -Infinity], ["NaN", NaN], ["b", Infinity], ["c", 1e999]], "s": "-Infinity"}') as Record<string, unknown>;
    expect(v["t:1"]).toEqual([["a", -Infinity], ["NaN", NaN], ["b", Infinity], ["c", Infinity]]);
    expect(v.s).toBe("-Infinity");
    expect(() => parseJsonPython("[1NaN]")).toThrow(SyntaxError);
    expect(() => parseJsonPython("[inf]")).toThrow(SyntaxError);
    expect(() => parseJsonPython("[+Infinity]")).toThrow(SyntaxError);
  });
  it("a syntax error after a NaN or -Infinity gives its position in the text as given", () => {
    const text = '[NaN, -Infinity,\n 1 2]';
    expect(() => parseJsonPython(text)).toThrow(new RegExp(`position ${text.indexOf("2")}\\b`));
  });
  it("a string equal to the internal NaN marker stays a string", () => {
    expect(parseJsonPython('["py-nan", NaN]')).toEqual(["py-nan", NaN]);
  });
});

describe("pySorted (CPython's list.sort)", () => {
  it("is a stable sort without NaN, ±inf in place", () => {
    const xs = [1, -Infinity, 3, Infinity, 1, 3];
    const idx = xs.map((k, i) => ({ k, i }));
    expect(pySorted(idx, (e) => e.k, true)!.map((e) => e.i)).toEqual([3, 2, 5, 0, 4, 1]);
  });
  it("with a NaN, follows CPython's steps (the orders Python 2.7 and 3.11 give)", () => {
    // reverse=True reverses first: [1, 2, nan, 0.5] is one ascending run (no element is < its left
    // neighbour: nan compares false), so nothing moves: sorted(..., reverse=True) == [0.5, nan, 2.0, 1.0]
    expect(pySorted([0.5, NaN, 2, 1], (x) => x, true)).toEqual([0.5, NaN, 2, 1]);
    // [2, 1, nan, 3]: run [2, 1] descending, reversed to [1, 2]; nan inserted after 2 (nan < 2 is false),
    // 3 after nan; reversed back: [3.0, nan, 2.0, 1.0]
    expect(pySorted([3, NaN, 1, 2], (x) => x, true)).toEqual([3, NaN, 2, 1]);
    // sorted([nan, 3.0, 1.0, 2.0]) == [nan, 1.0, 2.0, 3.0]
    expect(pySorted([NaN, 3, 1, 2], (x) => x, false)).toEqual([NaN, 1, 2, 3]);
  });
  it("a list of 64 or more with a NaN goes through timsort's runs and merges (CPython 2.7's steps)", () => {
    // [nan, 0, 1, …, 62], reverse=True: reversed, [62, …, 0] is one strictly descending run of 63, turned
    // ascending; nan is a run of its own (minrun 32, nothing left to extend it); merging, gallop_right
    // places nan after every element (nan < x is false), so nothing moves: reversed back, nan first.
    const xs = [NaN, ...Array.from({ length: 63 }, (_, i) => i)];
    expect(pySorted(xs, (x) => x, true)).toEqual([NaN, ...Array.from({ length: 63 }, (_, i) => 62 - i)]);
    // Without NaN any length is a stable sort.
    const long = Array.from({ length: 200 }, (_, i) => ({ k: i % 7, i }));
    expect(pySorted(long, (e) => e.k, true).map((e) => e.i)).toEqual([...long].sort((a, b) => b.k - a.k || a.i - b.i).map((e) => e.i));
  });
});
