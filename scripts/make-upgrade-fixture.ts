/**
 * Writes test/fixtures/lexgold-0001.db: a small database made by this lexgold's
 * migrations (the last one is 0001_gold_review), holding accounts, a project,
 * a corpus of our own sentences, responses and their history (answers changed
 * more than once). test/server/ops/upgrade.test.ts opens a copy with the current
 * code and checks every response and every history row is still there.
 *
 * Regenerate only when the fixture must change; a newer fixture does not
 * replace this one (add it beside it, named by its last migration):
 *   node --conditions=react-server --import tsx scripts/make-upgrade-fixture.ts [out.db]
 */
import fs from "node:fs";
import path from "node:path";
import { openDb } from "../db/client";
import { SYSTEM, type UserActor } from "../lib/server/kernel/actor";
import { importLexeltXml } from "../lib/server/corpus/corpus";
import { createProject } from "../lib/server/corpus/projects";
import { saveResponse } from "../lib/server/annotate/responses";
import { addMember, createUser } from "../lib/server/people/users";

const out = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "test", "fixtures", "lexgold-0001.db"));

// Sentences written for this fixture.
const XML = `<?xml version="1.0" encoding="utf-8"?>
<corpus lang="english">
<lexelt item="mild.a">
<instance id="1"><context>The winter was <head>mild</head> this year, and the pond never froze.</context></instance>
<instance id="2"><context>She gave a <head>mild</head> answer to a rude question.</context></instance>
<instance id="3"><context>Add a <head>mild</head> cheese to the sauce at the end.</context></instance>
</lexelt>
<lexelt item="hold.v">
<instance id="4"><context>Can you <head>hold</head> the ladder while I climb?</context></instance>
<instance id="5"><context>The hall can <head>hold</head> two hundred people.</context></instance>
</lexelt>
</corpus>
`;

fs.rmSync(out, { force: true });
for (const suffix of ["-wal", "-shm"]) fs.rmSync(out + suffix, { force: true });
const db = openDb(out);
createUser(db, SYSTEM, { name: "coord", role: "coordinator", password: "fixture-password" });
const project = createProject(db, SYSTEM, { name: "upgrade fixture" });
importLexeltXml(db, SYSTEM, project.id, { fileName: "fixture.xml", bytes: new TextEncoder().encode(XML) });
const refs = db.$client.prepare("select id, instance_id as iid from instances order by id").all() as Array<{ id: number; iid: string }>;

const answers: Record<string, string[][]> = {
  ann1: [["gentle"], ["calm", "soft"], ["weak"], ["steady"], ["contain"]],
  ann2: [["temperate", "warm"], ["gentle"], ["delicate"], ["grip", "support"], ["accommodate", "fit"]],
  ann3: [["gentle"], ["polite"], ["weak", "bland"], ["steady"], ["contain", "seat"]],
};
for (const [name, rows] of Object.entries(answers)) {
  const u = createUser(db, SYSTEM, { name, role: "annotator", password: "fixture-password" });
  addMember(db, SYSTEM, project.id, name);
  const actor: UserActor = { kind: "user", userId: u.id, name, role: "annotator" };
  rows.forEach((subs, i) => {
    const first = saveResponse(db, actor, project.id, refs[i].id, { kind: "substitutes", substitutes: subs, multiword: false }, { expectedRevision: 0 });
    // Every other answer is revised twice (a NIL, then the substitutes again), so history has more rows than responses.
    if (i % 2 === 0) {
      const second = saveResponse(db, actor, project.id, refs[i].id, { kind: "NIL", substitutes: [], multiword: false }, { expectedRevision: first.revision });
      saveResponse(db, actor, project.id, refs[i].id, { kind: "substitutes", substitutes: [...subs].reverse(), multiword: false }, {
        expectedRevision: second.revision,
      });
    }
  });
}

// One self-contained file: out of WAL mode, compacted.
db.$client.pragma("journal_mode = DELETE");
db.$client.exec("VACUUM");
const n = (t: string) => (db.$client.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
console.log(`wrote ${out}: ${n("responses")} responses, ${n("response_history")} history rows, ${fs.statSync(out).size} bytes`);
db.$client.close();
