import { describe, expect, it } from "vitest";
import { normalizeGuess } from "../../../lib/scorers/semeval2007/rules";
import { SystemReader, parseSystem, sniffSystemKind } from "../../../lib/scorers/semeval2007/system";

describe("normalizeGuess: the official answer fixes", () => {
  it.each([
    ["glad", "glad"],
    ["open-air", "open air"],
    ["well-to-do", "well to do"],
    ["non-native", "nonnative"],
    ["non native", "nonnative"],
    ["nonnative", "nonnative"],
    ["none", "none"],
    ["non-stop-flight", "nonstop flight"],
    ["people's", "peoples"],
    ["rock 'n' roll", "rock n' roll"],
    ["Glad", "Glad"],
  ])("%j → %j", (guess, normalised) => expect(normalizeGuess(guess)).toBe(normalised));
});

describe("parseSystem: best and oot", () => {
  it("splits on ';' as Perl does and normalises each guess", () => {
    const r = parseSystem("happy.a 1 :: glad;open-air;\nhappy.a 2 :: a;;b\nhappy.a 3 ::: x;y\n", "s.best", "best");
    expect(r.lines.map((l) => [l.lexelt, l.id, l.guesses, l.line])).toEqual([
      ["happy.a", "1", ["glad", "open air"], 1],
      ["happy.a", "2", ["a", "", "b"], 2],
    ]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ severity: "error", file: "s.best", line: 3 });
    expect(r.diagnostics[0].message).toMatch(/not a best line \(an oot line, with ':::': is this an oot file\?\)/);
  });

  it("reads oot lines with ':::' and refuses best lines in an oot file", () => {
    const r = parseSystem("happy.a 1 ::: glad;merry\nhappy.a 2 :: glad\n", "s.oot", "oot");
    expect(r.lines.map((l) => l.guesses)).toEqual([["glad", "merry"]]);
    expect(r.diagnostics[0]).toMatchObject({ line: 2, severity: "error" });
    expect(r.diagnostics[0].message).toMatch(/is this a best file\?/);
  });

  it.each([
    ["happy.a  1 :: glad", "two spaces before the id"],
    ["happy.a 1 ::glad", "no space after '::'"],
    ["happy.a 1 ::", "nothing after '::'"],
    ["1 :: glad", "no lexelt"],
  ])("refuses %j (%s) with file and line", (line) => {
    const r = parseSystem(`happy.a 2 :: merry\n${line}\n`, "s.best", "best");
    expect(r.lines).toHaveLength(1);
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: "error", file: "s.best", line: 2 })]);
  });

  it("gives an empty answer no guesses, with a warning", () => {
    const r = parseSystem("happy.a 1 :: \nhappy.a 2 :: ;\n", "s.best", "best");
    expect(r.lines.map((l) => l.guesses)).toEqual([[], []]);
    expect(r.diagnostics.map((d) => [d.line, d.severity])).toEqual([
      [1, "warning"],
      [2, "warning"],
    ]);
    expect(r.diagnostics[0].message).toMatch(/empty answer: the item is not attempted/);
  });

  it("keeps guesses with spaces around them as written (score.pl), with a warning", () => {
    const r = parseSystem("happy.a 1 :: glad ; non-native;merry \n", "s.best", "best");
    expect(r.lines[0].guesses).toEqual(["glad ", " non native", "merry "]);
    expect(r.lines[0].alternatives).toBeNull();
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: "warning", line: 1 })]);
    expect(r.diagnostics[0].message).toMatch(/spaces around ";".*stay in the guess/);
  });

  it("repaired, adds the trimmed forms of guesses with spaces around them, with a warning", () => {
    const r = parseSystem("happy.a 1 :: glad ; non-native;merry \n", "s.best", "best", { repaired: true });
    expect(r.lines[0].guesses).toEqual(["glad ", " non native", "merry "]);
    expect(r.lines[0].alternatives).toEqual(["glad", "nonnative", "merry"]);
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: "warning", line: 1 })]);
    expect(r.diagnostics[0].message).toMatch(/spaces around ";"/);
  });

  it("keeps a CRLF's \\r in the last guess, as score.pl does, with one warning and a count", () => {
    const crlf = parseSystem("happy.a 1 :: glad\r\nhappy.a 2 :: merry;\r\n", "s.best", "best");
    expect(crlf.lines.map((l) => l.guesses)).toEqual([["glad\r"], ["merry", "\r"]]);
    expect(crlf.diagnostics.map((d) => [d.line, d.message.slice(0, 30)])).toEqual([
      [1, "CRLF line ending: the \\r stays"],
      [0, "2 lines had CRLF endings, each"],
    ]);
  });

  it("repaired, reads CRLF lines as LF lines, with one warning and a count", () => {
    const crlf = parseSystem("happy.a 1 :: glad\r\nhappy.a 2 :: merry\r\n", "s.best", "best", { repaired: true });
    const lf = parseSystem("happy.a 1 :: glad\nhappy.a 2 :: merry\n", "s.best", "best", { repaired: true });
    expect(crlf.lines).toEqual(lf.lines);
    expect(crlf.diagnostics.map((d) => [d.line, d.message.slice(0, 30)])).toEqual([
      [1, "CRLF line ending read as LF (r"],
      [0, "2 lines had CRLF endings, read"],
    ]);
  });

  it.each([
    // line, lexelt and id as score.pl's unanchored pattern captures them
    ["e-commerce.a 5 :: shop", "commerce.a", "5"],
    ["state-of-the-art.a 12 :: modern", "art.a", "12"],
    ["façade.n 3 :: front", "ade.n", "3"],
    ["two words.n 7 :: x", "words.n", "7"],
  ])("reads %j with score.pl's pattern: lexelt %j, id %j", (line, lexelt, id) => {
    const r = parseSystem(line + "\n", "s", "best");
    expect(r.lines.map((l) => [l.lexelt, l.id])).toEqual([[lexelt, id]]);
  });

  it.each(["x.n- 5 :: a", "x.n  5 :: a", "x.n\t5 :: a", "x.n 5 ::a"])("refuses %j, as score.pl's pattern does not match it", (line) => {
    const r = parseSystem(line + "\n", "s", "best");
    expect(r.lines).toEqual([]);
    expect(r.diagnostics[0].severity).toBe("error");
  });

  it("streams: SystemReader gives the same records as parseSystem", () => {
    const text = "a.n 1 :: x;y\nbad\na.n 2 :: z\n";
    const reader = new SystemReader("s", "best");
    const lines = text.split("\n").map((l) => reader.push(l)).filter((l) => l !== null);
    const whole = parseSystem(text, "s", "best");
    expect(lines).toEqual(whole.lines);
    expect(reader.finish()).toEqual(whole.diagnostics);
    expect([reader.matched, reader.refused]).toEqual([2, 1]);
  });
});

