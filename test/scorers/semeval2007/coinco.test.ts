/**
 * A CoInCo-style gold: the CoInCo sample in ../shared/data/coinco converted to
 * the task's gold format (lexelt `lemma.pos`, the target's id, substitutes with
 * their counts, sorted by count), plus crafted lines for each rule score.pl
 * reads oddly. Scored through the CLI, text and JSON, in both modes:
 * - the default equals the Perl model of score.pl (test/support/score-model.pl);
 * - every item whose outcome differs under --repaired is explained by a named
 *   repair rule, and the notice on stderr says so.
 * Skipped when ../shared is absent (the crafted lines are also scored in
 * score-parity.test.ts, which always runs).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { runCommand } from "../../support/spawn";
import { ScoreRun, officialPercent, repairReport } from "../../../lib/scorers/semeval2007/index";
import { describeWithSharedData } from "../../support/shared-data";

const root = path.resolve(import.meta.dirname, "../../..");
const sample = path.resolve(root, "../shared/data/coinco/coinco-sample.xml");
const bin = path.join(root, "bin/lexgold");
const MODEL = path.join(root, "test/support/score-model.pl");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-coinco-"));

const POS: Record<string, string> = { N: "n", V: "v", J: "a", R: "r" };

interface Target {
  lexelt: string;
  id: string;
  subs: { lemma: string; freq: number }[];
}

/** The sample's targets: every <token> with an id other than XXX and its substitutions. */
function targets(xml: string): Target[] {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseAttributeValue: false, isArray: (name) => ["sent", "token", "subst"].includes(name) });
  const doc = parser.parse(xml);
  const out: Target[] = [];
  for (const sent of doc.document.sent) {
    for (const t of sent.tokens.token) {
      if (t.id === "XXX" || !t.substitutions) continue;
      const pos = POS[String(t.posMASC)[0]] ?? "n";
      const subs = (t.substitutions.subst as { lemma: string; freq: string }[]).map((s) => ({ lemma: s.lemma, freq: Number(s.freq) }));
      out.push({ lexelt: `${t.lemma}.${pos}`, id: String(t.id), subs });
    }
  }
  return out;
}

/** One gold line, entries sorted by count (descending), ties in the order given. */
function goldLine(t: Target): string {
  const sorted = t.subs.map((s, i) => ({ ...s, i })).sort((a, b) => b.freq - a.freq || a.i - b.i);
  return `${t.lexelt} ${t.id} :: ${sorted.map((s) => `${s.lemma} ${s.freq}`).join(";")};`;
}

// Crafted lines, one or more per rule (ids above the sample's).
const CRAFTED = [
  "e-commerce.a 90001 :: online 2;electronic 1;",
  "sharp.a 90002 :: sharpness 2;keen 1;pn 1;",
  "nation.n 90003 :: U. S. 3;us 1;",
  "here.r 90004 :: , 5;here , 1;on , 1;",
  "public.a 90005 :: non public 2;private 1;",
  "outdoor.a 90006 :: open-air 3;outside 1;",
  "count.n 90007 :: @card@ 3;more than twenty 1;",
  "bull.n 90008 :: bull's eye 2;centre 1;",
];

const run = (cmd: string, args: string[]) => runCommand(cmd, args);

