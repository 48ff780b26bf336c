/**
 * A project's language (lib/lexsub/language.ts, lib/server/corpus): a BCP 47
 * tag, `en` unless given, checked and put in canonical form; it chooses the
 * lemma proposer (WordNet for English only), folds case, reaches the
 * annotators' workspace, and answers in any script go in and come out as typed.
 */
import { describe, expect, it } from "vitest";
import { canonicalLanguage, foldCase, isEnglish, textDirection } from "../../../lib/lexsub/language";
import { createProject, projectOverview } from "../../../lib/server/corpus/projects";
import { setProjectLanguage } from "../../../lib/server/corpus/project-lifecycle";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { exportResponses, importResponses } from "../../../lib/server/annotate/response-import";
import { saveResponse, workspace } from "../../../lib/server/annotate/responses";
import { decideLemma, lemmaProposer, lemmaReview, projectGold } from "../../../lib/server/gold/gold";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, testDb } from "../../support/db";

describe("canonicalLanguage", () => {
  it.each([
    ["en", "en"],
    ["de", "de"],
    ["EN-gb", "en-GB"],
    ["pt-br", "pt-BR"],
    ["sr-latn", "sr-Latn"],
    [" es ", "es"],
  ])("%j → %j", (tag, want) => {
    expect(canonicalLanguage(tag)).toBe(want);
  });

  it.each(["", "en_US", "en-", "123", "de!", "a"])("refuses %j", (tag) => {
    expect(canonicalLanguage(tag)).toBeNull();
  });

  it("writes Arabic, Hebrew, Persian and Urdu right to left, the rest left to right", () => {
    expect(["ar", "he", "fa", "ur", "az-Arab", "en", "de", "sr", "el", "az"].map(textDirection)).toEqual(["rtl", "rtl", "rtl", "rtl", "rtl", "ltr", "ltr", "ltr", "ltr", "ltr"]);
  });

  it("folds case in the language's rules", () => {
    expect(foldCase("İSTANBUL", "tr")).toBe("istanbul");
    expect(foldCase("İSTANBUL", "en")).toBe("i\u0307stanbul");
    expect(foldCase("FUSSWEG Ausmaß", "de")).toBe("fussweg ausmaß");
  });

  it("English is en and en-*, nothing else", () => {
    expect([isEnglish("en"), isEnglish("en-GB"), isEnglish("de"), isEnglish("eng"), isEnglish("es-419")]).toEqual([true, true, false, false, false]);
  });
});

function world(language?: string) {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const ann = actorFor(db, "ann", "annotator");
  const bea = actorFor(db, "bea", "annotator");
  const project = createProject(db, coord, { name: "p", language });
  addMember(db, coord, project.id, "ann");
  addMember(db, coord, project.id, "bea");
  return { db, coord, ann, bea, project };
}

// Sentences written for these tests.
const SPANISH = `<?xml version="1.0" encoding="UTF-8"?>
<corpus lang="spanish">
<lexelt item="chico.a">
<instance id="s1"><context>Vivían en un piso muy <head>chico</head> junto al río .</context></instance>
<instance id="s2"><context>El perro era <head>chico</head> pero valiente .</context></instance>
</lexelt>
</corpus>
`;

