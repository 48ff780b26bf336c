import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatLexeltXml, parseLexeltXml } from "../../lib/lexsub/formats/lexelt";
import { describeWithSharedData } from "../support/shared-data";

const shared = path.resolve(__dirname, "../../../shared/data/semeval2007");

const wrap = (body: string) => `<?xml version="1.0"?>\n<corpus lang="english">\n${body}\n</corpus>\n`;
const one = (ctx: string, id = "1", item = "bank.n") =>
  wrap(`<lexelt item="${item}">\n<instance id="${id}">\n<context>${ctx}</context>\n</instance>\n</lexelt>`);

describe("parseLexeltXml: well-formed input", () => {
  it("splits the context into before, head and after exactly", () => {
    const r = parseLexeltXml(one("We sat on the  <head>bank</head> of the river ."), "a.xml");
    expect(r.errors).toEqual([]);
    expect(r.corpus!.lexelts[0]).toMatchObject({ item: "bank.n", lemma: "bank", pos: "n", originalPos: null, line: 3 });
    expect(r.corpus!.lexelts[0].instances[0]).toEqual({
      id: "1",
      before: "We sat on the  ",
      head: "bank",
      after: " of the river .",
      line: 4,
    });
  });

  it("keeps a corrected item verbatim and splits its parts", () => {
    const r = parseLexeltXml(one("They <head>stand</head> up .", "7", "stand.n.v"), "a.xml");
    expect(r.corpus!.lexelts[0]).toMatchObject({ item: "stand.n.v", lemma: "stand", originalPos: "n", pos: "v" });
  });

  it("decodes predefined entities and numeric references", () => {
    const r = parseLexeltXml(one("Tom &amp; Jerry &#8220;<head>ran</head>&#x201D; &lt;fast&gt; &apos;ok&apos;"), "a.xml");
    const i = r.corpus!.lexelts[0].instances[0];
    expect(i.before).toBe("Tom & Jerry \u201C");
    expect(i.after).toBe("\u201D <fast> 'ok'");
  });

  it("keeps ids as strings, never numbers", () => {
    const r = parseLexeltXml(one("a <head>b</head>", "007"), "a.xml");
    expect(r.corpus!.lexelts[0].instances[0].id).toBe("007");
  });

  it("repairs `&#NNNN ;` and lists each repair with its line, and ignores an external DTD", () => {
    const text = `<?xml version="1.0"?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n<corpus lang="english">\n<lexelt item="x.n">\n<instance id="1">\n<context>&#8220;a <head>x</head>&#8221 ; b&#8221\t; .</context>\n</instance>\n</lexelt>\n</corpus>\n`;
    const r = parseLexeltXml(text, "t.xml");
    expect(r.errors).toEqual([]);
    expect(r.repairs.map((d) => [d.line, d.message.slice(0, 20)])).toEqual([
      [2, "ignored the DOCTYPE "],
      [6, 'repaired "&#8221 ;" '],
      [6, 'repaired "&#8221\t;" '],
    ]);
    expect(r.corpus!.lexelts[0].instances[0].after).toBe("\u201D b\u201D .");
  });

  it("reads CRLF files like LF files", () => {
    const r = parseLexeltXml(one("a <head>b</head> c").replace(/\n/g, "\r\n"), "a.xml");
    expect(r.corpus!.lexelts[0].instances[0]).toMatchObject({ before: "a ", after: " c", line: 4 });
  });

  it("round-trips through formatLexeltXml", () => {
    const r = parseLexeltXml(one(`x &amp; "y" <head>z</head> <w>`.replace("<w>", "&lt;w&gt;")), "a.xml");
    const again = parseLexeltXml(formatLexeltXml(r.corpus!), "b.xml");
    const strip = (c: typeof r.corpus) => c!.lexelts.map((l) => ({ ...l, line: 0, instances: l.instances.map((i) => ({ ...i, line: 0 })) }));
    expect(strip(again.corpus)).toEqual(strip(r.corpus));
  });
});

