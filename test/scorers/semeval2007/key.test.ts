import { describe, expect, it } from "vitest";
import {
  type ItemScore,
  KeyBuilder,
  ScoringKey,
  bestScorer,
  ootScorer,
  parseGold,
  parseSystem,
} from "../../../lib/scorers/semeval2007/index";

/**
 * The key stores a gold line as written when nothing in it needs normalising
 * (streaming, KeyBuilder.push) and as a table otherwise (always, from parsed
 * lines): both must score alike.
 */
const GOLD = [
  "a.a 1 :: glad 3;merry 2;cheerful 1;",
  "a.a 2 :: open-air 4;outside 3;well-lit 1;",
  "a.a 3 :: open-air 3;open air 1;",
  "a.a 4 :: people's 2;folk 1;",
  "a.a 5 :: non-native 2;alien 1;",
  "a.a 6 :: sprint 2;pn 2;dash 1;",
  "a.a 7 :: garden 2;lot 1;garden  1;",
  "a.a 8 :: take place 2;happen 1;",
  "a.a 9 :: low 1;high 3;",
  "a.a 10 :: x 1;crucifix 1;two lines 1;",
  "",
].join("\n");

const ANSWERS: [string, string][] = [
  ["1", "glad;cheerful;joyful"],
  ["2", "open air;outside;well lit"],
  ["3", "open air;open-air;x"],
  ["4", "peoples;people's;folk"],
  ["5", "nonnative;non native;alien"],
  ["6", "sprint;pn;dash"],
  ["7", "garden;garden ;lot"],
  ["8", "take place;happen;take"],
  ["9", "low;high;x"],
  ["10", "crucifix;x;two lines"],
];

function items(key: ScoringKey, type: "best" | "oot", answers: string) {
  const out: ItemScore[] = [];
  const scorer = type === "best" ? bestScorer(key, { onItem: (i) => out.push(i) }) : ootScorer(key, { onItem: (i) => out.push(i) });
  const sep = type === "best" ? "::" : ":::";
  for (const l of parseSystem(answers.replace(/ :: /g, ` ${sep} `), "s", type).lines) scorer.add(l);
  return { items: out, result: scorer.finish() };
}