describe("a project's language", () => {
  it("is en by default; a tag is checked, put in canonical form, and set by the project's coordinators only", () => {
    const { db, coord, ann, project } = world();
    expect(project.language).toBe("en");
    expect(projectOverview(db, coord, project.id).language).toBe("en");
    expect(createProject(db, coord, { name: "q", language: "DE-at" }).language).toBe("de-AT");
    expect(() => createProject(db, coord, { name: "r", language: "en_US" })).toThrow(/Cannot create the project: "en_US" is not a BCP 47 language tag/);
    expect(() => createProject(db, coord, { name: "r", language: "" })).toThrow(/not a BCP 47 language tag/);
    expect(setProjectLanguage(db, coord, project.id, { language: " es " })).toEqual({ language: "es" });
    expect(projectOverview(db, coord, project.id).language).toBe("es");
    expect(() => setProjectLanguage(db, coord, project.id, { language: "spanish!" })).toThrow(/Cannot set the language/);
    expect(() => setProjectLanguage(db, ann, project.id, { language: "de" })).toThrow();
    const stranger = actorFor(db, "stranger", "coordinator");
    expect(() => setProjectLanguage(db, stranger, project.id, { language: "de" })).toThrow(/No such project/);
    expect(projectOverview(db, coord, project.id).language).toBe("es");
  });

  it("chooses the lemma proposer: WordNet for English only; other languages keep forms as typed", () => {
    expect(lemmaProposer("en")("houses", "n")).toBe("house");
    expect(lemmaProposer("en-GB")("houses", "n")).toBe("house");
    // German: no WordNet proposal, not even for a form WordNet would change.
    expect(lemmaProposer("de")("houses", "n")).toBe("houses");
    expect(lemmaProposer("de")(" Häuser ", "n")).toBe("Häuser");
  });

  it("reaches the workspace, and a German project's review proposes nothing while the lemma table still works by hand", () => {
    const { db, coord, ann, project } = world("de");
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<corpus lang="german">\n<lexelt item="weg.n">\n<instance id="g1"><context>Der <head>Weg</head> führt durch den Wald .</context></instance>\n</lexelt>\n</corpus>\n`;
    importLexeltXml(db, coord, project.id, { fileName: "de.xml", bytes: new TextEncoder().encode(xml) });
    const view = workspace(db, ann, project.id);
    expect(view.project.language).toBe("de");
    saveResponse(db, ann, project.id, view.instance!.ref, { kind: "substitutes", substitutes: ["Pfade", "Fußweg", "Ausmaß"], multiword: false }, { expectedRevision: 0 });
    const review = lemmaReview(db, coord, project.id);
    expect(review.map((r) => [r.form, r.proposed, r.changed])).toEqual([
      ["ausmaß", "ausmaß", false],
      ["fußweg", "fußweg", false],
      ["pfade", "pfade", false],
    ]);
    expect(decideLemma(db, coord, project.id, { form: "Pfade", decision: "overridden", lemma: "Pfad" })).toEqual({ form: "pfade", lemma: "Pfad", decision: "overridden" });
    expect(decideLemma(db, coord, project.id, { form: "Fußweg", decision: "accepted" })).toMatchObject({ form: "fußweg", lemma: "fußweg" });
    // The gold file starts with a blank line, as the official gold.trial does.
    expect(projectGold(db, coord, project.id).gold).toBe("\nweg.n g1 :: Ausmaß 1;Fußweg 1;Pfad 1;\n");
  });

  it("a responses TSV with pequeño imports, exports and writes the gold as typed (NFC, never folded)", () => {
    const { db, coord, project } = world("es");
    importLexeltXml(db, coord, project.id, { fileName: "es.xml", bytes: new TextEncoder().encode(SPANISH) });
    // bea's "pequen\u0303o" is pequeño in NFD: stored NFC.
    const text =
      "annotator\tlexelt\tinstance\tanswer\tmultiword\n" +
      "ann\tchico.a\ts1\tpequeño;diminuto\t\n" +
      "bea\tchico.a\ts1\tpequen\u0303o;crío\t\n" +
      "ann\tchico.a\ts2\tpequeño\t\n";
    const r = importResponses(db, coord, project.id, { fileName: "es.tsv", text });
    expect(r).toMatchObject({ lines: 3, added: 3 });
    const out = exportResponses(db, coord, project.id);
    expect(out.split("\n").slice(1, 4)).toEqual(["ann\tchico.a\ts1\tpequeño;diminuto\t", "bea\tchico.a\ts1\tpequeño;crío\t", "ann\tchico.a\ts2\tpequeño\t"]);
    expect(out).not.toContain("n\u0303");
    // Exported and imported again: nothing changes.
    expect(importResponses(db, coord, project.id, { fileName: "again.tsv", text: out })).toMatchObject({ added: 0, updated: 0, unchanged: 3 });
    const g = projectGold(db, coord, project.id).gold;
    expect(g).toBe("\nchico.a s1 :: pequeño 2;crío 1;diminuto 1;\nchico.a s2 :: pequeño 1;\n");
    expect(g).not.toMatch(/pequeno|crio/);
  });
});
