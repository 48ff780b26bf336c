/**
 * Answers people already gave (issue #29): a CoInCo-like responses TSV of
 * pseudo-annotators (test/support/historic-responses.ts) imports without
 * `strict`, every answer stored exactly as written, each rule-breaking answer
 * counted under its rule and listed on the Gold tab, the few lines the format
 * cannot read left out and named; `strict` refuses the file and writes nothing.
 * The gold exported from it (and the CoInCo XML) keeps the answers exactly
 * unless a recorded lemma decision says otherwise; applying the open proposals
 * is an option that names what it applied.
 */
import { describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { InputError } from "../../../lib/server/kernel/errors";
import { importResponses, listProjectResponses, previewResponses } from "../../../lib/server/annotate/response-import";
import { decideLemma, projectAgreement, projectGold } from "../../../lib/server/gold/gold";
import { goldPageData } from "../../../lib/server/gold/gold-review";
import { exportDataset } from "../../../lib/server/datasets/datasets";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";
import { type HistoricProject, historicProject } from "../../support/historic-responses";

/** 700 targets, about 3,500 lines, 3 of them with a sixth cell. */
const data = historicProject({ targets: 700, oddLines: 3 });

function project(h: HistoricProject = data) {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "crowd.xml", bytes: new TextEncoder().encode(h.xml) });
  for (const a of h.annotators) {
    actorFor(f.db, a, "annotator");
    addMember(f.db, f.coord, f.project.id, a);
  }
  return f;
}