describe("the scoring key: lines stored as written and as tables score alike", () => {
  const streamed = new KeyBuilder("g");
  for (const l of GOLD.split("\n")) streamed.push(l);
  const plain = streamed.finish();
  const table = ScoringKey.fromGold(parseGold(GOLD, "g").lines, "g");

  it("has the same T, modes and entries", () => {
    expect(plain.key.total).toBe(10);
    expect(plain.key.totalWithMode).toBe(table.key.totalWithMode);
    for (let o = 0; o < plain.key.total; o++) expect(plain.key.item(o)).toEqual(table.key.item(o));
  });

  it.each(ANSWERS.flatMap(([id, answer]) => [1, 2, 3].map((n) => [id, answer.split(";").slice(0, n).join(";")] as const)))("item %s answered %j", (id, answer) => {
    // Each answer alone, then with the guess order reversed (oot cuts the entries up after two matches).
    for (const a of [answer, answer.split(";").reverse().join(";")]) {
      for (const type of ["best", "oot"] as const) {
        const line = `a.a ${id} :: ${a}\n`;
        expect(items(plain.key, type, line).items).toEqual(items(table.key, type, line).items);
      }
    }
  });

  const repairedStreamed = new KeyBuilder("g", { repaired: true });
  for (const l of GOLD.split("\n")) repairedStreamed.push(l);
  const repairedKeys = [repairedStreamed.finish().key, ScoringKey.fromGold(parseGold(GOLD, "g").lines, "g", { repaired: true }).key];

  it.each([
    // id, best answer, credit Σ freq/|H| and mode hit as score.pl gives them, then repaired
    ["2", "open air", 4 / 8, false, 4 / 8, true],
    ["3", "open air", 1 / 4, false, 1 / 4, false],
    ["3", "open-air", 1 / 4, false, 1 / 4, false],
    ["4", "peoples", 2 / 3, true, 2 / 3, true],
    ["5", "nonnative", 0, false, 2 / 3, true],
    ["6", "sprint", 2 / 3, true, 2 / 3, true],
    ["7", "garden ", 1 / 4, false, 1 / 4, false],
    ["10", "crucifix", 1 / 2, null, 1 / 2, null],
  ])("item %s, answer %j: credit %d, mode hit %s (score.pl); %d, %s repaired", (id, answer, credit, hit, repairedCredit, repairedHit) => {
    for (const key of [plain.key, table.key]) {
      const [item] = items(key, "best", `a.a ${id} :: ${answer}\n`).items;
      expect(item.credit).toBeCloseTo(credit as number, 15);
      expect(item.modeHit).toBe(hit);
    }
    for (const key of repairedKeys) {
      const [item] = items(key, "best", `a.a ${id} :: ${answer}\n`).items;
      expect(item.credit).toBeCloseTo(repairedCredit as number, 15);
      expect(item.modeHit).toBe(repairedHit);
    }
  });

  it("reports what the official scorer reads oddly, by line", () => {
    expect(plain.diagnostics.map((d) => [d.line, d.message.slice(0, 40)])).toEqual([
      [7, 'substitute "garden " ends with a space; '],
      [9, "entries of id 9 are not sorted by count;"],
      [10, 'entry "x 1" is not read (a substitute st'],
    ]);
  });

  it("keeps the last count of a substitute repeated in a line, with a warning", () => {
    const b = new KeyBuilder("g");
    b.push("a.n 1 :: shore 3;edge 1;shore 1;");
    const { key, diagnostics } = b.finish();
    expect(key.item(0)).toMatchObject({ entries: [{ substitute: "shore", count: 1 }, { substitute: "edge", count: 1 }], humanResponses: 2, mode: "shore" });
    expect(diagnostics[0].message).toMatch(/substitute "shore" is repeated for id 1; its last count \(1\) is used/);
  });

  it("refuses an id given twice, in T or not, naming both lines", () => {
    const b = new KeyBuilder("g");
    for (const l of ["a.n 1 :: shore 2;", "a.n 2 :: edge 1;", "b.n 1 :: bank 2;", "b.n 2 :: side 2;"]) b.push(l);
    const { key, diagnostics } = b.finish();
    expect(key.total).toBe(1);
    expect(diagnostics.map((d) => [d.severity, d.line, d.message])).toEqual([
      ["error", 3, "id 1 is repeated (first at line 1); ids must be unique"],
      ["error", 4, "id 2 is repeated (first at line 2); ids must be unique"],
    ]);
  });

  it("keys ids as written: 007 and 7 are different ids", () => {
    const b = new KeyBuilder("g");
    for (const l of ["a.n 007 :: shore 2;", "a.n 7 :: edge 2;", "a.n x7 :: bank 2;"]) b.push(l);
    const { key, diagnostics } = b.finish();
    expect(diagnostics).toEqual([]);
    expect([key.find("007"), key.find("7"), key.find("x7"), key.find("07")]).toEqual([0, 1, 2, -1]);
    expect(key.item(0).id).toBe("007");
  });

  it("indexes large and sparse numeric ids", () => {
    const b = new KeyBuilder("g");
    const ids = [5, 999999999, 3000000, 1 << 21, 42];
    for (const id of ids) b.push(`a.n ${id} :: shore 2;`);
    const { key } = b.finish();
    expect(ids.map((id) => key.find(String(id)))).toEqual([0, 1, 2, 3, 4]);
    expect(key.find("6")).toBe(-1);
  });

  it("finds ids a small key kept apart after the key grows past them, and refuses them again", () => {
    // The first ids are high and few (kept in the Map), then many low ones grow the array past them.
    const high = [80512, 2000, 150000, 1500];
    const low = Array.from({ length: 300 }, (_, i) => i + 1);
    const outside = [1024 + 7, 70000];
    const b = new KeyBuilder("g");
    for (const id of high) b.push(`a.n ${id} :: shore 2;`);
    for (const id of outside) b.push(`b.n ${id} :: shore 1;`); // one answer: outside T
    for (const id of low) b.push(`a.n ${id} :: edge 2;`);
    // 2500 grows the array past 2000, 1500 and 1031, which stay where they were put.
    b.push("a.n 2500 :: edge 2;");
    for (const id of [...high.slice(0, 2), ...outside.slice(0, 1), 5]) b.push(`b.n ${id} :: side 2;`);
    const { key, diagnostics } = b.finish();
    expect(high.map((id) => key.find(String(id)))).toEqual([0, 1, 2, 3]);
    expect(low.map((id) => key.find(String(id)))).toEqual(low.map((_, i) => 4 + i));
    expect(outside.map((id) => key.find(String(id)))).toEqual([-1, -1]);
    expect(key.find("2500")).toBe(304);
    expect([key.find("80513"), key.find("1499"), key.find("301"), key.find("0")]).toEqual([-1, -1, -1, -1]);
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([
      "id 80512 is repeated (first at line 1); ids must be unique",
      "id 2000 is repeated (first at line 2); ids must be unique",
      "id 1031 is repeated (first at line 5); ids must be unique",
      "id 5 is repeated (first at line 11); ids must be unique",
    ]);
  });
});

