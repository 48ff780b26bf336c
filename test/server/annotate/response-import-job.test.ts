/**
 * The responses TSV import as jobs (lib/server/jobs/jobs-kinds.ts "responses-preview"
 * and "responses-import", issue #14): checked and written by the jobs worker
 * thread on its own connection, with the rules, messages and report of the
 * library's previewResponses / importResponses; the import refuses, writing
 * nothing, when a response it would write was saved since the preview, and
 * names a file that is not UTF-8.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../lib/server/kernel/errors";
import { importResponses, planResponseImport, previewResponses, writeResponsePlan } from "../../../lib/server/annotate/response-import";
import { saveResponse } from "../../../lib/server/annotate/responses";
import type { UserActor } from "../../../lib/server/kernel/actor";
import { goldFixture } from "../../support/gold-fixture";
import { seedParticipant, seedStudy } from "../../support/crowd";
import { actorFor } from "../../support/db";
import { createProject } from "../../../lib/server/corpus/projects";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { run, upload } from "../../support/jobs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-rjob-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dbFile = () => path.join(dir, `t${++n}.db`);

const TSV = [
  "annotator\tlexelt\tinstance\tanswer\tmultiword",
  "ann\tcalm.a\tc1\tserene\t", // an update (ann had still;peaceful)
  "cat\thop.v\th2\tboard;ride\t", // an add
  "bea\tcalm.a\tc2\tNAME\t", // unchanged
].join("\n");

/** The fixture's annotator `name` as an actor. */
function annotator(f: ReturnType<typeof goldFixture>, name: string): UserActor {
  const u = f.db.$client.prepare("select id from users where name = ?").get(name) as { id: number };
  return { kind: "user", userId: u.id, name, role: "annotator" };
}

const rows = (f: ReturnType<typeof goldFixture>) => ({
  responses: f.db.$client.prepare("select instance_ref, user_id, kind, substitutes, multiword, revision from responses order by id").all(),
  history: f.db.$client.prepare("select count(*) as n from response_history").get(),
  counts: f.db.$client.prepare("select user_id, done from annotator_counts order by user_id").all(),
});