describeWithSharedData(sample, "a CoInCo-style gold scored as score.pl scores it", () => {
  const ts = targets(readFileSync(sample, "utf8"));
  const gold = path.join(dir, "coinco.gold");
  writeFileSync(gold, [...ts.map(goldLine), ...CRAFTED].join("\n") + "\n");
  // Systems: an oracle (every substitute, written as answers write them) and a
  // baseline that guesses the item's first substitute with its hyphens and "non x" spaced.
  const crafted = CRAFTED.map((l) => {
    const [lexelt, id] = l.split(" ");
    const rest = l.slice(l.indexOf(":: ") + 3);
    return { lexelt, id, subs: rest.split(";").filter(Boolean).map((f) => ({ lemma: f.replace(/ \d+$/, ""), freq: 1 })) };
  });
  const all = [...ts, ...crafted];
  const files = {
    "oracle.best": all.map((t) => `${t.lexelt} ${t.id} :: ${t.subs[0].lemma}`).join("\n") + "\n",
    "oracle.oot": all.map((t) => `${t.lexelt} ${t.id} ::: ${t.subs.map((s) => s.lemma).join(";")}`).join("\n") + "\n",
    "baseline.best": all.map((t) => `${t.lexelt} ${t.id} :: ${t.subs[t.subs.length - 1].lemma.replace(/-/g, " ")};${t.subs[0].lemma}`).join("\n") + "\n",
    "baseline.oot": all.map((t) => `${t.lexelt} ${t.id} ::: ${t.subs.slice(1).map((s) => s.lemma.replace(/^non /, "non-")).join(";")}`).join("\n") + "\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);

  it("converts every target of the sample", () => {
    expect(ts.length).toBe(readFileSync(sample, "utf8").match(/<token id="(?!XXX)/g)!.length);
  });

  it.each(Object.keys(files))("%s: text and JSON equal the model of score.pl", async (name) => {
    const type = name.endsWith(".oot") ? "oot" : "best";
    const system = path.join(dir, name);
    const [text, json] = await Promise.all([run(bin, ["score", system, gold, "-t", type, "-q"]), run(bin, ["score", system, gold, "-t", type, "--json", "-q"])]);
    expect(text.status, text.stderr).toBe(0);
    const m = spawnSync("perl", [MODEL, system, gold, type], { encoding: "utf8" }).stdout.trim().split(" ");
    const [total, attempted, p, r, tm, am, mp, mr] = m.map((v) => (v === "null" ? null : Number(v)));
    const j = JSON.parse(json.stdout);
    expect([j.total, j.attempted, j.precision, j.recall, j.totalWithMode, j.attemptedWithMode, j.modePrecision, j.modeRecall]).toEqual([total, attempted, p, r, tm, am, mp, mr]);
    expect(text.stdout).toBe(
      [
        `Total = ${total}, attempted = ${attempted}`,
        `precision = ${officialPercent(p)}, recall = ${officialPercent(r)}`,
        `Total with mode ${tm} attempted ${am}`,
        `${type === "best" ? "Mode precision" : "precision"} = ${officialPercent(mp)}, ${type === "best" ? "Mode recall" : "recall"} = ${officialPercent(mr)}`,
        "",
      ].join("\n"),
    );
  }, 300_000);

  it.each(Object.keys(files))("%s: every difference --repaired makes is explained by a named rule", async (name) => {
    const type = name.endsWith(".oot") ? "oot" : "best";
    const goldText = readFileSync(gold, "utf8");
    const systemText = files[name as keyof typeof files];
    const score = (repaired: boolean, watch: ReadonlySet<string> | null = null) => {
      const items = new Map<string, string>();
      const r = new ScoreRun({ type, repaired, onItem: (i) => "score" in i && items.set(i.id, `${i.score}|${i.modeHit}`) }, watch);
      for (const l of goldText.split("\n")) r.pushGold(l);
      r.goldDone();
      for (const l of systemText.split("\n")) r.pushSystem(l);
      return { run: r, out: r.finish(), items };
    };
    const official = score(false);
    const repaired = score(true, official.run.tracker!.ids);
    const report = repairReport(official.run, official.out, repaired.run, repaired.out, Infinity);
    const explained = new Set(report.changes.flatMap((c) => c.ids));
    // Every item whose outcome (in T, attempted, score, mode hit) differs is some rule's.
    const key = (r: typeof official) => (id: string) => {
      const k = r.run.scoringKey as { find(id: string): number };
      return `${k.find(id) >= 0}|${r.items.get(id) ?? "-"}`;
    };
    const differing = all.map((t) => t.id).filter((id) => key(official)(id) !== key(repaired)(id));
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.filter((id) => !explained.has(id))).toEqual([]);
    // And the CLI says so after the output.
    const cli = await run(bin, ["score", path.join(dir, name), gold, "-t", type]);
    if (report.figuresDiffer) {
      expect(cli.stderr).toContain("lexgold: the figures above are score.pl's; with the documented repairs (--repaired) they would be:");
      for (const c of report.changes) expect(cli.stderr).toContain(`lexgold:   ${c.rule}: ${c.items} item`);
    }
  }, 300_000);
});
