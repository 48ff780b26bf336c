/**
 * Renaming, archiving and deleting a project (lib/server/corpus/project-lifecycle.ts):
 * its coordinators only; a deletion asks for the exact name, removes every row
 * of the project and nothing of another, and leaves the accounts.
 */
import { describe, expect, it } from "vitest";
import { createProject, listProjects } from "../../../lib/server/corpus/projects";
import { deleteProject, projectContents, renameProject, setProjectArchived } from "../../../lib/server/corpus/project-lifecycle";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { goldFixture } from "../../support/gold-fixture";
import { actorFor } from "../../support/db";
import { annotatorProjects, saveResponse, workspace } from "../../../lib/server/annotate/responses";
import { makeParticipant, makeStudy } from "../../support/crowd";

/** Rows per table that belong to project `id` (every table with a project_id column). */
function rowsOf(db: ReturnType<typeof goldFixture>["db"], id: number): Record<string, number> {
  const tables = db.$client
    .prepare(`select m.name as t from sqlite_master m where m.type = 'table' and exists (select 1 from pragma_table_info(m.name) where name = 'project_id')`)
    .all() as { t: string }[];
  const out: Record<string, number> = {};
  for (const { t } of tables) {
    const n = (db.$client.prepare(`select count(*) as n from "${t}" where project_id = ?`).get(id) as { n: number }).n;
    if (n > 0) out[t] = n;
  }
  return out;
}

