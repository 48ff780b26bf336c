import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CpaTask1Verb,
  type CpaTask2Verb,
  type CpaTask3Verb,
  cpaPatternF,
  cpaSlotCounts,
  parseCpaClust,
  parseCpaOntology,
  parseCpaParse,
  parseCpaPat,
  scoreCpa,
  scoreCpaTask1Verb,
  scoreCpaTask2Verb,
  scoreCpaTask3Verb,
} from "../../../lib/scorers/cpa/score";
import { formatDiagnostic } from "../../../lib/lexsub/diagnostics";
import { describeWithSharedData } from "../../support/shared-data";

// A toy ontology of our own: Anything > Artifact > {Tool, Machine}; Anything > Animate > {Human, Animal}.
const ONTOLOGY = JSON.stringify([
  {
    term: "Anything",
    sub: [
      { term: "Artifact", sub: [{ term: "Tool", sub: [] }, { term: "Machine", sub: [] }] },
      { term: "Animate", sub: [{ term: "Human", sub: [] }, { term: "Animal", sub: [] }] },
    ],
  },
]);
const ontology = parseCpaOntology(ONTOLOGY, "onto.json");

const tsv = (rows: string[][]) => rows.map((r) => r.join("\t")).join("\n") + "\n";

describe("CPA Task 1 (per-label F per layer)", () => {
  const gold = tsv([
    ["1", "She", "subj", "Human"],
    ["2", "held", "v", ""],
    ["3", "the", "", ""],
    ["4", "rope", "obj", "Tool"],
    [""],
    ["5", "Dogs", "subj", "Animal"],
    ["6", "held", "v", ""],
    ["7", "firm", "advl", ""],
  ]);
  const run = tsv([
    ["1", "She", "subj", "Human"],
    ["2", "held", "v", ""],
    ["3", "the", "obj", ""],
    ["4", "rope", "", "Machine"],
    [""],
    ["5", "Dogs", "obj", "Animal"],
    ["6", "held", "v", ""],
    ["7", "firm", "advl", "Human"],
  ]);
  const g = parseCpaParse(gold, "gold.parse").tokens;
  const r = parseCpaParse(run, "run.parse").tokens;

  it("skips the target verb and reads empty fields as no label", () => {
    expect([...g.keys()]).toEqual(["1", "3", "4", "5", "7"]);
    expect(g.get("3")).toMatchObject({ syntax: null, semantics: null });
  });

  it("standard: mean F over the gold's labels, run-only labels left out", () => {
    const v = scoreCpaTask1Verb(r, g);
    // syntax: subj P 1/1 R 1/2 F 2/3; obj P 0/2 → 0; advl 1 → (2/3 + 0 + 1) / 3 = 5/9
    expect(v.syntax.labels.map((l) => [l.label, l.gold, l.run, l.both])).toEqual([
      ["subj", 2, 1, 1],
      ["obj", 1, 2, 0],
      ["advl", 1, 1, 1],
    ]);
    expect(v.syntax.score).toBeCloseTo(5 / 9, 10);
    // semantics: Human P 1/2 R 1 F 2/3; Tool 0; Animal 1; Machine (run only) not in the mean → 5/9
    expect(v.semantics.labels.map((l) => l.label)).toEqual(["Human", "Tool", "Animal"]);
    expect(v.semantics.score).toBeCloseTo(5 / 9, 10);
    expect(v.score).toBeCloseTo(5 / 9, 10);
  });

  it("task scorer: a wrong label is charged to the gold label", () => {
    const v = scoreCpaTask1Verb(r, g, true);
    // syntax: subj ref 2, run 2 (token 5's obj charged to subj), cor 1 → F 1/2; obj ref 1, run 1 (token 3), cor 0; advl 1 → 1/2
    expect(v.syntax.labels.map((l) => [l.label, l.gold, l.run, l.both])).toEqual([
      ["obj", 1, 1, 0],
      ["subj", 2, 2, 1],
      ["advl", 1, 1, 1],
    ]);
    expect(v.syntax.score).toBeCloseTo(1 / 2, 10);
    // semantics: Human ref 1, run 2 (token 7 unlabelled in gold), cor 1 → 2/3; Tool ref 1, run 1 (Machine charged), 0; Animal 1
    expect(v.semantics.score).toBeCloseTo(5 / 9, 10);
    expect(v.score).toBeCloseTo((1 / 2 + 5 / 9) / 2, 10);
  });

  it("task scorer: a label only the run uses enters the mean with F = 0", () => {
    const gg = parseCpaParse(tsv([["1", "a", "subj", "Human"]]), "g").tokens;
    const rr = parseCpaParse(tsv([["1", "a", "subj", "Human"], ["2", "b", "obj", "Tool"]]), "r").tokens;
    expect(scoreCpaTask1Verb(rr, gg).score).toBe(1);
    const ts = scoreCpaTask1Verb(rr, gg, true);
    expect([ts.syntax.score, ts.semantics.score, ts.score]).toEqual([0.5, 0.5, 0.5]);
  });

  it.each([
    ["1\ta\tsubj\tHuman\textra\n", "p.parse:1: error: expected at most 4 tab-separated fields (id, word, syntactic label, semantic type), found 5"],
    ["\ta\tsubj\n", "p.parse:1: error: the token id (first field) is empty"],
    ["1\ta\tsubj\n1\tb\tobj\n", "p.parse:2: error: token id 1 already used on line 1; this line is ignored"],
  ])("reports %j", (text, message) => {
    expect(parseCpaParse(text, "p.parse").diagnostics.map(formatDiagnostic)).toEqual([message]);
  });
});

