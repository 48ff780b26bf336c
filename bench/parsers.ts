/**
 * Benchmark (not a test): the readers on pathological megabyte inputs that were once quadratic
 * (minutes). The fuzz tests (test/fuzz/) check what the readers answer on these inputs; this
 * times them.
 *
 *   npm run bench:parsers [-- --runs N --json FILE]
 *
 * Target on the project's 2-core machines: each case (read, and for a gold also scored) in about a
 * second at most. Prints the median of N runs (default 3) per case, PASS or MISS.
 */
import { writeFileSync } from "node:fs";
import { parseLexeltXml } from "../lib/lexsub/formats/lexelt";
import { parseGold, scoreTexts } from "../lib/scorers/semeval2007/index";

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const RUNS = Number(argOf("runs") ?? 3);
const JSON_OUT = argOf("json");
const TARGET_MS = 1000;

const cases: Array<{ name: string; run: () => void }> = [];

for (const [name, rest] of [
  ["one long entry with no count", "word ".repeat(200_000)],
  ["one long token", "x".repeat(1_000_000)],
  ["many short fields", "a;".repeat(500_000)],
  ["digits with no substitute", "1".repeat(1_000_000)],
  ["100,000 distinct entries", Array.from({ length: 100_000 }, (_, i) => `w${i} 1`).join(";")],
  ["100,000 entries, a hyphen and repeats", Array.from({ length: 100_000 }, (_, i) => `w-${i % 50_000} 1`).join(";")],
] as const) {
  const text = `bright.a 1 :: ${rest}\nbright.a 2 :: clever 2;smart 1;\n`;
  cases.push({
    name: `gold line of 1 MB: ${name} (read and scored)`,
    run: () => {
      parseGold(text, "g");
      scoreTexts({ type: "best", gold: text, system: "bright.a 2 :: clever\n" });
    },
  });
}
for (const [name, fragment] of [
  ["unclosed comments", "<!--"],
  ["unclosed processing instructions", "<?x "],
  ["unclosed CDATA sections", "<![CDATA["],
] as const) {
  const text = `<corpus>\n${fragment.repeat(1_000_000 / fragment.length)}\n</corpus>\n`;
  cases.push({ name: `lexelt XML, a megabyte of ${name} (refused)`, run: () => void parseLexeltXml(text, "f.xml") });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = cases.map((c) => {
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    c.run();
    ms.push(performance.now() - t0);
  }
  const m = median(ms);
  const row = { name: c.name, medianMs: m, maxMs: Math.max(...ms), targetMs: TARGET_MS, pass: m < TARGET_MS };
  process.stdout.write(`${row.pass ? "PASS" : "MISS"}  ${m.toFixed(0).padStart(5)} ms (max ${row.maxMs.toFixed(0)})  ${c.name}\n`);
  return row;
});
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ runs: RUNS, cases: rows }, null, 2));
process.exit(rows.every((r) => r.pass) ? 0 : 1);
