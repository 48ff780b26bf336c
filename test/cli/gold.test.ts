/**
 * The round trip from the command line: lexelt XML and responses TSV in →
 * `export gold` → `score`, with figures worked out by hand; `agreement --json`
 * and the lemma review commands.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-gold-cli-"));
const db = path.join(dir, "gold.db");
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

function lexgold(args: string[], input?: string) {
  const r = spawnSync(bin, args, { input, encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="keen.a">
<instance id="k1"><context>a <head>keen</head> student of birds</context></instance>
<instance id="k2"><context>a <head>keen</head> wind from the north</context></instance>
</lexelt>
<lexelt item="tread.v">
<instance id="t1"><context>they <head>tread</head> carefully here</context></instance>
</lexelt>
</corpus>
`;

// k1: eager 3, enthusiastic 2, avid 1 (|H| = 6, mode eager); k2: sharp 2, biting 2, cold 1 (no mode);
// t1: walks, walk, step as typed (walks → walk, as a verb, only when the proposal is decided or applied), and the
// multiword "tread carefully" twice.
const tsv = `annotator\tlexelt\tinstance\tanswer\tmultiword
a1\tkeen.a\tk1\teager;enthusiastic\t
a2\tkeen.a\tk1\teager;avid\t
a3\tkeen.a\tk1\teager;enthusiastic\t
a1\tkeen.a\tk2\tsharp;biting\t
a2\tkeen.a\tk2\tbiting;cold\t
a3\tkeen.a\tk2\tsharp\t
a1\ttread.v\tt1\twalks\ttread carefully
a2\ttread.v\tt1\twalk;step\ttread carefully
a3\ttread.v\tt1\tNIL\t
`;

beforeAll(() => {
  expect(lexgold(["project", "create", "rt"]).status).toBe(0);
  expect(lexgold(["import", file("c.xml", xml), "--project", "rt", "-q"]).status).toBe(0);
  for (const a of ["a1", "a2", "a3"]) expect(lexgold(["user", "add", a, "--role", "annotator", "--project", "rt"], "a-long-password\n").status).toBe(0);
  const imp = lexgold(["responses", "import", file("r.tsv", tsv), "--project", "rt"]);
  expect(imp.stderr).toBe("");
  expect(imp.status).toBe(0);
});

describe("lexgold derive (#39)", () => {
  it("brings the kept figures up to date, and derives them again from nothing with --rebuild: the same files", () => {
    const before = lexgold(["export", "gold", "--project", "rt"]).stdout;
    const up = lexgold(["derive", "--project", "rt"]);
    expect(up.status).toBe(0);
    expect(up.stdout).toMatch(/^rt: brought up to date 0 instances \(\d+\.\d s\)\n$/);
    const again = lexgold(["derive", "--rebuild", "--project", "rt"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^rt: derived again 3 instances \(\d+\.\d s\)\n$/);
    expect(lexgold(["export", "gold", "--project", "rt"]).stdout).toBe(before);
    expect(lexgold(["derive", "--project", "nope"]).status).not.toBe(0);
  });
});

describe("lexgold export, score and agreement", () => {
  it("exports the gold and mwgold derived from the responses, as typed unless asked to apply the proposals", () => {
    const gold = lexgold(["export", "gold", "--project", "rt"]);
    expect(gold.status).toBe(0);
    expect(gold.stdout).toBe("\nkeen.a k1 :: eager 3;enthusiastic 2;avid 1;\nkeen.a k2 :: biting 2;sharp 2;cold 1;\ntread.v t1 :: step 1;walk 1;walks 1;\n");
    expect(gold.stderr).toMatch(/^lexgold: every form is written as typed or as decided in the lemma review; lemma proposals nobody decided are not applied/);
    // Asked for, the one open proposal is applied and named on stderr.
    const proposed = lexgold(["export", "gold", "--project", "rt", "--apply-proposals"]);
    expect(proposed.stdout).toBe("\nkeen.a k1 :: eager 3;enthusiastic 2;avid 1;\nkeen.a k2 :: biting 2;sharp 2;cold 1;\ntread.v t1 :: walk 2;step 1;\n");
    expect(proposed.stderr).toMatch(/^lexgold: applied 1 unreviewed lemma proposal \(--apply-proposals; 1 substitute and multiwords rewritten\);.*\n  walks → walk \(v\) ×1\n$/);
    const mw = lexgold(["export", "mwgold", "--project", "rt"]);
    expect(mw.stdout).toBe("\ntread.v t1 :: tread carefully 2;\n");
  });

  it("scores a system against the exported gold as worked out by hand", () => {
    const goldPath = path.join(dir, "rt.gold");
    // With the proposal applied: t1 is walk 2, step 1.
    expect(lexgold(["export", "gold", "--project", "rt", "--apply-proposals", "-o", goldPath]).status).toBe(0);
    const best = file("sys.best", "keen.a k1 :: eager\nkeen.a k2 :: sharp;cold\ntread.v t1 :: move\n");
    const r = lexgold(["score", best, goldPath, "--json"]);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout);
    // k1: 3 / (1·6) = 0.5; k2: (2 + 1) / (2·5) = 0.3; t1: 0. T = 3 items, all attempted.
    const credit = 3 / 6 + 3 / 10;
    expect(s.precision).toBeCloseTo(credit / 3, 12);
    expect(s.recall).toBeCloseTo(credit / 3, 12);
    // Modes: k1 eager (hit), t1 walk (missed); k2 ties.
    expect(s.modePrecision).toBeCloseTo(1 / 2, 12);

    const oot = file("sys.oot", "keen.a k1 ::: eager;avid;keen\nkeen.a k2 ::: cold\n");
    const o = JSON.parse(lexgold(["score", oot, goldPath, "-t", "oot", "--json"]).stdout);
    // k1: (3 + 1) / 6; k2: 1 / 5; t1 not attempted: precision over 2, recall over 3.
    expect(o.precision).toBeCloseTo((4 / 6 + 1 / 5) / 2, 12);
    expect(o.recall).toBeCloseTo((4 / 6 + 1 / 5) / 3, 12);
  });

  it("prints agreement as JSON with the issue's keys, worked out by hand", () => {
    const r = lexgold(["agreement", "--project", "rt", "--json", "--bootstrap", "0"]);
    expect(r.status).toBe(0);
    const a = JSON.parse(r.stdout);
    for (const k of ["items", "itemsWithMode", "pairwise", "modeAgreement", "mwDetection", "mwIdentification", "alphaMasi", "perAnnotator", "byPos"]) {
      expect(a).toHaveProperty(k);
    }
    expect(a.items).toBe(3);
    // k1's mode is eager; k2 ties; t1 (step, walk, walks once each, nobody decided walks) has none.
    expect(a.itemsWithMode).toBe(1);
    // k1: {eager,enthusiastic}·{eager,avid} 1/3, ·{eager,enthusiastic} 1, {eager,avid}·{eager,enthusiastic} 1/3;
    // k2: {sharp,biting}·{biting,cold} 1/3, ·{sharp} 1/2, {biting,cold}·{sharp} 0; t1: {walks}·{walk,step} 0.
    expect(a.pairs).toBe(7);
    expect(a.pairwise).toBeCloseTo((1 / 3 + 1 + 1 / 3 + 1 / 3 + 1 / 2 + 0 + 0) / 7, 12);
    // Mode responses: k1's three all hold eager.
    expect(a.modeAgreement).toBe(1);
    // t1: a1–a2 both flagged the same phrase; a3 (NIL) did not flag.
    expect(a.mwIdentification).toBe(1);
    expect(a.perAnnotator.map((p: { annotator: string }) => p.annotator)).toEqual(["a1", "a2", "a3"]);
    expect(lexgold(["agreement", "--project", "rt"]).stdout).toMatch(/^Pairwise agreement: \d+\.\d\d over 7 pairs/m);
  });

  it("reviews lemmas: accept a proposal or keep a form as typed, and the export follows", () => {
    // Open: proposed walk, written as typed (walks).
    expect(lexgold(["lemmas", "list", "--project", "rt", "--open"]).stdout.split("\n")[1]).toMatch(/^walks\twalk\t1\tv\t\twalks\t$/);
    expect(lexgold(["lemmas", "set", "walks", "accept", "--project", "rt"]).stdout).toMatch(/walks → walk \(accepted\)/);
    expect(lexgold(["export", "gold", "--project", "rt"]).stdout).toContain("tread.v t1 :: walk 2;step 1;");
    expect(lexgold(["lemmas", "set", "walks", "keep", "--project", "rt"]).stdout).toMatch(/walks → walks \(kept\)/);
    expect(lexgold(["export", "gold", "--project", "rt"]).stdout).toContain("tread.v t1 :: step 1;walk 1;walks 1;");
    // Kept is a decision: --apply-proposals leaves it as typed too.
    expect(lexgold(["export", "gold", "--project", "rt", "--apply-proposals"]).stdout).toContain("tread.v t1 :: step 1;walk 1;walks 1;");
    expect(lexgold(["lemmas", "set", "walks", "reset", "--project", "rt"]).status).toBe(0);
    expect(lexgold(["export", "gold", "--project", "rt"]).stdout).toContain("tread.v t1 :: step 1;walk 1;walks 1;");
    expect(lexgold(["lemmas", "accept-all", "--project", "rt"]).stdout).toMatch(/accepted \d+ proposals/);
    expect(lexgold(["lemmas", "list", "--project", "rt", "--open"]).stdout.trim().split("\n")).toHaveLength(1);
  });

  it("decides forms in bulk: a TSV (nothing recorded when a line is bad), then keep or accept over a filter", () => {
    // Every form was accepted by the test before: walks → walk.
    const walks = () => lexgold(["lemmas", "list", "--project", "rt"]).stdout.split("\n").find((l) => l.startsWith("walks\t"));
    expect(walks()).toBe("walks\twalk\t1\tv\taccepted\twalk\t");
    const bad = lexgold(["lemmas", "import", file("bad.tsv", "walks\tkeep\nwalkz\tkeep\nstep\ta;b\n"), "--project", "rt"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('bad.tsv:2: error: no annotator typed "walkz" in this project (and 1 more problem); nothing was recorded.');
    expect(bad.stderr).toContain("bad.tsv:3: error: the lemma \"a;b\" holds ';'");
    expect(walks()).toBe("walks\twalk\t1\tv\taccepted\twalk\t");

    const ok = lexgold(["lemmas", "import", file("ok.tsv", "form\tdecision\nwalks\tkeep\nstep\tpace\n"), "--project", "rt"]);
    expect(ok.stdout).toMatch(/recorded 2 decisions \(1 kept, 1 overridden\)/);
    const g = lexgold(["export", "gold", "--project", "rt"]);
    expect(g.stdout).toContain("tread.v t1 :: pace 1;walk 1;walks 1;");
    expect(g.stderr).toMatch(/^lexgold: every form is written as typed or as decided in the lemma review/);

    expect(lexgold(["lemmas", "keep", "--project", "rt"]).stderr).toMatch(/give --all/);
    // The verb's forms: walks, walk, step and the multiword tread carefully.
    expect(lexgold(["lemmas", "keep", "--all", "--pos", "v", "--project", "rt"]).stdout).toBe("kept 4 forms as typed\n");
    expect(lexgold(["lemmas", "accept", "--all", "--pos", "v", "--changed", "--project", "rt"]).stdout).toBe("accepted 1 form\n");
    expect(walks()).toBe("walks\twalk\t1\tv\taccepted\twalk\t");
    expect(lexgold(["lemmas", "set", "step", "reset", "--project", "rt"]).status).toBe(0);
  }, 300_000);

  it("keeps case as typed (Sharp and sharp apart); --fold-case merges them and says so", () => {
    expect(lexgold(["responses", "import", file("case.tsv", "a1\tkeen.a\tk2\tSharp;biting\t\n"), "--project", "rt"]).status).toBe(0);
    const kept = lexgold(["export", "gold", "--project", "rt"]);
    expect(kept.stdout).toContain("keen.a k2 :: biting 2;Sharp 1;cold 1;sharp 1;\n");
    const folded = lexgold(["export", "gold", "--project", "rt", "--fold-case"]);
    expect(folded.stdout).toContain("keen.a k2 :: biting 2;sharp 2;cold 1;\n");
    expect(folded.stderr).toContain("case folded (--fold-case)");
  }, 300_000);

  it("fails with one line for a project that does not exist or a bad option", () => {
    const r = lexgold(["export", "gold", "--project", "nope"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toBe('lexgold: No project named "nope".\n');
    expect(lexgold(["agreement", "--project", "rt", "--bootstrap", "x"]).stderr).toMatch(/--bootstrap must be a whole number/);
  });
});


describe("lexgold responses import of answers people already gave", () => {
  const said = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="say.v">
<instance id="s1"><context>they <head>said</head> so</context></instance>
<instance id="s2"><context>she <head>says</head> little</context></instance>
</lexelt>
</corpus>
`;
  // The target's lemma, one letter and a full stop: the workspace refuses each for new typing.
  const historic = "annotator\tlexelt\tinstance\tanswer\tmultiword\na1\tsay.v\ts1\tsay;state\t\na2\tsay.v\ts1\tx;tell\t\na1\tsay.v\ts2\tsuppression .\t\na2\tsay.v\ts2\tmention\t\n";

  it("--strict refuses the file, naming each line and rule; without it, every answer is kept as written and counted by rule", () => {
    expect(lexgold(["project", "create", "hist"]).status).toBe(0);
    expect(lexgold(["import", file("said.xml", said), "--project", "hist", "-q"]).status).toBe(0);
    for (const a of ["a1", "a2"]) expect(lexgold(["member", "add", a, "--project", "hist"]).status).toBe(0);
    const tsvPath = file("historic.tsv", historic);

    const strict = lexgold(["responses", "import", tsvPath, "--project", "hist", "--strict"]);
    expect(strict.status).not.toBe(0);
    expect(strict.stderr).toContain('historic.tsv:2: error: answer, substitute 1 "say": "say" is the target word itself; give a different word or phrase (rule: target)');
    expect(strict.stderr).toContain("(rule: letters)");
    expect(strict.stderr).toContain("(rule: characters)");
    expect(strict.stderr).toMatch(/historic\.tsv: refused; nothing was imported\n$/);
    expect(lexgold(["responses", "export", "--project", "hist"]).stdout).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword\n");

    const r = lexgold(["responses", "import", tsvPath, "--project", "hist"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        "historic.tsv: 4 responses; added 4, updated 0, unchanged 0; kept 3 answers as written that break the workspace's rules (characters 1, letters 1, target 1).",
        'kept as written, breaking the "characters" rule: 1',
        "  line 4\ta1\ts2\tsubstitute 1\tsuppression .",
        'kept as written, breaking the "letters" rule: 1',
        "  line 3\ta2\ts1\tsubstitute 1\tx",
        'kept as written, breaking the "target" rule: 1',
        "  line 2\ta1\ts1\tsubstitute 1\tsay",
        "",
      ].join("\n"),
    );
    // Stored and exported exactly as written.
    expect(lexgold(["responses", "export", "--project", "hist"]).stdout).toBe(historic);
    const gold = lexgold(["export", "gold", "--project", "hist"]);
    expect(gold.stdout).toBe("\nsay.v s1 :: say 1;state 1;tell 1;x 1;\nsay.v s2 :: mention 1;suppression . 1;\n");
  }, 300_000);
});
