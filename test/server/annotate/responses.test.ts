import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { projects } from "../../../db/schema";
import { type Actor, SYSTEM } from "../../../lib/server/kernel/actor";
import { setAssignments } from "../../../lib/server/annotate/assignments";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, ConflictError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { createProject } from "../../../lib/server/corpus/projects";
import {
  annotatorProjects,
  type ResponseInput,
  saveResponse,
  type SaveResult,
  saveResponseAsync,
  validateResponse,
  workspace,
  workspaceTargets,
} from "../../../lib/server/annotate/responses";
import { addMember } from "../../../lib/server/people/users";
import { entryOf, nextUnanswered, queueScope, step } from "../../../lib/server/annotate/queue";
import { returnInstance } from "../../../lib/server/annotate/flags";
import { displayText } from "../../../app/_ui/display-text";
import { actorFor, projectFixture } from "../../support/db";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

// Sentences written for these tests. Two lexelts share the lemma "bank".
const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a">
<instance id="b1"><context>The kitchen was <head>bright</head> in the morning .</context></instance>
<instance id="b2"><context>She is a <head>bright</head> student .</context></instance>
<instance id="b3"><context>A <head>brighter</head> future awaits .</context></instance>
</lexelt>
<lexelt item="bank.n">
<instance id="k1"><context>We sat on the river <head>bank</head> .</context></instance>
<instance id="k2"><context>The <head>bank</head> closed at noon .</context></instance>
</lexelt>
<lexelt item="bank.v">
<instance id="k3"><context>You can <head>bank</head> on her .</context></instance>
</lexelt>
</corpus>
`;

function fixture(file?: string) {
  const f = projectFixture(file);
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "t.xml", bytes: new TextEncoder().encode(XML) });
  const ann2 = actorFor(f.db, "ann2", "annotator");
  addMember(f.db, f.coord, f.project.id, "ann2");
  const refs = Object.fromEntries(
    (f.db.$client.prepare("select id, instance_id from instances order by position").all() as { id: number; instance_id: string }[]).map(
      (r) => [r.instance_id, r.id],
    ),
  ) as Record<string, number>;
  const count = (t: string) => (f.db.$client.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
  return { ...f, ann2, refs, count };
}

const subs = (...s: string[]): ResponseInput => ({ kind: "substitutes", substitutes: s, multiword: false });
const target = { lemma: "bright", head: "brighter" };

describe("validateResponse", () => {
  it.each([
    ["one substitute", subs("sunny"), { kind: "substitutes", substitutes: ["sunny"], multiword: null }],
    ["three substitutes kept in order", subs("sunny", "light", "radiant"), { kind: "substitutes", substitutes: ["sunny", "light", "radiant"], multiword: null }],
    ["trimmed, inner whitespace collapsed", subs("  full \t of   light "), { kind: "substitutes", substitutes: ["full of light"], multiword: null }],
    ["unfilled fields dropped", subs("", "sunny", "  "), { kind: "substitutes", substitutes: ["sunny"], multiword: null }],
    ["case kept as typed", subs("Sunny"), { kind: "substitutes", substitutes: ["Sunny"], multiword: null }],
    ["NAME", { kind: "NAME", substitutes: ["", "", ""], multiword: false }, { kind: "NAME", substitutes: [], multiword: null }],
    ["NIL", { kind: "NIL", substitutes: [], multiword: false }, { kind: "NIL", substitutes: [], multiword: null }],
    ["multiword phrase collapsed", { ...subs("clever"), multiword: true, phrase: " bright   spark " }, { kind: "substitutes", substitutes: ["clever"], multiword: "bright spark" }],
    ["phrase ignored when the toggle is off", { ...subs("clever"), multiword: false, phrase: "bright spark" }, { kind: "substitutes", substitutes: ["clever"], multiword: null }],
    ["NIL with a multiword", { kind: "NIL", substitutes: [], multiword: true, phrase: "bright side" }, { kind: "NIL", substitutes: [], multiword: "bright side" }],
    ["exactly 60 characters", subs("a".repeat(60)), { kind: "substitutes", substitutes: ["a".repeat(60)], multiword: null }],
  ])("accepts %s", (_name, input, expected) => {
    expect(validateResponse(input, target)).toEqual(expected);
  });

  it.each([
    ["four substitutes", subs("a", "b", "c", "d"), "form", /At most 3 substitutes/],
    ["no substitute at all", subs("", " ", ""), "substitute1", /at least one substitute/],
    ["an empty list", subs(), "substitute1", /at least one substitute/],
    ["a substitute of punctuation only", subs("sunny", "--"), "substitute2", /at least two letters/],
    ["61 characters", subs("a".repeat(61)), "substitute1", /at most 60 characters \(this one has 61\)/],
    ["a repeat, ignoring case", subs("sunny", "light", "SUNNY"), "substitute3", /"SUNNY" repeats substitute 1/],
    ["a repeat after collapsing spaces", subs("full of light", "full  of light"), "substitute2", /repeats substitute 1/],
    ["the lemma", subs("sunny", "Bright"), "substitute2", /"Bright" is the target word itself/],
    ["the head word", subs("brighter"), "substitute1", /"brighter" is the target word itself/],
    ["a semicolon list", subs("sunny; light"), "substitute1", /^One substitute per field — put the others in the next fields\.$/],
    ["NAME with a substitute", { kind: "NAME", substitutes: ["", "sunny"], multiword: false }, "substitute2", /NAME carries no substitutes/],
    ["NIL with a substitute", { kind: "NIL", substitutes: ["sunny"], multiword: false }, "substitute1", /NIL carries no substitutes/],
    ["an unknown kind", { kind: "MAYBE", substitutes: [], multiword: false }, "form", /Choose substitutes, NAME or NIL/],
    ["a multiword without phrase", { ...subs("clever"), multiword: true, phrase: "  " }, "multiword", /Type the multiword phrase/],
    ["a multiword of one word", { ...subs("clever"), multiword: true, phrase: "brighter" }, "multiword", /at least two words/],
    ["a multiword phrase of 81 characters", { ...subs("clever"), multiword: true, phrase: "a " + "b".repeat(79) }, "multiword", /at most 80 characters/],
    ["a non-boolean multiword", { ...subs("clever"), multiword: "yes" }, "multiword", /yes or no/],
    ["substitutes that are not text", { kind: "substitutes", substitutes: [3], multiword: false }, "form", /must be text/],
  ])("refuses %s", (_name, input, field, message) => {
    let err: unknown;
    try {
      validateResponse(input, target);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(Object.keys(e.fieldErrors)).toContain(field);
    expect(e.fieldErrors[field]).toMatch(message);
    expect(e.message).toMatch(/^Not saved: /);
  });

  it("reports every bad field at once, each under its own key", () => {
    try {
      validateResponse({ kind: "substitutes", substitutes: ["bright", "", "bright"], multiword: true, phrase: "" }, target);
      expect.unreachable();
    } catch (e) {
      expect(Object.keys((e as InputError).fieldErrors).sort()).toEqual(["multiword", "substitute1", "substitute3"]);
    }
  });
});

describe("saveResponse", () => {
  it("stores the response, appends a history row, and increments the revision", () => {
    const { db, ann, project, refs, count } = fixture();
    const r1 = saveResponse(db, ann, project.id, refs.b1, subs(" sunny ", "light"), { expectedRevision: 0, activeMs: 4200 });
    expect(r1.revision).toBe(1);
    expect(r1.response).toMatchObject({ kind: "substitutes", substitutes: ["sunny", "light"], multiword: null, revision: 1 });
    const r2 = saveResponse(db, ann, project.id, refs.b1, { kind: "NIL", substitutes: [], multiword: true, phrase: "bright and early" }, { expectedRevision: 1, activeMs: 900 });
    expect(r2.revision).toBe(2);
    expect(count("responses")).toBe(1);
    const history = db.$client.prepare("select kind, substitutes, multiword, revision, source from response_history order by id").all();
    expect(history).toEqual([
      { kind: "substitutes", substitutes: '["sunny","light"]', multiword: null, revision: 1, source: "web" },
      { kind: "NIL", substitutes: "[]", multiword: "bright and early", revision: 2, source: "web" },
    ]);
    // Time on task is the server's (the browser's activeMs is not believed): the annotator's first save has none.
    expect(db.$client.prepare("select active_ms from responses").get()).toEqual({ active_ms: null });
    expect(workspace(db, ann, project.id, refs.b1).response).toMatchObject({ kind: "NIL", substitutes: [], multiword: "bright and early", revision: 2 });
  });

  it("stores answers in any script as typed, NFC, curly apostrophes read as ' and no accent folded", () => {
    const { db, ann, project, refs } = fixture();
    const r = saveResponse(db, ann, project.id, refs.b1, subs("ensoleille\u0301", "clair’s", "Fußweg"), { expectedRevision: 0 });
    expect(r.response.substitutes).toEqual(["ensoleillé", "clair's", "Fußweg"]);
    expect(r.response.substitutes[0]).toBe("ensoleill\u00e9");
    const stored = db.$client.prepare("select substitutes from responses").get() as { substitutes: string };
    expect(JSON.parse(stored.substitutes)).toEqual(["ensoleill\u00e9", "clair's", "Fußweg"]);
  });

  it("refuses a stale revision with the stored response and writes nothing", () => {
    const { db, ann, project, refs, count } = fixture();
    saveResponse(db, ann, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 });
    saveResponse(db, ann, project.id, refs.b1, subs("light"), { expectedRevision: 1 }); // the other tab
    let err: unknown;
    try {
      saveResponse(db, ann, project.id, refs.b1, subs("radiant"), { expectedRevision: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).current).toMatchObject({ kind: "substitutes", substitutes: ["light"], revision: 2 });
    expect(count("responses")).toBe(1);
    expect(count("response_history")).toBe(2);
    // A tab that opened before the first save expected revision 0.
    expect(() => saveResponse(db, ann, project.id, refs.b1, subs("radiant"), { expectedRevision: 0 })).toThrow(ConflictError);
    // Keeping mine: re-save against the revision the conflict reported.
    expect(saveResponse(db, ann, project.id, refs.b1, subs("radiant"), { expectedRevision: 2 }).revision).toBe(3);
  });

  it("does not write a refused response", () => {
    const { db, ann, project, refs, count } = fixture();
    expect(() => saveResponse(db, ann, project.id, refs.b1, subs("bright"), { expectedRevision: 0 })).toThrow(/is the target word itself/);
    expect(() => saveResponse(db, ann, project.id, refs.b1, subs("sunny"), { expectedRevision: -1 })).toThrow(InputError);
    expect(count("responses")).toBe(0);
    expect(count("response_history")).toBe(0);
  });

  // The rules the gold and the scorer apply (lib/lexsub/substitute-rules.ts): each
  // refused save names the field, and neither a new answer nor a change is stored.
  it.each<[string, ResponseInput, string, RegExp]>([
    ["a comma list in one field", subs("secluded, peaceful, tranquil, calm"), "substitute1", /^One substitute per field — put the others in the next fields\.$/],
    ["a semicolon list in the second field", subs("sunny", "light; clear"), "substitute2", /^One substitute per field/],
    ["markup", subs("<b>sunny</b>"), "substitute1", /^No markup: the gold files cannot hold “<” or “>”/],
    ["an ampersand", subs("light & airy"), "substitute1", /cannot hold “&”; write “and”/],
    ["one letter", subs("sunny", "x"), "substitute2", /^A substitute has at least two letters\.$/],
    ["digits only", subs("100"), "substitute1", /at least two letters/],
    ["a full stop", subs("sunny."), "substitute1", /^“\.” cannot be part of a substitute/],
    ["a double colon", subs("sunny::light"), "substitute1", /^“:” cannot be part of a substitute/],
    ["a full stop after accents", subs("ensoleillé."), "substitute1", /^“\.” cannot be part of a substitute/],
    ["an invisible character", subs("sun\u200bny"), "substitute1", /invisible character \(U\+200B\)/],
    ["pn", subs("pn"), "substitute1", /choose NAME instead/],
    ["a leading hyphen", subs("-ish"), "substitute1", /starts with a letter or digit/],
    ["61 characters", subs("a".repeat(61)), "substitute1", /at most 60 characters/],
    ["a phrase without the target", { ...subs("clever"), multiword: true, phrase: "future awaits" }, "multiword", /^The phrase must contain the target word: “brighter” or “bright”\.$/],
    ["markup in the phrase", { ...subs("clever"), multiword: true, phrase: "<i>brighter</i> future" }, "multiword", /No markup/],
    ["a list as the phrase", { ...subs("clever"), multiword: true, phrase: "bright spark, bright future" }, "multiword", /^One phrase only/],
  ])("refuses %s and stores nothing", (_what, input, field, message) => {
    const { db, ann, project, refs, count } = fixture();
    saveResponse(db, ann, project.id, refs.b3, subs("hopeful"), { expectedRevision: 0 });
    let err: unknown;
    try {
      saveResponse(db, ann, project.id, refs.b3, input, { expectedRevision: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).fieldErrors[field]).toMatch(message);
    expect((err as InputError).message).toBe(`Not saved: ${(err as InputError).fieldErrors[field]}`);
    expect(count("responses")).toBe(1);
    expect(count("response_history")).toBe(1);
    expect(workspace(db, ann, project.id, refs.b3).response).toMatchObject({ kind: "substitutes", substitutes: ["hopeful"], multiword: null, revision: 1 });
  });

  it.each<[string, string]>([
    ["the lemma", "bright future"],
    ["the head word as in the sentence", "Brighter Future"],
    ["a hyphenated compound", "bright-eyed"],
  ])("accepts a phrase holding %s", (_what, phrase) => {
    const { db, ann, project, refs } = fixture();
    expect(saveResponse(db, ann, project.id, refs.b3, { ...subs("hopeful"), multiword: true, phrase }, { expectedRevision: 0 }).response.multiword).toBe(phrase);
  });

  it("enforces requiredAnnotators: a full instance leaves the queues of those who have not answered it", () => {
    const { db, ann, ann2, project, refs, count } = fixture();
    db.update(projects).set({ requiredAnnotators: 1 }).where(eq(projects.id, project.id)).run();
    saveResponse(db, ann2, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 });
    expect(() => saveResponse(db, ann, project.id, refs.b1, subs("light"), { expectedRevision: 0 })).toThrow(/already has the 1 responses it needs/);
    expect(count("responses")).toBe(1);
    expect(() => workspace(db, ann, project.id, refs.b1)).toThrow(NotFoundError);
    expect(workspace(db, ann, project.id).progress.total).toBe(5);
    // ann2 keeps their instance and may change their answer
    expect(workspace(db, ann2, project.id).progress).toMatchObject({ done: 1, total: 6 });
    expect(saveResponse(db, ann2, project.id, refs.b1, subs("shiny"), { expectedRevision: 1 }).revision).toBe(2);
  });

  it("refuses instances not assigned to the annotator", () => {
    const { db, coord, ann, project, refs } = fixture();
    const bright = db.$client.prepare("select id from lexelts where item = 'bright.a'").get() as { id: number };
    setAssignments(db, coord, project.id, ann.userId, [bright.id]);
    expect(() => saveResponse(db, ann, project.id, refs.k1, subs("shore"), { expectedRevision: 0 })).toThrow(AuthError);
    expect(() => workspace(db, ann, project.id, refs.k1)).toThrow(/not assigned to you/);
    expect(workspace(db, ann, project.id).progress.total).toBe(3);
    expect(saveResponse(db, ann, project.id, refs.b2, subs("clever"), { expectedRevision: 0 }).revision).toBe(1);
  });

  it.each<[string, Actor, number]>([
    ["signed out", null, 401],
    ["the CLI (it has no responses of its own)", SYSTEM, 403],
  ])("refuses %s", (_name, who, status) => {
    const { db, project, refs } = fixture();
    for (const call of [
      () => saveResponse(db, who, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 }),
      () => workspace(db, who, project.id),
      () => annotatorProjects(db, who),
    ]) {
      expect(call).toThrow(AuthError);
      try {
        call();
      } catch (e) {
        expect((e as AuthError).status).toBe(status);
      }
    }
  });

  it("refuses an annotator of another project and a coordinator who is not a member (404)", () => {
    const { db, coord, project, refs, count } = fixture();
    const other = actorFor(db, "other", "annotator");
    const q = createProject(db, coord, { name: "q" });
    addMember(db, coord, q.id, "other");
    const outsider = actorFor(db, "coord2", "coordinator");
    for (const who of [other, outsider]) {
      expect(() => saveResponse(db, who, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 })).toThrow(NotFoundError);
      expect(() => workspace(db, who, project.id)).toThrow(NotFoundError);
      expect(() => workspace(db, who, project.id, refs.b1)).toThrow(NotFoundError);
      // an instance of another project, through a project they are in
      expect(() => saveResponse(db, other, q.id, refs.b1, subs("sunny"), { expectedRevision: 0 })).toThrow(NotFoundError);
    }
    expect(annotatorProjects(db, outsider)).toEqual([]);
    expect(count("responses")).toBe(0);
  });

  it("lets a coordinator who is a member annotate", () => {
    const { db, coord, project, refs } = fixture();
    expect(saveResponse(db, coord, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 }).revision).toBe(1);
    expect(annotatorProjects(db, coord)).toEqual([{ id: project.id, name: "p", done: 1, total: 6, returned: 0 }]);
  });
});

describe("saveResponseAsync (the save route's)", () => {
  it("stores and answers as saveResponse does: the next instance and the one after it", async () => {
    const { db, ann, project, refs, count } = fixture();
    const r = await saveResponseAsync(db, ann, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 });
    expect(r).toMatchObject({ revision: 1, next: refs.b2, progress: { done: 1, total: 6 } });
    expect(r.upcoming.map((u) => u.instance.ref)).toEqual([refs.b2, refs.b3]);
    expect(r.upcoming[1]).toMatchObject({ prevRef: refs.b2, nextRef: refs.k1 });
    expect(count("response_history")).toBe(1);
    await expect(saveResponseAsync(db, ann, project.id, refs.b1, subs("light"), { expectedRevision: 0 })).rejects.toBeInstanceOf(ConflictError);
    await expect(saveResponseAsync(db, ann, project.id, refs.b1, subs("light"), { expectedRevision: 1 })).resolves.toMatchObject({ revision: 2 });
    expect(count("response_history")).toBe(2);
  });

  it("each step of the answer agrees with the queue's own lookups, whatever was answered around it, and after a returned instance", async () => {
    const { db, coord, ann, ann2, project, refs } = fixture();
    const scope = () => queueScope(db, project.id, (ann as { userId: number }).userId, null);
    const check = (r: SaveResult) => {
      const s = scope();
      for (const st of r.upcoming) {
        const e = entryOf(db, s, st.instance.ref)!;
        expect(st.prevRef).toBe(step(db, s, e, -1)?.ref ?? null);
        expect(st.nextRef).toBe(step(db, s, e, 1)?.ref ?? null);
        expect(st.nextUnansweredRef).toBe(nextUnanswered(db, s, e)?.ref ?? null);
        expect(st.response?.revision ?? 0).toBe(
          (db.$client.prepare("select revision from responses where instance_ref = ? and user_id = ?").get(e.ref, (ann as { userId: number }).userId) as { revision: number } | undefined)
            ?.revision ?? 0,
        );
      }
    };
    // Out of order, so that the instance after the next is answered (b3), or not (k1), and the queue wraps round.
    check(await saveResponseAsync(db, ann, project.id, refs.b3, subs("sunny"), { expectedRevision: 0 }));
    check(await saveResponseAsync(db, ann, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 }));
    check(await saveResponseAsync(db, ann, project.id, refs.k2, subs("shore"), { expectedRevision: 0 }));
    check(await saveResponseAsync(db, ann, project.id, refs.k3, subs("rely"), { expectedRevision: 0 }));
    // Returned by the coordinator, answered again: the answer goes on to the next unanswered instance after it.
    returnInstance(db, coord, project.id, { instanceId: "b3", annotator: "ann", comment: "Look again." });
    const again = await saveResponseAsync(db, ann, project.id, refs.b3, subs("clear"), { expectedRevision: 1 });
    expect(again.next).toBe(refs.k1);
    check(again);
    check(await saveResponseAsync(db, ann, project.id, refs.b2, subs("clever"), { expectedRevision: 0 }));
    check(await saveResponseAsync(db, ann, project.id, refs.k1, subs("shore"), { expectedRevision: 0 }));
    // Another annotator's answers change nothing of this one's steps.
    await saveResponseAsync(db, ann2, project.id, refs.b1, subs("light"), { expectedRevision: 0 });
    check(await saveResponseAsync(db, ann, project.id, refs.b1, subs("light"), { expectedRevision: 1 }));
  });

  it("while another connection (the other server process) holds the write lock, waits with the event loop running; acknowledged once committed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-save-async-"));
    try {
      const file = path.join(dir, "s.db");
      const { db, ann, project, refs } = fixture(file);
      const other = new Database(file);
      const stored = () => (other.prepare("select revision from responses where instance_ref = ?").get(refs.k1) as { revision: number } | undefined)?.revision;
      other.exec("BEGIN IMMEDIATE");
      let acked = false;
      const saving = saveResponseAsync(db, ann, project.id, refs.k1, subs("shore"), { expectedRevision: 0 }).then((r) => ((acked = true), r));
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      expect(acked).toBe(false);
      other.exec("COMMIT");
      expect((await saving).revision).toBe(1);
      expect(stored()).toBe(1);
      other.close();
      db.$client.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("workspace", () => {
  it("never returns another annotator's response", () => {
    const { db, ann, ann2, project, refs } = fixture();
    saveResponse(db, ann2, project.id, refs.b1, { ...subs("luminous"), multiword: true, phrase: "bright morning" }, { expectedRevision: 0 });
    const w = workspace(db, ann, project.id, refs.b1);
    expect(w.response).toBeNull();
    expect(w.progress.done).toBe(0);
    expect(JSON.stringify(w)).not.toMatch(/luminous|bright morning/);
    expect(JSON.stringify(annotatorProjects(db, ann))).not.toMatch(/luminous/);
    expect(annotatorProjects(db, ann)).toEqual([{ id: project.id, name: "p", done: 0, total: 6, returned: 0 }]);
    // ann's own first save is revision 1, independent of ann2's
    expect(saveResponse(db, ann, project.id, refs.b1, subs("sunny"), { expectedRevision: 0 }).revision).toBe(1);
  });

  it("shows the sentence, the lemma and no PoS, with the neighbours in queue order", () => {
    const { db, ann, project, refs } = fixture();
    const w = workspace(db, ann, project.id, refs.k1);
    expect(w.instance).toEqual({
      ref: refs.k1,
      instanceId: "k1",
      lemma: "bank",
      lexeltLabel: "bank (1)",
      before: "We sat on the river ",
      head: "bank",
      after: " .",
      note: "",
    });
    expect(w.position).toBe(4);
    expect(w.prevRef).toBe(refs.b3);
    expect(w.nextRef).toBe(refs.k2);
    expect(w.nextUnansweredRef).toBe(refs.k2);
    expect(JSON.stringify(w)).not.toMatch(/bank\.n|bank\.v|bright\.a|"pos"/);
    expect(workspaceTargets(db, ann, project.id).map((l) => [l.label, l.done, l.total])).toEqual([
      ["bright", 0, 3],
      ["bank (1)", 0, 2],
      ["bank (2)", 0, 1],
    ]);
    const first = workspace(db, ann, project.id, refs.b1);
    expect([first.prevRef, first.position]).toEqual([null, 1]);
    expect(workspace(db, ann, project.id, refs.k3).nextRef).toBeNull();
    expect(() => workspace(db, ann, project.id, 999999)).toThrow(/No such instance/);
  });

  it("resumes after the last saved instance, comes back to skipped ones, and reports progress", () => {
    const { db, ann, project, refs } = fixture();
    const save = (ref: number, rev = 0) => saveResponse(db, ann, project.id, ref, subs("word" + ref), { expectedRevision: rev });
    expect(workspace(db, ann, project.id).instance?.ref).toBe(refs.b1);
    expect(save(refs.b1).next).toBe(refs.b2);
    // b2 skipped
    expect(save(refs.b3).next).toBe(refs.k1);
    let w = workspace(db, ann, project.id);
    expect(w.instance?.ref).toBe(refs.k1);
    expect(w.progress.done).toBe(2);
    const bright = workspaceTargets(db, ann, project.id)[0];
    expect(bright).toMatchObject({ label: "bright", done: 2, total: 3 });
    expect(w.lexelt).toMatchObject({ label: "bank (1)", done: 0, total: 2 });
    // a target's link lands on its first unanswered instance
    expect(workspace(db, ann, project.id, undefined, { lexeltId: bright.lexeltId }).instance?.ref).toBe(refs.b2);
    // going back to change an earlier answer moves the resume point to the first gap after it
    save(refs.b1, 1);
    expect(workspace(db, ann, project.id).instance?.ref).toBe(refs.b2);
    save(refs.k1);
    save(refs.k2);
    // the last one in the queue: "next" wraps round to the skipped instance
    expect(save(refs.k3).next).toBe(refs.b2);
    w = workspace(db, ann, project.id);
    expect(w.instance?.ref).toBe(refs.b2);
    expect(w.nextUnansweredRef).toBeNull();
    expect(workspace(db, ann, project.id, refs.k2).nextUnansweredRef).toBe(refs.b2);
    expect(save(refs.b2).next).toBe(refs.b3);
    w = workspace(db, ann, project.id);
    expect(w.instance).toBeNull();
    expect(w.progress).toMatchObject({ done: 6, total: 6 });
    // ... and, when all of it is answered, on its first
    expect(workspaceTargets(db, ann, project.id).map((l) => workspace(db, ann, project.id, undefined, { lexeltId: l.lexeltId }).instance?.ref)).toEqual([
      refs.b1,
      refs.k1,
      refs.k3,
    ]);
  });

  it("is empty for a project without a corpus", () => {
    const { db, ann, project } = projectFixture();
    const w = workspace(db, ann, project.id);
    expect(w.instance).toBeNull();
    expect(w.progress).toEqual({ done: 0, total: 0 });
    expect(workspaceTargets(db, ann, project.id)).toEqual([]);
  });
});

describe("displayText (the workspace shows tokenised text without the tokeniser's spaces)", () => {
  it.each([
    ["a comma and a full stop", "said , then left .", "said, then left."],
    ["clitics", "she did n't say it 's done", "she didn't say it's done"],
    ["brackets", "a ( small ) part", "a (small) part"],
    ["quotes", "he said `` go '' twice", "he said \u201cgo\u201d twice"],
    ["nothing to do", "plain words ", "plain words "],
    ["a straight quote opening the sentence", '" Hugh Grant and ', '"Hugh Grant and '],
    ["a straight quote closing it", ' as they wanted . "', ' as they wanted."'],
    ["straight quotes in the middle keep their spaces", 'said , " I watched', 'said, " I watched'],
  ])("%s", (_name, input, expected) => {
    expect(displayText(input)).toBe(expected);
  });
});
