import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLexeltXml } from "../../../lib/lexsub/formats/lexelt";
import { parseResponsesTsv } from "../../../lib/lexsub/formats/responses";
import { DEMO_RESPONDENTS, seedDemo } from "../../../lib/server/ops/demo";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { exportResponses, importResponses, listProjectResponses, previewResponses } from "../../../lib/server/annotate/response-import";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { setAssignments } from "../../../lib/server/annotate/assignments";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture, testDb } from "../../support/db";
import { seedParticipant, seedStudy } from "../../support/crowd";
import { createProject } from "../../../lib/server/corpus/projects";
import { SYSTEM } from "../../../lib/server/kernel/actor";

const HEADER = "annotator\tlexelt\tinstance\tanswer\tmultiword";
const tsv = (...lines: string[]) => [HEADER, ...lines].join("\n") + "\n";

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a">
<instance id="c1"><context>a <head>calm</head> sea</context></instance>
<instance id="c2"><context>stay <head>calm</head> please</context></instance>
</lexelt>
<lexelt item="hop.v">
<instance id="h1"><context>birds <head>hop</head> about</context></instance>
</lexelt>
</corpus>
`;

/** A project with three instances and two annotator members, ann and bea. */
function setup() {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
  const bea = actorFor(f.db, "bea", "annotator");
  addMember(f.db, f.coord, f.project.id, "bea");
  return { ...f, bea };
}

const count = (db: ReturnType<typeof setup>["db"], table: string) =>
  (db.$client.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

const good = tsv("ann\tcalm.a\tc1\tstill;peaceful\t", "ann\tcalm.a\tc2\tNIL\t", "bea\tcalm.a\tc1\tstill\t", "bea\thop.v\th1\tjump;skip\thop about");

describe("importResponses", () => {
  it("adds every line, with a history row per response marked as an import", () => {
    const { db, coord, project } = setup();
    const r = importResponses(db, coord, project.id, { fileName: "r.tsv", text: good });
    expect(r).toMatchObject({ lines: 4, added: 4, updated: 0, unchanged: 0 });
    expect(r.message).toBe("r.tsv: 4 responses; added 4, updated 0, unchanged 0.");
    const history = db.$client.prepare("select source, revision, kind, substitutes, multiword from response_history order by id").all();
    expect(history).toEqual([
      { source: "import", revision: 1, kind: "substitutes", substitutes: '["still","peaceful"]', multiword: null },
      { source: "import", revision: 1, kind: "NIL", substitutes: "[]", multiword: null },
      { source: "import", revision: 1, kind: "substitutes", substitutes: '["still"]', multiword: null },
      { source: "import", revision: 1, kind: "substitutes", substitutes: '["jump","skip"]', multiword: "hop about" },
    ]);
  });

  it("counts a re-import as unchanged and writes nothing; a changed line bumps the revision", () => {
    const { db, coord, project } = setup();
    importResponses(db, coord, project.id, { fileName: "r.tsv", text: good });
    const again = importResponses(db, coord, project.id, { fileName: "r.tsv", text: good });
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 4 });
    expect(again.message).toBe("r.tsv: 4 responses, all already stored as given; nothing changed.");
    expect(count(db, "response_history")).toBe(4);

    const changed = importResponses(db, coord, project.id, {
      fileName: "s.tsv",
      text: tsv("ann\tcalm.a\tc1\tstill;peaceful\t", "ann\tcalm.a\tc2\tserene\t", "ann\thop.v\th1\tNAME\t"),
    });
    expect(changed).toMatchObject({ added: 1, updated: 1, unchanged: 1 });
    expect(db.$client.prepare("select kind, substitutes, revision from responses r join instances i on i.id = r.instance_ref where i.instance_id = 'c2'").get()).toEqual({
      kind: "substitutes",
      substitutes: '["serene"]',
      revision: 2,
    });
    expect(db.$client.prepare("select revision, source from response_history order by id desc limit 2").all()).toEqual([
      { revision: 1, source: "import" },
      { revision: 2, source: "import" },
    ]);
  });

  it.each<[string, string, string]>([
    ["an unknown annotator", "zed\tcalm.a\tc1\tstill\t", 'bad.tsv:3: error: "zed" is not an annotator of this project (add them on the Team page)'],
    ["an annotator outside the project", "out\tcalm.a\tc1\tstill\t", 'bad.tsv:3: error: "out" is not an annotator of this project (add them on the Team page)'],
    ["a coordinator", "coord\tcalm.a\tc1\tstill\t", 'bad.tsv:3: error: "coord" is not an annotator of this project (add them on the Team page)'],
    ["an unknown instance", "ann\tcalm.a\tc9\tstill\t", 'bad.tsv:3: error: instance "c9" is not in this project'],
    ["a lexelt mismatch", "ann\thop.v\tc2\tjump\t", "bad.tsv:3: error: instance \"c2\" belongs to lexelt calm.a, not hop.v"],
    ["four substitutes", "ann\tcalm.a\tc2\ta;b;c;d\t", 'bad.tsv:3: error: 4 substitutes in "a;b;c;d": at most 3 are allowed'],
    ["a malformed row", "ann\tcalm.a", "bad.tsv:3: error: 2 tab-separated cells; expected 5 (annotator, lexelt, instance, answer, multiword)"],
    // The rules the workspace applies at save, each named with the field and the rule.
    ["a comma list", "ann\tcalm.a\tc2\tsecluded, peaceful\t", 'bad.tsv:3: error: answer, substitute 1 "secluded, peaceful": one substitute per field — separate substitutes with “;” (at most 3) (rule: list)'],
    ["markup", "ann\tcalm.a\tc2\tstill;<b>serene</b>\t", 'bad.tsv:3: error: answer, substitute 2 "<b>serene</b>": no markup: the gold files cannot hold “<” or “>” (rule: markup)'],
    ["a one-letter substitute", "ann\tcalm.a\tc2\tx\t", 'bad.tsv:3: error: answer, substitute 1 "x": a substitute has at least two letters (rule: letters)'],
    ["the target word as a substitute", "ann\tcalm.a\tc2\tstill;Calm\t", 'bad.tsv:3: error: answer, substitute 2 "Calm": "Calm" is the target word itself; give a different word or phrase (rule: target)'],
    ["a multiword without the target", "ann\thop.v\th1\tjump\tleap about", 'bad.tsv:3: error: multiword "leap about": the phrase must contain the target word: “hop” (rule: target)'],
    ["a one-word multiword", "ann\thop.v\th1\tjump\thopping", 'bad.tsv:3: error: multiword "hopping": a multiword phrase has at least two words (rule: words)'],
  ])("with strict, refuses the whole file for %s, naming the line", (_what, line, message) => {
    const { db, coord, project } = setup();
    actorFor(db, "out", "annotator");
    let err: unknown;
    try {
      importResponses(db, coord, project.id, { fileName: "bad.tsv", text: tsv("bea\tcalm.a\tc1\tstill\t", line, "ann\tcalm.a\tc1\tstill\t") }, { strict: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).details).toEqual([message]);
    expect((err as InputError).message).toBe(`${message}; nothing was imported.`);
    // All or nothing: the good lines around the bad one were not written.
    expect(count(db, "responses")).toBe(0);
    expect(count(db, "response_history")).toBe(0);
  });

  it("lists every bad line at once and says how many there are", () => {
    const { db, coord, project } = setup();
    const text = tsv("zed\tcalm.a\tc1\tstill\t", "ann\tcalm.a\tc9\tstill\t", "ann\thop.v\tc2\tjump\t");
    expect(() => importResponses(db, coord, project.id, { fileName: "b.tsv", text })).toThrow(
      'b.tsv:2: error: "zed" is not an annotator of this project (add them on the Team page) (and 2 more problems); nothing was imported.',
    );
  });

  it("with strict, lists the lines the reader refuses and those the project refuses together, in line order", () => {
    const { db, coord, project } = setup();
    const text = tsv("ann\thop.v\th1\tjump\tleap about", "ann\tcalm.a\tc1\tstill, serene\t", "zed\tcalm.a\tc2\tstill\t");
    let err: unknown;
    try {
      importResponses(db, coord, project.id, { fileName: "b.tsv", text }, { strict: true });
    } catch (e) {
      err = e;
    }
    expect((err as InputError).details).toEqual([
      'b.tsv:2: error: multiword "leap about": the phrase must contain the target word: “hop” (rule: target)',
      'b.tsv:3: error: answer, substitute 1 "still, serene": one substitute per field — separate substitutes with “;” (at most 3) (rule: list)',
      'b.tsv:4: error: "zed" is not an annotator of this project (add them on the Team page)',
    ]);
    expect(count(db, "responses")).toBe(0);
  });

  it("refuses an empty file", () => {
    const { db, coord, project } = setup();
    expect(() => importResponses(db, coord, project.id, { fileName: "e.tsv", text: HEADER + "\n" })).toThrow(/no responses in the file/);
  });

  it("is for coordinators of the project only", () => {
    const { db, ann, project } = setup();
    expect(() => importResponses(db, ann, project.id, { fileName: "r.tsv", text: good })).toThrow(AuthError);
    expect(() => importResponses(db, null, project.id, { fileName: "r.tsv", text: good })).toThrow(AuthError);
    const stranger = actorFor(db, "stranger", "coordinator");
    expect(() => importResponses(db, stranger, project.id, { fileName: "r.tsv", text: good })).toThrow(NotFoundError);
    expect(count(db, "responses")).toBe(0);
  });
});

describe("exportResponses", () => {
  it("writes the responses in corpus order, then by annotator, and reads back unchanged", () => {
    const { db, coord, project } = setup();
    const shuffled = tsv("bea\thop.v\th1\tjump;skip\thop about", "bea\tcalm.a\tc1\tstill\t", "ann\tcalm.a\tc2\tNIL\t", "ann\tcalm.a\tc1\tstill;peaceful\t");
    importResponses(db, coord, project.id, { fileName: "r.tsv", text: shuffled });
    const out = exportResponses(db, coord, project.id);
    expect(out).toBe(tsv("ann\tcalm.a\tc1\tstill;peaceful\t", "bea\tcalm.a\tc1\tstill\t", "ann\tcalm.a\tc2\tNIL\t", "bea\thop.v\th1\tjump;skip\thop about"));
    // Round trip: exporting, importing the export, and exporting again changes nothing.
    expect(importResponses(db, coord, project.id, { fileName: "out.tsv", text: out })).toMatchObject({ unchanged: 4, added: 0, updated: 0 });
    expect(exportResponses(db, coord, project.id)).toBe(out);
  });

  it("is refused to annotators and to coordinators of other projects", () => {
    const { db, ann, bea, project } = setup();
    expect(() => exportResponses(db, ann, project.id)).toThrow(AuthError);
    expect(() => listProjectResponses(db, bea, project.id)).toThrow(AuthError);
    expect(() => exportResponses(db, actorFor(db, "other", "coordinator"), project.id)).toThrow(NotFoundError);
  });
});

describe("the demo responses", () => {
  const samples = path.resolve(__dirname, "../../../samples");
  const corpus = { fileName: "demo.xml", bytes: readFileSync(path.join(samples, "demo.xml")) };
  const demo = { fileName: "demo-responses.tsv", text: readFileSync(path.join(samples, "demo-responses.tsv"), "utf8") };

  it("answer every instance of the demo corpus once per demo respondent, under its own lexelt", () => {
    const parsed = parseResponsesTsv(demo.text, demo.fileName);
    expect(parsed.diagnostics).toEqual([]);
    const xmlText = new TextDecoder().decode(corpus.bytes);
    const lexeltOf = new Map(parseLexeltXml(xmlText, "demo.xml").corpus!.lexelts.flatMap((l) => l.instances.map((i) => [i.id, l.item] as const)));
    const expected = [...lexeltOf.keys()].flatMap((id) => DEMO_RESPONDENTS.map((a) => `${a} ${lexeltOf.get(id)} ${id}`)).sort();
    expect(parsed.responses.map((r) => `${r.annotator} ${r.lexelt} ${r.instanceId}`).sort()).toEqual(expected);
  });

  it("are imported by seedDemo once, and a second run leaves them alone", () => {
    const db = testDb();
    const first = seedDemo(db, corpus, demo);
    expect(first.responsesMessage).toMatch(/added \d+, updated 0, unchanged 0/);
    const n = count(db as ReturnType<typeof setup>["db"], "responses");
    expect(n).toBe(parseResponsesTsv(demo.text, demo.fileName).responses.length);
    expect(seedDemo(db, corpus, demo).responsesMessage).toBe("demo responses already present; left as they are");
    expect(count(db as ReturnType<typeof setup>["db"], "responses")).toBe(n);
    // annotator1 keeps an empty queue for trying the workspace.
    expect(db.$client.prepare("select count(*) as n from responses r join users u on u.id = r.user_id where u.name = 'annotator1'").get()).toEqual({ n: 0 });
  });
});

describe("a responses import asks before it overwrites", () => {
  const lexeltId = (db: ReturnType<typeof setup>["db"], item: string) =>
    (db.$client.prepare("select id from lexelts where item = ?").get(item) as { id: number }).id;
  const snapshot = (db: ReturnType<typeof setup>["db"]) => db.$client.prepare("select * from responses order by id").all();

  it("the preview writes nothing and lists what the import then does, exactly", () => {
    const { db, coord, project } = setup();
    importResponses(db, coord, project.id, { fileName: "r.tsv", text: tsv("ann\tcalm.a\tc1\tstill\t", "ann\tcalm.a\tc2\tNIL\t") });
    const before = snapshot(db);
    const text = tsv("ann\tcalm.a\tc1\tserene\t", "ann\tcalm.a\tc2\tNIL\t", "bea\thop.v\th1\tjump\t");
    const preview = previewResponses(db, coord, project.id, { fileName: "p.tsv", text });
    expect(snapshot(db)).toEqual(before);
    expect(preview).toMatchObject({ lines: 3, add: 1, update: 1, unchanged: 1, refuse: 0 });
    expect(preview.first.update).toEqual([{ line: 2, annotator: "ann", lexelt: "calm.a", instanceId: "c1", answer: "serene", was: "still" }]);
    expect(preview.first.add.map((r) => [r.line, r.annotator, r.instanceId, r.answer])).toEqual([[4, "bea", "h1", "jump"]]);
    const report = importResponses(db, coord, project.id, { fileName: "p.tsv", text }, { expectedToken: preview.token });
    expect(report).toMatchObject({ added: preview.add, updated: preview.update, unchanged: preview.unchanged, refused: 0 });
  });

  it("the confirm is refused, writing nothing, when a response changed since the preview", () => {
    const { db, coord, ann, project } = setup();
    const text = tsv("ann\tcalm.a\tc1\tserene\t");
    const preview = previewResponses(db, coord, project.id, { fileName: "p.tsv", text });
    expect(preview).toMatchObject({ add: 1, update: 0 });
    // The annotator answers c1 in the workspace meanwhile: the import would now overwrite it.
    const ref = (db.$client.prepare("select id from instances where instance_id = 'c1'").get() as { id: number }).id;
    saveResponse(db, ann, project.id, ref, { kind: "substitutes", substitutes: ["quiet"], multiword: false }, { expectedRevision: 0 });
    const before = snapshot(db);
    expect(() => importResponses(db, coord, project.id, { fileName: "p.tsv", text }, { expectedToken: preview.token })).toThrow(/changed since the preview/);
    expect(snapshot(db)).toEqual(before);
    // Previewed again, the overwrite is shown as such.
    expect(previewResponses(db, coord, project.id, { fileName: "p.tsv", text }).first.update).toMatchObject([{ instanceId: "c1", was: "quiet", answer: "serene" }]);
  });

  it("answers for lexelts the annotator is not assigned are refused unless accepted", () => {
    const { db, coord, ann, project } = setup();
    setAssignments(db, coord, project.id, ann.userId, [lexeltId(db, "calm.a")]);
    const text = tsv("ann\tcalm.a\tc1\tstill\t", "ann\thop.v\th1\tjump\t");
    const preview = previewResponses(db, coord, project.id, { fileName: "u.tsv", text });
    expect(preview).toMatchObject({ add: 1, refuse: 1 });
    expect(preview.first.refuse).toEqual([{ line: 3, annotator: "ann", lexelt: "hop.v", instanceId: "h1", answer: "jump", reason: "ann is not assigned lexelt hop.v" }]);
    const report = importResponses(db, coord, project.id, { fileName: "u.tsv", text }, { expectedToken: preview.token });
    expect(report).toMatchObject({ added: 1, refused: 1 });
    expect(count(db, "responses")).toBe(1);
    // A token from the preview without the option does not confirm an import with it.
    expect(() => importResponses(db, coord, project.id, { fileName: "u.tsv", text }, { acceptUnassigned: true, expectedToken: preview.token })).toThrow(/preview/);
    const accepting = previewResponses(db, coord, project.id, { fileName: "u.tsv", text }, { acceptUnassigned: true });
    expect(accepting).toMatchObject({ add: 1, unchanged: 1, refuse: 0 });
    importResponses(db, coord, project.id, { fileName: "u.tsv", text }, { acceptUnassigned: true, expectedToken: accepting.token });
    expect(count(db, "responses")).toBe(2);
  });
});

describe("crowd participants' answers (issue #32)", () => {
  /**
   * Project "wave" (the corpus above) with a Prolific study of two participants, named as a
   * study's join names them: P1 answered c1 and c2, P2 answered c1 and was rejected and left
   * out of the gold. Project "main" (the same corpus, coordinated by coord too) has ann only.
   */
  function crowdSetup() {
    const f = setup();
    const { db, coord } = f;
    const wave = f.project;
    const main = createProject(db, coord, { name: "main" });
    importLexeltXml(db, coord, main.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
    addMember(db, coord, main.id, "ann");
    const study = seedStudy(db, wave.id, { name: "pilot" });
    const ref = (id: string) => (db.$client.prepare("select id from instances where project_id = ? and instance_id = ?").get(wave.id, id) as { id: number }).id;
    const person = (pid: string) => {
      const p = seedParticipant(db, study, pid, { state: "finished" });
      db.$client.prepare("update users set name = ? where id = ?").run(`prolific:${study}:${pid}`, p.actor.userId);
      return p;
    };
    const p1 = person("5f0a00000000000000000001");
    const p2 = person("5f0a00000000000000000002");
    const put = (userId: number, instance: string, subs: string[]) =>
      db.$client.prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, revision, updated_at) values (?, ?, ?, 'substitutes', ?, 1, ?)").run(wave.id, ref(instance), userId, JSON.stringify(subs), Date.now());
    put(p1.actor.userId, "c1", ["still"]);
    put(p1.actor.userId, "c2", ["serene"]);
    put(p2.actor.userId, "c1", ["xylophone"]);
    db.$client.prepare("update participants set review = 'rejected', review_reason = 'same word' where id = ?").run(p2.id);
    db.$client.prepare("insert into participant_exclusions (project_id, participant_id, decided_at) values (?, ?, ?)").run(wave.id, p2.id, Date.now());
    const text = exportResponses(db, coord, wave.id);
    return { ...f, wave, main, study, p1, p2, text, n1: `prolific:${study}:5f0a00000000000000000001`, n2: `prolific:${study}:5f0a00000000000000000002` };
  }
  const answersIn = (db: ReturnType<typeof setup>["db"], projectId: number) =>
    (db.$client.prepare("select u.name as who, i.instance_id as iid, r.substitutes as subs from responses r join users u on u.id = r.user_id join instances i on i.id = r.instance_ref where r.project_id = ? order by u.name, i.instance_id").all(projectId) as { who: string; iid: string; subs: string }[]).map(
      (r) => `${r.who} ${r.iid} ${r.subs}`,
    );

  it("a participants' export goes into another project of the same coordinator under the names as written, the left-out participant refused and said", () => {
    const { db, coord, main, p1, text, n1, n2 } = crowdSetup();
    expect(text.split("\n").filter((l) => l.startsWith("prolific:"))).toHaveLength(3);
    const preview = previewResponses(db, coord, main.id, { fileName: "wave.tsv", text });
    expect(preview).toMatchObject({ add: 2, refuse: 1, participants: { count: 1, lines: 2, from: ["p"] } });
    expect(preview.first.refuse).toEqual([{ line: 3, annotator: n2, lexelt: "calm.a", instanceId: "c1", answer: "xylophone", reason: 'left out of the gold in "p" (put their answers back there to carry them)' }]);
    expect(preview.message).toBe(
      'wave.tsv: 3 responses; importing would add 2, update 0, leave 0 unchanged, refuse 1 (1 of participants left out of the gold in their project), read 2 lines of 1 crowd participant of "p" as theirs (not made members of this project; their review and payments stay with their study). Nothing has changed yet.',
    );
    const report = importResponses(db, coord, main.id, { fileName: "wave.tsv", text }, { expectedToken: preview.token });
    expect(report).toMatchObject({ added: 2, refused: 1, participants: { count: 1, lines: 2, from: ["p"] } });
    expect(report.message).toBe(
      'wave.tsv: 3 responses; added 2, updated 0, unchanged 0, refused 1 (1 of participants left out of the gold in their project); read 2 lines of 1 crowd participant of "p" as theirs (not made members of this project; their review and payments stay with their study).',
    );
    expect(answersIn(db, main.id)).toEqual([`${n1} c1 ["still"]`, `${n1} c2 ["serene"]`]);
    // Not made a member: the participant gains nothing in "main".
    expect(db.$client.prepare("select count(*) as n from memberships where project_id = ? and user_id = ?").get(main.id, p1.actor.userId)).toEqual({ n: 0 });
    // A second time: unchanged.
    expect(importResponses(db, coord, main.id, { fileName: "wave.tsv", text })).toMatchObject({ added: 0, unchanged: 2, refused: 1 });
  });

  it("assignments do not refuse a participant's answers (their queue is their batch)", () => {
    const { db, coord, ann, main, text } = crowdSetup();
    setAssignments(db, coord, main.id, ann.userId, [(db.$client.prepare("select id from lexelts where project_id = ? and item = 'hop.v'").get(main.id) as { id: number }).id]);
    expect(previewResponses(db, coord, main.id, { fileName: "wave.tsv", text })).toMatchObject({ add: 2, refuse: 1 });
  });

  it("goes back into its own project as unchanged, the participants being its annotators", () => {
    const { db, coord, wave, text } = crowdSetup();
    expect(importResponses(db, coord, wave.id, { fileName: "wave.tsv", text })).toMatchObject({ added: 0, unchanged: 3, refused: 0, participants: null });
  });

  it("is refused whole to a coordinator who does not coordinate the participants' project, in the same words whether the account exists or not", () => {
    const { db, text, n1, study } = crowdSetup();
    const other = actorFor(db, "olga", "coordinator");
    const theirs = createProject(db, other, { name: "theirs" });
    importLexeltXml(db, other, theirs.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
    const refusal = (t: string) => {
      try {
        importResponses(db, other, theirs.id, { fileName: "wave.tsv", text: t });
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return (e as InputError).message;
      }
      throw new Error("not refused");
    };
    const words = (name: string) =>
      `"${name}" is not a crowd participant of this project or of another project you coordinate (a participant's answers are carried only where their account is, and participants cannot be added to a team)`;
    // The export's lines: c1 by P1 and P2, c2 by P1.
    expect(refusal(text)).toBe(`wave.tsv:2: error: ${words(n1)} (and 2 more problems); nothing was imported.`);
    const nobody = `prolific:${study}:5f0a0000000000000000ffff`;
    expect(refusal(tsv(`${nobody}\tcalm.a\tc1\tstill\t`))).toBe(`wave.tsv:2: error: ${words(nobody)}; nothing was imported.`);
    expect(refusal(tsv(`${n1}\tcalm.a\tc1\tstill\t`))).toBe(`wave.tsv:2: error: ${words(n1)}; nothing was imported.`);
    expect(count(db, "responses")).toBe(3);
  });

  it("the command line (the operator) carries participants of any project", () => {
    const { db, text, n1 } = crowdSetup();
    const other = actorFor(db, "olga", "coordinator");
    const theirs = createProject(db, other, { name: "theirs" });
    importLexeltXml(db, other, theirs.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
    expect(importResponses(db, SYSTEM, theirs.id, { fileName: "wave.tsv", text })).toMatchObject({ added: 2, refused: 1, participants: { count: 1 } });
    expect(answersIn(db, theirs.id)).toEqual([`${n1} c1 ["still"]`, `${n1} c2 ["serene"]`]);
  });
});
