/**
 * Who coordinates a new project, and what a coordinator who is not a member of a
 * project learns of it (#40): whom to ask, nothing more; everyone else, nothing.
 */
import { describe, expect, it } from "vitest";
import { createProject, projectAccessRequest, projectOverview } from "../../../lib/server/corpus/projects";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { NotFoundError } from "../../../lib/server/kernel/errors";
import { actorFor, testDb } from "../../support/db";

function study() {
  const db = testDb();
  const boss = actorFor(db, "boss", "coordinator");
  db.$client.prepare("update users set administers_projects = 1 where name = 'boss'").run();
  const cora = actorFor(db, "cora", "coordinator");
  const dan = actorFor(db, "dan", "coordinator");
  const ann = actorFor(db, "ann", "annotator");
  return { db, boss, cora, dan, ann };
}

describe("createProject: the project's coordinators", () => {
  it("from the command line: the study's coordinator and the ones named, so nobody meets a 404 on their own study", () => {
    const { db, boss, cora } = study();
    const p = createProject(db, SYSTEM, { name: "cli", coordinators: ["Cora"] });
    expect(p.coordinators).toEqual(["boss", "cora"]);
    expect(projectOverview(db, boss, p.id).name).toBe("cli");
    expect(projectOverview(db, cora, p.id).name).toBe("cli");
  });

  it("on the web: its creator and the study's coordinator", () => {
    const { db, dan } = study();
    expect(createProject(db, dan, { name: "web" }).coordinators).toEqual(["dan", "boss"]);
  });

  it("refuses a named account that is no coordinator, or no account, creating nothing", () => {
    const { db } = study();
    expect(() => createProject(db, SYSTEM, { name: "x", coordinators: ["ann"] })).toThrow(/"ann" is an annotator account, not a coordinator; nothing was created/);
    expect(() => createProject(db, SYSTEM, { name: "x", coordinators: ["zed"] })).toThrow(/No user named "zed"/);
    expect(db.$client.prepare("select count(*) as n from projects").get()).toEqual({ n: 0 });
  });
});

describe("projectAccessRequest: a coordinator who is not a member", () => {
  it("learns whom to ask and nothing else of the project; the pages themselves stay closed", () => {
    const { db, cora, dan } = study();
    const p = createProject(db, cora, { name: "secret-study" });
    const ask = projectAccessRequest(db, dan, p.id);
    expect(ask).toEqual({ coordinators: ["boss", "cora"] });
    // Only names of whom to ask: not the project's name, language or contents.
    expect(JSON.stringify(ask)).not.toContain("secret-study");
    expect(() => projectOverview(db, dan, p.id)).toThrow(NotFoundError);
  });

  it("is null for members, annotators, the signed-out and projects that do not exist (they get the 404)", () => {
    const { db, cora, ann } = study();
    const p = createProject(db, cora, { name: "s" });
    expect(projectAccessRequest(db, cora, p.id)).toBeNull();
    expect(projectAccessRequest(db, ann, p.id)).toBeNull();
    expect(projectAccessRequest(db, null, p.id)).toBeNull();
    expect(projectAccessRequest(db, cora, p.id + 100)).toBeNull();
  });

  it("names the study's coordinator when the project has no coordinator left", () => {
    const { db, cora, dan } = study();
    const p = createProject(db, cora, { name: "s" });
    db.$client.prepare("delete from memberships where project_id = ?").run(p.id);
    expect(projectAccessRequest(db, dan, p.id)).toEqual({ coordinators: ["boss"] });
  });
});
