/**
 * The WordNet baselines on the SemEval-2007 test set, scored as score.pl
 * scores them: the figures must be the ones docs/baselines.md records (the
 * table's lexgold rows). Runs when ../shared holds the task's data.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { wordnetMwBaseline, wordnetSubstitutionBaseline } from "../../lib/lexsub/baseline/wordnet";
import { parseLexeltXml } from "../../lib/lexsub/formats/lexelt";
import { scoreTexts } from "../../lib/scorers/semeval2007/texts";
import { wordnetGraph } from "../../lib/wordnet/load";
import { describeWithSharedData } from "../support/shared-data";

const TEST = path.resolve(import.meta.dirname, "../../../shared/data/semeval2007/test");
const DOC = path.resolve(import.meta.dirname, "../../docs/baselines.md");
const pct = (x: number | null) => (x === null ? "" : (Math.trunc(x * 10000 + 0.5) / 100).toFixed(2));

/** The doc's lexgold rows: baseline → its four figures as printed. */
function documented(): Map<string, string[]> {
  const text = readFileSync(DOC, "utf8");
  const table = text.slice(text.indexOf("<!-- figures -->"), text.indexOf("<!-- /figures -->"));
  const rows = new Map<string, string[]>();
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells[2] === "lexgold") rows.set(cells[1], cells.slice(3, 7));
  }
  return rows;
}

describeWithSharedData(TEST, "the WordNet baselines on the SemEval-2007 test set", () => {
  it("score as docs/baselines.md records", () => {
    const parsed = parseLexeltXml(readFileSync(path.join(TEST, "lexsub_test.xml"), "utf8"), "lexsub_test.xml");
    const list = parsed.corpus!.lexelts.flatMap((l) => l.instances.map((i) => ({ lexelt: l.item, id: i.id, before: i.before, head: i.head, after: i.after })));
    const g = wordnetGraph();
    const gold = readFileSync(path.join(TEST, "gold.test"), "utf8");
    const mwgold = readFileSync(path.join(TEST, "mwgold.test"), "utf8");
    const doc = documented();
    for (const type of ["best", "oot"] as const) {
      const system = wordnetSubstitutionBaseline(g, list, type).lines.join("\n") + "\n";
      const r = scoreTexts({ type, system, gold }).result;
      if (r.type === "mw") throw new Error("expected best/oot");
      expect([r.scores.precision, r.scores.recall, r.scores.modePrecision, r.scores.modeRecall].map(pct), type).toEqual(doc.get(type));
    }
    const mw = scoreTexts({ type: "mw", system: wordnetMwBaseline(g, list).lines.join("\n") + "\n", gold: mwgold }).result;
    if (mw.type !== "mw") throw new Error("expected mw");
    const s = mw.scores;
    expect([s.detectionPrecision, s.detectionRecall, s.identificationPrecision, s.identificationRecall].map(pct)).toEqual(doc.get("mw"));
  });
});