describe("CPA Task 2 (B-cubed)", () => {
  it("scores items with no cluster on the other side 0, keeps non-numeric ids, reads u as no cluster", () => {
    const gold = parseCpaClust(tsv([["a1", "A"], ["a2", "A"], ["a3", "B"], ["a4", "B"], ["a5", "u"]]), "g").items;
    const run = parseCpaClust(tsv([["a1", "x"], ["a2", "x"], ["a3", "x"], ["a4", "y"], ["a6", "y"]]), "r").items;
    const v: CpaTask2Verb = scoreCpaTask2Verb(run, gold);
    // P: a1 2/3, a2 2/3, a3 1/3, a4 1/2, a6 0 (no gold cluster) → 13/30
    expect(v.precision).toBeCloseTo(13 / 30, 10);
    // R over gold items in a cluster: a1 1, a2 1, a3 1/2, a4 1/2 → 3/4
    expect(v.recall).toBeCloseTo(3 / 4, 10);
    expect(v.score).toBeCloseTo(39 / 71, 10);
    expect([v.runItems, v.goldItems]).toEqual([5, 4]);
  });

  it("gives 1 for identical clusterings and 0 for an empty run, without dividing by zero", () => {
    const gold = parseCpaClust("1\t1\n2\t1\n3\t2\n", "g").items;
    expect(scoreCpaTask2Verb(gold, gold).score).toBe(1);
    expect(scoreCpaTask2Verb(new Map(), gold)).toMatchObject({ precision: null, recall: 0, score: 0 });
  });

  it.each([
    ["7\n", "c.clust:1: error: expected \"verb-token-id<TAB>cluster-id\", found 1 field"],
    ["7\t1\t2\n", "c.clust:1: error: expected \"verb-token-id<TAB>cluster-id\", found 3 fields"],
    ["7\t1\n7\t2\n", "c.clust:2: error: item 7 already clustered on line 1; this line is ignored"],
  ])("reports %j", (text, message) => {
    expect(parseCpaClust(text, "c.clust").diagnostics.map(formatDiagnostic)).toEqual([message]);
  });
});

