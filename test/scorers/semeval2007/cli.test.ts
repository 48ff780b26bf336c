import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { describe, expect, it, vi } from "vitest";
import { SHORT_RUN_BYTES, SHORT_RUN_V8_FLAGS, plainArgs, tuneForShortRun } from "../../../bin/commands/score-plain";
import { scoreFast } from "../../../bin/commands/score-files";
import { type Ran, runCommand } from "../../support/spawn";

const bin = path.resolve(__dirname, "../../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-score-"));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

function lexgold(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runCommand(bin, args, { cwd: dir, env: { ...process.env, ...env } });
}

// |T| = 3: 1 (|H| 7, mode glad), 2 (|H| 4, no mode), 3 (|H| 2, mode joy); 4 is not in T.
file(
  "gold.txt",
  [
    "",
    "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;",
    "happy.a 2 :: content 2;pleased 2;",
    "fun.n 3 :: joy 2;",
    "fun.n 4 :: glee 1;",
    "",
  ].join("\n"),
);
file("sys.best", "happy.a 1 :: glad;cheerful\nhappy.a 2 :: content\nfun.n 3 :: fun\n");
file("sys.oot", "happy.a 1 ::: merry;glad\nfun.n 3 ::: joy;joy\n");
file("mwgold.txt", "take.v 1 :: take place 3;take part 1;\ntake.v 2 :: take off 1;\n");
file("sys.mw", "take.v 1 :: take place\ntake.v 2 :: take off\n");
file("mwids", "3  joy ride\n");
file("words", "happy;a.man\n");

// best: 1: (4/7)/2 = 2/7; 2: 2/4 = 1/2; 3: 0 → P = R = (2/7 + 1/2)/3 = 11/42 = 26.19%.
const BEST_TOTALS = [
  "Total = 3, attempted = 3",
  "precision = 26.19, recall = 26.19",
  "Total with mode 2 attempted 2",
  "Mode precision = 50.00, Mode recall = 50.00",
  "",
].join("\n");