describe("the key's reading of T and pn: score.pl's by default, repaired as an option", () => {
  const build = (gold: string, repaired: boolean) => {
    const b = new KeyBuilder("g", { repaired });
    for (const l of gold.split("\n")) b.push(l);
    return b.finish().key;
  };

  it.each([
    // gold line, in T (score.pl), in T (repaired), |H| (score.pl), |H| (repaired)
    ["x.n 1 :: U. S. 3;us 1;", true, false, 1, null],
    ["x.n 1 :: , 5;here , 1;on , 1;", true, false, 0, null],
    ["x.n 1 :: glad 1;\r", true, false, 1, null],
    ["x.n 1 :: sharpness 2;edge 1;pn 1;", false, true, null, 3],
    ["x.n 1 :: sharpness 2;pn 2;", false, true, null, 2],
    ["x.n 1 :: keen 2;pn 1;", true, true, 2, 2],
  ])("%j: in T %s / %s, |H| %s / %s", (line, officialT, repairedT, officialH, repairedH) => {
    const official = build(line, false);
    const repaired = build(line, true);
    expect(official.find("1") >= 0).toBe(officialT);
    expect(repaired.find("1") >= 0).toBe(repairedT);
    if (officialH !== null) expect(official.humanResponses(official.find("1"))).toBe(officialH);
    if (repairedH !== null) expect(repaired.humanResponses(repaired.find("1"))).toBe(repairedH);
  });

  it("notes where a repair reads the gold differently, by rule", async () => {
    const { RepairTracker } = await import("../../../lib/scorers/semeval2007/repairs");
    const t = new RepairTracker();
    const b = new KeyBuilder("g", { repairs: t });
    for (const l of ["x.n 1 :: U. S. 3;us 1;", "x.n 2 :: sharpness 2;edge 1;", "x.n 3 :: open-air 2;outside 1;", "x.n 4 :: non public 2;open 1;", "x.n 5 :: glad 3;merry 2;"]) b.push(l);
    b.finish();
    expect([...t.idsOf("t-fields")]).toEqual(["1"]);
    expect([...t.idsOf("pn")]).toEqual(["2"]);
    expect([...t.idsOf("hyphen-mode")]).toEqual(["3"]);
    expect([...t.idsOf("non")]).toEqual(["4"]);
    expect(t.ids.has("5")).toBe(false);
  });
});
