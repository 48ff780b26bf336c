/**
 * Opening a study and joining it by its link (lib/server/crowd/studies.ts, join.ts): the
 * coordinator's input checked field by field, the platform's ids checked for shape, paused and
 * closed studies, Mechanical Turk's preview, consent, resume, the join limits, and the
 * participant account (an annotator of that one project, no password).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createStudy, listStudies, platformLink, setStudyState, studyLink } from "../../lib/server/crowd/studies";
import { joinStudy, type LinkParams, readParams, studyByToken } from "../../lib/server/crowd/join";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { InputError, NotFoundError } from "../../lib/server/kernel/errors";
import { resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { signInWithPassword } from "../../lib/server/people/signin";
import { createProject, listProjects } from "../../lib/server/corpus/projects";
import { addMember, setMemberRole } from "../../lib/server/people/users";
import { setProjectArchived } from "../../lib/server/corpus/project-lifecycle";
import { bigProject } from "../support/big-project";

const T0 = 1_800_000_000_000;
const PID = "5f0c1e9a2b3c4d5e6f708192";
const STUDY = "60aa11bb22cc33dd44ee55ff";
const SESSION = "70aa11bb22cc33dd44ee55ff";
const prolific = (pid = PID): LinkParams => ({ PROLIFIC_PID: pid, STUDY_ID: STUDY, SESSION_ID: SESSION });
const mturk = (over: LinkParams = {}): LinkParams => ({ workerId: "A1B2C3D4E5F6G7", assignmentId: "3XYZ0ASSIGN1", hitId: "3HIT0ABC", turkSubmitTo: "https://workersandbox.mturk.com", ...over });

function limitsOff() {
  process.env.LEXGOLD_STUDY_JOIN_RATE = "off";
  process.env.LEXGOLD_ADDRESS_JOIN_RATE = "off";
  resetRateLimits();
}
beforeEach(limitsOff);

const fixture = (platform: "prolific" | "mturk" | "link" = "prolific", extra: Record<string, unknown> = {}) => {
  const big = bigProject({ instances: 20, answered: 0 });
  const study = createStudy(big.db, SYSTEM, big.projectId, { platform, batchSize: 5, overlap: 2, minutes: 20, completionCode: "C0DE42", ...extra });
  return { ...big, study };
};

async function refusal(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a refusal");
}

describe("createStudy", () => {
  it("checks each field and names it; Prolific needs a completion code; nothing is written when refused", () => {
    const { db, projectId } = bigProject({ instances: 3, answered: 0 });
    const bad = (input: Record<string, unknown>) => {
      try {
        createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 20, ...input });
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return (e as InputError).fieldErrors;
      }
      throw new Error("expected a refusal");
    };
    expect(bad({ platform: "crowdflower" })).toEqual({ platform: "Platform: prolific, mturk or link." });
    expect(bad({ batchSize: "0" })).toEqual({ batchSize: "Batch size is at least 1." });
    expect(bad({ overlap: "2.5" })).toEqual({ overlap: "Overlap: give a whole number." });
    expect(bad({ minutes: "many" })).toEqual({ minutes: "Minutes: give a whole number." });
    expect(bad({ minutes: 100_000 })).toEqual({ minutes: "Minutes is at most 1,440." });
    expect(bad({ completionCode: "C0DE 42" })).toEqual({ completionCode: "Completion code: letters, digits, dash or underscore only." });
    expect(bad({ platform: "prolific" }).completionCode).toMatch(/^Completion code: Prolific needs/);
    expect(db.$client.prepare("select count(*) as n from studies").get()).toEqual({ n: 0 });
  });

  it("refuses a project with no instance a batch could hold, and an archived project", () => {
    const { db, projectId } = bigProject({ instances: 0, answered: 0 });
    expect(() => createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 20 })).toThrow(/has no instances a batch could hold yet/);
    const archived = bigProject({ instances: 3, answered: 0 });
    setProjectArchived(archived.db, SYSTEM, archived.projectId, true);
    expect(() => createStudy(archived.db, SYSTEM, archived.projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 20 })).toThrow("“big” is archived: unarchive it before opening a study.");
    for (const d of [db, archived.db]) expect(d.$client.prepare("select count(*) as n from studies").get()).toEqual({ n: 0 });
  });

  it("makes an unguessable token, slots for every instance, and lists the study with its counts", () => {
    const { db, projectId, study } = fixture();
    expect(study.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(study).toMatchObject({ instances: 20, state: "open", completionCode: "C0DE42", platform: "prolific" });
    expect(listStudies(db, SYSTEM, projectId)).toEqual([expect.objectContaining({ id: study.id, participants: 0, instances: 20, placesTaken: 0, full: 0 })]);
    const other = fixture();
    expect(other.study.token).not.toBe(study.token);
  });

  it("the links: Prolific's with its placeholders, the others bare", () => {
    expect(studyLink("https://lex.example.org/", "abc")).toBe("https://lex.example.org/study/abc");
    expect(platformLink("https://lex.example.org", "abc", "prolific")).toBe("https://lex.example.org/study/abc?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}");
    expect(platformLink("https://lex.example.org", "abc", "mturk")).toBe("https://lex.example.org/study/abc");
  });

  it("pause, open, close; a bad state or a study of another project is refused", () => {
    const { db, projectId, study } = fixture();
    expect(setStudyState(db, SYSTEM, study.id, "paused").state).toBe("paused");
    expect(setStudyState(db, SYSTEM, String(study.id), "closed", projectId).state).toBe("closed");
    expect(() => setStudyState(db, SYSTEM, study.id, "gone")).toThrow("State: open, paused or closed.");
    expect(() => setStudyState(db, SYSTEM, study.id, "open", projectId + 1)).toThrow(NotFoundError);
    expect(() => setStudyState(db, SYSTEM, 9999, "open")).toThrow(NotFoundError);
    expect(studyByToken(db, study.token)?.state).toBe("closed");
  });
});

describe("the platform's ids, for shape", () => {
  it.each([
    ["prolific", prolific(), { platformId: PID, platformStudyId: STUDY, platformSessionId: SESSION, submitTo: null }],
    ["prolific", { ...prolific(PID.toUpperCase()) }, { platformId: PID }],
    ["mturk", mturk(), { platformId: "A1B2C3D4E5F6G7", platformStudyId: "3HIT0ABC", platformSessionId: "3XYZ0ASSIGN1", submitTo: "https://workersandbox.mturk.com" }],
    ["mturk", mturk({ turkSubmitTo: "https://www.mturk.com/" }), { submitTo: "https://www.mturk.com" }],
    ["link", { id: "Reader_7.b" }, { platformId: "reader_7.b" }],
  ] as const)("%s %j is read", (platform, params, ids) => {
    const r = readParams(platform, params);
    expect(r.ok && r.ids).toMatchObject(ids);
  });

  it.each([
    ["prolific", {}, /needs Prolific's PROLIFIC_PID, STUDY_ID and SESSION_ID/],
    ["prolific", prolific("5f0c1e9a2b3c4d5e6f70819"), /PROLIFIC_PID should be 24 hexadecimal digits/],
    ["prolific", { ...prolific(), SESSION_ID: "{{%SESSION_ID%}}" }, /SESSION_ID should be 24 hexadecimal digits/],
    ["mturk", { workerId: "A1" }, /needs Mechanical Turk's workerId, assignmentId, hitId and turkSubmitTo/],
    ["mturk", mturk({ workerId: "A1<script>" }), /workerId should be letters and digits/],
    ["mturk", mturk({ hitId: "x".repeat(65) }), /hitId should be letters and digits \(at most 64\)/],
    ["mturk", mturk({ turkSubmitTo: "https://evil.example.com" }), /turkSubmitTo must be https:\/\/www.mturk.com or https:\/\/workersandbox.mturk.com/],
    ["mturk", mturk({ turkSubmitTo: "http://www.mturk.com" }), /turkSubmitTo must be/],
    ["link", {}, /Choose an id/],
    ["link", { id: "a b" }, /1 to 64 letters, digits, dots, dashes or underscores/],
    ["link", { id: "x".repeat(65) }, /1 to 64/],
  ] as const)("%s %j is refused", (platform, params, problem) => {
    const r = readParams(platform, params);
    expect(r.ok).toBe(false);
    expect(!r.ok && !r.preview && r.problem).toMatch(problem);
  });

  it("Mechanical Turk's preview is a preview, never a join", async () => {
    expect(readParams("mturk", { assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE", hitId: "3HIT0ABC" })).toEqual({ ok: false, preview: true });
    const { db, study } = fixture("mturk");
    const e = await refusal(joinStudy(db, { token: study.token, params: mturk({ assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE" }), address: null, now: T0 }));
    expect(e.message).toBe("This is Mechanical Turk's preview: accept the HIT to start.");
    expect(db.$client.prepare("select count(*) as n from participants").get()).toEqual({ n: 0 });
  });
});

describe("joinStudy", () => {
  it("makes a participant account: an annotator of the study's project only, with its batch; password sign-in refuses it whatever is typed", async () => {
    const { db, projectId, study } = fixture();
    const j = await joinStudy(db, { token: study.token, params: prolific(), address: "192.0.2.7", now: T0 });
    expect(j).toMatchObject({ resumed: false, projectId, items: 5, user: { role: "participant", name: `prolific:${study.id}:${PID}` } });
    expect(db.$client.prepare("select role from users where id = ?").get(j.user.id)).toEqual({ role: "participant" });
    expect(db.$client.prepare("select project_id as p, role from memberships where user_id = ?").all(j.user.id)).toEqual([{ p: projectId, role: "annotator" }]);
    expect(db.$client.prepare("select platform_id as pid, platform_study_id as s, platform_session_id as ss, address, joined_at as at, state, batch_at as b from participants").get()).toEqual({
      pid: PID,
      s: STUDY,
      ss: SESSION,
      address: "192.0.2.7",
      at: T0,
      state: "active",
      b: T0,
    });
    const actor = { kind: "user" as const, userId: j.user.id, name: j.user.name, role: "participant" as const };
    expect(listProjects(db, actor).map((p) => p.id)).toEqual([projectId]);
    for (const password of ["", "!participant", "participant", "x".repeat(20)]) {
      const r = await signInWithPassword(db, { name: j.user.name, password, client: "192.0.2.7", deviceCookie: null, secret: "s".repeat(40) });
      expect(r).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("a participant account stays in its study's project, as an annotator", async () => {
    const { db, projectId, study } = fixture();
    const j = await joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 });
    const other = createProject(db, SYSTEM, { name: "elsewhere" });
    const before = db.$client.prepare("select * from memberships order by rowid").all();
    expect(() => addMember(db, SYSTEM, other.id, j.user.name)).toThrow(`"${j.user.name}" is a study participant: they take part in their study's project only.`);
    expect(() => addMember(db, SYSTEM, projectId, j.user.name, "judge")).toThrow(/study participant/);
    expect(() => setMemberRole(db, SYSTEM, projectId, j.user.id, "judge")).toThrow("A study participant annotates in their study's project and does nothing else.");
    expect(db.$client.prepare("select * from memberships order by rowid").all()).toEqual(before);
  });

  it("arriving again with the same id resumes (same account, same batch); another id is another participant", async () => {
    const { db, study } = fixture();
    const a = await joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 });
    const again = await joinStudy(db, { token: study.token, params: { ...prolific(PID.toUpperCase()), SESSION_ID: "80aa11bb22cc33dd44ee55ff" }, address: null, now: T0 + 1000 });
    expect(again).toMatchObject({ resumed: true, participantId: a.participantId, user: a.user, items: 5 });
    expect(db.$client.prepare("select count(*) as n from batch_items").get()).toEqual({ n: 5 });
    const b = await joinStudy(db, { token: study.token, params: prolific("6f0c1e9a2b3c4d5e6f708192"), address: null, now: T0 + 2000 });
    expect(b.user.id).not.toBe(a.user.id);
    expect(db.$client.prepare("select count(*) as n from users where role = 'participant'").get()).toEqual({ n: 2 });
  });

  it("two tabs arriving at once with the same id make one participant with one batch", async () => {
    const { db, study } = fixture("link");
    const [a, b] = await Promise.all([0, 1].map(() => joinStudy(db, { token: study.token, params: { id: "twin" }, address: null, now: T0 })));
    expect(a.user.id).toBe(b.user.id);
    expect([a.resumed, b.resumed].sort()).toEqual([false, true]);
    expect(db.$client.prepare("select count(*) as p, (select count(*) from batch_items) as items from participants").get()).toEqual({ p: 1, items: 5 });
  });

  it("an unknown or malformed token is no such study; paused takes no one new but lets those in resume; closed (or archived) takes no one", async () => {
    const { db, projectId, study } = fixture("link");
    for (const token of ["", "short", study.token.slice(0, -1) + (study.token.endsWith("A") ? "B" : "A"), 42]) {
      expect(await refusal(joinStudy(db, { token, params: { id: "ann" }, address: null, now: T0 }))).toBeInstanceOf(NotFoundError);
    }
    await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 });
    setStudyState(db, SYSTEM, study.id, "paused");
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "bob" }, address: null, now: T0 }))).message).toMatch(/^This study is paused: it takes no new participants just now/);
    expect((await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 })).resumed).toBe(true);
    setStudyState(db, SYSTEM, study.id, "closed");
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 }))).message).toMatch(/^This study is closed/);
    expect(db.$client.prepare("select count(*) as n from participants").get()).toEqual({ n: 1 });
    // An archived project's studies are closed, whatever they say.
    setStudyState(db, SYSTEM, study.id, "open");
    setProjectArchived(db, SYSTEM, projectId, true);
    expect(studyByToken(db, study.token)?.state).toBe("closed");
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "bob" }, address: null, now: T0 }))).message).toMatch(/^This study is closed/);
  });

  it("a study with a consent: no join without agreeing; agreeing is recorded", async () => {
    const { db, study } = fixture("link", { consent: "# Consent\n\nYou agree to take part." });
    const e = await refusal(joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 }));
    expect(e.message).toBe("Read the consent and agree to it to start.");
    expect(db.$client.prepare("select count(*) as n from users where role = 'participant'").get()).toEqual({ n: 0 });
    await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, consent: true, now: T0 });
    expect(db.$client.prepare("select consented_at as at from participants").get()).toEqual({ at: T0 });
    // Back later: no need to agree again.
    expect((await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 + 5 })).resumed).toBe(true);
  });

  it("a participant made inactive by the coordinator (account disabled) cannot come back", async () => {
    const { db, study } = fixture("link");
    const a = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 });
    db.$client.prepare("update users set disabled = 1 where id = ?").run(a.user.id);
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 }))).message).toMatch(/ended by the study's coordinator/);
  });
});

describe("join limits", () => {
  it("per address: the burst, then one per interval; resuming costs nothing; another address is not held", async () => {
    process.env.LEXGOLD_ADDRESS_JOIN_RATE = "0.1,3";
    let clock = 0;
    resetRateLimits(() => clock);
    const { db, study } = fixture("link");
    const go = (id: string, address: string) => joinStudy(db, { token: study.token, params: { id }, address, now: T0 });
    for (const id of ["a", "b", "c"]) await go(id, "198.51.100.4");
    const refused = await refusal(go("d", "198.51.100.4"));
    expect(refused).toMatchObject({ status: 429, retryAfter: 10 });
    expect(refused.message).toBe("Many people are joining just now: try again in 10 s.");
    expect((await go("a", "198.51.100.4")).resumed).toBe(true);
    await go("d", "198.51.100.5");
    clock += 10_000;
    await go("e", "198.51.100.4");
    expect(db.$client.prepare("select count(*) as n from participants").get()).toEqual({ n: 5 });
  });

  it("per study link: its burst, whatever the addresses", async () => {
    process.env.LEXGOLD_STUDY_JOIN_RATE = "1,2";
    const clock = 0;
    resetRateLimits(() => clock);
    const { db, study } = fixture("link");
    await joinStudy(db, { token: study.token, params: { id: "a" }, address: "198.51.100.1", now: T0 });
    await joinStudy(db, { token: study.token, params: { id: "b" }, address: "198.51.100.2", now: T0 });
    expect(await refusal(joinStudy(db, { token: study.token, params: { id: "c" }, address: "198.51.100.3", now: T0 }))).toMatchObject({ status: 429 });
  });
});