const count = (f: ReturnType<typeof project>, table: string) => (f.db.$client.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

/** The gold file's lines by instance id. */
function goldLines(text: string): Map<string, string> {
  return new Map(text.split("\n").filter((l) => l !== "").map((l) => [l.split(" ")[1], l]));
}

describe("importing answers people already gave", () => {
  it("the generated file has what the test is about", () => {
    expect(data.lines).toBeGreaterThan(3000);
    expect(data.oddLineNumbers).toHaveLength(3);
    expect(data.ruleCounts.target).toBeGreaterThan(50);
    expect(data.ruleCounts.letters).toBeGreaterThan(20);
    expect(data.ruleCounts.characters).toBeGreaterThan(20);
    expect(data.given.get("pence")).toBeGreaterThan(20);
    expect(data.given.get("media")).toBeGreaterThan(20);
  });

  it("imports without strict: every answer as written, counted per rule, the odd lines left out and named", () => {
    const f = project();
    const r = importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
    const read = data.lines - data.oddLineNumbers.length;
    expect(r).toMatchObject({ lines: read, added: read, updated: 0, unchanged: 0, refused: 0 });
    const byRule = Object.fromEntries(r.rules.map((c) => [c.rule, c.count]));
    expect(byRule).toEqual(data.ruleCounts);
    const total = data.ruleCounts.target + data.ruleCounts.letters + data.ruleCounts.characters;
    expect(r.message).toContain(
      `kept ${total} answers as written that break the workspace's rules (${r.rules.map((c) => `${c.rule} ${c.count}`).join(", ")})`,
    );
    expect(r.message).toContain("left out 3 lines it cannot read (each listed)");
    expect(r.skipped.map((d) => d.line)).toEqual(data.oddLineNumbers);
    expect(r.skipped[0].message).toMatch(/^6 tab-separated cells; expected 5/);
    // Examples name the line and the answer as written.
    const letters = r.rules.find((c) => c.rule === "letters")!;
    expect(letters.examples[0]).toMatchObject({ value: "x", field: expect.stringMatching(/^substitute [123]$/) });
    expect(data.tsv.split("\n")[letters.examples[0].line - 1].split("\t")[3].split(";")).toContain("x");

    // Stored exactly as written: every read line's answer, in order, nothing tidied away.
    const stored = new Map(listProjectResponses(f.db, f.coord, f.project.id).map((s) => [`${s.annotator}\t${s.instanceId}`, s.substitutes]));
    expect(stored.size).toBe(read);
    const odd = new Set(data.oddLineNumbers);
    data.tsv.split("\n").forEach((line, k) => {
      if (k === 0 || line === "" || odd.has(k + 1)) return;
      const [annotator, , id, answer] = line.split("\t");
      expect(stored.get(`${annotator}\t${id}`)).toEqual(answer.split(";"));
    });
    expect([...stored.values()].flat()).toContain("suppression .");

    // The Gold tab lists them: each substitute that is the target word, and each other form once with its rule.
    const problems = projectGold(f.db, f.coord, f.project.id).result.problems;
    expect(problems.filter((p) => /breaks the "target" rule/.test(p.message))).toHaveLength(data.ruleCounts.target);
    expect(problems.some((p) => p.message.startsWith('substitute "x" is written as given') && /"letters" rule/.test(p.message))).toBe(true);
    expect(problems.some((p) => p.message.startsWith('substitute "suppression ." is written as given') && /"characters" rule/.test(p.message))).toBe(true);
    expect(goldPageData(f.db, f.coord, f.project.id).problemCount).toBe(problems.length);
  });

  it("previews the same counts, writing nothing", () => {
    const f = project();
    const p = previewResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
    expect(Object.fromEntries(p.rules.map((c) => [c.rule, c.count]))).toEqual(data.ruleCounts);
    expect(p.skipped.map((d) => d.line)).toEqual(data.oddLineNumbers);
    expect(p.strict).toBe(false);
    expect(count(f, "responses")).toBe(0);
  });

  it("with strict, refuses the file, naming the lines, and writes nothing", () => {
    const f = project();
    let err: unknown;
    try {
      importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv }, { strict: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const details = (err as InputError).details;
    expect(details.some((d) => /\(rule: target\)$/.test(d))).toBe(true);
    expect(details.some((d) => /\(rule: letters\)$/.test(d))).toBe(true);
    expect(details.some((d) => /\(rule: characters\)$/.test(d))).toBe(true);
    expect((err as InputError).message).toMatch(/^crowd\.tsv:\d+: error: .*; nothing was imported\.$/);
    expect(count(f, "responses")).toBe(0);
    expect(count(f, "response_history")).toBe(0);
  });

  it("leaves out an answer to an instance the project does not have, naming it, and imports the rest", () => {
    const f = project();
    const text = data.tsv + "crowd01\tsay.v\t999\tstate\t\n";
    const r = importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text });
    const read = data.lines - data.oddLineNumbers.length;
    expect(r).toMatchObject({ lines: read, added: read });
    expect(r.skipped.map((d) => [d.line, d.message])).toContainEqual([data.lines + 2, 'instance "999" is not in this project']);
    expect(r.skipped).toHaveLength(data.oddLineNumbers.length + 1);
    expect(count(f, "responses")).toBe(read);
  });

  it("refuses the whole file when more than a tenth of its lines cannot be read", () => {
    const small = historicProject({ targets: 6, oddLines: 4 });
    const f = project(small);
    expect(() => importResponses(f.db, f.coord, f.project.id, { fileName: "s.tsv", text: small.tsv })).toThrow(/^s\.tsv:\d+: error: 6 tab-separated cells.*nothing was imported\.$/);
    expect(count(f, "responses")).toBe(0);
  });

  it("refuses the whole file for an annotator who is not on the team, naming the line", () => {
    const f = project();
    const text = data.tsv + "stranger\tsay.v\t100000\tstate\t\n";
    let err: unknown;
    try {
      importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text });
    } catch (e) {
      err = e;
    }
    // Every problem in line order (the odd lines too, which would otherwise have been left out).
    expect((err as InputError).details).toEqual([
      ...data.oddLineNumbers.map((n) => `crowd.tsv:${n}: error: 6 tab-separated cells; expected 5 (annotator, lexelt, instance, answer, multiword)`),
      `crowd.tsv:${data.lines + 2}: error: "stranger" is not an annotator of this project (add them on the Team page)`,
    ]);
    expect((err as InputError).message).toMatch(/\(and 3 more problems\); nothing was imported\.$/);
    expect(count(f, "responses")).toBe(0);
  });
});