describe("lexgold score", () => {
  // niño.n: read as UTF-8, pequeño 3 and chico 1 (|H| 4, mode pequeño); read as bytes only chico 1.
  const NINO_UTF8 = ["Total = 1, attempted = 1", "precision = 75.00, recall = 75.00", "Total with mode 1 attempted 1", "Mode precision = 100.00, Mode recall = 100.00"];
  const NINO_BYTES = ["Total = 1, attempted = 1", "precision = 0.00, recall = 0.00", "Total with mode 1 attempted 1", "Mode precision = 0.00, Mode recall = 0.00"];
  file("nino.gold", "niño.n 1 :: pequeño 3;chico 1;\n");
  file("nino.best", "niño.n 1 :: pequeño\n");

  it("--utf8 reads the files as perl -CSD score.pl does, through the fast lane or the full reader alike", async () => {
    const [plain, full, verbose] = await Promise.all([
      lexgold(["score", "nino.best", "nino.gold", "--utf8"]),
      lexgold(["score", "nino.best", "nino.gold", "--utf8"], { LEXGOLD_SCORE_LANE: "full" }),
      lexgold(["score", "nino.best", "nino.gold", "--utf8", "-v"]),
    ]);
    for (const r of [plain, full]) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(NINO_UTF8.join("\n") + "\n");
      expect(r.stderr).toBe("");
    }
    expect(verbose.stdout.split("\n").slice(0, 2)).toEqual(["niño.n Item 1 mode 'pequeño' : system 'pequeño'  correct", "niño.n Item 1 credit 0.75 guesses 1 human responses 4: score is 0.75"]);
  });

  it("a CoInCo-like pair (a ¢ among entries and answers, a lexelt with a space) scores through the fast lane as through the full reader, with no UTF-8 notice: no figure could differ (#40)", async () => {
    file("cent.gold", "cent.n 1 :: penny 2;¢ 1;pence 1;\ne commerce.n 2 :: trade 2;sale 1;\nbank.n 3 :: shore 2;edge 1;\n");
    file("cent.oot", "cent.n 1 ::: penny;¢;coin\ne commerce.n 2 ::: trade;¢\nbank.n 3 ::: edge;shore\n");
    const [plain, full] = await Promise.all([lexgold(["score", "-t", "oot", "cent.oot", "cent.gold"]), lexgold(["score", "-t", "oot", "cent.oot", "cent.gold"], { LEXGOLD_SCORE_LANE: "full" })]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toBe(full.stdout);
    expect(plain.stderr).toBe(full.stderr);
    expect(plain.stderr).not.toContain("UTF-8");
    // The ¢ entry is not read (no word character, either reading): 1: penny 2/3; 2: trade 2/3; 3: (edge 1 + shore 2)/3 → (2/3 + 2/3 + 1)/3 = 77.78%.
    expect(plain.stdout).toMatch(/^precision = 77\.78, recall = 77\.78$/m);
  });

  it("by default prints score.pl's byte figures, then on stderr the UTF-8 figures (and in --json)", async () => {
    const [plain, full, json] = await Promise.all([
      lexgold(["score", "nino.best", "nino.gold"]),
      lexgold(["score", "nino.best", "nino.gold"], { LEXGOLD_SCORE_LANE: "full" }),
      lexgold(["score", "nino.best", "nino.gold", "--json"]),
    ]);
    for (const r of [plain, full]) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(NINO_BYTES.join("\n") + "\n");
      expect(r.stderr).toContain(["lexgold: read as UTF-8 text, as `perl -CSD score.pl` reads them (--utf8), they would be:", ...NINO_UTF8.map((l) => `lexgold:   ${l}`)].join("\n") + "\n");
    }
    expect(full.stderr).toBe(plain.stderr);
    const j = JSON.parse(json.stdout);
    expect([j.precision, j.modePrecision]).toEqual([0, 0]);
    expect(j.utf8.figures).toMatchObject({ type: "best", total: 1, attempted: 1, precision: 0.75, modePrecision: 1 });
    // Quiet: no notice.
    expect((await lexgold(["score", "nino.best", "nino.gold", "-q"])).stderr).toBe("");
  });

  it("prints the official best output, options in any order", async () => {
    const [a, b] = await Promise.all([lexgold(["score", "sys.best", "gold.txt"]), lexgold(["score", "-t", "best", "sys.best", "gold.txt", "-q"])]);
    for (const r of [a, b]) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(BEST_TOTALS);
      expect(r.stderr).toBe("");
    }
  });

  it("prints -v lines before the totals, and oot with -t after the files", async () => {
    const r = await lexgold(["score", "-v", "sys.oot", "gold.txt", "-t", "oot"]);
    expect(r.status).toBe(0);
    // oot: 1: (2 + 3)/7; 3: joy twice, 2/2 + 2/2 = 2. P = (5/7 + 2)/2 = 135.71%, R = (5/7 + 2)/3 = 90.48%.
    expect(r.stdout).toBe(
      [
        "happy.a Item 1 mode 'glad'  found in guesses",
        "happy.a Item 1 credit 0.714285714285714 human responses 7: score is 0.714285714285714",
        "fun.n Item 3 mode 'joy'  found in guesses",
        "fun.n Item 3 credit 2 human responses 2: score is 2",
        "Total = 3, attempted = 2",
        "precision = 135.71, recall = 90.48",
        "Total with mode 2 attempted 2",
        "precision = 100.00, recall = 100.00",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toMatch(/sys\.oot:2: warning: guess "joy" repeated for id 3/);
  });

  it("prints the issue's JSON keys, with a per-PoS breakdown", async () => {
    const r = await lexgold(["score", "--json", "sys.best", "gold.txt", "--by", "pos"]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(["type", "total", "attempted", "precision", "recall", "totalWithMode", "attemptedWithMode", "modePrecision", "modeRecall", "groups"]);
    expect(json).toMatchObject({ type: "best", total: 3, attempted: 3, totalWithMode: 2, attemptedWithMode: 2, modePrecision: 0.5, modeRecall: 0.5 });
    expect(json.precision).toBeCloseTo(11 / 42, 15);
    expect(json.groups.map((g: { pos: string; attempted: number }) => [g.pos, g.attempted])).toEqual([
      ["a", 2],
      ["n", 1],
    ]);
  });

  it("scores mw, and JSON with null where undefined", async () => {
    const [text, json] = await Promise.all([lexgold(["score", "sys.mw", "mwgold.txt", "-t", "mw"]), lexgold(["score", "sys.mw", "mwgold.txt", "-t", "mw", "--json"])]);
    expect(text.stdout).toBe(
      "Total MWs in GS = 1, System found 2 of which 1 were genuine\nDetection precision = 50.00, recall = 100.00\nNumber that matched GS\nIdentification precision = 50.00, recall = 100.00\n",
    );
    expect(JSON.parse(json.stdout)).toEqual({
      type: "mw",
      totalMultiwords: 1,
      systemFound: 2,
      genuine: 1,
      matched: 1,
      detectionPrecision: 0.5,
      detectionRecall: 1,
      identificationPrecision: 0.5,
      identificationRecall: 1,
    });
  });

  it("runs the further analysis: NMWT from an mwids file, a word-list subset", async () => {
    const [nmwt, subset] = await Promise.all([
      lexgold(["score", "sys.best", "gold.txt", "--nmwt", "mwids", "--json"]),
      lexgold(["score", "sys.best", "gold.txt", "--subset", "words"]),
    ]);
    // Without item 3: P = R = (2/7 + 1/2)/2.
    expect(JSON.parse(nmwt.stdout)).toMatchObject({ total: 2, attempted: 2 });
    expect(JSON.parse(nmwt.stdout).precision).toBeCloseTo(11 / 28, 15);
    expect(subset.stdout.split("\n").slice(0, 2)).toEqual(["FURTHER ANALYSIS Scoring only items of the lexelts in words", "Total = 2, attempted = 2"]);
  });

  it("keeps CRLF and spaces around ';' in the guesses as score.pl does, and says on stderr what --repaired would give", async () => {
    file("crlf.best", "happy.a 1 :: glad ; cheerful\r\nhappy.a 2 :: content\r\nfun.n 3 :: fun\r\n");
    const r = await lexgold(["score", "crlf.best", "gold.txt"]);
    expect(r.status).toBe(0);
    // Every last guess keeps its "\r", and "glad " its space: nothing matches.
    expect(r.stdout).toBe(["Total = 3, attempted = 3", "precision = 0.00, recall = 0.00", "Total with mode 2 attempted 2", "Mode precision = 0.00, Mode recall = 0.00", ""].join("\n"));
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      "crlf.best:1: warning: CRLF line ending: the \\r stays in the last guess, which then matches nothing, as in score.pl (--repaired reads it as LF)",
      'crlf.best:1: warning: spaces around ";" or at the end of the answer ("glad ; cheerful\\r"); the spaces stay in the guess, as in score.pl, so it matches only a gold entry with the same spaces (--repaired also tries it without them)',
      "crlf.best: warning: 3 lines had CRLF endings, each \\r kept in the last guess, as in score.pl",
      "lexgold: the figures above are score.pl's; with the documented repairs (--repaired) they would be:",
      ...BEST_TOTALS.split("\n").filter(Boolean).map((l) => `lexgold:   ${l}`),
      "lexgold: the repairs behind the difference:",
      "lexgold:   crlf: 2 items (1, 2); score.pl: a CRLF line keeps the \\r in its last guess, which then matches nothing; repaired: CRLF lines are read as LF",
      "lexgold:   spaces: 1 item (1); score.pl: spaces around ';' or at the end of an answer stay in the guess, which then matches nothing; repaired: a guess that matches nothing as written is matched without those spaces",
    ]);
    const json = await lexgold(["score", "crlf.best", "gold.txt", "--json", "-q"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ precision: 0, repaired: { figures: { precision: 11 / 42 }, changes: [{ rule: "crlf", items: 2 }, { rule: "spaces", items: 1 }] } });
  });

  it("with --repaired, reads CRLF as LF and trims spaces around ';', with warnings", async () => {
    const r = await lexgold(["score", "crlf.best", "gold.txt", "--repaired"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(BEST_TOTALS);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      "crlf.best:1: warning: CRLF line ending read as LF (repaired; score.pl keeps the \\r in the last guess, which then matches nothing)",
      'crlf.best:1: warning: spaces around ";" or at the end of the answer ("glad ; cheerful"); a guess is matched as written, else without the spaces (repaired)',
      "crlf.best: warning: 3 lines had CRLF endings, read as LF",
    ]);
  });

  it("reports unreadable lines by file and line, scores the rest, and exits 1", async () => {
    file("bad.best", "happy.a 1 :: glad\nhappy.a 2 : content\n");
    const r = await lexgold(["score", "bad.best", "gold.txt", "--json"]);
    expect(r.status).toBe(1);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      'bad.best:2: error: not a best line; expected "lexelt id :: guess;guess": "happy.a 2 : content"; line skipped',
      "lexgold: bad.best: 1 line in no format skipped; scored without it",
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ attempted: 1 });
  });

  it.each([
    [["score", "nope.best", "gold.txt"], /^lexgold: cannot read nope\.best: no such file$/m],
    [["score", "sys.oot", "gold.txt"], /is this an oot file\?[\s\S]*^lexgold: sys\.oot: no line is in the best format; nothing scored$/m],
    [["score", "sys.best", "badgold.txt"], /^badgold\.txt:2: error: id 1 is repeated[\s\S]*^lexgold: badgold\.txt: 1 error; nothing scored$/m],
    [["score", "sys.best", "words"], /^words: error: no line is in the gold format \(1 line skipped\)[\s\S]*^lexgold: words: 1 error; nothing scored$/m],
    [["score", "sys.mw", "mwgold.txt", "-t", "mw", "--nmws"], /^lexgold: --nmwt, --nmws, --subset, --exclude and --by apply to best and oot, not mw$/m],
    [["score", "sys.best", "gold.txt", "-v", "--json"], /^lexgold: -v and --json cannot be combined/m],
    [["score", "sys.best", "gold.txt", "-t", "top"], /argument 'top' is invalid/],
  ])("fails with a one-line error: %j", async (args, message) => {
    file("badgold.txt", "happy.a 1 :: glad 3;\nhappy.a 1 :: glad 3;\n");
    const r = await lexgold(args as string[]);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});

