/**
 * Fuzzing the responses TSV reader and importer: whatever the text, the reader
 * returns responses or errors naming a line, what it reads writes back and
 * reads the same, and an import either goes through or is refused with the
 * file and line and leaves the database exactly as it was.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseResponsesTsv, writeResponsesTsv } from "../../lib/lexsub/formats/responses";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { InputError } from "../../lib/server/kernel/errors";
import { importResponses } from "../../lib/server/annotate/response-import";
import { addMember } from "../../lib/server/people/users";
import { actorFor, projectFixture } from "../support/db";
import { RUNS, inputs, lineCount } from "./mutate";

const SAMPLES = [
  [
    "annotator\tlexelt\tinstance\tanswer\tmultiword",
    "ann\tbright.a\t1\tclever;smart;intelligent\t",
    "ann\tbright.a\t2\tNAME\t",
    "ann\tstand.n.v\t3\tbooth\tstand by",
    "bob\tbright.a\t1\tNIL",
    "bob\tbright.a\t2\tshining;vivid\tbright spark",
    "",
  ].join("\n"),
  "ann\tbright.a\t1\tclever\r\nbob\tstand.n.v\t3\tstall;kiosk\t\r\n",
  "\ufeffannotator\tlexelt\tid\tanswer\nann\tbright.a\t2\tlight;gleaming\n\nbob\tbright.a\t1\tbrainy\n",
];

const PIECES = ["ann", "bob", "carol", "coord", "bright.a", "stand.n.v", "1", "2", "3", "99", "\t", "\t", "\t", "clever", ";", "NAME", "NIL", "stand by", "annotator", "id"];

const CORPUS = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a">
<instance id="1"><context>a <head>bright</head> child</context></instance>
<instance id="2"><context>a <head>bright</head> light</context></instance>
</lexelt>
<lexelt item="stand.n.v">
<instance id="3"><context>a market <head>stand</head></context></instance>
</lexelt>
</corpus>
`;

/** Errors name a line of the file; only the summary of errors not listed may not. */
function checkDiagnostics(text: string, r: ReturnType<typeof parseResponsesTsv>) {
  const n = lineCount(text);
  for (const d of r.diagnostics) {
    expect(d.file).toBe("r.tsv");
    if (d.line === 0) expect(d.message).toMatch(d.severity === "error" ? /more errors not listed/ : /lines end in CRLF/);
    else {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.line).toBeLessThanOrEqual(n);
    }
  }
  for (const res of r.responses) {
    expect(res.line).toBeGreaterThanOrEqual(1);
    expect(res.line).toBeLessThanOrEqual(n);
  }
}

describe("fuzz: parseResponsesTsv", () => {
  it("reads every sample", () => {
    for (const s of SAMPLES) expect(parseResponsesTsv(s, "r.tsv").diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("returns responses or errors naming a line, never throws", () => {
    fc.assert(
      fc.property(inputs(SAMPLES, PIECES), (text) => checkDiagnostics(text, parseResponsesTsv(text, "r.tsv"))),
      { numRuns: RUNS },
    );
  });

  it("writes back what it reads so that it reads the same again", () => {
    fc.assert(
      fc.property(inputs(SAMPLES, PIECES), (text) => {
        const r = parseResponsesTsv(text, "r.tsv");
        if (r.diagnostics.some((d) => d.severity === "error")) return;
        const again = parseResponsesTsv(writeResponsesTsv(r.responses), "w.tsv");
        expect(again.diagnostics).toEqual([]);
        const strip = (rs: typeof r.responses) => rs.map(({ line: _line, ...rest }) => rest);
        expect(strip(again.responses)).toEqual(strip(r.responses));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fuzz: importResponses", () => {
  it("imports, or refuses naming the file and line, and writes nothing", () => {
    const { db, coord, project } = projectFixture();
    importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(CORPUS) });
    actorFor(db, "bob", "annotator");
    addMember(db, coord, project.id, "bob");
    actorFor(db, "carol", "annotator"); // not a member
    const dump = () =>
      ["responses", "response_history"].map((t) => JSON.stringify(db.$client.prepare(`select * from ${t} order by id`).all())).join("\n");
    let imported = 0;
    let refused = 0;
    fc.assert(
      fc.property(inputs(SAMPLES, PIECES), (text) => {
        const before = dump();
        const history = (db.$client.prepare("select count(*) as n from response_history").get() as { n: number }).n;
        let report: ReturnType<typeof importResponses>;
        try {
          report = importResponses(db, coord, project.id, { fileName: "r.tsv", text });
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
          const err = e as InputError;
          expect(err.message).toMatch(/nothing was imported\.$/);
          if (/no responses in the file/.test(err.message)) expect(err.message).toMatch(/^r\.tsv: /);
          else expect(err.message, err.message).toMatch(/^r\.tsv:[1-9]\d*: /);
          for (const d of err.details) expect(d, d).toMatch(/^r\.tsv(:[1-9]\d*)?: /);
          expect(dump()).toBe(before);
          refused++;
          return;
        }
        imported++;
        expect(report.added + report.updated + report.unchanged).toBe(report.lines);
        const now = (db.$client.prepare("select count(*) as n from response_history").get() as { n: number }).n;
        expect(now).toBe(history + report.added + report.updated);
      }),
      { numRuns: RUNS },
    );
    expect(imported).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});

describe("responses reader: regressions found by fuzzing", () => {
  it("refuses a carriage return inside a line (old Mac line endings), naming the line", () => {
    // It used to read "1\rbob" as an instance id, which the writer then wrote back as "1 bob".
    const r = parseResponsesTsv("ann\tbright.a\t2\tNIL\nann\tbright.a\t1\tclever\rbob\tbright.a\t1\tNIL\n", "r.tsv");
    expect(r.responses.map((x) => x.line)).toEqual([1]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: "error", line: 2, message: expect.stringMatching(/carriage return \(CR\) inside the line.*old Mac line endings/) }),
    ]);
    // CRLF endings are still fine.
    expect(parseResponsesTsv("ann\tbright.a\t1\tclever\r\n", "r.tsv").diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
