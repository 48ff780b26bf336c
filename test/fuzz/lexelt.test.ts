/**
 * Fuzzing the lexelt XML reader and importer: whatever the text, the reader
 * returns a corpus or errors that name a line of the file, a corpus it returns
 * survives a write-and-read round trip, and a refused import leaves the
 * database exactly as it was.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatLexeltXml, parseLexeltXml } from "../../lib/lexsub/formats/lexelt";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { InputError } from "../../lib/server/kernel/errors";
import { projectFixture } from "../support/db";
import { RUNS, inputs, lineCount, mutation, applyMutation } from "./mutate";

const SAMPLES = [
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE corpus SYSTEM "lexsub.dtd">
<corpus lang="english">
<lexelt item="bright.a">
<instance id="1">
<context>The sky was <head>bright</head> and clear &#8221 ; she said.</context>
</instance>
<instance id="2">
<context>A <head>bright</head> child &amp; a dull one.</context>
</instance>
</lexelt>
<lexelt item="stand.n.v">
<instance id="3">
<context><head>stand</head> by me</context>
</instance>
</lexelt>
</corpus>
`,
  `<corpus lang="english"><lexelt item="coat.n"><instance id="c1"><context>a warm <head>coat</head> &lt;new&gt; &#x201C;so&#x201D; &apos;it&apos; &quot;is&quot;</context></instance></lexelt></corpus>`,
  `<?xml version="1.0"?>
<corpus lang="english">
  <!-- a comment with & and < in it -->
  <lexelt item="run.v">
    <instance id="r 1"><context>They <head>ran</head> off.<![CDATA[ raw & text ]]></context></instance>
    <instance id="r2"><context>
      Over several
      lines the <head>run</head> goes on.
    </context></instance>
  </lexelt>
  <lexelt item="run.n">
    <instance id="r3"><context>A long <head>run</head>.</context></instance>
  </lexelt>
</corpus>
`,
  "\ufeff<?xml version=\"1.0\"?>\r\n<corpus lang=\"english\">\r\n<lexelt item=\"café.n\">\r\n<instance id=\"é1\"><context>Un <head>café</head> 😀 noir</context></instance>\r\n</lexelt>\r\n</corpus>\r\n",
];

const PIECES = [
  "<corpus>",
  '<corpus lang="english">',
  "</corpus>",
  '<lexelt item="a.n">',
  '<lexelt item="b.v.n">',
  "<lexelt>",
  "</lexelt>",
  '<instance id="1">',
  '<instance id="2">',
  "<instance>",
  "</instance>",
  "<context>",
  "</context>",
  "<head>",
  "</head>",
  "<head/>",
  "word",
  " ",
  "&#8221 ;",
  "&amp;",
  '<?xml version="1.0"?>',
];

/** A parse error must name a line of the file; only whole-file problems may not. */
const WHOLE_FILE = /^the file is empty$|is over the limit of/;

function checkDiagnostics(text: string, r: ReturnType<typeof parseLexeltXml>) {
  const lines = lineCount(text);
  expect(r.corpus === null).toBe(r.errors.length > 0);
  for (const e of r.errors) {
    expect(e).toMatchObject({ severity: "error", file: "f.xml" });
    expect(e.message.length).toBeGreaterThan(0);
    if (!WHOLE_FILE.test(e.message)) {
      expect(e.line, e.message).toBeGreaterThanOrEqual(1);
      expect(e.line, e.message).toBeLessThanOrEqual(lines);
    }
  }
  for (const w of r.repairs) {
    expect(w.severity).toBe("warning");
    expect(w.line).toBeGreaterThanOrEqual(1);
    expect(w.line).toBeLessThanOrEqual(lines);
  }
}

function comparable(c: NonNullable<ReturnType<typeof parseLexeltXml>["corpus"]>) {
  return {
    lang: c.lang,
    lexelts: c.lexelts.map((l) => ({
      item: l.item,
      lemma: l.lemma,
      pos: l.pos,
      originalPos: l.originalPos,
      instances: l.instances.map((i) => ({ id: i.id, before: i.before, head: i.head, after: i.after })),
    })),
  };
}

