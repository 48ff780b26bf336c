import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { projectOverview } from "../../../lib/server/corpus/projects";
import { actorFor, corpusCounts, projectFixture } from "../../support/db";
import { describeWithSharedData } from "../../support/shared-data";

const shared = path.resolve(__dirname, "../../../../shared/data/semeval2007");
const enc = (s: string) => new TextEncoder().encode(s);
const corpus = (instances: string, item = "bank.n") =>
  `<?xml version="1.0"?>\n<corpus lang="english">\n<lexelt item="${item}">\n${instances}\n</lexelt>\n</corpus>\n`;
const inst = (id: string, ctx: string) => `<instance id="${id}"><context>${ctx}</context></instance>`;
const good = corpus([inst("1", "the <head>bank</head> of the river"), inst("2", "a <head>bank</head> loan")].join("\n"));

describe("importLexeltXml", () => {
  it("imports, and a second import of the same file adds nothing and says so", () => {
    const { db, coord, project } = projectFixture();
    const first = importLexeltXml(db, coord, project.id, { fileName: "a.xml", bytes: enc(good) });
    expect(first).toMatchObject({ instancesAdded: 2, lexeltsAdded: 1, instancesAlreadyPresent: 0 });
    const again = importLexeltXml(db, coord, project.id, { fileName: "a.xml", bytes: enc(good) });
    expect(again).toMatchObject({ instancesAdded: 0, lexeltsAdded: 0, instancesAlreadyPresent: 2 });
    expect(again.message).toMatch(/all 2 already in the project; nothing added/);
    expect(corpusCounts(db)).toMatchObject({ lexelts: 1, instances: 2 });
    const o = projectOverview(db, coord, project.id);
    expect(o.lexelts.map((l) => [l.item, l.instances])).toEqual([["bank.n", 2]]);
  });

  const refused: Array<[string, Uint8Array, RegExp]> = [
    ["a missing head", enc(corpus(inst("9", "no target"))), /bad\.xml:4: .*instance "9" has no <head>/],
    ["two heads", enc(corpus(inst("9", "<head>a</head><head>b</head>"))), /instance "9" has 2 <head>/],
    ["a repeated id", enc(corpus(inst("9", "<head>a</head>") + "\n" + inst("9", "<head>b</head>"))), /bad\.xml:5: .*instance id "9" is repeated/],
    ["a truncated file", enc(good.slice(0, 120)), /bad\.xml:\d+: error: the file ends at line \d+ .*: is it truncated\? Nothing was imported\.$/],
    ["binary bytes", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00, 0x01]), /bad\.xml:1: error: not UTF-8 text: NUL bytes/],
    [
      "an external entity",
      enc(`<?xml version="1.0"?>\n<!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<corpus/>`),
      /bad\.xml:2: .*declares entities/,
    ],
  ];
  it.each(refused)("refuses %s, names the line, and writes nothing", (_n, bytes, message) => {
    const { db, coord, project } = projectFixture();
    importLexeltXml(db, coord, project.id, { fileName: "ok.xml", bytes: enc(good) });
    const before = corpusCounts(db);
    expect(() => importLexeltXml(db, coord, project.id, { fileName: "bad.xml", bytes })).toThrow(message);
    expect(corpusCounts(db)).toEqual(before);
  });

  it("refuses an id already in the project with other text, writing nothing of the file", () => {
    const { db, coord, project } = projectFixture();
    importLexeltXml(db, coord, project.id, { fileName: "a.xml", bytes: enc(good) });
    const before = corpusCounts(db);
    const other = corpus([inst("3", "new <head>bank</head>"), inst("2", "changed <head>bank</head>")].join("\n"));
    expect(() => importLexeltXml(db, coord, project.id, { fileName: "b.xml", bytes: enc(other) })).toThrow(
      /b\.xml:5: instance id "2" is already in the project/,
    );
    expect(corpusCounts(db)).toEqual(before);
  });

  it("refuses uploads over the configured size before parsing", () => {
    const { db, coord, project } = projectFixture();
    process.env.LEXGOLD_MAX_IMPORT_BYTES = "100";
    try {
      expect(() => importLexeltXml(db, coord, project.id, { fileName: "big.xml", bytes: enc(good) })).toThrow(/over the import limit of 100 bytes/);
    } finally {
      delete process.env.LEXGOLD_MAX_IMPORT_BYTES;
    }
    expect(corpusCounts(db).instances).toBe(0);
  });

  it("is refused to annotators, strangers and the signed-out", () => {
    const { db, ann, project } = projectFixture();
    const stranger = actorFor(db, "other", "coordinator");
    expect(() => importLexeltXml(db, ann, project.id, { fileName: "a.xml", bytes: enc(good) })).toThrow(AuthError);
    expect(() => importLexeltXml(db, stranger, project.id, { fileName: "a.xml", bytes: enc(good) })).toThrow(NotFoundError);
    expect(() => importLexeltXml(db, null, project.id, { fileName: "a.xml", bytes: enc(good) })).toThrow(AuthError);
    expect(corpusCounts(db).instances).toBe(0);
  });

  it("reports errors as InputError with every diagnostic", () => {
    const { db, coord, project } = projectFixture();
    const bad = corpus([inst("1", "x"), inst("2", "y")].join("\n"));
    try {
      importLexeltXml(db, coord, project.id, { fileName: "bad.xml", bytes: enc(bad) });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).details).toHaveLength(2);
    }
  });
});

