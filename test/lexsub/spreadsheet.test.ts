/**
 * Finding 5: downloads safe to open in a spreadsheet. Every TSV/CSV cell that
 * begins with =, +, -, @, tab or CR is written with a leading apostrophe; the
 * responses TSV reads such cells back unchanged.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseResponsesTsv, writeResponsesTsv } from "../../lib/lexsub/formats/responses";
import { csvCell, neutraliseCell, restoreCell } from "../../lib/lexsub/formats/spreadsheet";
import type { AnnotatorResponse } from "../../lib/lexsub/types";

describe("neutraliseCell / restoreCell", () => {
  it.each([
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["+cmd", "'+cmd"],
    ["-2+3", "'-2+3"],
    ["@import", "'@import"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["'=already", "''=already"],
    ["plain", "plain"],
    ["'quoted", "'quoted"],
    ["a=b", "a=b"],
    ["", ""],
  ])("%j is written %j", (value, written) => {
    expect(neutraliseCell(value)).toBe(written);
    expect(restoreCell(written)).toBe(value);
  });

  it("reads back any value exactly, and what it writes never starts a formula", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "'", "\t", "\r", "a", " ", ";") }), (v) => {
        const w = neutraliseCell(v);
        expect(restoreCell(w)).toBe(v);
        expect(w).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });

  it("CSV cells are neutralised and quoted", () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(-1.5)).toBe("-1.5");
    expect(csvCell(null)).toBe("");
  });
});

describe("the responses TSV", () => {
  const risky: AnnotatorResponse[] = [
    { annotator: "ann", lexelt: "bright.a", instanceId: "=1+1", kind: "substitutes", substitutes: ["=cmd|' /C calc'!A0", "+plus", "@at"], multiword: "-minus phrase" },
    { annotator: "ann", lexelt: "bright.a", instanceId: "-7", kind: "substitutes", substitutes: ["'=kept"], multiword: "@home" },
    { annotator: "ann", lexelt: "bright.a", instanceId: "p3", kind: "NIL", substitutes: [], multiword: null },
  ];

  it("writes no cell that a spreadsheet would take for a formula", () => {
    const tsv = writeResponsesTsv(risky);
    for (const line of tsv.trimEnd().split("\n")) for (const cell of line.split("\t")) expect(cell, line).not.toMatch(/^[=+\-@]/);
    expect(tsv).toContain("ann\tbright.a\t'=1+1\t'=cmd|' /C calc'!A0;+plus;@at\t'-minus phrase\n");
  });

  it("reads its own output back unchanged (risky ids; the answers the workspace accepts)", () => {
    const clean: AnnotatorResponse[] = [
      { annotator: "ann", lexelt: "bright.a", instanceId: "=1+1", kind: "substitutes", substitutes: ["clever", "smart"], multiword: null },
      { annotator: "ann", lexelt: "bright.a", instanceId: "-7", kind: "NAME", substitutes: [], multiword: null },
      { annotator: "ann", lexelt: "bright.a", instanceId: "@p3", kind: "NIL", substitutes: [], multiword: null },
    ];
    const tsv = writeResponsesTsv(clean);
    expect(tsv).toContain("ann\tbright.a\t'=1+1\tclever;smart\t\n");
    const parsed = parseResponsesTsv(tsv, "r.tsv");
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.responses.map(({ line: _line, ...r }) => r)).toEqual(clean);
  });

  it("restores a neutralised answer before the answer rules judge it (the error quotes it as typed)", () => {
    // Stored answers from before the rules can still be exported; importing them back names the rule.
    const parsed = parseResponsesTsv(writeResponsesTsv(risky), "r.tsv");
    const messages = parsed.diagnostics.map((d) => d.message).join("\n");
    expect(messages).toContain('"=cmd|\' /C calc\'!A0"');
    expect(messages).not.toContain(`"'=cmd`);
    expect(parsed.diagnostics.every((d) => d.severity === "error")).toBe(true);
  });
});