describe("the gold exported from it", () => {
  it("keeps at least 99.5% of the lines exactly as the answers have them: all but the targets of the odd lines", () => {
    const f = project();
    importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
    const got = goldLines(projectGold(f.db, f.coord, f.project.id).gold);
    expect(got.size).toBe(data.expectedGold.size);
    const differ = [...data.expectedGold].filter(([id, line]) => got.get(id) !== line).map(([id]) => id);
    const oddTargets = data.oddLineNumbers.map((n) => data.tsv.split("\n")[n - 1].split("\t")[2]);
    expect(differ.sort()).toEqual([...new Set(oddTargets)].sort());
    expect(1 - differ.length / data.expectedGold.size).toBeGreaterThanOrEqual(0.995);
    // media and pence stay as typed: no proposal is applied by default.
    const all = [...got.values()].join("\n");
    expect(all).not.toMatch(/\b(medium|penny) \d+;/);
    const pence = [...all.matchAll(/\bpence (\d+);/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(pence).toBe(data.given.get("pence"));
  });

  it("the CoInCo XML export writes the substitutes as typed too", () => {
    const f = project();
    importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
    const xml = exportDataset(f.db, f.coord, f.project.id, "coinco").text;
    expect(xml).toMatch(/<subst lemma="media" /);
    expect(xml).toMatch(/<subst lemma="pence" /);
    expect(xml).not.toMatch(/<subst lemma="(medium|penny)" /);
  });

  it("a recorded decision changes the export, and only where the decided form is; re-imports and derivations change nothing", () => {
    const f = project();
    importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
    const first = projectGold(f.db, f.coord, f.project.id).gold;
    const firstXml = exportDataset(f.db, f.coord, f.project.id, "coinco").text;
    // Nothing else changes it: importing the same file again, the Gold page, agreement, another export.
    expect(importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv })).toMatchObject({ added: 0, updated: 0 });
    goldPageData(f.db, f.coord, f.project.id);
    projectAgreement(f.db, f.coord, f.project.id, { bootstrapIterations: 0 });
    exportDataset(f.db, f.coord, f.project.id, "swords");
    expect(projectGold(f.db, f.coord, f.project.id).gold).toBe(first);
    expect(exportDataset(f.db, f.coord, f.project.id, "coinco").text).toBe(firstXml);

    // The coordinator accepts media → medium: exactly the lines holding media change, media written medium.
    expect(decideLemma(f.db, f.coord, f.project.id, { form: "media", decision: "accepted" })).toEqual({ form: "media", lemma: "medium", decision: "accepted" });
    const before = goldLines(first);
    const after = goldLines(projectGold(f.db, f.coord, f.project.id).gold);
    let changed = 0;
    // (No word of the pool sorts between media and medium, so the entry keeps its place.)
    const media = /(:: |;)media (\d+);/;
    for (const [id, line] of before) {
      if (media.test(line)) {
        changed++;
        expect(after.get(id)).toBe(line.replace(media, "$1medium $2;"));
      } else expect(after.get(id)).toBe(line);
    }
    expect(changed).toBeGreaterThan(20);
    const xml = exportDataset(f.db, f.coord, f.project.id, "coinco").text;
    expect(xml).toMatch(/<subst lemma="medium" /);
    expect(xml).not.toMatch(/<subst lemma="media" /);
    expect(xml).toMatch(/<subst lemma="pence" /);
  });

  it("applies the open proposals only when asked, and names each with how often it was used", () => {
    const f = project();
    importResponses(f.db, f.coord, f.project.id, { fileName: "crowd.tsv", text: data.tsv });
    const g = projectGold(f.db, f.coord, f.project.id, { applyProposals: true });
    expect(g.result.applied).toContainEqual({ form: "pence", lemma: "penny", pos: "n", count: data.given.get("pence") });
    expect(g.result.applied).toContainEqual({ form: "media", lemma: "medium", pos: "n", count: data.given.get("media") });
    expect(g.gold).toMatch(/\bpenny \d+;/);
    expect(g.gold).not.toMatch(/\bpence \d+;/);
    // The default is untouched by having asked.
    expect(projectGold(f.db, f.coord, f.project.id).result.applied).toEqual([]);
    expect(projectGold(f.db, f.coord, f.project.id).gold).toMatch(/\bpence \d+;/);
  });
});
