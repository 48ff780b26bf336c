/**
 * Issue #29: round trips through SWORDS JSON and TSAR TSV of a generated CoInCo-like
 * project (imported from CoInCo XML, then answered by annotators): lexelts whose head
 * form is not the lemma (`merged` for merge.v), the head's word repeated earlier in the
 * sentence and in the preceding one, substitutes with their PoS, problematic flags, an
 * excluded instance, a NAME and a multiword answer. Every target, head position, lexelt,
 * substitute and count comes back, or the export's report lists exactly what the format
 * could not carry. The same for a project built from lexelt XML and responses, through
 * SWORDS, CoInCo XML and TSAR.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportDataset, importDataset } from "../../../lib/server/datasets/datasets";
import { projectGold, setExclusion } from "../../../lib/server/gold/gold";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { addMember } from "../../../lib/server/people/users";
import { createProject } from "../../../lib/server/corpus/projects";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import type { Db } from "../../../db/client";
import type { Actor } from "../../../lib/server/kernel/actor";
import { actorFor, projectFixture } from "../../support/db";
import { hasSharedData } from "../../support/shared-data";

const enc = (s: string) => new TextEncoder().encode(s);

/** Words whose form is not their lemma, with substitutes and their PoS. */
const VOCAB = [
  { form: "merged", lemma: "merge", masc: "VBD", tt: "VVD", subs: [["combine", "VV"], ["join", "VV"], ["unite", "VV"]] },
  { form: "pence", lemma: "penny", masc: "NNS", tt: "NNS", subs: [["cent", "NN"], ["coin", "NN"]] },
  { form: "brighter", lemma: "bright", masc: "JJR", tt: "JJR", subs: [["lighter", "JJ"], ["sunnier", "JJ"], ["clearer", "JJ"]] },
  { form: "quickly", lemma: "quickly", masc: "RB", tt: "RB", subs: [["fast", "RB"], ["rapidly", "RB"]] },
  { form: "media", lemma: "medium", masc: "NNS", tt: "NNS", subs: [["press", "NN"], ["outlet", "NN"]] },
  { form: "went", lemma: "go", masc: "VBD", tt: "VVD", subs: [["travel", "VV"], ["move", "VV"], ["head", "VV"]] },
] as const;

const SENTENCES = 40;

/**
 * A CoInCo file of SENTENCES sentences with three targets each: in sentence i, word a
 * occurs twice in the target sentence (the second is the target) and b once (a target),
 * both also in the preceding sentence; c is a target found nowhere earlier.
 */
function coincoLike(): string {
  const out = ['<?xml version="1.0"?>', "<document>"];
  for (let i = 0; i < SENTENCES; i++) {
    const [a, b, c] = [VOCAB[i % 6], VOCAB[(i + 1) % 6], VOCAB[(i + 2) % 6]];
    const pre = `Earlier the ${a.form} and the ${b.form} were seen in part ${i}.`;
    const post = i % 3 === 0 ? "" : `Later came part ${i + 1}.`;
    // [wordform, the target's vocabulary entry or null]
    const tokens: [string, (typeof VOCAB)[number] | null][] = [
      ["Then", null],
      [a.form, null],
      ["and", null],
      [b.form, b],
      ["so", null],
      [a.form, a],
      ["again", null],
      [c.form, c],
      [".", null],
    ];
    out.push(`  <sent MASCfile="gen-${i % 4}.txt" MASCsentID="s-${i}" >`);
    out.push(`    <precontext>\n    ${pre}\n    </precontext>`);
    out.push(`    <targetsentence>\n    ${tokens.map((t) => t[0]).join(" ")}\n    </targetsentence>`);
    out.push(`    <postcontext>\n    ${post}\n    </postcontext>`, "    <tokens>");
    let k = 0;
    for (const [form, v] of tokens) {
      if (!v) {
        out.push(`      <token id="XXX" wordform="${form}" lemma="${form.toLowerCase()}" posMASC="XXX" posTT="XX${k % 3}" />`);
        continue;
      }
      k++;
      const id = String(1000 + i * 10 + k);
      const problematic = (i + k) % 5 === 0 ? "yes" : "no";
      // Sentences 7, 14, …: their last target has no substitute.
      const subs = i % 7 === 0 && k === 3 ? [] : v.subs.slice(0, 1 + ((i + k) % v.subs.length));
      out.push(`      <token id="${id}" wordform="${form}" lemma="${v.lemma}" posMASC="${v.masc}" posTT="${v.tt}" problematic="${problematic}" >`);
      out.push("        <substitutions>");
      subs.forEach(([s, pos], j) => out.push(`          <subst lemma="${s}" pos="${pos}${j}" freq="${1 + ((i + j + k) % 4)}" />`));
      out.push("        </substitutions>", "      </token>");
    }
    out.push("    </tokens>", "  </sent>");
  }
  out.push("</document>", "");
  return out.join("\n");
}