describe("the fast lane (plain best and oot files): the same output as the full reader", () => {
  // 3,000 items in the common form, with what the lane has to report as the full reader
  // does: unsorted gold lines, hyphenated modes (the repair notice), ids outside T, ids
  // answered twice, oot lines with more than ten guesses and repeated guesses, empty answers.
  const words = ["glad", "merry", "open-air", "cheer up", "well-lit", "content", "x-ray", "joy"];
  const gold: string[] = [];
  const best: string[] = [];
  const oot: string[] = [];
  for (let i = 1; i <= 3000; i++) {
    const n = 1 + (i % 5);
    const entries = Array.from({ length: n }, (_, k) => `${words[(i + k * 3) % words.length]} ${i % 7 === 0 ? k + 1 : n - k + (k === 0 ? i % 2 : 0)}`);
    gold.push(`w${i % 13}.n ${i} :: ${entries.join(";")};`);
    const g = (k: number) => words[(i * 7 + k) % words.length].replace(i % 3 === 0 ? "-" : "_", " ");
    best.push(`w.n ${i % 101 === 0 ? i + 5000 : i} :: ${i % 89 === 0 ? "" : [g(0), g(1)].join(";")}`);
    if (i % 97 === 0) best.push(`w.n ${i} :: glad`);
    oot.push(`w.n ${i} ::: ${Array.from({ length: i % 17 === 0 ? 12 : 4 }, (_, k) => g(k % 3)).join(";")}`);
  }
  file("lane.gold", gold.join("\n") + "\n");
  file("lane.best", best.join("\n") + "\n");
  file("lane.oot", oot.join("\n"));

  it.each([
    ["best", []],
    ["oot", []],
    ["best", ["--json"]],
    ["oot", ["--json", "-q"]],
  ] as const)("%s %j", async (type, extra) => {
    // The lane answers on these files (else this would compare the full reader with itself).
    expect(scoreFast(path.join(dir, `lane.${type}`), path.join(dir, "lane.gold"), type)).not.toBeNull();
    const args = ["score", `lane.${type}`, "lane.gold", "-t", type, ...extra];
    const [fast, full] = await Promise.all([lexgold(args), lexgold(args, { LEXGOLD_SCORE_LANE: "full" })]);
    expect(fast).toEqual(full);
    expect(fast.status).toBe(0);
    // The files hold what the lane must report: warnings, and the hyphenated modes' repair.
    if (!(extra as readonly string[]).includes("-q")) expect(fast.stderr).toContain("not sorted by count");
    if (extra.length === 0) expect(fast.stderr).toContain("hyphen-mode:");
  });

  it("through the command's own lane too (arguments the plain path leaves to commander)", async () => {
    const args = ["score", "lane.oot", "--type=oot", "lane.gold", "-q"];
    expect(plainArgs(args.slice(1))).toBeNull();
    const [fast, full] = await Promise.all([lexgold(args), lexgold(args, { LEXGOLD_SCORE_LANE: "full" })]);
    expect(fast).toEqual(full);
    expect(fast.stdout).toMatch(/^Total = /);
  });

  it("the plain path takes two files and -t/--type best|oot, --json, -q/--quiet, --utf8, nothing else", () => {
    expect(plainArgs(["s", "g"])).toEqual({ system: "s", gold: "g", type: "best", json: false, quiet: false, utf8: false });
    expect(plainArgs(["-t", "oot", "s", "g", "--json", "--quiet"])).toEqual({ system: "s", gold: "g", type: "oot", json: true, quiet: true, utf8: false });
    expect(plainArgs(["s", "g", "--utf8"])).toEqual({ system: "s", gold: "g", type: "best", json: false, quiet: false, utf8: true });
    for (const args of [["s"], ["s", "g", "x"], ["s", "g", "-t", "mw"], ["s", "g", "-t"], ["s", "g", "-v"], ["s", "g", "--by", "pos"], ["s", "g", "--repaired"], ["-", "g"], ["s", "g", "--"]]) {
      expect(plainArgs(args), args.join(" ")).toBeNull();
    }
  });
});