describe("CPA Task 3 (slot F with the ontology's partial credit)", () => {
  it.each([
    // [gold, run, C, S, I, D]
    ["Human", "Human", 1, 0, 0, 0],
    ["Artifact", "Tool", 0.25, 0.75, 0, 0], // run is a direct child of gold
    ["Tool", "Artifact", 0.5, 0.5, 0, 0], // run is the direct parent of gold
    ["Artifact", "Anything", 0, 1, 0, 0], // ... but not Anything, the root
    ["Tool", "Anything", 0, 1, 0, 0], // grandparent: no credit
    ["Tool", "Machine", 0, 1, 0, 0], // siblings
    ["Tool", "Gadget", 0, 1, 0, 0], // not in the ontology
    ["", "Human", 0, 0, 1, 0], // run only: insertion
    ["Human", "", 0, 0, 0, 1], // gold only: deletion
    ["", "", 0, 0, 0, 0],
  ])("gold %j, run %j → C %s S %s I %s D %s", (gold, run, correct, substitution, insertion, deletion) => {
    expect(cpaSlotCounts([gold], [run], ontology)).toEqual({ correct, substitution, insertion, deletion });
  });

  it("gives no partial credit without an ontology", () => {
    expect(cpaSlotCounts(["Artifact"], ["Tool"], null)).toEqual({ correct: 0, substitution: 1, insertion: 0, deletion: 0 });
  });

  it("computes P = C/(C+S+I), R = C/(C+S+D) and their F", () => {
    // C 1.5, S .5, I 1: P = 1.5/3 = .5, R = 1.5/2 = .75, F = .6
    expect(cpaPatternF({ correct: 1.5, substitution: 0.5, insertion: 1, deletion: 0 })).toBeCloseTo(0.6, 10);
    expect(cpaPatternF({ correct: 0, substitution: 0, insertion: 0, deletion: 0 })).toBe(0);
  });

  it("lets gold patterns, in order, take the best unused run pattern (ties: the earlier one)", () => {
    const gold = parseCpaPat(tsv([["Human", "Tool", "", "", "", "", "", "", ""], ["Human", "Machine", "", "", "", "", "", "", ""]]), "g").patterns;
    const run = parseCpaPat(tsv([["Human", "", "", "", "", "", "", "", ""], ["Human", "Tool", "", "", "", "", "", "", ""], ["Human", "Artifact", "", "", "", "", "", "", ""]]), "r").patterns;
    const v: CpaTask3Verb = scoreCpaTask3Verb(run, gold, ontology);
    // gold 1 takes run 2 (exact, F 1); gold 2: run 1 (C1 D1: P 1, R 1/2, F 2/3) vs run 3 (C 1.5 S .5: F .75) → run 3
    expect(v.matches.map((m) => [m.gold, m.run])).toEqual([[1, 2], [2, 3]]);
    expect(v.score).toBeCloseTo((1 + 0.75) / 2, 10);
    // equal F: the earlier run pattern
    const tie = scoreCpaTask3Verb(parseCpaPat("A\nB\n", "r").patterns, parseCpaPat("C\n", "g").patterns, null);
    expect(tie.matches[0].run).toBe(1);
  });

  it.each([
    ["a\tb\tc\td\te\tf\tg\th\ti\tj\n", "error", "p.pat:1: error: expected 9 tab-separated slots, found 10"],
    ["Human\tTool\n", "warning", "p.pat:1: warning: 2 of 9 tab-separated slots; the missing ones are taken as empty"],
  ])("reports %j", (text, _severity, message) => {
    expect(parseCpaPat(text, "p.pat").diagnostics.map(formatDiagnostic)).toEqual([message]);
  });

  it("reports an ontology that is not JSON, with its line", () => {
    const o = parseCpaOntology('[\n{"term": "Anything",\n "sub": [}\n]', "onto.json");
    expect(o.diagnostics.map(formatDiagnostic)).toEqual(["onto.json:3: error: not valid JSON (column 10)"]);
    expect(parseCpaOntology('[{"term": "a"}', "o").diagnostics.map(formatDiagnostic)).toEqual(["o:1: error: not valid JSON (column 15)"]);
    expect(parseCpaOntology('[{"name": "x"}]', "o").diagnostics.map(formatDiagnostic)).toEqual(['o: error: root 0: expected an object with a string "term"']);
  });
});

describe("CPA whole runs", () => {
  const gold = {
    "hold.pat": "Human\tTool\t\t\t\t\t\t\t\n",
    "keep.pat": "Human\tAnimal\t\t\t\t\t\t\t\n",
    "README.txt": "not a verb",
  };
  const run = { "hold.pat": "Human\tArtifact\t\t\t\t\t\t\t\n", "stray.pat": "Human\t\t\t\t\t\t\t\t\n" };

  it("averages over the gold's verbs only; a verb the run lacks scores 0", () => {
    const r = scoreCpa(3, run, gold, { ontology });
    // hold: C 1.5 S .5 → F .75; keep: not in the run → 0
    expect(r.verbs.map((v) => [v.verb, v.score, v.inRun])).toEqual([["hold", 0.75, true], ["keep", 0, false]]);
    expect(r.score).toBeCloseTo(0.375, 10);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'run/stray.pat: warning: verb "stray" is not in the gold; ignored',
      'gold/keep.pat: warning: the run has no file for verb "keep"; it scores 0',
    ]);
  });

  it("applies no partial credit with taskScorer, as the task's scorer", () => {
    const r = scoreCpa(3, run, gold, { ontology, taskScorer: true });
    expect(r.partialCredit).toBe(false);
    // hold: C 1 S 1 → F .5
    expect(r.score).toBeCloseTo(0.25, 10);
  });

  it("refuses an empty gold", () => {
    expect(scoreCpa(1, {}, {}).diagnostics.map(formatDiagnostic)).toEqual(["gold: error: no .parse files: nothing to score"]);
  });
});