function fixture() {
  const f = projectFixture();
  importDataset(f.db, f.coord, f.project.id, { format: "coinco", fileName: "gen.xml", bytes: enc(coincoLike()) });
  for (const name of ["ann2", "ann3"]) {
    actorFor(f.db, name, "annotator");
    addMember(f.db, f.coord, f.project.id, name);
  }
  // Annotators add to the imported counts: a substitute CoInCo has, a new one, a NAME answer and a multiword.
  importResponses(f.db, f.coord, f.project.id, {
    fileName: "r.tsv",
    text: [
      "annotator\tlexelt\tinstance\tanswer\tmultiword",
      "ann\tmerge.v\t1002\tcombine;fuse\t",
      "ann2\tmerge.v\t1002\tfuse\tmerged together",
      "ann3\tpenny.n\t1001\tNAME\t",
      "ann\tgo.v\t1033\tproceed\t",
      "",
    ].join("\n"),
  });
  // The first target of its sentence: the one whose fields keep the sentence's tokens.
  setExclusion(f.db, f.coord, f.project.id, "1061", "noise");
  return f;
}

interface Row {
  id: string;
  lexelt: string;
  before: string;
  head: string;
  after: string;
}
function instancesOf(db: Db, projectId: number): Row[] {
  return db.$client
    .prepare(
      `select i.instance_id as id, l.item as lexelt, i.before, i.head, i.after from instances i join lexelts l on l.id = i.lexelt_id
       where l.project_id = ? and i.excluded_reason is null order by i.position`,
    )
    .all(projectId) as Row[];
}

/** Each instance's gold entries (NAME answers left out), as the project's gold has them. */
function goldOf(db: Db, actor: Actor, projectId: number): Map<string, [string, number][]> {
  const items = projectGold(db, actor, projectId).result.items.filter((i) => i.excluded === null);
  return new Map(items.map((i) => [i.instanceId, i.entries.filter((e) => e.substitute !== "pn").map((e) => [e.substitute, e.count] as [string, number])]));
}

/** The ids a report sentence lists after its count ("(a, b, …)" or "(e.g. a, b, …)"). */
function listed(sentence: string): { n: number; ids: string[] } {
  const n = Number(/^(\d+) /.exec(sentence)![1]);
  const ids = /\((?:e\.g\. )?([^()]*?)(?:, …)?\)$/.exec(sentence)![1].split(", ");
  return { n, ids };
}

