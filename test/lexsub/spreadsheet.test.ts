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

  it("reads its own output back unchanged", () => {
    const parsed = parseResponsesTsv(writeResponsesTsv(risky), "r.tsv");
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.responses.map(({ line: _line, ...r }) => r)).toEqual(risky);
  });
});
