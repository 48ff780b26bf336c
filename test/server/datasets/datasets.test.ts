import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { XMLParser } from "fast-xml-parser";
import { type DatasetFormat, exportDataset, importDataset, importDatasetAsNewProject } from "../../../lib/server/datasets/datasets";
import { projectGold, projectAgreement } from "../../../lib/server/gold/gold";
import { listProjects } from "../../../lib/server/corpus/projects";
import { actorFor, corpusCounts, projectFixture } from "../../support/db";
import { addMember } from "../../../lib/server/people/users";
import { hasSharedData } from "../../support/shared-data";

const shared = path.resolve(__dirname, "../../../../shared/data");
const samples = path.resolve(__dirname, "../../../samples/datasets");
const enc = (s: string) => new TextEncoder().encode(s);
const sample = (f: string) => readFileSync(path.join(samples, f));

function counts(db: ReturnType<typeof projectFixture>["db"]) {
  const c = (t: string) => (db.$client.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
  return { ...corpusCounts(db), datasetInstances: c("dataset_instances"), datasetGold: c("dataset_gold"), projects: c("projects") };
}

function roundTrip(format: DatasetFormat, fileName: string, bytes: Uint8Array) {
  const { db, coord, project } = projectFixture();
  const report = importDataset(db, coord, project.id, { format, fileName, bytes });
  const out = exportDataset(db, coord, project.id, format);
  return { db, coord, project, report, out };
}

/** The targets of a CoInCo file read independently: id, wordform, sentences, and substitutes with counts. */
function coincoExpectations(xml: string) {
  const p = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, isArray: (n) => ["sent", "token", "subst"].includes(n) });
  const doc = p.parse(xml) as { document: { sent: Array<Record<string, unknown>> } };
  const out: { id: string; wordform: string; pre: string; target: string; post: string; problematic: string; substs: [string, number][] }[] = [];
  for (const s of doc.document.sent) {
    const tokens = ((s.tokens as { token: Array<Record<string, unknown>> }).token ?? []) as Array<Record<string, string> & { substitutions?: { subst?: Array<Record<string, string>> } }>;
    for (const t of tokens) {
      if (t.id === "XXX") continue;
      out.push({
        id: t.id,
        wordform: t.wordform,
        pre: String(s.precontext ?? "").trim(),
        target: String(s.targetsentence ?? "").trim(),
        post: String(s.postcontext ?? "").trim(),
        problematic: t.problematic,
        substs: (t.substitutions?.subst ?? []).map((x) => [x.lemma, Number(x.freq)] as [string, number]),
      });
    }
  }
  return out;
}

function storedInstances(db: ReturnType<typeof projectFixture>["db"]) {
  return db.$client
    .prepare(
      `select i.instance_id as id, i.before, i.head, i.after, d.meta,
        (select json_group_array(json_array(g.substitute, g.count)) from (select * from dataset_gold g where g.instance_ref = i.id order by g.position) g) as substs
       from instances i join dataset_instances d on d.instance_ref = i.id order by i.position`,
    )
    .all() as { id: string; before: string; head: string; after: string; meta: string; substs: string }[];
}

function checkCoinco(xml: string, fileName: string) {
  const { db, coord, project } = projectFixture();
  const report = importDataset(db, coord, project.id, { format: "coinco", fileName, bytes: enc(xml) });
  const expected = coincoExpectations(xml);
  const stored = storedInstances(db);
  expect(report.instancesAdded).toBe(expected.length);
  expect(stored.map((s) => s.id)).toEqual(expected.map((e) => e.id));
  stored.forEach((s, k) => {
    const e = expected[k];
    // The context: the preceding sentences, the target sentence with the target marked, the following ones.
    expect(s.head).toBe(e.wordform);
    expect(s.before + s.head + s.after).toBe([e.pre, e.target, e.post].filter((x) => x !== "").join(" "));
    expect(e.target.startsWith(s.before.slice(e.pre === "" ? 0 : e.pre.length + 1))).toBe(true);
    expect(JSON.parse(s.substs)).toEqual(e.substs);
    expect(JSON.parse(s.meta).token.problematic).toBe(e.problematic);
  });
  return { db, coord, project, expected };
}

