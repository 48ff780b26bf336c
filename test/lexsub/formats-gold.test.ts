import { describe, expect, it } from "vitest";
import { GoldReader, formatGoldLine, parseGold, parseMwGold, perlSplit } from "../../lib/lexsub/formats/gold";

describe("parseGold: the official line and entry patterns", () => {
  it("reads lexelt, id and entries in file order, skipping blank lines", () => {
    const r = parseGold("\nhappy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;\n  \nstand.n.v 12 :: rise 2;\n", "g.txt");
    expect(r.diagnostics).toEqual([]);
    expect(r.lines.map(({ fields: _, ...l }) => l)).toEqual([
      {
        lexelt: "happy.a",
        id: "9999",
        line: 2,
        entries: [
          { substitute: "glad", count: 3 },
          { substitute: "merry", count: 2 },
          { substitute: "cheerful", count: 1 },
          { substitute: "jovial", count: 1 },
        ],
      },
      { lexelt: "stand.n.v", id: "12", line: 4, entries: [{ substitute: "rise", count: 2 }] },
    ]);
  });

  it.each([
    // [entry field, substitute read (null: not read), warning kind]
    ["feeling glad 2", "feeling glad", null],
    ["people's 1", "people's", null],
    ["open-air 4", "open-air", null],
    ["x 1", null, /entry "x 1" is not read/],
    ["11.27 kilograms 1", "27 kilograms", /read as "27 kilograms" 1/],
    ["education, education 2", "education", /read as "education" 2/],
    ["garden  1", "garden ", /"garden " ends with a space/],
    ["secretion  producing 1", "secretion  producing", null],
  ])("entry %j → %j", (field, substitute, warning) => {
    const r = parseGold(`a.n 1 :: ${field};\n`, "g.txt");
    expect(r.lines[0].entries.map((e) => e.substitute)).toEqual(substitute === null ? [] : [substitute]);
    if (warning) {
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]).toMatchObject({ severity: "warning", file: "g.txt", line: 1 });
      expect(r.diagnostics[0].message).toMatch(warning);
    } else expect(r.diagnostics).toEqual([]);
  });

  it("skips lines in no format as score.pl does, with a warning, and refuses repeated ids, naming file and line", () => {
    const r = parseGold("a.n 1 :: x 2;\na.n 2 : y 2;\nb.n 1 :: z 2;\njust text\n", "gold.bad");
    expect(r.lines.map((l) => l.id)).toEqual(["1"]);
    expect(r.diagnostics.map((d) => [d.severity, d.line, d.message.slice(0, 22)])).toEqual([
      ["warning", 1, 'entry "x 2" is not rea'],
      ["warning", 2, "not a gold line (expec"],
      ["error", 3, "id 1 is repeated (firs"],
      ["warning", 4, "not a gold line (expec"],
    ]);
    expect(r.diagnostics[1].message).toMatch(/skipped, as score.pl skips it/);
    expect(r.diagnostics.every((d) => d.file === "gold.bad")).toBe(true);
  });

  it.each([
    // line, lexelt and id as score.pl's unanchored pattern captures them
    ["e commerce.a 5 :: shop 2;", "commerce.a", "5"],
    ["  x.n 7 :: y 2;", "x.n", "7"],
    ["#x.n 8 :: y 2;", "x.n", "8"],
  ])("reads %j with score.pl's pattern: lexelt %j, id %j", (line, lexelt, id) => {
    expect(parseGold(line + "\n", "g").lines.map((l) => [l.lexelt, l.id])).toEqual([[lexelt, id]]);
  });

  it("counts fields as score.pl splits them: unreadable ones, pn ones and, on a CRLF line, the \\r", () => {
    const [a, b] = parseGold("x.n 1 :: U. S. 3;us 1;sharpness 2;\nx.n 2 :: glad 1;\r\n", "g").lines;
    expect(a.fields).toMatchObject({ count: 3, pn: [false, false, true], entryField: [1, 2] });
    expect(a.entries.map((e) => e.substitute)).toEqual(["us", "sharpness"]);
    expect(b.fields).toMatchObject({ count: 2, text: [null, "\r"] });
  });

  it("tolerates CRLF endings and a byte-order mark, with warnings", () => {
    const r = parseGold("\uFEFFa.n 1 :: glad 2;\r\na.n 2 :: sad 2;\r\n", "g.txt");
    expect(r.lines.map((l) => l.entries[0].substitute)).toEqual(["glad", "sad"]);
    expect(r.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [1, "CRLF line ending read as LF"],
      [1, "byte-order mark ignored"],
      [0, "2 lines had CRLF endings, read as LF"],
    ]);
  });

  it("lists ten diagnostics of a kind, then one summary; a file with no line in the format is an error", () => {
    const text = Array.from({ length: 13 }, (_, i) => `oops ${i}\n`).join("");
    const d = parseGold(text, "g.txt").diagnostics;
    expect(d).toHaveLength(12);
    expect(d.slice(10)).toEqual([
      expect.objectContaining({ line: 0, severity: "error", message: "no line is in the gold format (13 lines skipped): is this a gold file?" }),
      expect.objectContaining({ line: 0, severity: "warning", message: "3 more lines in no gold format (skipped) not listed (13 in all)" }),
    ]);
  });

  it("reads mwgold lines with loose spacing before '::'", () => {
    const r = parseMwGold("take.v  29 :: take place 5;\n", "mw.txt");
    expect(r.lines[0]).toMatchObject({ id: "29", entries: [{ substitute: "take place", count: 5 }] });
  });

  it("streams: GoldReader gives the same records as parseGold", () => {
    const text = "a.n 1 :: glad 2;merry 1;\nnot a line\na.n 2 :: x 1;happy 3;\n";
    const reader = new GoldReader("g.txt");
    const lines = text.split("\n").slice(0, -1).map((l) => reader.push(l)).filter((l) => l !== null);
    const whole = parseGold(text, "g.txt");
    expect(lines).toEqual(whole.lines);
    expect(reader.finish()).toEqual(whole.diagnostics);
  });
});