// The shared synthetic sample and its expected figures (README there).
const sharedDir = path.resolve(__dirname, "../../../../shared");
const sampleDir = path.join(sharedDir, "data/semeval2015-task15");

function folder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) if (statSync(path.join(dir, name)).isFile()) out[name] = readFileSync(path.join(dir, name), "utf8");
  return out;
}

/** x rounded to as many decimals as the printed figure has. */
function asPrinted(x: number | null, printed: string): number {
  const digits = printed.split(".")[1]?.length ?? 0;
  return Number((x ?? Number.NaN).toFixed(digits));
}

describeWithSharedData(sampleDir, "the SemEval-2015 Task 15 sample", () => {
  const onto = () => parseCpaOntology(readFileSync(path.join(sampleDir, "CPA-ontology.json"), "utf8"), "CPA-ontology.json");
  it.each([
    [1, false, "0.5083"],
    [2, false, "0.4848"],
    [3, false, "0.375"],
    [1, true, "0.5417"],
    [3, true, "0.25"],
  ] as const)("task %s (taskScorer %s) gives %s", (task, taskScorer, printed) => {
    const r = scoreCpa(task, folder(path.join(sampleDir, "run")), folder(path.join(sampleDir, "gold", `task${task}`)), { ontology: onto(), taskScorer });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(asPrinted(r.score, printed)).toBe(Number(printed));
  });

  it("task 2: P 0.32, R 1", () => {
    const r = scoreCpa(2, folder(path.join(sampleDir, "run")), folder(path.join(sampleDir, "gold", "task2")));
    const d = r.verbs[0].detail as CpaTask2Verb;
    expect([asPrinted(d.precision, "0.32"), d.recall]).toEqual([0.32, 1]);
  });

  it("task 1 detail: syntax .75 both ways; semantics 4/15 standard, 1/3 task scorer", () => {
    const g = folder(path.join(sampleDir, "gold", "task1"));
    const std = scoreCpa(1, folder(path.join(sampleDir, "run")), g).verbs[0].detail as CpaTask1Verb;
    const ts = scoreCpa(1, folder(path.join(sampleDir, "run")), g, { taskScorer: true }).verbs[0].detail as CpaTask1Verb;
    expect([std.syntax.score, ts.syntax.score]).toEqual([0.75, 0.75]);
    expect(std.semantics.score).toBeCloseTo(0.8 / 3, 10);
    expect(ts.semantics.score).toBeCloseTo(1 / 3, 10);
  });
});

describe("lexgold cpa (CLI)", () => {
  const bin = path.resolve(__dirname, "../../../bin/lexgold");
  const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-cpa-"));
  mkdirSync(path.join(dir, "gold", "task3"), { recursive: true });
  mkdirSync(path.join(dir, "gold", "task2"), { recursive: true });
  mkdirSync(path.join(dir, "run"));
  writeFileSync(path.join(dir, "CPA-ontology.json"), ONTOLOGY);
  writeFileSync(path.join(dir, "gold", "task3", "hold.pat"), "Human\tTool\t\t\t\t\t\t\t\n");
  writeFileSync(path.join(dir, "run", "hold.pat"), "Human\tArtifact\t\t\t\t\t\t\t\n");
  writeFileSync(path.join(dir, "gold", "task2", "hold.clust"), "1\t1\n2\t1\n");
  writeFileSync(path.join(dir, "run", "hold.clust"), "1\t1\n2\n");
  const run = (args: string[]) => spawnSync(bin, args, { cwd: dir, encoding: "utf8" });

  it("finds the ontology above the gold folder and prints JSON", () => {
    const r = run(["cpa", "3", "run", "gold", "--json"]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ task: 3, ontology: "CPA-ontology.json", partialCredit: true, score: 0.75 });
  });

  it("prints the per-verb table and the final score", () => {
    const r = run(["cpa", "3", "run", "gold", "--task-scorer"]);
    expect(r.stdout).toMatch(/^hold\s+1\s+1\s+0\.5000$/m);
    expect(r.stdout).toMatch(/^score: 0\.5000 \(mean over 1 verb in the gold/m);
  });

  it("names a malformed line and exits 1", () => {
    const r = run(["cpa", "2", "run", "gold"]);
    expect(r.stderr).toContain('run/hold.clust:2: error: expected "verb-token-id<TAB>cluster-id", found 1 field');
    expect(r.status).toBe(1);
  });

  it("refuses a subtask that does not exist", () => {
    const r = run(["cpa", "4", "run", "gold"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the subtask is 1, 2 or 3/);
  });
});