/** Two lexelt documents joined as orenmel/lexsub's lst_all.xml joins the trial and test files (issue #40). */
const docOne = `<?xml version="1.0" ?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n\n<corpus lang="english">\n<lexelt item="lamp.n">\n${inst("1", "a <head>lamp</head> on the desk")}\n</lexelt>\n</corpus>`;
const docTwo = (ctx: string) =>
  `<?xml version="1.0" ?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n\n<corpus lang="english">\n<lexelt item="kettle.n">\n${inst("2", ctx)}\n${inst("3", "a <head>kettle</head> sang")}\n</lexelt>\n</corpus>\n`;
const bytesOf = (...parts: Array<string | number[]>) => {
  const chunks = parts.map((p) => (typeof p === "string" ? enc(p) : new Uint8Array(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) (out.set(c, at), (at += c.length));
  return out;
};

describe("importLexeltXml: a released file with a few odd bytes and documents (#40)", () => {
  it("imports two documents one after another, reading a stray Windows-1252 byte in a context, every repair in one report", () => {
    const { db, coord, project } = projectFixture();
    // Line 12 holds "Zo<0xEB> put the <head>kettle</head> on": one byte that is no UTF-8 (Windows-1252's ë).
    const head = `${docOne}<?xml version="1.0" ?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n\n<corpus lang="english">\n<lexelt item="kettle.n">\n<instance id="2"><context>Zo`;
    const file = bytesOf(head, [0xeb], ` put the <head>kettle</head> on</context></instance>\n${inst("3", "a <head>kettle</head> sang")}\n</lexelt>\n</corpus>\n`);
    const report = importLexeltXml(db, coord, project.id, { fileName: "all.xml", bytes: file });
    expect([report.instancesAdded, report.lexeltsAdded]).toEqual([3, 2]);
    expect(report.repairs.map((r) => [r.line, r.message])).toEqual([
      [2, expect.stringMatching(/^ignored the DOCTYPE naming "lexsub.dtd"/)],
      [8, expect.stringMatching(/^a second XML document begins here .*: repaired: read as the next part of the corpus$/)],
      [9, expect.stringMatching(/^ignored the DOCTYPE naming "lexsub.dtd"/)],
      [13, `byte 0xEB at byte offset ${enc(head).length} is not UTF-8: repaired: read as "ë" (Windows-1252)`],
    ]);
    expect(report.message).toMatch(/3 instances in 2 lexelts; added 3 instances and 2 lexelts; 4 repairs\.$/);
    const o = projectOverview(db, coord, project.id);
    expect(o.lexelts.map((l) => [l.item, l.instances])).toEqual([["lamp.n", 1], ["kettle.n", 2]]);
    const row = db.$client.prepare("select before from instances where instance_id = '2'").get() as { before: string };
    expect(row.before).toBe("Zoë put the ");
  });

  it("says 1 instance, 1 lexelt and 1 repair in the singular", () => {
    const { db, coord, project } = projectFixture();
    const one = `<?xml version="1.0"?>\n<!DOCTYPE corpus SYSTEM "x.dtd">\n<corpus lang="english">\n<lexelt item="bank.n">\n${inst("1", "the <head>bank</head>")}\n</lexelt>\n</corpus>\n`;
    expect(importLexeltXml(db, coord, project.id, { fileName: "one.xml", bytes: enc(one) }).message).toBe(
      "one.xml: 1 instance in 1 lexelt; added 1 instance and 1 lexelt; 1 repair.",
    );
  });

  it("refuses a file that is mostly not UTF-8 (another encoding), naming the first bad byte's line, and writes nothing", () => {
    const { db, coord, project } = projectFixture();
    const latin1 = Array.from({ length: 12 }, (_, k) => inst(`l${k}`, `caf\u0000 <head>bank</head> cr\u0000me`)).join("\n");
    const bytes = bytesOf(...corpus(latin1).split("\u0000").flatMap((part, k) => (k === 0 ? [part] : [[0xe9], part])));
    expect(() => importLexeltXml(db, coord, project.id, { fileName: "l1.xml", bytes })).toThrow(/^l1\.xml:4: error: not UTF-8 text: 24 bytes are not UTF-8 .*another encoding/);
    expect(corpusCounts(db).instances).toBe(0);
  });

  it("lists every problem of the file at once: a byte no encoding reads, and a missing head in the second document", () => {
    const { db, coord, project } = projectFixture();
    const [before, after] = docOne.replace("a <head>lamp", "a\u0000 <head>lamp").split("\u0000");
    const file = bytesOf(before, [0x81], after, docTwo("no target here"));
    try {
      importLexeltXml(db, coord, project.id, { fileName: "two.xml", bytes: file });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).details).toEqual([
        expect.stringMatching(/^two\.xml:6: error: byte 0x81 at byte offset \d+ is not UTF-8, and Windows-1252 assigns it no letter/),
        expect.stringMatching(/^two\.xml:13: error: instance "2" has no <head>/),
      ]);
    }
    expect(corpusCounts(db).instances).toBe(0);
  });
});