describe("CoInCo import", () => {
  it("imports our sample with every target, context and count, and the gold carries the counts", () => {
    const { db, coord, project } = checkCoinco(sample("coinco-small.xml").toString("utf8"), "coinco-small.xml");
    const g = projectGold(db, coord, project.id);
    expect(g.gold).toContain("harbour.n 903 :: port 5;dock 1;");
    expect(g.gold).toContain("finally.r 906 :: at last 3;eventually 3;");
    const item = g.result.items.find((i) => i.instanceId === "902")!;
    expect(item).toMatchObject({ size: 6, inT: true, mode: "sunny" });
    // Imported counts name no annotator: agreement leaves them out.
    expect(projectAgreement(db, coord, project.id).gold.summary.inT).toBe(0);
    const out = exportDataset(db, coord, project.id, "coinco");
    expect(out.text).toContain('<token id="902" wordform="bright" lemma="bright" posMASC="JJ" posTT="JJ" problematic="yes" >');
    expect(coincoExpectations(out.text)).toEqual(coincoExpectations(sample("coinco-small.xml").toString("utf8")));
  });

  it.skipIf(!hasSharedData(path.join(shared, "coinco")))("imports the shared CoInCo sample with every target, context and count intact", () => {
    const xml = readFileSync(path.join(shared, "coinco/coinco-sample.xml"), "utf8");
    const { expected } = checkCoinco(xml, "coinco-sample.xml");
    expect(expected.length).toBeGreaterThan(300);
  });
});

describe("scoring against a project's imported gold", () => {
  it("credits a best run with the CoInCo counts (hand-computed)", async () => {
    const { scoreBoard } = await import("../../../lib/server/scoring/scores");
    const { uploadRun } = await import("../../../lib/server/scoring/runs");
    const { db, coord, project } = projectFixture();
    importDataset(db, coord, project.id, { format: "coinco", fileName: "coinco-small.xml", bytes: sample("coinco-small.xml") });
    uploadRun(db, coord, project.id, { fileName: "sys.best", text: "harbour.n 903 :: port\nbright.a 902 :: sunny;light\n" });
    const board = scoreBoard(db, coord, project.id, { kind: "project" });
    // T: all six targets (|H| >= 2). 903: 5 / (1 * 6); 902: (4 + 1) / (2 * 6).
    // Modes: 901 wheel, 902 sunny, 903 port, 905 skipper (904 and 906 tie); both first guesses hit theirs.
    expect(board.runs[0].figures).toMatchObject({ total: 6, attempted: 2, totalWithMode: 4, attemptedWithMode: 2 });
    const f = board.runs[0].figures as { precision: number; recall: number; modePrecision: number; modeRecall: number };
    expect(f.precision).toBeCloseTo((5 / 6 + 5 / 12) / 2, 10);
    expect(f.recall).toBeCloseTo((5 / 6 + 5 / 12) / 6, 10);
    expect([f.modePrecision, f.modeRecall]).toEqual([1, 0.5]);
  });
});