describe("the responses import as jobs (worker thread, file database)", () => {
  it("previews as previewResponses does, writing nothing, then imports exactly that", async () => {
    const f = goldFixture(dbFile());
    const here = goldFixture(dbFile());
    const before = rows(f);
    const preview = await run(f, "responses-preview", { path: upload(TSV), fileName: "r.tsv", acceptUnassigned: false });
    expect(preview.state).toBe("done");
    expect(preview.report).toEqual(previewResponses(here.db, here.coord, here.project.id, { fileName: "r.tsv", text: TSV }));
    expect(preview.report).toMatchObject({ add: 1, update: 1, unchanged: 1, refuse: 0 });
    expect(rows(f)).toEqual(before);
    const token = (preview.report as { token: string }).token;
    const file = upload(TSV);
    const done = await run(f, "responses-import", { path: file, fileName: "r.tsv", acceptUnassigned: false, token });
    expect(done.state).toBe("done");
    const expected = importResponses(here.db, here.coord, here.project.id, { fileName: "r.tsv", text: TSV }, { expectedToken: token });
    expect(done.report).toEqual(expected);
    expect(expected.message).toBe("r.tsv: 3 responses; added 1, updated 1, unchanged 1.");
    // The same rows, history and counters as the library's import on the request thread.
    expect(rows(f)).toEqual(rows(here));
    // The upload is deleted when the job ends.
    expect(fs.existsSync(file)).toBe(false);
  });

  it("refuses, writing nothing, when a response was saved since the preview", async () => {
    const f = goldFixture(dbFile());
    const preview = await run(f, "responses-preview", { path: upload(TSV), fileName: "r.tsv" });
    const token = (preview.report as { token: string }).token;
    const ann = annotator(f, "ann");
    const ref = (f.db.$client.prepare("select id from instances where instance_id = 'c1'").get() as { id: number }).id;
    const rev = (f.db.$client.prepare("select revision from responses where instance_ref = ? and user_id = ?").get(ref, ann.userId) as { revision: number }).revision;
    saveResponse(f.db, ann, f.project.id, ref, { kind: "substitutes", substitutes: ["quiet"], multiword: false }, { expectedRevision: rev });
    const before = rows(f);
    const refused = await run(f, "responses-import", { path: upload(TSV), fileName: "r.tsv", token });
    expect(refused.state).toBe("failed");
    expect(refused.message).toMatch(/^r\.tsv: .*changed since the preview; preview it again\. Nothing was imported\.$/);
    expect(rows(f)).toEqual(before);
  });

  it("names a file that is not UTF-8, and a bad line, writing nothing", async () => {
    const f = goldFixture(dbFile());
    const before = rows(f);
    const binary = await run(f, "responses-preview", { path: upload(new Uint8Array([0x61, 0xff, 0xfe, 0x0a])), fileName: "bin.tsv" });
    expect([binary.state, binary.message]).toEqual(["failed", "bin.tsv:1: not UTF-8 text (invalid byte sequence); nothing was imported."]);
    // The line of the first invalid byte is named.
    const latin1 = await run(f, "responses-preview", { path: upload(new Uint8Array([...new TextEncoder().encode(TSV + "\nann\tcalm.a\tc2\tna"), 0xef, 0x76, 0x65, 0x09, 0x0a])), fileName: "l1.tsv" });
    expect([latin1.state, latin1.message]).toEqual(["failed", "l1.tsv:5: not UTF-8 text (invalid byte sequence); nothing was imported."]);
    const bad = await run(f, "responses-preview", { path: upload(TSV + "\nzed\tcalm.a\tc1\tquiet\t"), fileName: "bad.tsv" });
    expect(bad.state).toBe("failed");
    expect(bad.message).toMatch(/^bad\.tsv:5: .*"zed" is not an annotator of this project/);
    expect(rows(f)).toEqual(before);
  });
});

describe("writeResponsePlan", () => {
  it("refuses a plan a save has overtaken, inside its transaction, writing nothing", () => {
    const f = goldFixture();
    const plan = planResponseImport(f.db, f.project.id, { fileName: "r.tsv", text: TSV }, {}, null);
    // A save lands between the plan and the write (the jobs worker lets saves in between).
    const cat = annotator(f, "cat");
    const ref = (f.db.$client.prepare("select id from instances where instance_id = 'h2'").get() as { id: number }).id;
    saveResponse(f.db, cat, f.project.id, ref, { kind: "substitutes", substitutes: ["ride"], multiword: false }, { expectedRevision: 0 });
    const before = rows(f);
    expect(() => writeResponsePlan(f.db, f.project.id, plan, { expectedToken: plan.token })).toThrow(InputError);
    expect(rows(f)).toEqual(before);
    // Planned again, it goes through.
    const again = planResponseImport(f.db, f.project.id, { fileName: "r.tsv", text: TSV }, {}, null);
    expect(writeResponsePlan(f.db, f.project.id, again).message).toBe("r.tsv: 3 responses; added 0, updated 2, unchanged 1.");
  });

  it("keeps the counters a save keeps equal to a count of the responses, and each history row on its response and revision", () => {
    const f = goldFixture();
    for (const n of ["dan", "eve"]) {
      f.db.$client.prepare("insert into users (name, role, password_hash) values (?, 'annotator', '!')").run(n);
      f.db.$client.prepare("insert into memberships (project_id, user_id) select ?, id from users where name = ?").run(f.project.id, n);
    }
    const tsv = [
      "annotator\tlexelt\tinstance\tanswer\tmultiword",
      "dan\tcalm.a\tc1\tquiet\t",
      "dan\tcalm.a\tc2\tNIL\t",
      "dan\thop.v\th1\tjump\t",
      "eve\thop.v\th2\tride;board\t",
      "ann\tcalm.a\tc1\tserene\t",
      "cat\thop.v\th2\tboard\t", // cat has answered in hop.v already: its counters add up
    ].join("\n");
    const r = importResponses(f.db, f.coord, f.project.id, { fileName: "c.tsv", text: tsv });
    expect(r.message).toBe("c.tsv: 6 responses; added 5, updated 1, unchanged 0.");
    const q = (sql: string) => f.db.$client.prepare(sql).all();
    expect(q("select user_id, lexelt_id, done from queue_counts order by user_id, lexelt_id")).toEqual(
      q("select r.user_id, i.lexelt_id, count(*) as done from responses r join instances i on i.id = r.instance_ref group by r.user_id, i.lexelt_id order by r.user_id, i.lexelt_id"),
    );
    expect(q("select user_id, done from annotator_counts order by user_id")).toEqual(q("select user_id, count(*) as done from responses group by user_id order by user_id"));
    // Every response's last history row is its current answer and revision.
    expect(
      q(
        "select r.id, r.revision, r.kind, r.substitutes from responses r order by r.id",
      ),
    ).toEqual(
      q(
        "select h.response_id as id, h.revision, h.kind, h.substitutes from response_history h where h.id = (select max(id) from response_history where response_id = h.response_id) order by h.response_id",
      ),
    );
    // The new responses are numbered in file order.
    expect(q("select u.name, i.instance_id, r.substitutes from responses r join users u on u.id = r.user_id join instances i on i.id = r.instance_ref where u.name in ('dan', 'eve') order by r.id")).toEqual([
      { name: "dan", instance_id: "c1", substitutes: '["quiet"]' },
      { name: "dan", instance_id: "c2", substitutes: "[]" },
      { name: "dan", instance_id: "h1", substitutes: '["jump"]' },
      { name: "eve", instance_id: "h2", substitutes: '["ride","board"]' },
    ]);
  });
});