describe("project lifecycle", () => {
  it("renames: unique, the rules of a new name, coordinators of the project only", () => {
    const f = goldFixture();
    createProject(f.db, f.coord, { name: "other" });
    expect(renameProject(f.db, f.coord, f.project.id, { name: " Study 2 " })).toEqual({ id: f.project.id, name: "Study 2" });
    expect(listProjects(f.db, f.coord).map((p) => p.name)).toContain("Study 2");
    expect(() => renameProject(f.db, f.coord, f.project.id, { name: "other" })).toThrow(/A project named "other" already exists/);
    expect(() => renameProject(f.db, f.coord, f.project.id, { name: "<b>" })).toThrow(/Cannot rename the project/);
    // Renaming to its own name is no clash.
    expect(renameProject(f.db, f.coord, f.project.id, { name: "Study 2" }).name).toBe("Study 2");
    expect(() => renameProject(f.db, f.ann, f.project.id, { name: "mine" })).toThrow();
    const stranger = actorFor(f.db, "stranger", "coordinator");
    expect(() => renameProject(f.db, stranger, f.project.id, { name: "mine" })).toThrow(/No such project/);
    expect(listProjects(f.db, f.coord).find((p) => p.id === f.project.id)?.name).toBe("Study 2");
  });

  it("archives and brings back, keeping the first date and everything in the project", () => {
    const f = goldFixture();
    const before = rowsOf(f.db, f.project.id);
    const first = setProjectArchived(f.db, f.coord, f.project.id, true).archivedAt;
    expect(first).toBeInstanceOf(Date);
    expect(setProjectArchived(f.db, f.coord, f.project.id, true).archivedAt).toEqual(first);
    expect(listProjects(f.db, f.coord).find((p) => p.id === f.project.id)?.archivedAt).toEqual(first);
    expect(rowsOf(f.db, f.project.id)).toEqual(before);
    expect(() => setProjectArchived(f.db, f.ann, f.project.id, false)).toThrow();
    // Annotators: the project leaves their list, and takes no new answer; nothing of theirs goes.
    expect(annotatorProjects(f.db, f.ann)).toEqual([]);
    expect(() => workspace(f.db, f.ann, f.project.id)).toThrow(/“p” is archived: it takes no new answers/);
    const ref = (f.db.$client.prepare("select id from instances where instance_id = 'h2'").get() as { id: number }).id;
    expect(() => saveResponse(f.db, f.ann, f.project.id, ref, { kind: "substitutes", substitutes: ["ride"], multiword: false }, { expectedRevision: 1 })).toThrow(/archived/);
    expect(rowsOf(f.db, f.project.id)).toEqual(before);
    expect(setProjectArchived(f.db, f.coord, f.project.id, false).archivedAt).toBeNull();
    expect(annotatorProjects(f.db, f.ann).map((p) => p.name)).toEqual(["p"]);
    expect(saveResponse(f.db, f.ann, f.project.id, ref, { kind: "substitutes", substitutes: ["ride"], multiword: false }, { expectedRevision: 1 }).response.substitutes).toEqual(["ride"]);
  });

  it("says what a deletion removes, and deletes only with the exact name: every row of the project, nothing of another, the accounts stay", async () => {
    const f = goldFixture();
    // A second project sharing an annotator, which must come through untouched.
    const other = createProject(f.db, f.coord, { name: "other" });
    importLexeltXml(f.db, f.coord, other.id, { fileName: "o.xml", bytes: new TextEncoder().encode(`<corpus lang="english"><lexelt item="bank.n"><instance id="b1"><context>a <head>bank</head></context></instance></lexelt></corpus>`) });
    const { addMember } = await import("../../../lib/server/people/users");
    addMember(f.db, f.coord, other.id, "ann");
    importResponses(f.db, f.coord, other.id, { fileName: "o.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nann\tbank.n\tb1\tshore\t" });
    const otherRows = rowsOf(f.db, other.id);
    const users = f.db.$client.prepare("select count(*) as n from users").get();

    const c = projectContents(f.db, f.coord, f.project.id);
    expect(c).toMatchObject({ name: "p", lexelts: 2, instances: 4, responses: 10, responsesAtLeast: false, members: 4, judgementRounds: 0, systemRuns: 0 });
    await expect(deleteProject(f.db, f.coord, f.project.id, "P")).rejects.toThrow(/type its name, "p", exactly; nothing was deleted/);
    await expect(deleteProject(f.db, f.ann, f.project.id, "p")).rejects.toThrow();
    expect(rowsOf(f.db, f.project.id).responses).toBe(10);

    const gone = await deleteProject(f.db, f.coord, f.project.id, "p");
    expect(gone.name).toBe("p");
    expect(rowsOf(f.db, f.project.id)).toEqual({});
    expect(f.db.$client.prepare("select count(*) as n from projects where id = ?").get(f.project.id)).toEqual({ n: 0 });
    expect(rowsOf(f.db, other.id)).toEqual(otherRows);
    expect(f.db.$client.prepare("select count(*) as n from users").get()).toEqual(users);
    expect(listProjects(f.db, f.coord).map((p) => p.name)).toEqual(["other"]);
    // The name is free again.
    expect(createProject(f.db, f.coord, { name: "p" }).name).toBe("p");
  });

  it("a deletion hides the project from everyone at once, before its rows are gone", async () => {
    const f = goldFixture();
    const deleting = deleteProject(f.db, f.coord, f.project.id, "p");
    // The first step ran synchronously: memberships gone, the project a holding project nothing lists.
    expect(listProjects(f.db, f.coord).map((p) => p.id)).not.toContain(f.project.id);
    expect(() => projectContents(f.db, f.coord, f.project.id)).toThrow(/No such project/);
    await deleting;
  });

  it("deleting a project deletes its crowd participants' accounts and ends their sessions at once (#38)", async () => {
    const f = goldFixture();
    const other = createProject(f.db, f.coord, { name: "other" });
    const refs = (f.db.$client.prepare("select id from instances where project_id = ? order by id limit 2").all(f.project.id) as { id: number }[]).map((r) => r.id);
    const pp = makeParticipant(f.db, makeStudy(f.db, f.project.id), "pp", refs);
    saveResponse(f.db, pp.actor, f.project.id, refs[0], { kind: "NIL", substitutes: [], multiword: false }, { expectedRevision: 0 });
    // A participant of another project stays.
    importLexeltXml(f.db, f.coord, other.id, { fileName: "o.xml", bytes: new TextEncoder().encode('<?xml version="1.0"?><corpus lang="english"><lexelt item="x.n"><instance id="o1"><context>an <head>x</head></context></instance></lexelt></corpus>') });
    const oref = (f.db.$client.prepare("select id from instances where project_id = ?").get(other.id) as { id: number }).id;
    const po = makeParticipant(f.db, makeStudy(f.db, other.id), "po", [oref]);
    const session = (userId: number) => f.db.$client.prepare("select session_version as sv, disabled from users where id = ?").get(userId) as { sv: number; disabled: number } | undefined;
    const before = session(pp.actor.userId)!;

    const deleting = deleteProject(f.db, f.coord, f.project.id, "p");
    // At once: the session version moved on (every session of theirs refused) and the account disabled.
    const during = session(pp.actor.userId);
    expect(during?.disabled).toBe(1);
    expect(during!.sv).toBeGreaterThan(before.sv);
    await deleting;
    expect(session(pp.actor.userId)).toBeUndefined();
    expect(f.db.$client.prepare("select count(*) as n from users where role = 'participant'").get()).toEqual({ n: 1 });
    expect(session(po.actor.userId)).toEqual({ sv: 0, disabled: 0 });
    expect(f.db.$client.prepare("select count(*) as n from participants").get()).toEqual({ n: 1 });
  });
});