describe("SWORDS round trip", () => {
  it("keeps every target, substitute and label count of our sample (its own ids with ids: as-imported; eval.py's by default)", () => {
    const bytes = sample("swords-small.json");
    const { db, coord, project, report, out } = roundTrip("swords", "swords-small.json", bytes);
    expect(report).toMatchObject({ instancesAdded: 3, entriesAdded: 6 });
    // Our sample's ids (t:ledger, s:2…) are not eval.py's recipe: by default they are rewritten, and said so.
    expect(Object.keys(JSON.parse(out.text).targets).every((t) => /^t:[0-9a-f]{40}$/.test(t))).toBe(true);
    expect(out.lost[0]).toMatch(/^3 imported targets had context, target or substitute ids that are not eval\.py's recipe/);
    const kept = exportDataset(db, coord, project.id, "swords", { ids: "as-imported" });
    expect(JSON.parse(kept.text)).toEqual(JSON.parse(bytes.toString("utf8")));
    // Gold counts = TRUE + TRUE_IMPLICIT labels; a substitute with none is kept for the export only.
    const g = projectGold(db, coord, project.id);
    expect(g.gold).toContain("ledger.n t:ledger :: account book 6;record 2;");
    expect(g.gold).not.toContain("diary");
  });

  for (const f of ["swords-v1.1_dev.json.gz", "swords-v1.1_test-subset.json.gz"]) {
    it.skipIf(!hasSharedData(path.join(shared, "swords", f)))(`keeps every target, substitute and label of ${f} (gzip as given)`, () => {
      const bytes = readFileSync(path.join(shared, "swords", f));
      const { out, report } = roundTrip("swords", f, bytes);
      const original = JSON.parse(gunzipSync(bytes).toString("utf8"));
      expect(report.instancesAdded).toBe(Object.keys(original.targets).length);
      expect(JSON.parse(out.text)).toEqual(original);
    });
  }
});

describe("TSAR round trip", () => {
  it("reads repeated columns as counts and writes our sample back column for column", () => {
    const bytes = sample("tsar-small.tsv");
    const { db, coord, project, out } = roundTrip("tsar", "tsar-small.tsv", bytes);
    expect(out.text).toBe(bytes.toString("utf8"));
    const g = projectGold(db, coord, project.id);
    expect(g.gold).toContain("postponed.x tsar-small:1 :: delayed 4;deferred 2;put off 1;");
    expect(g.result.items.find((i) => i.instanceId === "tsar-small:2")?.mode).toBe("honest");
  });

  const tsar = path.join(shared, "tsar2022");
  for (const f of ["tsar2022_en_trial_gold.tsv", "tsar2022_en_test_gold.tsv", "tsar2022_es_test_gold.tsv", "tsar2022_pt_trial_gold.tsv"]) {
    it.skipIf(!hasSharedData(path.join(tsar, f)))(`writes ${f} back byte for byte`, () => {
      const bytes = readFileSync(path.join(tsar, f));
      const { out, report } = roundTrip("tsar", f, bytes);
      expect(report.instancesAdded).toBe(bytes.toString("utf8").trimEnd().split("\n").length);
      expect(out.text).toBe(bytes.toString("utf8"));
    });
  }

  it("writes a project's changed gold count-descending and reports what TSAR cannot carry", () => {
    const { db, coord, project } = projectFixture();
    importDataset(db, coord, project.id, { format: "tsar", fileName: "tsar-small.tsv", bytes: sample("tsar-small.tsv") });
    db.$client.prepare("update instances set excluded_reason = 'noise' where instance_id = 'tsar-small:1'").run();
    const out = exportDataset(db, coord, project.id, "tsar");
    expect(out.text).toBe('"Her remarks were candid," he said.\tcandid\thonest\tfrank\thonest\topen\tfrank\thonest\n');
    expect(out.lost.join(" ")).toMatch(/1 excluded instance was left out/);
  });
});

describe("refusals: located errors, nothing written", () => {
  const swords = JSON.parse(sample("swords-small.json").toString("utf8"));
  const broken = (f: (d: typeof swords) => void) => {
    const d = structuredClone(swords);
    f(d);
    return enc(JSON.stringify(d));
  };
  const cases: Array<[string, DatasetFormat, Uint8Array, RegExp]> = [
    ["a SWORDS offset off the target", "swords", broken((d) => (d.targets["t:tidy"].offset = 12)), /bad: \$\.targets\["t:tidy"\]\.offset: offset: the context holds "idy "/],
    ["an unknown SWORDS label", "swords", broken((d) => (d.substitute_labels["s:4"][1] = "MAYBE")), /\$\.substitute_labels\["s:4"\]\[1\]: label: "MAYBE" is not one of/],
    ["a substitute of no target", "swords", broken((d) => (d.substitutes["s:6"].target_id = "t:none")), /\$\.substitutes\["s:6"\]\.target_id: target_id:/],
    ["broken JSON", "swords", enc('{"contexts": {\n  "c": 1,\n}'), /^bad:3: JSON:/],
    ["a TSAR word not in its sentence", "tsar", enc("a fine day\tfine\tgood\nthe second line\tmissing\tx\n"), /^bad:2: complex word \(column 2\): "missing" does not occur/],
    ["an empty TSAR annotation", "tsar", enc("a fine day\tfine\tgood\t\tnice\n"), /^bad:1: annotation 2 \(column 4\): empty/],
    ["a CoInCo DOCTYPE", "coinco", enc('<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x "y">]>\n<document/>'), /^bad:2: DOCTYPE:/],
    ["truncated XML", "coinco", enc(sample("coinco-small.xml").toString("utf8").slice(0, 400)), /^bad:\d+: XML: the file ends at line \d+ .*: is it truncated\? Nothing was imported\.$/],
    ["binary bytes", "tsar", new Uint8Array([0x41, 0x09, 0xff, 0xfe]), /^bad:1: not UTF-8/],
  ];
  it.each(cases)("refuses %s", (_n, format, bytes, message) => {
    const { db, coord, project } = projectFixture();
    importDataset(db, coord, project.id, { format: "tsar", fileName: "tsar-small.tsv", bytes: sample("tsar-small.tsv") });
    const before = counts(db);
    expect(() => importDataset(db, coord, project.id, { format, fileName: "bad", bytes })).toThrow(message);
    expect(counts(db)).toEqual(before);
  });

  // Entries a published file carries that the gold cannot hold as written: imported and reported (test/server/datasets/coinco-full.test.ts), refused with strict.
  const strictCases: Array<[string, Uint8Array, RegExp]> = [
    ["a CoInCo freq that is no count", enc(sample("coinco-small.xml").toString("utf8").replace('freq="5"', 'freq="five"')), /^bad:31: warning: target \d+, substitute "port": left out: freq "five" is not a positive whole number.*refused as asked \(strict\): nothing was imported\.$/],
    ["a CoInCo wordform not in its sentence", enc(sample("coinco-small.xml").toString("utf8").replace('wordform="captain"', 'wordform="pilot"')), /^bad:57: warning: target 905 "pilot": left out: the wordform is not in the target sentence \(with its 2 substitutes\).*nothing was imported\.$/],
  ];
  it.each(strictCases)("refuses %s when strict, writing nothing", (_n, bytes, message) => {
    const { db, coord, project } = projectFixture();
    importDataset(db, coord, project.id, { format: "tsar", fileName: "tsar-small.tsv", bytes: sample("tsar-small.tsv") });
    const before = counts(db);
    expect(() => importDataset(db, coord, project.id, { format: "coinco", fileName: "bad", bytes, strict: true })).toThrow(message);
    expect(counts(db)).toEqual(before);
    expect(() => importDatasetAsNewProject(db, coord, "fresh", { format: "coinco", fileName: "bad", bytes, strict: true })).toThrow(message);
    expect(counts(db)).toEqual(before);
  });

  it("refuses an instance id already in the project with other text, writing nothing of the file", () => {
    const { db, coord, project } = projectFixture();
    importDataset(db, coord, project.id, { format: "tsar", fileName: "t.tsv", bytes: enc("a fine day\tfine\tgood\n") });
    const before = counts(db);
    const again = enc("the new line\tnew\tfresh\na changed day\tchanged\tx\n");
    expect(() => importDataset(db, coord, project.id, { format: "tsar", fileName: "t.tsv", bytes: again })).toThrow(/t\.tsv:1: instance id "t:1" is already in the project/);
    expect(counts(db)).toEqual(before);
    // The same file again adds nothing and says so.
    const same = importDataset(db, coord, project.id, { format: "tsar", fileName: "t.tsv", bytes: enc("a fine day\tfine\tgood\n") });
    expect(same).toMatchObject({ instancesAdded: 0, instancesAlreadyPresent: 1 });
  });

  it("refuses files over the import limit before reading them", () => {
    const { db, coord, project } = projectFixture();
    const old = process.env.LEXGOLD_MAX_IMPORT_BYTES;
    process.env.LEXGOLD_MAX_IMPORT_BYTES = "100";
    try {
      expect(() => importDataset(db, coord, project.id, { format: "swords", fileName: "big.json", bytes: sample("swords-small.json") })).toThrow(/big\.json: .* over the import limit of 100 bytes/);
    } finally {
      if (old === undefined) delete process.env.LEXGOLD_MAX_IMPORT_BYTES;
      else process.env.LEXGOLD_MAX_IMPORT_BYTES = old;
    }
    expect(counts(db).instances).toBe(0);
  });

  it("creates no project when the file for a new project is refused", () => {
    const { db, coord } = projectFixture();
    expect(() => importDatasetAsNewProject(db, coord, "fresh", { format: "tsar", fileName: "bad", bytes: enc("x\n") })).toThrow(/bad:1: complex word/);
    expect(listProjects(db, coord).map((p) => p.name)).toEqual(["p"]);
    const r = importDatasetAsNewProject(db, coord, "fresh", { format: "tsar", fileName: "t.tsv", bytes: sample("tsar-small.tsv") });
    expect(r.instancesAdded).toBe(2);
    expect(listProjects(db, coord).map((p) => p.name).sort()).toEqual(["fresh", "p"]);
  });
});

describe("export of a project built from annotators' responses", () => {
  it("writes gold counts as TRUE labels and reports NAME answers it cannot carry", async () => {
    const { importLexeltXml } = await import("../../../lib/server/corpus/corpus");
    const { importResponses } = await import("../../../lib/server/annotate/response-import");
    const { db, coord, project } = projectFixture();
    for (const name of ["ann2", "ann3"]) {
      actorFor(db, name, "annotator");
      addMember(db, coord, project.id, name);
    }
    const xml = `<?xml version="1.0"?>\n<corpus lang="english"><lexelt item="calm.a"><instance id="c1"><context>a <head>calm</head> sea</context></instance></lexelt></corpus>\n`;
    importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: enc(xml) });
    importResponses(db, coord, project.id, {
      fileName: "r.tsv",
      text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nann\tcalm.a\tc1\tquiet;still\t\nann2\tcalm.a\tc1\tquiet\t\nann3\tcalm.a\tc1\tNAME\t\n",
    });
    const out = exportDataset(db, coord, project.id, "swords");
    const doc = JSON.parse(out.text);
    const subs = Object.entries(doc.substitutes as Record<string, { substitute: string }>).map(([id, s]) => [s.substitute, doc.substitute_labels[id]]);
    expect(subs).toEqual([
      ["quiet", ["TRUE", "TRUE"]],
      ["still", ["TRUE"]],
    ]);
    const target = Object.values(doc.targets)[0] as { target: string; offset: number; pos: string };
    expect(target).toMatchObject({ target: "calm", offset: 2, pos: "ADJ" });
    expect(out.lost.join(" ")).toMatch(/1 NAME answer \(pn\) was dropped/);
  });
  it("leaves out an attention check as the gold does: its answers never reach a dataset file", async () => {
    const { importLexeltXml } = await import("../../../lib/server/corpus/corpus");
    const { importResponses } = await import("../../../lib/server/annotate/response-import");
    const { setKnownAnswer } = await import("../../../lib/server/quality/training");
    const { db, coord, project } = projectFixture();
    const xml = `<?xml version="1.0"?>\n<corpus lang="english"><lexelt item="calm.a"><instance id="c1"><context>a <head>calm</head> sea</context></instance><instance id="c2"><context>a <head>calm</head> day</context></instance></lexelt></corpus>\n`;
    importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: enc(xml) });
    importResponses(db, coord, project.id, {
      fileName: "r.tsv",
      text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nann\tcalm.a\tc1\tquiet\t\nann\tcalm.a\tc2\tstill;peaceful\t\n",
    });
    setKnownAnswer(db, coord, project.id, { instanceId: "c2", role: "check", accepted: "still" });
    expect(projectGold(db, coord, project.id).gold.trim().split("\n").filter(Boolean)).toEqual(["calm.a c1 :: quiet 1;"]);
    for (const format of ["swords", "tsar", "coinco"] as const) {
      const out = exportDataset(db, coord, project.id, format);
      expect(out.text, format).toContain("quiet");
      expect(out.text, format).not.toMatch(/still|peaceful/);
      expect(out.lost.join(" "), format).toMatch(/1 excluded instance was left out/);
    }
  });
});