describe("parseLexeltXml: refused input names the line and the problem", () => {
  const cases: Array<[string, string, number, RegExp]> = [
    ["no head", one("no target here"), 4, /instance "1" has no <head>/],
    ["two heads", one("<head>a</head> and <head>b</head>"), 4, /instance "1" has 2 <head> elements/],
    ["empty head", one("a <head> </head> b"), 4, /<head> of instance "1" is empty/],
    [
      "repeated id",
      wrap(`<lexelt item="a.n">\n<instance id="5"><context><head>a</head></context></instance>\n<instance id="5"><context><head>a</head></context></instance>\n</lexelt>`),
      5,
      /instance id "5" is repeated \(first at line 4\)/,
    ],
    ["truncated in a tag", one("a <head>b</head> c").slice(0, 80), 4, /^the file ends at line 4 in the middle of the tag <instance, inside <lexelt item="bank.n"> \(line 3\): is it truncated\?$/],
    [
      "truncated in a context",
      one("a <head>b</head> c").slice(0, one("a <head>b</head> c").indexOf(" c<")),
      5,
      /^the file ends at line 5 inside <context> \(line 5\) of <instance id="1"> \(line 4\): is it truncated\?$/,
    ],
    ["truncated in a comment", wrap("<!-- a comment\nthat goes on"), 5, /^the file ends at line 5 in the middle of a comment opened at line 3, inside <corpus> \(line 2\): is it truncated\?$/],
    // Not a truncation: an element closed by the wrong tag is the parser's to name.
    ["unclosed tag", one("a <head>b c"), 5, /not well-formed XML/],
    ["bad item", one("a <head>b</head>", "1", "bank"), 3, /lexelt item "bank" is not of the form/],
    ["unknown entity", one("a &nbsp; <head>b</head>"), 5, /entity "&nbsp;" is not allowed/],
    ["bare ampersand", one("salt & pepper <head>b</head>"), 5, /"&" is not a complete reference/],
    ["unfinished numeric reference", one("a &#8221 <head>b</head>"), 5, /"&#8221" is not a complete reference/],
    ["invalid character reference", one("a &#1; <head>b</head>"), 5, /not a character XML allows/],
    ["wrong root", `<?xml version="1.0"?>\n<lexelts/>\n`, 2, /root element must be <corpus>/],
    ["empty corpus", wrap(""), 1, /no <lexelt> elements/],
    ["empty file", "   \n", 0, /empty/],
    ["binary", "\u0000\u0001\u0002PK", 1, /binary/],
    [
      "XXE",
      `<?xml version="1.0"?>\n<!DOCTYPE corpus [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n<corpus><lexelt item="a.n"><instance id="1"><context>&xxe;<head>a</head></context></instance></lexelt></corpus>`,
      3,
      /DOCTYPE declares entities/,
    ],
    [
      "entity bomb",
      `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<corpus/>`,
      2,
      /DOCTYPE declares entities/,
    ],
    ["markup in context", one("a <b>bold</b> <head>c</head>"), 4, /has <b> in its context/],
  ];
  it.each(cases)("%s", (_name, text, line, message) => {
    const r = parseLexeltXml(text, "bad.xml");
    expect(r.corpus).toBeNull();
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0].file).toBe("bad.xml");
    if (line > 0) expect(r.errors[0].line).toBe(line);
    expect(r.errors[0].message).toMatch(message);
  });

  it("a file cut short anywhere inside <corpus> is refused as truncated, at the line it ends on", () => {
    const full = one("a <!-- note --> <head>b</head> c");
    const bodyEnd = full.indexOf("</corpus>");
    for (let cut = full.indexOf("<corpus") + 8; cut < bodyEnd; cut++) {
      const text = full.slice(0, cut);
      const r = parseLexeltXml(text, "cut.xml");
      expect(r.corpus, `cut at ${cut}`).toBeNull();
      expect(r.errors[0].message, `cut at ${cut}: ${JSON.stringify(text.slice(-20))}`).toMatch(/^the file ends at line \d+ .*: is it truncated\?$/);
      expect(r.errors[0].line).toBe(text.trimEnd().split("\n").length);
    }
  });

  it("refuses text over the size limit before parsing", () => {
    const r = parseLexeltXml(one("a <head>b</head>"), "big.xml", { maxBytes: 10 });
    expect(r.corpus).toBeNull();
    expect(r.errors[0].message).toMatch(/over the limit of 10/);
  });
});

describeWithSharedData(shared, "parseLexeltXml on the task's own files", () => {
  it.each([
    ["trial/lexsub_trial.xml", 300, 34],
    ["test/lexsub_test.xml", 1710, 171],
  ])("%s: %i instances in %i lexelts", (file, nInstances, nLexelts) => {
    const text = readFileSync(path.join(shared, file), "utf8");
    const r = parseLexeltXml(text, file);
    expect(r.errors).toEqual([]);
    expect(r.corpus!.lexelts).toHaveLength(nLexelts);
    expect(r.corpus!.lexelts.reduce((s, l) => s + l.instances.length, 0)).toBe(nInstances);
    // Every `&#NNNN ;` in the file is listed as a repair on its own line.
    const broken = [...text.matchAll(/&#\d+ ;/g)].map((m) => text.slice(0, m.index).split("\n").length);
    expect(r.repairs.filter((d) => d.message.startsWith("repaired")).map((d) => d.line)).toEqual(broken);
    // head + before + after rebuild the context text of the file (references decoded).
    for (const lx of r.corpus!.lexelts) for (const i of lx.instances) expect(i.head.trim()).not.toBe("");
  });

  it("trial: four targets also appear under a corrected PoS", () => {
    const r = parseLexeltXml(readFileSync(path.join(shared, "trial/lexsub_trial.xml"), "utf8"), "trial");
    const corrected = r.corpus!.lexelts.filter((l) => l.originalPos !== null);
    expect(corrected).toHaveLength(4);
    expect(new Set(r.corpus!.lexelts.map((l) => `${l.lemma}`)).size).toBe(30);
    expect(corrected.find((l) => l.item === "stand.n.v")!.instances.map((i) => i.id)).toContain("131");
  });
});
