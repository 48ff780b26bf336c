/**
 * Opening a study and joining it by its link (lib/server/crowd/studies.ts, join.ts): the
 * coordinator's input checked field by field, the platform's ids checked for shape, paused and
 * closed studies, Mechanical Turk's preview, consent, resume, the join limits, and the
 * participant account (an annotator of that one project, no password).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createStudy, listStudies, platformLink, setStudyState, studyLink } from "../../../lib/server/crowd/studies";
import { type Joined, joinStudy, type LinkParams, readParams, studyByToken } from "../../../lib/server/crowd/join";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { resetRateLimits } from "../../../lib/server/kernel/rate-limit";
import { signInWithPassword } from "../../../lib/server/people/signin";
import { createProject, listProjects } from "../../../lib/server/corpus/projects";
import { addMember, setMemberRole } from "../../../lib/server/people/users";
import { setProjectArchived } from "../../../lib/server/corpus/project-lifecycle";
import { bigProject } from "../../support/big-project";
import { startedView } from "../../../lib/server/crowd/started";

const T0 = 1_800_000_000_000;
const PID = "5f0c1e9a2b3c4d5e6f708192";
const STUDY = "60aa11bb22cc33dd44ee55ff";
const SESSION = "70aa11bb22cc33dd44ee55ff";
const prolific = (pid = PID): LinkParams => ({ PROLIFIC_PID: pid, STUDY_ID: STUDY, SESSION_ID: SESSION });
const mturk = (over: LinkParams = {}): LinkParams => ({ workerId: "A1B2C3D4E5F6G7", assignmentId: "3XYZ0ASSIGN1", hitId: "3HIT0ABC", turkSubmitTo: "https://workersandbox.mturk.com", ...over });

const LIMITS = ["LEXGOLD_STUDY_JOIN_RATE", "LEXGOLD_ADDRESS_JOIN_RATE", "LEXGOLD_REJOIN_RATE", "LEXGOLD_RESUME_RATE", "LEXGOLD_ADDRESS_REJOIN_RATE"];
function limitsOff() {
  for (const k of LIMITS) process.env[k] = "off";
  resetRateLimits();
}

/** The browser that made `j`: it holds the key its join issued (lib/auth keeps it in the study's cookie). */
const from = (j: Joined) => ({ browserKey: () => j.issued.browserKey });
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
    // As issued: no case folding (issue #38).
    ["prolific", { ...prolific(PID.toUpperCase()) }, { platformId: PID.toUpperCase() }],
    ["mturk", mturk(), { platformId: "A1B2C3D4E5F6G7", platformStudyId: "3HIT0ABC", platformSessionId: "3XYZ0ASSIGN1", submitTo: "https://workersandbox.mturk.com" }],
    ["mturk", mturk({ turkSubmitTo: "https://www.mturk.com/" }), { submitTo: "https://www.mturk.com" }],
    ["link", { id: "Reader_7.b" }, { platformId: "Reader_7.b" }],
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

  it("arriving again from the same browser resumes (same account, same batch); another id is another participant", async () => {
    const { db, study } = fixture();
    const a = await joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 });
    expect(a.issued.browserKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.issued.resumeCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const again = await joinStudy(db, { token: study.token, params: { ...prolific(), SESSION_ID: "80aa11bb22cc33dd44ee55ff" }, address: null, now: T0 + 1000, ...from(a) });
    expect(again).toMatchObject({ resumed: true, participantId: a.participantId, user: a.user, items: 5, issued: { browserKey: null, resumeCode: null } });
    expect(db.$client.prepare("select count(*) as n from batch_items").get()).toEqual({ n: 5 });
    const b = await joinStudy(db, { token: study.token, params: prolific("6f0c1e9a2b3c4d5e6f708192"), address: null, now: T0 + 2000 });
    expect(b.user.id).not.toBe(a.user.id);
    expect(db.$client.prepare("select count(*) as n from users where role = 'participant'").get()).toEqual({ n: 2 });
  });

  it("two arrivals at once with the same id make one participant with one batch; the second resumes only with the same platform session", async () => {
    const { db, study } = fixture();
    const [a, b] = await Promise.all([0, 1].map(() => joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 })));
    expect(a.user.id).toBe(b.user.id);
    expect([a.resumed, b.resumed].sort()).toEqual([false, true]);
    expect(db.$client.prepare("select count(*) as p, (select count(*) from batch_items) as items from participants").get()).toEqual({ p: 1, items: 5 });
    // A plain link has no platform session: the second, proving nothing, is refused and writes nothing.
    const link = fixture("link");
    const both = await Promise.allSettled([0, 1].map(() => joinStudy(link.db, { token: link.study.token, params: { id: "twin" }, address: null, now: T0 })));
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((both.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.message).toMatch(/^This id is already taking part in this study from another browser/);
    expect(link.db.$client.prepare("select count(*) as p, (select count(*) from batch_items) as items, (select count(*) from participant_browsers) as browsers from participants").get()).toEqual({ p: 1, items: 5, browsers: 1 });
  });

  it("an unknown or malformed token is no such study; paused takes no one new but lets those in resume; closed (or archived) takes no one", async () => {
    const { db, projectId, study } = fixture("link");
    for (const token of ["", "short", study.token.slice(0, -1) + (study.token.endsWith("A") ? "B" : "A"), 42]) {
      expect(await refusal(joinStudy(db, { token, params: { id: "ann" }, address: null, now: T0 }))).toBeInstanceOf(NotFoundError);
    }
    const ann = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 });
    setStudyState(db, SYSTEM, study.id, "paused");
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "bob" }, address: null, now: T0 }))).message).toMatch(/^This study is paused: it takes no new participants just now/);
    expect((await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0, ...from(ann) })).resumed).toBe(true);
    setStudyState(db, SYSTEM, study.id, "closed");
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0, ...from(ann) }))).message).toMatch(/^This study is closed/);
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
    const ann = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, consent: true, now: T0 });
    expect(db.$client.prepare("select consented_at as at from participants").get()).toEqual({ at: T0 });
    // Back later: no need to agree again.
    expect((await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 + 5, ...from(ann) })).resumed).toBe(true);
  });

  it("a participant made inactive by the coordinator (account disabled) cannot come back", async () => {
    const { db, study } = fixture("link");
    const a = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 });
    db.$client.prepare("update users set disabled = 1 where id = ?").run(a.user.id);
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0, ...from(a) }))).message).toMatch(/ended by the study's coordinator/);
    // Anyone else is told only that the id is taking part.
    expect((await refusal(joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 }))).message).toMatch(/already taking part/);
  });
});