describe("the plain call's tuning for short runs", () => {
  /** The flags tuneForShortRun sets for these files (V8 itself left alone). */
  function flagsFor(system: string, gold: string): string[] {
    const set = vi.spyOn(v8, "setFlagsFromString").mockImplementation(() => undefined);
    try {
      tuneForShortRun(system, gold);
      return set.mock.calls.map((c) => c[0]);
    } finally {
      set.mockRestore();
    }
  }

  it("makes V8's optimizing compiler cheaper when the two files are small", () => {
    expect(flagsFor(path.join(dir, "sys.best"), path.join(dir, "gold.txt"))).toEqual([SHORT_RUN_V8_FLAGS]);
  });

  it("leaves V8 alone for large files, where the better code pays for its compile time", () => {
    // A sparse file just over the limit with the gold: no bytes written.
    const big = path.join(dir, "big.best");
    const fd = openSync(big, "w");
    ftruncateSync(fd, SHORT_RUN_BYTES);
    closeSync(fd);
    expect(flagsFor(big, path.join(dir, "gold.txt"))).toEqual([]);
  });

  it("leaves a missing file to the scorer's own error", () => {
    expect(flagsFor(path.join(dir, "no-such-system"), path.join(dir, "gold.txt"))).toEqual([]);
  });
});

