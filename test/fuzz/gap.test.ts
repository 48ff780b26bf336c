/**
 * GAP against a plain restatement of lst_gap.py's definition, over random gold
 * and ranking files the script reads without stopping (every gold key ranked,
 * whole-number counts, no NaN score). The restatement follows the script's
 * text: gold entries split on `;` and at the last space (no space: the last
 * character is the count), ranking fields likewise with the score read as a
 * float, a dict per file (last line wins), the gold sorted by count and the
 * ranking by score (both stable, descending), accumulated gold weights, the
 * items with a GAP below 0 left out of the mean.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankRuns } from "../../lib/scorers/ranking";

const WORDS = ["a", "b", "cc", "d-e", "f g", "11.27 kilograms", "quux"];
const SCORES = ["1", "0.5", "2", "-1", "inf", "-inf", "-Infinity", "1e-3", "0"];

/** Split at the last space as the script does: with none, the last character is the number. */
function splitLast(s: string): [string, string] {
  const i = s.lastIndexOf(" ");
  return i === -1 ? [s.slice(0, -1), s.slice(-1)] : [s.slice(0, i), s.slice(i)];
}

function stableDesc<T>(xs: T[], key: (x: T) => number): T[] {
  const out: T[] = [];
  for (const x of xs) {
    let at = out.length;
    while (at > 0 && key(out[at - 1]) < key(x)) at--;
    out.splice(at, 0, x);
  }
  return out;
}

function referenceMean(gold: string, run: string, noMwe: boolean): { mean: number | null; read: number; ignored: number } {
  const mwe = (c: string) => c.includes(" ") || c.includes("-");
  const goldData = new Map<string, [string, number][]>();
  for (const line of gold.split("\n").filter((l) => l !== "")) {
    const [head, rest] = line.split("::");
    const pairs: [string, number][] = [];
    for (const e of rest.trim().split(";")) {
      if (e === "") continue;
      const [c, n] = splitLast(e);
      if (noMwe && mwe(c)) continue;
      pairs.push([c, parseInt(n, 10)]);
    }
    goldData.set(head.trim(), pairs);
  }
  const evalData = new Map<string, [string, number][]>();
  for (const line of run.split("\n").filter((l) => l !== "")) {
    const fields = (line + "\n").split("\t");
    const pairs: [string, number][] = [];
    for (const f of fields.slice(2)) {
      if (f === "") continue;
      const [c, w] = splitLast(f);
      if (noMwe && mwe(c)) continue;
      const t = w.trim().toLowerCase().replace("infinity", "inf");
      const v = t === "inf" ? Infinity : t === "-inf" ? -Infinity : t !== "" && !isNaN(Number(t)) ? Number(t) : null;
      if (v !== null) pairs.push([c, v]);
    }
    evalData.set(fields[1].trim(), pairs);
  }
  let sum = 0;
  let read = 0;
  let ignored = 0;
  for (const [key, g] of goldData) {
    const weight = new Map(g);
    let acc = 0;
    let den = 0;
    let j = 0;
    for (const [c, n] of stableDesc(g, (p) => p[1])) {
      acc += n;
      if ((weight.get(c) ?? 0) > 0) den += acc / ++j;
    }
    let num = 0;
    acc = 0;
    stableDesc(evalData.get(key)!, (p) => p[1]).forEach(([c], k) => {
      const n = weight.get(c) ?? 0;
      acc += n;
      if (n > 0) num += acc / (k + 1);
    });
    const value = den === 0 ? -1 : num / den;
    if (value < 0) ignored++;
    else {
      sum += value;
      read++;
    }
  }
  return { mean: read === 0 ? null : sum / read, read, ignored };
}

const entry = fc.oneof(
  fc.tuple(fc.constantFrom(...WORDS), fc.integer({ min: -1, max: 5 })).map(([w, n]) => `${w} ${n}`),
  // After "; " the candidate keeps its leading space.
  fc.tuple(fc.constantFrom(...WORDS), fc.integer({ min: -1, max: 5 })).map(([w, n]) => ` ${w} ${n}`),
  // No space: the last character is the count (a word with a space there would stop the script).
  fc.tuple(fc.constantFrom(...WORDS.filter((w) => !w.includes(" "))), fc.integer({ min: 0, max: 9 })).map(([w, n]) => `${w}${n}`),
);
const field = fc.oneof(
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SCORES)).map(([w, s]) => `${w} ${s}`),
  fc.constantFrom(...WORDS).map((w) => `${w}7`),
);
const files = fc
  .array(fc.tuple(fc.array(entry, { maxLength: 6 }), fc.constant(";"), fc.boolean(), fc.array(field, { maxLength: 8 })), { minLength: 1, maxLength: 6 })
  .chain((items) =>
    fc.shuffledSubarray(items.map((_, i) => i), { minLength: items.length, maxLength: items.length }).map((order) => {
      const gold = items.map(([es, sep, end], i) => `t.n ${i + 1} :: ${es.join(sep)}${end ? ";" : ""}`).join("\n") + "\n";
      const run = order.map((i) => `RESULT\tt.n ${i + 1}\t${items[i][3].join("\t")}`).join("\n") + "\n";
      return { gold, run };
    }),
  );

describe("GAP (melamud) equals a restatement of lst_gap.py on random files", () => {
  it.each([false, true])("no-mwe %s", (noMwe) => {
    fc.assert(
      fc.property(files, ({ gold, run }) => {
        const ref = referenceMean(gold, run, noMwe);
        const t = rankRuns("gap", { name: "g", text: gold }, [{ name: "r", text: run }], null, { noMwe, format: "lst" });
        const errors = t.diagnostics.filter((d) => d.severity === "error");
        if (ref.mean === null) {
          // sum_gap / 0: the script stops with ZeroDivisionError; so does the default.
          expect(errors.length).toBeGreaterThan(0);
          return;
        }
        expect(errors).toEqual([]);
        expect(t.rows[0].values[0]).toBe(ref.mean);
        expect(t.rows[0].report).toContain(`\nRead ${ref.read} test instances\n\nIgnored ${ref.ignored} test instances`);
      }),
      { numRuns: 300, seed: 29 },
    );
  });
});