describe("fuzz: parseLexeltXml", () => {
  it("reads every sample", () => {
    for (const s of SAMPLES) expect(parseLexeltXml(s, "f.xml").errors).toEqual([]);
  });

  it("returns a corpus or errors naming a line of the file, never throws", () => {
    fc.assert(
      fc.property(inputs(SAMPLES, PIECES), (text) => {
        checkDiagnostics(text, parseLexeltXml(text, "f.xml"));
      }),
      { numRuns: RUNS },
    );
  });

  it("writes back every corpus it reads so that it reads the same again", () => {
    fc.assert(
      fc.property(inputs(SAMPLES, PIECES), (text) => {
        const r = parseLexeltXml(text, "f.xml");
        if (!r.corpus) return;
        for (const l of r.corpus.lexelts) for (const i of l.instances) expect(i.head.trim()).not.toBe("");
        const again = parseLexeltXml(formatLexeltXml(r.corpus), "g.xml");
        expect(again.errors).toEqual([]);
        expect(comparable(again.corpus!)).toEqual(comparable(r.corpus));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fuzz: importLexeltXml", () => {
  const enc = new TextEncoder();
  /** Text bytes, or the UTF-8 of a sample with raw bytes spliced in (invalid UTF-8, binary). */
  const bytes = fc.oneof(
    { weight: 4, arbitrary: inputs(SAMPLES, PIECES).map((t) => enc.encode(t)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...SAMPLES), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 }))
        .map(([s, at, raw]) => {
          const b = enc.encode(s);
          const i = at % (b.length + 1);
          const out = new Uint8Array(b.length + raw.length);
          out.set(b.subarray(0, i));
          out.set(raw, i);
          out.set(b.subarray(i), i + raw.length);
          return out;
        }),
    },
  );

  it("imports, or refuses naming the file (and the line, for a parse error) and writes nothing", () => {
    const { db, coord, project } = projectFixture();
    const dump = () =>
      ["lexelts", "instances", "imports"].map((t) => JSON.stringify(db.$client.prepare(`select * from ${t} order by id`).all())).join("\n");
    // Something already in the project, so re-imports and conflicting ids are reached too.
    importLexeltXml(db, coord, project.id, { fileName: "f.xml", bytes: enc.encode(SAMPLES[0]) });
    let imported = 0;
    let refused = 0;
    fc.assert(
      fc.property(bytes, (b) => {
        const before = dump();
        const count = (db.$client.prepare("select count(*) as n from instances").get() as { n: number }).n;
        let report: ReturnType<typeof importLexeltXml>;
        try {
          report = importLexeltXml(db, coord, project.id, { fileName: "f.xml", bytes: b });
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
          const m = (e as InputError).message;
          expect(m).toMatch(/^f\.xml(:\d+)?: /);
          if (!/^f\.xml: (error: )?(the file is empty|.* is over the (import )?limit)/.test(m)) expect(m, m).toMatch(/^f\.xml:[1-9]\d*: /);
          // "…; nothing was imported." — or, after a question ("is it truncated?"), "… Nothing was imported."
          expect(m).toMatch(/(; n|\? N)othing was imported\.$/);
          expect(dump()).toBe(before);
          refused++;
          return;
        }
        imported++;
        const now = (db.$client.prepare("select count(*) as n from instances").get() as { n: number }).n;
        expect(now).toBe(count + report.instancesAdded);
        expect(report.instancesAdded + report.instancesAlreadyPresent).toBe(report.instancesInFile);
      }),
      { numRuns: RUNS },
    );
    // Both outcomes were exercised.
    expect(imported).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("refuses a file whose mutation breaks one instance, naming that line", () => {
    // Removing the <head> of one instance in a well-formed file must name that instance's line.
    fc.assert(
      fc.property(fc.nat(), mutation, (k, m) => {
        const lines = SAMPLES[0].split("\n");
        const heads = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes("<head>"));
        const [line, i] = heads[k % heads.length];
        lines[i] = line.replace(/<head>(.*?)<\/head>/, "$1");
        const text = lines.join("\n");
        const r = parseLexeltXml(text, "f.xml");
        expect(r.errors.length).toBe(1);
        // The <instance> tag sits on the line before its context.
        expect(r.errors[0].line).toBe(i);
        expect(r.errors[0].message).toMatch(/has no <head>/);
        checkDiagnostics(applyMutation(text, m), parseLexeltXml(applyMutation(text, m), "f.xml"));
      }),
      { numRuns: 50 },
    );
  });
});

/** Bugs the fuzzing found, kept as plain regression tests. */
describe("lexelt reader: regressions found by fuzzing", () => {
  const file = (mid: string) =>
    `<?xml version="1.0"?>\n<corpus lang="english">\n<lexelt item="a.n">\n<instance id="1"><context>a <head>b</head> c</context></instance>\n${mid}\n</lexelt>\n</corpus>\n`;

  it("reads a file with a byte-order mark before its XML declaration", () => {
    const r = parseLexeltXml("\ufeff" + file(""), "f.xml");
    expect(r.errors).toEqual([]);
    expect(r.corpus?.lexelts[0].instances[0]).toMatchObject({ id: "1", head: "b", line: 4 });
  });

  it.each([
    ["a processing instruction that never closes", file('<?pi x="unclosed ?>'), /not well-formed XML: Pi Tag is not closed/],
    ["an element named __proto__", file('<instance id="2"><context><head>b</head> <__proto__>x</__proto__></context></instance>'), /the name "__proto__" is not allowed/],
    ["an attribute named constructor", file('<instance id="2" constructor="x"><context><head>b</head></context></instance>'), /the name "constructor" is not allowed/],
    ["elements nested 120 deep", file(`<instance id="2"><context>${"<x>".repeat(120)}${"</x>".repeat(120)}</context></instance>`), /Maximum nested tags exceeded/],
  ])("names the line of %s (the parser refuses what the validator let through)", (_name, text, message) => {
    const r = parseLexeltXml(text, "f.xml");
    expect(r.corpus).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].line).toBe(5);
    expect(r.errors[0].message).toMatch(message);
  });

  it.each([
    ["unclosed comments", "<!--"],
    ["unclosed processing instructions", "<?x "],
    ["unclosed CDATA sections", "<![CDATA["],
  ])("refuses a megabyte of %s (it was quadratic: a minute; timed by npm run bench:parsers)", (_name, fragment) => {
    const r = parseLexeltXml(`<corpus>\n${fragment.repeat(1_000_000 / fragment.length)}\n</corpus>\n`, "f.xml");
    expect(r.corpus).toBeNull();
    expect(r.errors[0].line).toBeGreaterThanOrEqual(1);
  });

  it("writes a carriage return as a reference, so it reads back as written", () => {
    const r = parseLexeltXml(file('<instance id="2&#9;x"><context>one&#13;\ntwo <head>b</head>&#13;</context></instance>'), "f.xml");
    const inst = r.corpus!.lexelts[0].instances[1];
    expect(inst).toMatchObject({ id: "2\tx", before: "one\r\ntwo ", after: "\r" });
    const again = parseLexeltXml(formatLexeltXml(r.corpus!), "g.xml");
    expect(again.corpus!.lexelts[0].instances[1]).toMatchObject({ id: "2\tx", before: "one\r\ntwo ", after: "\r" });
  });
});
