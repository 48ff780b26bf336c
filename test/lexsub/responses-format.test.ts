import { describe, expect, it } from "vitest";
import { formatAnswer, parseAnswer, parseResponsesTsv, writeResponsesTsv } from "../../lib/lexsub/formats/responses";
import type { AnnotatorResponse } from "../../lib/lexsub/types";
import { formatDiagnostic } from "../../lib/lexsub/diagnostics";

const HEADER = "annotator\tlexelt\tinstance\tanswer\tmultiword";
const tsv = (...lines: string[]) => lines.join("\n") + "\n";

describe("parseAnswer", () => {
  it.each<[string, string, string[]]>([
    ["NAME", "NAME", []],
    ["NIL", "NIL", []],
    ["silent", "substitutes", ["silent"]],
    ["silent;hushed;still", "substitutes", ["silent", "hushed", "still"]],
    // Lower-case words are substitutes: only the capitals are kinds.
    ["name;title", "substitutes", ["name", "title"]],
    ["none", "substitutes", ["none"]],
  ])("reads %j as %s %j", (cell, kind, substitutes) => {
    expect(parseAnswer(cell)).toEqual({ kind, substitutes });
  });

  it.each<[string, RegExp]>([
    ["", /answer is empty/],
    ["   ", /answer is empty/],
    ["NONE", /unknown kind "NONE"/],
    ["N/A", /unknown kind "N\/A"/],
    ["-", /unknown kind "-"/],
    ["NAME;silent", /NAME and NIL stand alone/],
    ["calm;NIL", /NAME and NIL stand alone/],
    ["a;b;c;d", /4 substitutes .* at most 3/],
    ["calm;;still", /substitute 2 of .* is empty/],
    ["calm;", /substitute 2 of .* is empty/],
    [";calm", /substitute 1 of .* is empty/],
    ["calm;Calm", /"Calm" is given twice/],
    ["x".repeat(61), /^answer, substitute 1 "x{37}…": a substitute has at most 60 characters \(this one has 61\) \(rule: length\)$/],
    ["calm;secluded, peaceful", /^answer, substitute 2 "secluded, peaceful": one substitute per field — separate substitutes with “;” \(at most 3\) \(rule: list\)$/],
  ])("refuses %j", (cell, message) => {
    const r = parseAnswer(cell);
    expect("error" in r && r.error).toMatch(message);
  });
});

describe("answers imported as written keep their spacing (#40)", () => {
  it("keeps a double space and a space at an end, NFC aside, and lists them under the spacing rule", () => {
    expect(parseAnswer("deliver ;secretion  produc\u0327ing", "mark")).toEqual({
      kind: "substitutes",
      substitutes: ["deliver ", "secretion  produ\u00e7ing"],
      broken: [
        { field: "substitute 1", value: "deliver ", rule: "spacing" },
        { field: "substitute 2", value: "secretion  produ\u00e7ing", rule: "spacing" },
      ],
    });
  });

  it("refuses them with --strict, naming the field and the rule, rather than rewrite them", () => {
    const r = parseAnswer(" calm ;  at   peace ");
    expect("error" in r && r.error).toMatch(/^answer, substitute 1 " calm ": white space is one space between words, none at either end .*\(rule: spacing\)$/);
  });

  it("reports answers to one instance that differ only in spacing, with the line of the first, and keeps both", () => {
    const r = parseResponsesTsv(
      tsv(HEADER, "a1\tdrop.v\t7\tdeliver;leave\t", "a2\tdrop.v\t7\tdeliver \t", "a3\tdrop.v\t7\tdeliver\t", "a4\tdrop.v\t8\tdeliver \t"),
      "r.tsv",
      { rules: "mark" },
    );
    expect(r.responses.map((x) => x.substitutes)).toEqual([["deliver", "leave"], ["deliver "], ["deliver"], ["deliver "]]);
    expect(r.diagnostics).toEqual([
      {
        severity: "warning",
        file: "r.tsv",
        line: 3,
        message: 'instance 7: "deliver " differs from "deliver" (line 2) only in spacing: both kept as written (the scorer counts them as two substitutes); the lemma review proposes "deliver" for the coordinator to decide',
      },
    ]);
  });
});