describe("join limits", () => {
  it("per address: the burst, then one per interval; resuming costs nothing; another address is not held", async () => {
    process.env.LEXGOLD_ADDRESS_JOIN_RATE = "0.1,3";
    let clock = 0;
    resetRateLimits(() => clock);
    const { db, study } = fixture("link");
    const go = (id: string, address: string, browser?: Joined) => joinStudy(db, { token: study.token, params: { id }, address, now: T0, ...(browser ? from(browser) : {}) });
    const [a] = [await go("a", "198.51.100.4"), await go("b", "198.51.100.4"), await go("c", "198.51.100.4")];
    const refused = await refusal(go("d", "198.51.100.4"));
    expect(refused).toMatchObject({ status: 429, retryAfter: 10 });
    expect(refused.message).toBe("Many people are joining just now: try again in 10 s.");
    expect((await go("a", "198.51.100.4", a)).resumed).toBe(true);
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

describe("arriving again (issue #38, finding 4)", () => {
  const changes = (db: { $client: { prepare: (s: string) => { get: () => unknown } } }) => (db.$client.prepare("select total_changes() as n").get() as { n: number }).n;

  it("from the participant's own browser, with nothing to change, only reads: no write, not even the time last seen", async () => {
    const { db, study } = fixture("link", { consent: "You agree." });
    const a = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: "192.0.2.1", consent: true, now: T0 });
    const before = changes(db);
    const rows = db.$client.prepare("select * from participants").all();
    for (let i = 1; i <= 5; i++) {
      const again = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: "192.0.2.1", consent: true, now: T0 + i * 1000, ...from(a) });
      expect(again).toMatchObject({ resumed: true, participantId: a.participantId, items: 5, issued: { browserKey: null, resumeCode: null } });
    }
    expect(changes(db)).toBe(before);
    expect(db.$client.prepare("select * from participants").all()).toEqual(rows);
  });

  it("writes when there is something to do: a browser's first key, a batch past its time to release", async () => {
    const { db, study } = fixture();
    const a = await joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 });
    // Another browser with the platform session: a key of its own is stored.
    const other = await joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 + 1 });
    expect(other.issued.browserKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other.issued.resumeCode).toBeNull();
    expect(db.$client.prepare("select count(*) as n from participant_browsers").get()).toEqual({ n: 2 });
    // Their own browser after the study's minutes: the batch is released (the allocation's work), so it writes.
    const late = await joinStudy(db, { token: study.token, params: prolific(), address: null, now: T0 + 21 * 60_000, ...from(a) });
    expect(late.items).toBe(0);
    expect(db.$client.prepare("select state from participants").get()).toEqual({ state: "timed-out" });
  });

  it("is limited per participant (their own browser and other browsers apart) and per address; a refusal writes nothing", async () => {
    process.env.LEXGOLD_REJOIN_RATE = "1,3";
    process.env.LEXGOLD_RESUME_RATE = "0.01,2";
    process.env.LEXGOLD_ADDRESS_REJOIN_RATE = "1,6";
    let clock = 0;
    resetRateLimits(() => clock);
    const { db, study } = fixture();
    const a = await joinStudy(db, { token: study.token, params: prolific(), address: "198.51.100.1", now: T0 });
    const own = () => joinStudy(db, { token: study.token, params: prolific(), address: "198.51.100.1", now: T0, ...from(a) });
    for (let i = 0; i < 3; i++) await own();
    const flood = await refusal(own());
    expect(flood).toMatchObject({ status: 429, retryAfter: 1 });
    expect(flood.message).toBe("You have arrived very often just now: try again in 1 s.");
    // Others' tries with the id take nothing from the participant's own browser's allowance, and theirs ends after two.
    const before = db.$client.prepare("select (select count(*) from participant_browsers) as b, (select count(*) from participants) as p").get();
    const stranger = (session: string) => joinStudy(db, { token: study.token, params: { ...prolific(), SESSION_ID: session }, address: "203.0.113.7", now: T0 });
    for (const s of ["81aa11bb22cc33dd44ee55ff", "82aa11bb22cc33dd44ee55ff"]) expect((await refusal(stranger(s))).message).toMatch(/already taking part/);
    expect((await refusal(stranger(SESSION))).message).toBe("Too many tries for this id: try again in 100 s.");
    expect(db.$client.prepare("select (select count(*) from participant_browsers) as b, (select count(*) from participants) as p").get()).toEqual(before);
    clock += 1000;
    expect((await own()).resumed).toBe(true);
    // Per address: every participant from it together (6 at once, then one a second).
    const ids = ["6f0c1e9a2b3c4d5e6f708193", "6f0c1e9a2b3c4d5e6f708194"];
    const joined = await Promise.all(ids.map((pid) => joinStudy(db, { token: study.token, params: prolific(pid), address: "192.0.2.50", now: T0 })));
    let refusedAt = -1;
    for (let i = 0; i < 8 && refusedAt < 0; i++) {
      try {
        await joinStudy(db, { token: study.token, params: prolific(ids[i % 2]), address: "192.0.2.50", now: T0, ...from(joined[i % 2]) });
      } catch (e) {
        expect(e).toMatchObject({ status: 429 });
        refusedAt = i;
      }
    }
    expect(refusedAt).toBe(6);
  });
});