describe("perlSplit", () => {
  it.each([
    ["a;b;", ["a", "b"]],
    ["a;;b", ["a", "", "b"]],
    [";a", ["", "a"]],
    [";;", []],
    ["", []],
    ["a; ", ["a", " "]],
  ])("%j → %j", (s, parts) => expect(perlSplit(s, ";")).toEqual(parts));
});

describe("formatGoldLine", () => {
  it("writes the official form, sorted by count (ties keep their order)", () => {
    const line = formatGoldLine("happy.a", "7", [
      { substitute: "merry", count: 2 },
      { substitute: "jovial", count: 1 },
      { substitute: "glad", count: 3 },
      { substitute: "cheerful", count: 1 },
    ]);
    expect(line).toBe("happy.a 7 :: glad 3;merry 2;jovial 1;cheerful 1;");
    expect(parseGold(line + "\n", "g").lines[0].entries.map((e) => e.substitute)).toEqual(["glad", "merry", "jovial", "cheerful"]);
  });

  it("writes a line with no entries as `lexelt id ::`", () => {
    expect(formatGoldLine("a.n", "1", [])).toBe("a.n 1 ::");
  });

  it("writes any script as UTF-8 NFC, accents never folded", () => {
    const line = formatGoldLine("klein.a", "3", [
      { substitute: "pequen\u0303o", count: 2 },
      { substitute: "Fußweg", count: 1 },
      { substitute: "ήσυχος", count: 1 },
      { substitute: "тихий", count: 1 },
      { substitute: "l'été", count: 1 },
    ]);
    expect(line).toBe("klein.a 3 :: peque\u00f1o 2;Fußweg 1;ήσυχος 1;тихий 1;l'été 1;");
  });

  it.each([
    [{ substitute: "é", count: 1 }],
    [{ substitute: "ñandú.", count: 1 }],
    [{ substitute: "a;b", count: 1 }],
    [{ substitute: "x", count: 1 }],
    [{ substitute: "11.5 kg", count: 1 }],
    [{ substitute: "glad", count: 0 }],
    [{ substitute: "glad", count: 1.5 }],
  ])("refuses an entry the scorer would read differently: %j", (e) => {
    expect(() => formatGoldLine("a.n", "1", [e])).toThrow(/cannot be written/);
  });
});
