/**
 * Benchmark (not a test): a CoInCo-sized responses project built from answers
 * people already gave (issue #29). A generated responses TSV of pseudo-annotators
 * (test/support/historic-responses.ts: the target word, one-letter answers,
 * `suppression .`, media, pence …), about as many lines as CoInCo's crowd answers
 * (93,105), is imported without --strict into a file database, then the gold is
 * exported. Prints the seconds per step, the answers kept as written by rule, the
 * lines left out, and how many gold lines come back exactly as the answers have them.
 *
 *   npm run bench:historic [-- --targets N --odd K]
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { importLexeltXml } from "../lib/server/corpus/corpus";
import { importResponses } from "../lib/server/annotate/response-import";
import { projectGold } from "../lib/server/gold/gold";
import { exportDataset } from "../lib/server/datasets/datasets";
import { addMember } from "../lib/server/people/users";
import { actorFor, projectFixture } from "../test/support/db";
import { historicProject } from "../test/support/historic-responses";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) {
    process.stderr.write(`bench:historic: --${name} needs a whole number\n`);
    process.exit(2);
  }
  return v;
}

// 15,629 targets (CoInCo's) with 5 or 7 annotators each: about 93,000 lines.
const TARGETS = arg("targets", 15_629);
const ODD = arg("odd", 20);
const s = (a: number, b: number) => ((b - a) / 1000).toFixed(2);

const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-historic-"));
try {
  const t0 = performance.now();
  const data = historicProject({ targets: TARGETS, perTarget: [5, 7], annotators: 40, oddLines: ODD });
  const f = projectFixture(path.join(dir, "historic.db"));
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "crowd.xml", bytes: new TextEncoder().encode(data.xml) });
  for (const a of data.annotators) {
    actorFor(f.db, a, "annotator");
    addMember(f.db, f.coord, f.project.id, a);
  }
  const t1 = performance.now();
  const report = importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
  const t2 = performance.now();
  const gold = projectGold(f.db, f.coord, f.project.id).gold;
  const t3 = performance.now();
  const xml = exportDataset(f.db, f.coord, f.project.id, "coinco").text;
  const t4 = performance.now();
  const got = new Map(gold.split("\n").filter((l) => l !== "").map((l) => [l.split(" ")[1], l]));
  const exact = [...data.expectedGold].filter(([id, line]) => got.get(id) === line).length;
  console.log(
    [
      `responses TSV: ${data.lines} lines, ${TARGETS} targets, ${data.annotators.length} pseudo-annotators (generated and corpus loaded in ${s(t0, t1)} s)`,
      `import (not strict)      ${s(t1, t2)} s  ${report.message}`,
      `export gold              ${s(t2, t3)} s  ${exact} of ${data.expectedGold.size} lines exactly as the answers have them (${((100 * exact) / data.expectedGold.size).toFixed(2)}%)`,
      `export CoInCo XML        ${s(t3, t4)} s  ${(xml.length / 1048576).toFixed(1)} MB; "media" ${/lemma="media"/.test(xml) ? "kept" : "rewritten"}, "pence" ${/lemma="pence"/.test(xml) ? "kept" : "rewritten"}`,
    ].join("\n"),
  );
  f.db.$client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