describe("SWORDS round trip of a CoInCo-like project", () => {
  it("gives back every instance id, lexelt, head position, substitute and count, and CoInCo's own fields", () => {
    const { db, coord, project } = fixture();
    const out = exportDataset(db, coord, project.id, "swords");
    const back = createProject(db, coord, { name: "back" });
    const report = importDataset(db, coord, back.id, { format: "swords", fileName: "p.swords.json", bytes: enc(out.text) });
    expect(report.instancesAdded).toBe(SENTENCES * 3 - 1);

    // Targets: the same ids, lexelts (merge.v, not merged.v) and text split at the same place.
    const original = instancesOf(db, project.id);
    expect(original.some((r) => r.lexelt === "merge.v" && r.head === "merged")).toBe(true);
    expect(instancesOf(db, back.id)).toEqual(original);
    // Substitutes and counts: the gold of the project read back is the gold written (NAME answers aside).
    expect(goldOf(db, coord, back.id)).toEqual(goldOf(db, coord, project.id));
    expect(goldOf(db, coord, back.id).get("1002")).toContainEqual(["fuse", 2]);

    // CoInCo's fields came back: the CoInCo file written from either project is the same, byte for byte
    // (MASC ids, tokens with posTT, problematic flags, each substitute's PoS).
    const coinco = exportDataset(db, coord, project.id, "coinco").text;
    expect(coinco).toContain('<token id="1002" wordform="merged" lemma="merge" posMASC="VBD" posTT="VVD" problematic="no" >');
    expect(coinco).toContain('<token id="1032" wordform="quickly" lemma="quickly" posMASC="RB" posTT="RB" problematic="yes" >');
    expect(coinco).toContain('posTT="XX1"');
    // The excluded first target's sentence keeps its tokens.
    const s6 = coinco.slice(coinco.indexOf('MASCsentID="s-6"'), coinco.indexOf('MASCsentID="s-7"'));
    expect(s6).toContain('<token id="XXX" wordform="Then" lemma="then" posMASC="XXX" posTT="XX0" />');
    expect(coinco).toContain('<subst lemma="combine" pos="VV0"');
    expect(exportDataset(db, coord, back.id, "coinco").text).toBe(coinco);
    // And SWORDS → project → SWORDS gives the same object.
    expect(JSON.parse(exportDataset(db, coord, back.id, "swords").text)).toEqual(JSON.parse(out.text));

    // What SWORDS could not carry, and nothing else.
    expect(out.lost).toEqual([
      "1 excluded instance was left out",
      "1 NAME answer (pn) was dropped: SWORDS has no proper-name entry",
      "1 instance had multiword answers, which SWORDS cannot carry (1002)",
      expect.stringMatching(/^2 instances have annotators' substitutes: each is written as TRUE labels only .*which annotator gave it is not written$/),
      "modes are not written: SWORDS keeps labels, not modes (the mode follows from the counts)",
    ]);
  });
});

describe("TSAR round trip of a CoInCo-like project", () => {
  it("gives back every target's text, substitutes and counts; the heads a reader places elsewhere are exactly the ones reported", () => {
    const { db, coord, project } = fixture();
    const out = exportDataset(db, coord, project.id, "tsar");
    const back = createProject(db, coord, { name: "back" });
    importDataset(db, coord, back.id, { format: "tsar", fileName: "p.tsv", bytes: enc(out.text), idPrefix: "p" });
    const original = instancesOf(db, project.id);
    const read = instancesOf(db, back.id);
    expect(read).toHaveLength(original.length);
    expect(out.written).toBe(original.length);

    const moved: string[] = [];
    read.forEach((r, k) => {
      const o = original[k];
      // The line's instance id is the prefix and line number; the lexelt is the word lower-cased with PoS x (both reported).
      expect(r.id).toBe(`p:${k + 1}`);
      expect(r.lexelt).toBe(`${o.head.toLowerCase()}.x`);
      expect(r.head).toBe(o.head);
      expect(r.before + r.head + r.after).toBe(o.before + o.head + o.after);
      if (r.before.length !== o.before.length) moved.push(o.id);
    });
    // Every b target (the word is in the preceding sentence) and every second a moves (one b is excluded); the c targets stay.
    expect(moved.length).toBe(2 * SENTENCES - 1);
    const report = out.lost.find((l) => /have their head at another occurrence/.test(l))!;
    const { n, ids } = listed(report);
    expect(n).toBe(moved.length);
    expect(ids).toEqual(moved.slice(0, 10));

    // Substitutes and counts come back line by line (a target with none is a line with no annotation).
    const gold = goldOf(db, coord, project.id);
    const readGold = goldOf(db, coord, back.id);
    read.forEach((r, k) => expect(readGold.get(r.id) ?? []).toEqual(gold.get(original[k].id) ?? []));

    expect(out.lost).toEqual([
      "1 excluded instance was left out",
      // Sentences 0, 7, 14, 21, 28 and 35: their third target.
      "6 instances without a substitute were written with no annotation column",
      report,
      "1 NAME answer (pn) was dropped: TSAR has no proper-name entry",
      "1 instance had multiword answers, which TSAR cannot carry (1002)",
      "2 instances have annotators' substitutes: which annotator gave each is not written, only how many did",
      expect.stringMatching(new RegExp(`^${SENTENCES * 3 - 1} instances' CoInCo fields \\(MASC file and sentence ids, .*each substitute's PoS\\) are not written$`)),
      "lexelts (lemma and PoS) and instance ids are not written: TSAR lines are the sentence and the complex word only",
      "modes are not written: TSAR keeps counts (the mode follows from them)",
    ]);
  });
});

const sharedCoinco = path.resolve(__dirname, "../../../../shared/data/coinco/coinco-sample.xml");

describe("round trips of the shared CoInCo sample", () => {
  it.skipIf(!hasSharedData(sharedCoinco))("SWORDS gives it back whole; TSAR moves exactly the heads it reports", () => {
    const { db, coord, project } = projectFixture();
    importDataset(db, coord, project.id, { format: "coinco", fileName: "coinco-sample.xml", bytes: readFileSync(sharedCoinco) });
    const original = instancesOf(db, project.id);
    const gold = goldOf(db, coord, project.id);

    const swords = exportDataset(db, coord, project.id, "swords");
    const viaSwords = createProject(db, coord, { name: "via-swords" });
    importDataset(db, coord, viaSwords.id, { format: "swords", fileName: "s.json", bytes: enc(swords.text) });
    expect(instancesOf(db, viaSwords.id)).toEqual(original);
    expect(goldOf(db, coord, viaSwords.id)).toEqual(gold);
    expect(exportDataset(db, coord, viaSwords.id, "coinco").text).toBe(exportDataset(db, coord, project.id, "coinco").text);
    expect(swords.lost).toEqual(["modes are not written: SWORDS keeps labels, not modes (the mode follows from the counts)"]);

    const tsar = exportDataset(db, coord, project.id, "tsar");
    const viaTsar = createProject(db, coord, { name: "via-tsar" });
    importDataset(db, coord, viaTsar.id, { format: "tsar", fileName: "t.tsv", bytes: enc(tsar.text), idPrefix: "t" });
    const read = instancesOf(db, viaTsar.id);
    expect(read.map((r) => r.before + r.head + r.after)).toEqual(original.map((o) => o.before + o.head + o.after));
    const moved = original.filter((o, k) => read[k].before.length !== o.before.length).map((o) => o.id);
    const report = tsar.lost.find((l) => /have their head at another occurrence/.test(l));
    if (moved.length === 0) expect(report).toBeUndefined();
    else expect(listed(report!)).toEqual({ n: moved.length, ids: moved.slice(0, 10) });
  });
});

describe("round trips of a project built from lexelt XML and annotators' responses", () => {
  /** Instances of merge.v and penny.n whose head's word occurs earlier in the context in every other one. */
  function responsesProject() {
    const f = projectFixture();
    const lexelts: Record<string, { form: string; answers: string[] }> = {
      "merge.v": { form: "merged", answers: ["combine", "fuse", "join"] },
      "penny.n": { form: "pence", answers: ["cent", "coin"] },
    };
    const xml = ['<?xml version="1.0"?>', '<corpus lang="english">'];
    const lines = ["annotator\tlexelt\tinstance\tanswer\tmultiword"];
    for (const [lexelt, { form, answers }] of Object.entries(lexelts)) {
      xml.push(`<lexelt item="${lexelt}">`);
      for (let i = 0; i < 12; i++) {
        const id = `${lexelt.slice(0, 2)}${i}`;
        const lead = i % 2 === 0 ? `They ${form} twice, and then ` : "Then ";
        xml.push(`<instance id="${id}"><context>${lead}the others <head>${form}</head> in part ${i}.</context></instance>`);
        lines.push(`ann\t${lexelt}\t${id}\t${answers[i % answers.length]};${answers[(i + 1) % answers.length]}\t`);
        lines.push(`ann2\t${lexelt}\t${id}\t${answers[i % answers.length]}\t`);
      }
      xml.push("</lexelt>");
    }
    xml.push("</corpus>", "");
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: enc(xml.join("\n")) });
    actorFor(f.db, "ann2", "annotator");
    addMember(f.db, f.coord, f.project.id, "ann2");
    importResponses(f.db, f.coord, f.project.id, { fileName: "r.tsv", text: lines.join("\n") + "\n" });
    return f;
  }

  it.each(["swords", "coinco"] as const)("%s gives back every instance id, lexelt, head position, substitute and count", (format) => {
    const { db, coord, project } = responsesProject();
    const out = exportDataset(db, coord, project.id, format);
    const back = createProject(db, coord, { name: "back" });
    importDataset(db, coord, back.id, { format, fileName: `p.${format}`, bytes: enc(out.text) });
    const original = instancesOf(db, project.id);
    expect(original.filter((o) => o.before.includes(o.head)).length).toBe(12);
    expect(instancesOf(db, back.id)).toEqual(original);
    expect(goldOf(db, coord, back.id)).toEqual(goldOf(db, coord, project.id));
    expect(out.lost.join("\n")).not.toMatch(/head|placed/);
  });

  it("TSAR gives back text, substitutes and counts, and reports the heads it cannot place", () => {
    const { db, coord, project } = responsesProject();
    const out = exportDataset(db, coord, project.id, "tsar");
    const back = createProject(db, coord, { name: "back" });
    importDataset(db, coord, back.id, { format: "tsar", fileName: "p.tsv", bytes: enc(out.text) });
    const original = instancesOf(db, project.id);
    const read = instancesOf(db, back.id);
    const moved = original.filter((o, k) => read[k].before.length !== o.before.length).map((o) => o.id);
    expect(moved).toEqual(original.filter((o) => o.before.includes(o.head)).map((o) => o.id));
    expect(listed(out.lost.find((l) => /have their head at another occurrence/.test(l))!)).toEqual({ n: 12, ids: moved.slice(0, 10) });
    const gold = goldOf(db, coord, project.id);
    const readGold = goldOf(db, coord, back.id);
    read.forEach((r, k) => expect(readGold.get(r.id)).toEqual(gold.get(original[k].id)));
  });
});

describe("what TSAR and CoInCo cannot carry of a SWORDS file", () => {
  it.each(["tsar", "coinco"] as const)("%s lists the substitutes nobody gave, the labels beyond counts and SWORDS's own fields", (format) => {
    const { db, coord, project } = projectFixture();
    const bytes = readFileSync(path.resolve(__dirname, "../../../samples/datasets/swords-small.json"));
    importDataset(db, coord, project.id, { format: "swords", fileName: "swords-small.json", bytes });
    const lost = exportDataset(db, coord, project.id, format).lost;
    // diary (t:ledger) has three FALSE labels and no TRUE one; t:ledger and t:fierce have labels other than TRUE, t:tidy only TRUE ones.
    expect(lost).toContain("1 substitute nobody gave (count 0: SWORDS substitutes with no TRUE label) was left out");
    expect(lost).toContain("2 instances' SWORDS labels are written as counts (TRUE + TRUE_IMPLICIT): which were TRUE_IMPLICIT, the FALSE and UNSURE ones and their order are not written");
    expect(lost).toContain("3 instances' SWORDS fields (context, target and substitute ids, their extra) are not written");
  });
});
