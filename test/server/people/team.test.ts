import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { setAssignments } from "../../../lib/server/annotate/assignments";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import {
  addExistingMember,
  createAnnotatorForProject,
  generatePassword,
  setGuidelines,
  setRequiredAnnotators,
  teamOverview,
} from "../../../lib/server/people/team";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { removeMember } from "../../../lib/server/people/accounts";
import { createProject } from "../../../lib/server/corpus/projects";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { signInWithPassword } from "../../../lib/server/people/signin";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";
import { makeParticipant, makeStudy } from "../../support/crowd";
import { listAccounts } from "../../../lib/server/people/accounts";

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a"><instance id="c1"><context>a <head>calm</head> sea</context></instance><instance id="c2"><context><head>calm</head> down</context></instance></lexelt>
<lexelt item="hop.v"><instance id="h1"><context>birds <head>hop</head></context></instance></lexelt>
</corpus>
`;

function setup() {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
  return f;
}

describe("teamOverview", () => {
  it("counts study participants apart (the Crowd tab lists them): not among the members, the accounts or the former members", () => {
    const { db, coord, project } = setup();
    const c1 = (db.$client.prepare("select id from instances where instance_id = 'c1'").get() as { id: number }).id;
    const pp = makeParticipant(db, makeStudy(db, project.id), "prolific:1:aa", [c1]);
    saveResponse(db, pp.actor, project.id, c1, { kind: "NIL", substitutes: [], multiword: false }, { expectedRevision: 0 });
    const t = teamOverview(db, coord, project.id);
    expect(t.members.map((m) => m.name)).toEqual(["ann", "coord"]);
    expect(t.participants).toBe(1);
    expect(t.responses).toEqual({ count: 1, annotators: 1, formerMembers: 0 });
    expect(t.others.map((u) => u.name)).not.toContain("prolific:1:aa");
    expect(listAccounts(db, coord).map((u) => u.name)).not.toContain("prolific:1:aa");
    expect(listAccounts(db, SYSTEM).map((u) => u.name)).not.toContain("prolific:1:aa");
  });

  it("lists members with what they annotate, the lexelts, and the accounts that could be added", () => {
    const { db, coord, ann, project } = setup();
    // zoe is in another project of coord's; xena is in nobody's project of coord's: not offered.
    const zoe = actorFor(db, "zoe", "annotator");
    actorFor(db, "xena", "annotator");
    addMember(db, coord, createProject(db, coord, { name: "p2" }).id, zoe.name);
    const t = teamOverview(db, coord, project.id);
    expect(t.project).toEqual({ id: project.id, name: "p", requiredAnnotators: null, guidelines: "" });
    expect(t.lexeltPage.rows.map((l) => [l.item, l.instances, l.assigned])).toEqual([["calm.a", 2, true], ["hop.v", 1, true]]);
    expect([t.lexeltCount, t.lexeltPage.total, t.lexeltPage.pages]).toEqual([2, 2, 1]);
    expect(t.members).toEqual([
      { id: ann.userId, name: "ann", role: "annotator", projectRole: "annotator", assigned: null, responses: 0 },
      { id: coord.userId, name: "coord", role: "coordinator", projectRole: "coordinator", assigned: null, responses: 0 },
    ]);
    expect(t.others.map((u) => u.name)).toEqual(["zoe"]);
    const [calm, hop] = t.lexeltPage.rows;
    setAssignments(db, coord, project.id, ann.userId, [hop.id]);
    const after = teamOverview(db, coord, project.id, { editing: ann.userId });
    expect(after.members[0].assigned).toEqual({ count: 1, first: ["hop.v"] });
    // The editor's page says which lexelts the annotator being edited annotates.
    expect(after.lexeltPage.rows.map((l) => [l.id, l.assigned])).toEqual([
      [calm.id, false],
      [hop.id, true],
    ]);
    // A search and a page of one: the second match.
    const paged = teamOverview(db, coord, project.id, { editing: ann.userId, lq: ".", lpage: 2, pageSize: 1 });
    expect(paged.lexeltPage).toEqual({ rows: [{ id: hop.id, item: "hop.v", instances: 1, assigned: true }], page: 2, pages: 2, total: 2 });
    expect(teamOverview(db, coord, project.id, { lq: "CAL" }).lexeltPage.rows.map((l) => l.item)).toEqual(["calm.a"]);
  });

  it("counts what the responses download holds, a removed member's answers included", () => {
    const { db, coord, ann, project } = setup();
    const bob = actorFor(db, "bob", "annotator");
    addMember(db, coord, project.id, bob.name);
    const refs = (db.$client.prepare("select id from instances where project_id = ? order by position").all(project.id) as { id: number }[]).map((r) => r.id);
    expect(teamOverview(db, coord, project.id).responses).toEqual({ count: 0, annotators: 0, formerMembers: 0 });
    for (const ref of refs) saveResponse(db, ann, project.id, ref, { kind: "substitutes", substitutes: ["still"], multiword: false }, { expectedRevision: 0 });
    saveResponse(db, bob, project.id, refs[0], { kind: "NIL", substitutes: [], multiword: false }, { expectedRevision: 0 });
    expect(teamOverview(db, coord, project.id).responses).toEqual({ count: 4, annotators: 2, formerMembers: 0 });
    removeMember(db, coord, project.id, bob.userId);
    const after = teamOverview(db, coord, project.id);
    expect(after.members.map((m) => m.name)).not.toContain("bob");
    expect(after.responses).toEqual({ count: 4, annotators: 2, formerMembers: 1 });
  });

  it("is refused to annotators, to the signed-out and to coordinators of other projects", () => {
    const { db, ann, project } = setup();
    expect(() => teamOverview(db, ann, project.id)).toThrow(AuthError);
    expect(() => teamOverview(db, null, project.id)).toThrow(AuthError);
    expect(() => teamOverview(db, actorFor(db, "other", "coordinator"), project.id)).toThrow(NotFoundError);
  });
});

describe("setRequiredAnnotators", () => {
  it.each<[unknown, number | null]>([
    [3, 3],
    ["5", 5],
    [" 2 ", 2],
    ["", null],
    [null, null],
  ])("stores %j as %j", (value, stored) => {
    const { db, coord, project } = setup();
    expect(setRequiredAnnotators(db, coord, project.id, value)).toBe(stored);
    expect(teamOverview(db, coord, project.id).project.requiredAnnotators).toBe(stored);
  });

  it.each<[unknown, RegExp]>([
    [0, /At least 1 annotator/],
    ["-2", /At least 1 annotator/],
    ["2.5", /whole number/],
    ["three", /whole number/],
    [101, /At most 100/],
  ])("refuses %j", (value, message) => {
    const { db, coord, project } = setup();
    setRequiredAnnotators(db, coord, project.id, 4);
    expect(() => setRequiredAnnotators(db, coord, project.id, value)).toThrow(message);
    expect(teamOverview(db, coord, project.id).project.requiredAnnotators).toBe(4);
  });

  it("is refused to annotators", () => {
    const { db, ann, coord, project } = setup();
    expect(() => setRequiredAnnotators(db, ann, project.id, 2)).toThrow(AuthError);
    expect(teamOverview(db, coord, project.id).project.requiredAnnotators).toBeNull();
  });
});

describe("setGuidelines", () => {
  it("stores the text with line endings normalised and trailing space trimmed", () => {
    const { db, coord, project } = setup();
    expect(setGuidelines(db, coord, project.id, "Give up to three substitutes.\r\n\r\nUse NAME for names.  \n\n")).toBe(
      "Give up to three substitutes.\n\nUse NAME for names.",
    );
    expect(teamOverview(db, coord, project.id).project.guidelines).toBe("Give up to three substitutes.\n\nUse NAME for names.");
  });

  it("refuses over-long text, non-text and annotators", () => {
    const { db, coord, ann, project } = setup();
    expect(() => setGuidelines(db, coord, project.id, "x".repeat(20_001))).toThrow(/at most 20,000 characters/);
    expect(() => setGuidelines(db, coord, project.id, 42)).toThrow(InputError);
    expect(() => setGuidelines(db, ann, project.id, "mine now")).toThrow(AuthError);
    expect(teamOverview(db, coord, project.id).project.guidelines).toBe("");
  });
});

describe("createAnnotatorForProject", () => {
  it("creates an annotator member with the typed password, hashed", async () => {
    const { db, coord, project } = setup();
    const r = await createAnnotatorForProject(db, coord, project.id, { name: "nina", password: "correct horse" });
    expect(r).toMatchObject({ user: { name: "nina", role: "annotator" }, password: "correct horse", generated: false });
    expect(teamOverview(db, coord, project.id).members.map((m) => m.name)).toContain("nina");
    const stored = db.$client.prepare("select password_hash from users where name = 'nina'").get() as { password_hash: string };
    expect(stored.password_hash).not.toContain("correct horse");
    expect(bcrypt.compareSync("correct horse", stored.password_hash)).toBe(true);
  });

  it("generates a password when none is typed, and the account can sign in with it", async () => {
    const { db, coord, project } = setup();
    const r = await createAnnotatorForProject(db, coord, project.id, { name: "omar", password: "" });
    expect(r.generated).toBe(true);
    expect(r.password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const signedIn = await signInWithPassword(db, { name: "omar", password: r.password, client: "192.0.2.1", deviceCookie: null, secret: "s" });
    expect(signedIn).toMatchObject({ ok: true, user: { name: "omar" } });
  });

  it("generates different passwords from an alphabet without look-alikes", () => {
    const seen = new Set(Array.from({ length: 50 }, () => generatePassword()));
    expect(seen.size).toBe(50);
    for (const p of seen) expect(p).not.toMatch(/[01ilo]/);
  });

  it.each<[string, { name: string; password?: string }, RegExp]>([
    ["a taken name", { name: "ann", password: "long enough" }, /already exists/],
    ["a short password", { name: "pia", password: "nine-char" }, /at least 10 characters/],
    ["one character repeated", { name: "pia", password: "aaaaaaaaaaaa" }, /one character repeated/],
    ["spaces only", { name: "pia", password: " ".repeat(12) }, /one character repeated/],
    ["66 characters but 78 bytes (bcrypt reads 72)", { name: "pia", password: "café-crème ".repeat(6) }, /at most 72 bytes/],
    ["a bad name", { name: "two words", password: "long enough" }, /letters, digits/],
  ])("refuses %s and creates nothing", async (_what, input, message) => {
    const { db, coord, project } = setup();
    const before = teamOverview(db, coord, project.id).members.length;
    await expect(createAnnotatorForProject(db, coord, project.id, input)).rejects.toThrow(message);
    expect(teamOverview(db, coord, project.id).members).toHaveLength(before);
  });

  it("is refused to annotators and to coordinators of other projects, creating no account", async () => {
    const { db, ann, project } = setup();
    await expect(createAnnotatorForProject(db, ann, project.id, { name: "sly", password: "long enough" })).rejects.toThrow(AuthError);
    await expect(createAnnotatorForProject(db, actorFor(db, "other", "coordinator"), project.id, { name: "sly", password: "long enough" })).rejects.toThrow(
      NotFoundError,
    );
    expect(db.$client.prepare("select count(*) as n from users where name = 'sly'").get()).toEqual({ n: 0 });
  });
});

describe("addExistingMember", () => {
  it("adds an account by id, once", () => {
    const { db, coord, project } = setup();
    const zoe = actorFor(db, "zoe", "annotator");
    addMember(db, coord, createProject(db, coord, { name: "p2" }).id, zoe.name);
    expect(addExistingMember(db, coord, project.id, String(zoe.userId))).toMatchObject({ added: true, user: { name: "zoe" } });
    expect(addExistingMember(db, coord, project.id, zoe.userId)).toMatchObject({ added: false });
    expect(teamOverview(db, coord, project.id).others).toEqual([]);
  });

  it("adds as annotator or judge; a coordinator account coordinates unless asked otherwise; only it may coordinate", () => {
    const { db, coord, project } = setup();
    const p2 = createProject(db, coord, { name: "p2" }).id;
    const zoe = actorFor(db, "zoe", "annotator");
    const yan = actorFor(db, "yan", "annotator");
    const co = actorFor(db, "carla", "coordinator");
    for (const u of [zoe, yan, co]) addMember(db, SYSTEM, p2, u.name);
    expect(() => addExistingMember(db, coord, project.id, yan.userId, "coordinator")).toThrow("Only a coordinator account can coordinate a project");
    expect(() => addExistingMember(db, coord, project.id, yan.userId, "referee")).toThrow(InputError);
    addExistingMember(db, coord, project.id, zoe.userId, "judge");
    addExistingMember(db, coord, project.id, yan.userId);
    addExistingMember(db, coord, project.id, co.userId);
    const roles = Object.fromEntries(teamOverview(db, coord, project.id).members.map((m) => [m.name, m.projectRole]));
    expect(roles).toEqual({ ann: "annotator", carla: "coordinator", coord: "coordinator", yan: "annotator", zoe: "judge" });
  });

  it("refuses unknown ids and annotators", () => {
    const { db, coord, ann, project } = setup();
    const zoe = actorFor(db, "zoe", "annotator");
    expect(() => addExistingMember(db, coord, project.id, "")).toThrow(InputError);
    expect(() => addExistingMember(db, coord, project.id, 9999)).toThrow(InputError);
    expect(() => addExistingMember(db, ann, project.id, zoe.userId)).toThrow(AuthError);
  });

  it("refuses accounts outside the coordinator's projects (another project's coordinator included)", () => {
    const { db, coord, project } = setup();
    const stranger = actorFor(db, "stranger", "annotator");
    const otherCoord = actorFor(db, "boss", "coordinator");
    createProject(db, otherCoord, { name: "elsewhere" });
    expect(teamOverview(db, coord, project.id).others).toEqual([]);
    for (const id of [stranger.userId, otherCoord.userId]) expect(() => addExistingMember(db, coord, project.id, id)).toThrow("No such account.");
    expect(teamOverview(db, coord, project.id).members.map((m) => m.name)).toEqual(["ann", "coord"]);
  });
});