describe("MLSP's combined files (#40)", () => {
  const combined = "en_1\tenglish\tThe lantern flickered.\tflickered\t0.25\twavered\twavered\nde_1\tgerman\tDie Kinder bastelten.\tbasteln\t0.4\twerkeln\n";

  it("--create makes the project in the file's languages (mul for several) and the export gives the file back", () => {
    const { db, coord } = projectFixture();
    const r = importDatasetAsNewProject(db, coord, "multi", { format: "tsar", fileName: "all_combined.tsv", bytes: enc(combined) });
    expect(r.instancesAdded).toBe(2);
    const p = listProjects(db, coord).find((x) => x.name === "multi")!;
    expect(db.$client.prepare("select language from projects where id = ?").get(p.id)).toEqual({ language: "mul" });
    expect(exportDataset(db, coord, p.id, "tsar").text).toBe(combined);
    importDatasetAsNewProject(db, coord, "de-only", { format: "tsar", fileName: "all_combined.tsv", bytes: enc(combined), onlyLanguage: "de" });
    const de = listProjects(db, coord).find((x) => x.name === "de-only")!;
    expect(db.$client.prepare("select language from projects where id = ?").get(de.id)).toEqual({ language: "de" });
  });

  it("refuses a complexity-prediction file saying what it is, and writes nothing", () => {
    const { db, coord, project } = projectFixture();
    const lcp = "en_31\tenglish\tThe lantern flickered.\tlantern\nde_31\tgerman\tDer Weg war steinig.\tWeg\n";
    expect(() => importDataset(db, coord, project.id, { format: "tsar", fileName: "lcp_unlabelled.tsv", bytes: enc(lcp) })).toThrow(/^lcp_unlabelled\.tsv: file: an MLSP 2024 complexity-prediction \(LCP\) file, not a substitution file/);
    expect(corpusCounts(db).instances).toBe(0);
  });
});
