import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const samples = path.resolve(__dirname, "../../samples/datasets");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-datasets-"));
const db = path.join(dir, "cli.db");

function lexgold(args: string[]) {
  const r = spawnSync(bin, args, { encoding: "utf8", env: { ...process.env, LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("lexgold import/export of datasets", () => {
  it("imports a TSAR file into a new project and exports it back byte for byte; SWORDS into it, losses on stderr", () => {
    const tsv = path.join(samples, "tsar-small.tsv");
    const imp = lexgold(["import", "tsar", tsv, "--project", "simplify", "--create"]);
    expect(imp.status, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/tsar-small\.tsv: 2 targets \(tsar\); added 2 instances, 2 lexelts and 6 gold entries\./);
    const out = lexgold(["export", "tsar", "--project", "simplify"]);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(readFileSync(tsv, "utf8"));
    expect(out.stderr).toMatch(/not carried: lexelts \(lemma and PoS\) and instance ids are not written/);

    expect(lexgold(["import", "swords", path.join(samples, "swords-small.json"), "--project", "simplify"]).status).toBe(0);
    const json = path.join(dir, "out.json");
    const sw = lexgold(["export", "swords", "--project", "simplify", "-o", json]);
    expect(sw.stderr).toMatch(/lexgold: 5 instances written as swords/);
    // eval.py's ids by default (the sample's own are not its recipe: said on stderr); the sample's with --ids as-imported.
    expect(Object.keys(JSON.parse(readFileSync(json, "utf8")).substitute_labels).every((s) => /^s:[0-9a-f]{40}$/.test(s))).toBe(true);
    expect(sw.stderr).toMatch(/not carried: 3 imported targets had context, target or substitute ids that are not eval\.py's recipe/);
    expect(lexgold(["export", "swords", "--project", "simplify", "--ids", "as-imported", "-o", json]).status).toBe(0);
    const doc = JSON.parse(readFileSync(json, "utf8"));
    expect(doc.substitute_labels["s:2"]).toEqual(["TRUE_IMPLICIT", "TRUE", "UNSURE", "FALSE", "TRUE", "TRUE", "FALSE", "TRUE", "TRUE", "FALSE"]);
    expect(lexgold(["export", "swords", "--project", "simplify", "--ids", "mine"]).stderr).toMatch(/--ids: recipe or as-imported, not "mine"/);
    expect(lexgold(["export", "tsar", "--project", "simplify", "--ids", "recipe"]).stderr).toMatch(/--ids applies to export swords only/);
  });

  it("imports a TSAR file with a few lines it cannot carry, naming each; --strict refuses it", () => {
    const meres = path.join(dir, "meres.tsv");
    const lines = Array.from({ length: 12 }, (_, k) => `the lake ${k} lay calm\tcalm\tstill`);
    lines[6] = "nothing to find\tabsent\tx";
    writeFileSync(meres, lines.join("\n") + "\n");
    const strict = lexgold(["import", "tsar", meres, "--project", "meres-strict", "--create", "--strict"]);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(/meres\.tsv:7/);
    const r = lexgold(["import", "tsar", meres, "--project", "meres", "--create"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/meres\.tsv:7: warning: complex word \(column 2\): left out: "absent" does not occur in the sentence/);
    expect(r.stdout).toMatch(/\b11 instances\b/);
  });

  it("refuses a bad file with its line and field, creating no project", () => {
    const bad = path.join(dir, "bad.tsv");
    writeFileSync(bad, "a calm sea\tcalm\tstill\nthe second\tmissing\tx\n");
    const r = lexgold(["import", "tsar", bad, "--project", "never", "--create"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/lexgold: bad\.tsv:2: complex word \(column 2\): "missing" does not occur in the sentence, in any case, nor as a form of its lemma; nothing was imported\./);
    expect(lexgold(["project", "list"]).stdout).not.toMatch(/never/);
    expect(lexgold(["import", "semcor", bad, "--project", "simplify"]).stderr).toMatch(/unknown dataset format "semcor"/);
  });

  it("imports an MLSP-style file whose complex words are in another case, a lemma or padded, listing each; exports it back byte for byte", () => {
    const file = path.join(dir, "mlsp-de.tsv");
    const text = "Die Katze miaute lange.\tmiauen\tjaulen\tjaulen\nLeise ging er.\tleise \tstill\nDort oben.\tdort\tda\n";
    writeFileSync(file, text);
    // A German project: the words are looked for with German case folding, and a German lemma's forms.
    expect(lexgold(["project", "create", "mlsp", "--language", "de"]).status).toBe(0);
    const r = lexgold(["import", "tsar", file, "--project", "mlsp"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([
      expect.stringMatching(/^mlsp-de\.tsv:1: warning: complex word "miauen": repaired: not in the sentence; found as "miaute"/),
      expect.stringMatching(/^mlsp-de\.tsv:2: warning: complex word "leise ": repaired: stray spaces trimmed; found in another case, as "Leise"/),
      expect.stringMatching(/^mlsp-de\.tsv:3: warning: complex word "dort": repaired: found in another case, as "Dort"/),
    ]);
    expect(r.stdout).toMatch(/; 3 entries not carried as written \(3 repaired\)\./);
    const out = lexgold(["export", "tsar", "--project", "mlsp"]);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(text);
  });

  it("export tsar writes cells exactly by default and spreadsheet-safe with --cells spreadsheet-safe", () => {
    const file = path.join(dir, "dash.tsv");
    const text = "-a dash opens it\tdash\tline\n=two plus two\ttwo\tpair\n";
    writeFileSync(file, text);
    expect(lexgold(["import", "tsar", file, "--project", "dash", "--create"]).status).toBe(0);
    const raw = lexgold(["export", "tsar", "--project", "dash"]);
    expect(raw.stdout).toBe(text);
    expect(raw.stderr).toMatch(/not carried: 2 lines have a cell beginning with =, \+, -, @, written as it is .* \(dash:1, dash:2\)/);
    const safe = lexgold(["export", "tsar", "--project", "dash", "--cells", "spreadsheet-safe"]);
    expect(safe.stdout).toBe("'-a dash opens it\tdash\tline\n'=two plus two\ttwo\tpair\n");
    expect(lexgold(["export", "tsar", "--project", "dash", "--cells", "quoted"]).stderr).toMatch(/--cells: raw or spreadsheet-safe, not "quoted"/);
    expect(lexgold(["export", "swords", "--project", "dash", "--cells", "raw"]).stderr).toMatch(/--cells applies to export tsar only/);
  });

  it("imports a CoInCo file with entries the gold cannot hold, listing each with its line; --strict refuses it and writes nothing", () => {
    // Our own small sample, with a substitute holding the ";" that separates gold entries and one that is only ";".
    const xml = readFileSync(path.join(samples, "coinco-small.xml"), "utf8").replace('lemma="port"', 'lemma="port ;"').replace('lemma="skipper"', 'lemma=";"');
    const file = path.join(dir, "odd.xml");
    writeFileSync(file, xml);
    const strict = lexgold(["import", "coinco", file, "--project", "odd", "--create", "--strict"]);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(/lexgold: odd\.xml:31: warning: target \d+, substitute "port ;": repaired: kept as "port" .* \(and 1 more\); refused as asked \(strict\): nothing was imported\./);
    expect(strict.stderr).toMatch(/odd\.xml:59: warning: target 905, substitute ";": left out/);
    expect(lexgold(["project", "list"]).stdout).not.toMatch(/\bodd\b/);

    const r = lexgold(["import", "coinco", file, "--project", "odd", "--create"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n").slice(0, 2)).toEqual([
      expect.stringMatching(/^odd\.xml:31: warning: target \d+, substitute "port ;": repaired: kept as "port"/),
      expect.stringMatching(/^odd\.xml:59: warning: target 905, substitute ";": left out: nothing is left/),
    ]);
    expect(r.stdout).toMatch(/; 2 entries not carried as written \(1 repaired, 1 left out\)\./);
    const gold = lexgold(["export", "gold", "--project", "odd"]);
    expect(gold.stdout).toMatch(/ :: port 5;/);
    expect(gold.stdout).toMatch(/captain\.n 905 :: master 2;\n/);
  });
});