describe("parseResponsesTsv", () => {
  it("reads a file with a header, NAME, NIL, substitutes and multiwords", () => {
    const r = parseResponsesTsv(
      tsv(
        HEADER,
        "ann1\tquiet.a\tq1\tsilent;hushed\t",
        "ann1\tshell.n\ts5\tNAME\t",
        "",
        "ann2\tlaunch.v\tl4\tbegin;start\tlaunch into",
        "ann2\tshell.n\ts5\tNIL",
      ),
      "r.tsv",
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.responses).toEqual([
      { annotator: "ann1", lexelt: "quiet.a", instanceId: "q1", kind: "substitutes", substitutes: ["silent", "hushed"], multiword: null, line: 2 },
      { annotator: "ann1", lexelt: "shell.n", instanceId: "s5", kind: "NAME", substitutes: [], multiword: null, line: 3 },
      { annotator: "ann2", lexelt: "launch.v", instanceId: "l4", kind: "substitutes", substitutes: ["begin", "start"], multiword: "launch into", line: 5 },
      { annotator: "ann2", lexelt: "shell.n", instanceId: "s5", kind: "NIL", substitutes: [], multiword: null, line: 6 },
    ]);
  });

  it("reads a file without a header, with CRLF endings and a byte-order mark, and the issue's `id` column name", () => {
    const plain = parseResponsesTsv("\uFEFFann\trun.n\t7\tjog\t\r\nann\trun.n\t8\tNIL\t\r\n", "crlf.tsv");
    expect(plain.responses.map((x) => [x.instanceId, x.line])).toEqual([["7", 1], ["8", 2]]);
    expect(plain.diagnostics.map(formatDiagnostic)).toEqual(["crlf.tsv: warning: 2 lines end in CRLF; read as LF"]);
    const idHeader = parseResponsesTsv(tsv("annotator\tlexelt\tid\tanswer\tmultiword", "ann\trun.n\t7\tjog\t"), "id.tsv");
    expect(idHeader.diagnostics).toEqual([]);
    expect(idHeader.responses).toHaveLength(1);
  });

  it.each<[string, string, string]>([
    ["two cells", "ann\tquiet.a", "bad.tsv:2: error: 2 tab-separated cells; expected 5 (annotator, lexelt, instance, answer, multiword)"],
    ["six cells", "ann\tquiet.a\tq1\tcalm\t\textra", "bad.tsv:2: error: 6 tab-separated cells; expected 5 (annotator, lexelt, instance, answer, multiword)"],
    ["spaces for tabs", "ann quiet.a q1 calm", "bad.tsv:2: error: 1 tab-separated cells; expected 5 (annotator, lexelt, instance, answer, multiword) — are the columns separated by spaces instead of tabs?"],
    ["an empty annotator", " \tquiet.a\tq1\tcalm\t", "bad.tsv:2: error: the annotator cell is empty"],
    ["an empty lexelt", "ann\t\tq1\tcalm\t", "bad.tsv:2: error: the lexelt cell is empty"],
    ["an empty instance", "ann\tquiet.a\t\tcalm\t", "bad.tsv:2: error: the instance cell is empty"],
    ["an empty answer", "ann\tquiet.a\tq1\t\t", "bad.tsv:2: error: the answer is empty: give substitutes, NAME or NIL"],
    ["an unknown kind", "ann\tquiet.a\tq1\tNONE\t", 'bad.tsv:2: error: unknown kind "NONE": the kinds are NAME and NIL (in capitals)'],
    ["NAME among substitutes", "ann\tquiet.a\tq1\tNAME;calm\t", 'bad.tsv:2: error: "NAME;calm": NAME and NIL stand alone, never among substitutes'],
    ["four substitutes", "ann\tquiet.a\tq1\ta;b;c;d\t", 'bad.tsv:2: error: 4 substitutes in "a;b;c;d": at most 3 are allowed'],
    ["an empty substitute", "ann\tquiet.a\tq1\tcalm;;still\t", 'bad.tsv:2: error: substitute 2 of "calm;;still" is empty (a stray ";"?)'],
    ["a repeated substitute", "ann\tquiet.a\tq1\tcalm;calm\t", 'bad.tsv:2: error: substitute "calm" is given twice in "calm;calm"'],
    ["an over-long multiword", `ann\tquiet.a\tq1\tcalm\tquiet ${"m".repeat(75)}`, `bad.tsv:2: error: multiword "quiet ${"m".repeat(31)}…": a multiword phrase has at most 80 characters (this one has 81) (rule: length)`],
    // The rules of the workspace (substitute-rules.ts), each named with the field and the rule.
    ["a comma list in one substitute", "ann\tquiet.a\tq1\tsecluded, peaceful, tranquil, calm\t", 'bad.tsv:2: error: answer, substitute 1 "secluded, peaceful, tranquil, calm": one substitute per field — separate substitutes with “;” (at most 3) (rule: list)'],
    ["markup", "ann\tquiet.a\tq1\tcalm;<b>still</b>\t", 'bad.tsv:2: error: answer, substitute 2 "<b>still</b>": no markup: the gold files cannot hold “<” or “>” (rule: markup)'],
    ["an ampersand", "ann\tquiet.a\tq1\tpeace & calm\t", 'bad.tsv:2: error: answer, substitute 1 "peace & calm": the gold files cannot hold “&”; write “and” (rule: markup)'],
    ["a one-letter substitute", "ann\tquiet.a\tq1\tcalm;x\t", 'bad.tsv:2: error: answer, substitute 2 "x": a substitute has at least two letters (rule: letters)'],
    ["a full stop", "ann\tquiet.a\tq1\tcalm.\t", 'bad.tsv:2: error: answer, substitute 1 "calm.": “.” cannot be part of a substitute: write letters (any script, accents too), digits, spaces, hyphens and apostrophes (rule: characters)'],
    ["an invisible character", "ann\tquiet.a\tq1\tca\u200blm\t", 'bad.tsv:2: error: answer, substitute 1 "ca\u200blm": this holds an invisible character (U+200B); retype the substitute without it (rule: control)'],
    ["pn", "ann\tquiet.a\tq1\tpn\t", 'bad.tsv:2: error: answer, substitute 1 "pn": “pn” is how the gold writes NAME answers; choose NAME instead (rule: pn)'],
    ["a leading hyphen", "ann\tquiet.a\tq1\t-ish\t", 'bad.tsv:2: error: answer, substitute 1 "-ish": a substitute starts with a letter or digit, not “-” (rule: start)'],
    ["a one-word multiword", "ann\tquiet.a\tq1\tcalm\tquietly", 'bad.tsv:2: error: multiword "quietly": a multiword phrase has at least two words (rule: words)'],
    ["markup in the multiword", "ann\tquiet.a\tq1\tNIL\t<i>quiet</i> word", 'bad.tsv:2: error: multiword "<i>quiet</i> word": no markup: the gold files cannot hold “<” or “>” (rule: markup)'],
  ])("refuses %s, naming the line", (_what, line, message) => {
    const r = parseResponsesTsv(tsv(HEADER, line, "ann\tquiet.a\tq2\tcalm\t"), "bad.tsv");
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([message]);
    // The good line after it is still read, so every bad line can be reported at once.
    expect(r.responses.map((x) => x.instanceId)).toEqual(["q2"]);
  });

  it("refuses an annotator × instance given twice, naming both lines", () => {
    const r = parseResponsesTsv(tsv(HEADER, "ann\tquiet.a\tq1\tcalm\t", "bob\tquiet.a\tq1\tcalm\t", "ann\tquiet.a\tq1\tstill\t"), "dup.tsv");
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      "dup.tsv:4: error: ann already answered instance q1 on line 2; one response per annotator and instance",
    ]);
  });

  it("refuses a header that names other columns", () => {
    const r = parseResponsesTsv(tsv("annotator\tinstance\tlexelt\tanswer\tmultiword", "ann\tquiet.a\tq1\tcalm\t"), "h.tsv");
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'h.tsv:1: error: the header must be "annotator\\tlexelt\\tinstance\\tanswer\\tmultiword", not "annotator\\tinstance\\tlexelt\\tanswer\\tmultiword"',
    ]);
  });

  it("lists at most maxErrors errors, then how many more there were", () => {
    const bad = Array.from({ length: 5 }, (_, k) => `ann\tquiet.a\tq${k}\t\t`);
    const r = parseResponsesTsv(tsv(HEADER, ...bad), "many.tsv", { maxErrors: 2 });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      "many.tsv:2: error: the answer is empty: give substitutes, NAME or NIL",
      "many.tsv:3: error: the answer is empty: give substitutes, NAME or NIL",
      "many.tsv: error: 3 more errors not listed (5 in all)",
    ]);
  });

  it("reads an empty file as no responses", () => {
    expect(parseResponsesTsv("", "e.tsv")).toEqual({ responses: [], diagnostics: [] });
    expect(parseResponsesTsv(HEADER + "\n", "e.tsv")).toEqual({ responses: [], diagnostics: [] });
  });
});