describe("parseSystem: mw", () => {
  it("takes the rest of the line as the answer, spacing around '::' free, apostrophes and spaces kept (score.pl)", () => {
    const r = parseSystem("take.v 29 :: take place\ncross.n 54::cross section\nbull.n 7 ::  bull's eye \n", "s.mw", "mw");
    expect(r.lines.map((l) => [l.id, l.answer, l.guesses, l.alternatives])).toEqual([
      ["29", "take place", ["take place"], null],
      ["54", "cross section", ["cross section"], null],
      ["7", "bull's eye ", ["bull's eye "], null],
    ]);
    expect(r.diagnostics.map((d) => d.line)).toEqual([3]);
  });

  it("repaired, drops the answer's first apostrophe and adds a trimmed alternative", () => {
    const r = parseSystem("take.v 29 :: take place\nbull.n 7 ::  bull's eye \n", "s.mw", "mw", { repaired: true });
    expect(r.lines.map((l) => [l.id, l.guesses, l.alternatives])).toEqual([
      ["29", ["take place"], null],
      ["7", ["bulls eye "], ["bulls eye"]],
    ]);
  });

  it("gives a blank answer no guess", () => {
    const r = parseSystem("take.v 21 :: \n", "s.mw", "mw");
    expect(r.lines[0].guesses).toEqual([]);
  });
});

describe("sniffSystemKind: the type of a file whose name says nothing", () => {
  it("reads ::: as oot, ; as best, multiwords as mw, single words as best", () => {
    expect(sniffSystemKind("bright.a 1 ::: clever;smart;able\n").kind).toBe("oot");
    expect(sniffSystemKind("bright.a 1 :: clever;smart\nbright.a 2 :: shiny\n").kind).toBe("best");
    expect(sniffSystemKind("bright.a 1 :: clever\nbright.a 2 :: shiny\r\n").kind).toBe("best");
    expect(sniffSystemKind("cross.n 5 :: cross section\nrun.v 2 :: run out\n").kind).toBe("mw");
  });
  it("leaves mixed or unreadable files to the user, with the reason", () => {
    const mixed = sniffSystemKind("bright.a 1 ::: clever\nbright.a 2 :: shiny\n");
    expect(mixed.kind).toBeNull();
    expect(mixed.reason).toContain(":::");
    expect(sniffSystemKind("cross.n 5 :: cross section\nbright.a 2 :: shiny\n").kind).toBeNull();
    expect(sniffSystemKind("no answers here\n").kind).toBeNull();
  });
});