describeWithSharedData(shared, "importing the task's own files", () => {
  it("imports trial (300 / 34) and test (1710 / 171) into one project", () => {
    const { db, coord, project } = projectFixture();
    const trial = importLexeltXml(db, coord, project.id, {
      fileName: "lexsub_trial.xml",
      bytes: readFileSync(path.join(shared, "trial/lexsub_trial.xml")),
    });
    expect([trial.instancesAdded, trial.lexeltsAdded]).toEqual([300, 34]);
    expect(trial.repairs.length).toBeGreaterThan(0);
    const test = importLexeltXml(db, coord, project.id, {
      fileName: "lexsub_test.xml",
      bytes: readFileSync(path.join(shared, "test/lexsub_test.xml")),
    });
    expect([test.instancesInFile, test.lexeltsInFile, test.instancesAdded]).toEqual([1710, 171, 1710]);
    expect(corpusCounts(db).instances).toBe(2010);
  });
});

describe("projectOverview", () => {
  it("gives one page of the lexelts matching a search, in corpus order, with the counts of all", () => {
    const { db, coord, project } = projectFixture();
    const items = ["bank.n", "Bright.a", "bright_side.n", "brisk.a", "calm.a", "50%.n"];
    const xml = items.map((item, k) => `<lexelt item="${item}">\n${inst(`${k}a`, `x <head>w</head> y`)}\n${k % 2 ? inst(`${k}b`, "z <head>w</head>") : ""}\n</lexelt>`);
    importLexeltXml(db, coord, project.id, { fileName: "o.xml", bytes: enc(`<?xml version="1.0"?>\n<corpus lang="english">\n${xml.join("\n")}\n</corpus>\n`) });
    const all = projectOverview(db, coord, project.id);
    expect(all.lexelts.map((l) => l.item)).toEqual(items);
    expect([all.lexeltCount, all.matched, all.page, all.pages, all.totalInstances]).toEqual([6, 6, 1, 1, 9]);
    // "bri" in either case; two a page: page 2 holds the third match; past the end, the last page.
    const p2 = projectOverview(db, coord, project.id, { q: "BRI", page: 2, pageSize: 2 });
    expect(p2.lexelts.map((l) => l.item)).toEqual(["brisk.a"]);
    expect([p2.lexeltCount, p2.matched, p2.page, p2.pages, p2.totalInstances]).toEqual([6, 3, 2, 2, 9]);
    expect(projectOverview(db, coord, project.id, { q: "bri", page: 9, pageSize: 2 }).page).toBe(2);
    // LIKE's wildcards are taken as themselves.
    expect(projectOverview(db, coord, project.id, { q: "_" }).lexelts.map((l) => l.item)).toEqual(["bright_side.n"]);
    expect(projectOverview(db, coord, project.id, { q: "%" }).lexelts.map((l) => l.item)).toEqual(["50%.n"]);
    expect(projectOverview(db, coord, project.id, { q: "zzz", pageSize: 2 })).toMatchObject({ lexelts: [], matched: 0, page: 1, pages: 1 });
  });
});