describe("writeResponsesTsv", () => {
  const records: AnnotatorResponse[] = [
    { annotator: "ann1", lexelt: "quiet.a", instanceId: "q1", kind: "substitutes", substitutes: ["silent", "hushed", "still"], multiword: null },
    { annotator: "ann1", lexelt: "shell.n", instanceId: "s5", kind: "NAME", substitutes: [], multiword: null },
    { annotator: "ann2", lexelt: "launch.v", instanceId: "l4", kind: "substitutes", substitutes: ["begin"], multiword: "launch into" },
    { annotator: "ann2", lexelt: "stand.n.v", instanceId: "007", kind: "NIL", substitutes: [], multiword: "stand up" },
  ];

  it("writes the header and one line per response", () => {
    expect(writeResponsesTsv(records)).toBe(
      tsv(HEADER, "ann1\tquiet.a\tq1\tsilent;hushed;still\t", "ann1\tshell.n\ts5\tNAME\t", "ann2\tlaunch.v\tl4\tbegin\tlaunch into", "ann2\tstand.n.v\t007\tNIL\tstand up"),
    );
  });

  it("round-trips: what it writes reads back as the same records", () => {
    const back = parseResponsesTsv(writeResponsesTsv(records), "rt.tsv");
    expect(back.diagnostics).toEqual([]);
    expect(back.responses.map(({ line: _line, ...r }) => r)).toEqual(records);
  });

  it("with the adjudication columns: writes them, and reads the file back as the annotators answered (the columns ignored)", () => {
    const text = writeResponsesTsv(records, {
      adjudication: (r) => (r.instanceId === "q1" ? { answer: "silent;still", note: 'struck "hushed"\tby coord' } : null),
    });
    expect(text.split("\n").slice(0, 3)).toEqual([
      "annotator\tlexelt\tinstance\tanswer\tmultiword\tadjudicated\tadjudication",
      'ann1\tquiet.a\tq1\tsilent;hushed;still\t\tsilent;still\tstruck "hushed" by coord',
      "ann1\tshell.n\ts5\tNAME\t\t\t",
    ]);
    const back = parseResponsesTsv(text, "adj.tsv");
    expect(back.diagnostics).toEqual([]);
    expect(back.responses.map(({ line: _line, ...r }) => r)).toEqual(records);
    // Seven cells only under a header that names the adjudication columns.
    const bare = parseResponsesTsv(tsv(HEADER, "ann\tquiet.a\tq1\tcalm\t\tcalm\tnote"), "bare.tsv");
    expect(bare.diagnostics.map(formatDiagnostic)).toEqual(["bare.tsv:2: error: 7 tab-separated cells; expected 5 (annotator, lexelt, instance, answer, multiword)"]);
  });

  it("never lets a tab or line break inside a cell break the file", () => {
    const odd: AnnotatorResponse = { annotator: "a", lexelt: "x.n", instanceId: "1", kind: "substitutes", substitutes: ["one\ttwo"], multiword: "p\nq" };
    expect(formatAnswer(odd)).toBe("one two");
    expect(parseResponsesTsv(writeResponsesTsv([odd]), "odd.tsv").responses[0]).toMatchObject({ substitutes: ["one two"], multiword: "p q" });
  });
});