describe("the study page's resume code (startedView)", () => {
  it("is shown to the participant who joined, from the code their browser was given, and to nobody else", async () => {
    const { db, projectId, study } = fixture("link");
    const a = await joinStudy(db, { token: study.token, params: { id: "ann" }, address: null, now: T0 });
    const b = await joinStudy(db, { token: study.token, params: { id: "bob" }, address: null, now: T0 });
    const as = (j: Joined) => ({ kind: "user" as const, userId: j.user.id, name: j.user.name, role: "participant" as const });
    const code = a.issued.resumeCode!;
    expect(startedView(db, as(a), study.token, code)).toEqual({ projectId, resumeCode: code });
    // Typed differently, the same code.
    expect(startedView(db, as(a), study.token, code.toLowerCase().replace(/-/g, ""))).toEqual({ projectId, resumeCode: code });
    // Another participant's code, or none: their project, no code.
    expect(startedView(db, as(b), study.token, code)).toEqual({ projectId, resumeCode: null });
    expect(startedView(db, as(a), study.token, null)).toEqual({ projectId, resumeCode: null });
    // Another study's page, or anyone but a participant: nothing.
    const other = fixture("link");
    expect(startedView(db, as(a), other.study.token, code)).toBeNull();
    expect(startedView(db, null, study.token, code)).toBeNull();
    expect(startedView(db, SYSTEM, study.token, code)).toBeNull();
  });
});