describe("a crowd participant's answers in a job (issue #32)", () => {
  it("are carried for the coordinator who started it when they coordinate the participant's project, refused to another", async () => {
    const f = goldFixture(dbFile());
    // Project "wave" of the same coordinator, with a study and one participant named as a join names them.
    const wave = createProject(f.db, f.coord, { name: "wave" });
    const study = seedStudy(f.db, wave.id, { name: "pilot" });
    const p = seedParticipant(f.db, study, "5f0a00000000000000000001");
    const name = `prolific:${study}:5f0a00000000000000000001`;
    f.db.$client.prepare("update users set name = ? where id = ?").run(name, p.actor.userId);
    const text = `annotator\tlexelt\tinstance\tanswer\tmultiword\n${name}\tcalm.a\tc1\tserene\t\n`;
    const preview = await run(f, "responses-preview", { path: upload(text), fileName: "wave.tsv" });
    expect(preview.report).toMatchObject({ add: 1, participants: { count: 1, lines: 1, from: ["wave"] } });
    const done = await run(f, "responses-import", { path: upload(text), fileName: "wave.tsv", token: (preview.report as { token: string }).token });
    expect(done.state, done.message).toBe("done");
    expect(done.report).toMatchObject({ added: 1, participants: { count: 1, lines: 1, from: ["wave"] } });
    // Another coordinator's job in their own project: refused, nothing written.
    const olga = actorFor(f.db, "olga", "coordinator");
    const theirs = createProject(f.db, olga, { name: "theirs" });
    importLexeltXml(f.db, olga, theirs.id, { fileName: "c.xml", bytes: new TextEncoder().encode('<corpus lang="english"><lexelt item="calm.a"><instance id="c1"><context>a <head>calm</head> sea</context></instance></lexelt></corpus>') });
    const refused = await run({ db: f.db, coord: olga, project: theirs }, "responses-preview", { path: upload(text), fileName: "wave.tsv" });
    expect(refused.state).toBe("failed");
    expect(refused.message).toMatch(/is not a crowd participant of this project or of another project you coordinate/);
    expect(f.db.$client.prepare("select count(*) as n from responses where project_id = ?").get(theirs.id)).toEqual({ n: 0 });
  });
});
