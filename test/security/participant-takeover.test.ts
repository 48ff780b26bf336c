/**
 * Issue #38, finding 1: a participant cannot be taken over with their platform id. Whoever has
 * the public study link and someone's Prolific ID, Mechanical Turk worker id or chosen id (in any
 * case, with any session or assignment id) is not signed in as them: the participant is bound to
 * what only they have — the cookie their browser got when they joined (HttpOnly, per study,
 * random, kept hashed), the platform session of their first join, or the resume code shown to
 * them then. Anyone else is told the id is already taking part, gets no session, and nothing is
 * written; the participant's own session stays valid. Guessing a resume code is rate-limited, and
 * strangers' guesses never hold up the participant's own browser.
 *
 * Through next-auth's own handler with the app's options and the cookies lib/auth/route.ts adds.
 */
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { createStudy } from "../../lib/server/crowd/studies";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { actorOfClaims } from "../../lib/auth/session";
import { StudyBrowser, studySignInEnv } from "./study-browser";
import { dump, world } from "./world";

const state = vi.hoisted(() => ({ db: null as unknown }));
vi.mock("../../db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../db/client")>()),
  getDb: () => state.db,
}));

const { authOptions } = await import("../../lib/auth/options");
const { outcomeCookies } = await import("../../lib/auth/sign-in-cookies");
const deps = { authOptions, outcomeCookies };
const browser = (address?: string) => new StudyBrowser(deps, address);

studySignInEnv();

const PID = "5f0c1e9a2b3c4d5e6f708192";
const STUDY_ID = "60aa11bb22cc33dd44ee55ff";
const SESSION = "70aa11bb22cc33dd44ee55ff";
const OTHER_SESSION = "71aa11bb22cc33dd44ee55ff";
const prolific = (pid = PID, session = SESSION) => ({ PROLIFIC_PID: pid, STUDY_ID, SESSION_ID: session });
const mturk = (worker: string, assignment: string) => ({ workerId: worker, assignmentId: assignment, hitId: "3HIT0ABC", turkSubmitTo: "https://workersandbox.mturk.com" });
const TAKEN = /^This (Prolific ID|worker id|id) is already taking part in this study from another browser\. To continue here, enter the resume code you were shown when you started\.$/;

function setup(platform: "prolific" | "mturk" | "link" = "prolific") {
  const w = world();
  state.db = w.db as Db;
  const s = createStudy(w.db, SYSTEM, w.p.id, { platform, batchSize: 2, overlap: 2, minutes: 30, completionCode: "C0DE" });
  return { w, s };
}

/** The participant's answers and the session they hold: still theirs. */
async function stillSignedIn(b: StudyBrowser) {
  const c = await b.claims();
  expect(actorOfClaims({ uid: c!.uid as number, sv: Number(c!.sv) })).toMatchObject({ kind: "user", role: "participant" });
}

describe("a participant bound to what only they have", () => {
  it("Prolific: the same PROLIFIC_PID from another browser, with another SESSION_ID and no code, is told the id is taking part; nothing is written, no session", async () => {
    const { w, s } = setup();
    const victim = browser("192.0.2.1");
    expect(await victim.join(s.token, prolific())).toBeNull();
    const before = dump(w.db);
    for (const params of [prolific(PID, OTHER_SESSION), { ...prolific(PID, OTHER_SESSION), SESSION_ID: OTHER_SESSION.toUpperCase() }]) {
      const attacker = browser("198.51.100.7");
      expect(await attacker.join(s.token, params)).toMatch(TAKEN);
      expect(attacker.cookie("next-auth.session-token")).toBeUndefined();
      expect(await attacker.uid()).toBeNull();
    }
    expect(dump(w.db)).toEqual(before);
    await stillSignedIn(victim);
  });

  it("ids are compared as the platform issues them: a PROLIFIC_PID in another case is another id, never the participant's account", async () => {
    const { w, s } = setup();
    const victim = browser();
    await victim.join(s.token, prolific());
    const attacker = browser("198.51.100.7");
    // Whatever it comes to (another participant), it is not the victim's account.
    await attacker.join(s.token, prolific(PID.toUpperCase(), OTHER_SESSION));
    expect(await attacker.uid()).not.toBe(await victim.uid());
    const ids = (w.db.$client.prepare("select platform_id as id from participants order by rowid").all() as { id: string }[]).map((r) => r.id);
    expect(ids[0]).toBe(PID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("resumes from the participant's own browser (its cookie), from another with the same SESSION_ID, and from another with the resume code", async () => {
    const { s } = setup();
    const own = browser();
    expect(await own.join(s.token, prolific())).toBeNull();
    const uid = await own.uid();
    // The cookie: HttpOnly, this study's, sent only to the study sign-in.
    const key = own.jar.get(`lexgold-participant-${s.id}`);
    expect(key).toMatchObject({ path: "/api/auth/callback/study" });
    expect(key!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The resume code, for the study page that shows it.
    const code = own.jar.get("lexgold-resume-code");
    expect(code).toMatchObject({ path: `/study/${s.token}` });
    expect(code!.value).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);

    // Their own browser, arriving with another SESSION_ID (Prolific's link opened again): the cookie is enough.
    expect(await own.join(s.token, prolific(PID, OTHER_SESSION))).toBeNull();
    expect(await own.uid()).toBe(uid);
    // The code was their first screen's: coming back clears it from the browser.
    expect(own.cookie("lexgold-resume-code")).toBeUndefined();
    // Another browser with the platform session of the first join.
    const second = browser("203.0.113.4");
    expect(await second.join(s.token, prolific())).toBeNull();
    expect(await second.uid()).toBe(uid);
    // Another browser with the resume code (typed in any case, with or without its dashes and spaces).
    const third = browser("203.0.113.5");
    const typed = ` ${code!.value.toLowerCase().replace(/-/g, " ")} `;
    expect(await third.join(s.token, prolific(PID, OTHER_SESSION), { resumeCode: typed })).toBeNull();
    expect(await third.uid()).toBe(uid);
    // …which now holds a cookie of its own: back again, no code needed.
    expect(await third.join(s.token, prolific(PID, OTHER_SESSION))).toBeNull();
    expect(await third.uid()).toBe(uid);
    await stillSignedIn(own);
  });

  it("a wrong resume code is refused, writes nothing, and says only that it does not match", async () => {
    const { w, s } = setup("link");
    const own = browser();
    await own.join(s.token, { id: "reader-7" });
    const before = dump(w.db);
    const attacker = browser("198.51.100.7");
    expect(await attacker.join(s.token, { id: "reader-7" }, { resumeCode: "0000-0000-0000" })).toBe("That resume code does not match this id: check it and try again.");
    // A code with an id nobody has: the same sentence, and no participant made.
    expect(await attacker.join(s.token, { id: "nobody-here" }, { resumeCode: "0000-0000-0000" })).toBe("That resume code does not match this id: check it and try again.");
    expect(await attacker.uid()).toBeNull();
    expect(dump(w.db)).toEqual(before);
  });

  it("the cookie and the code are kept only as hashes", async () => {
    const { w, s } = setup("link");
    const own = browser();
    await own.join(s.token, { id: "reader-8" });
    const everything = JSON.stringify(dump(w.db));
    const key = own.cookie(`lexgold-participant-${s.id}`)!;
    const code = own.cookie("lexgold-resume-code")!;
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(code);
    expect(everything).not.toContain(code.replace(/-/g, ""));
  });

  it("Mechanical Turk: the worker id from another browser under another assignment is refused; the first assignment resumes; the case of an id is kept", async () => {
    const { w, s } = setup("mturk");
    const own = browser();
    expect(await own.join(s.token, mturk("A1B2C3D4E5F6G7", "3XYZ0ASSIGN1"))).toBeNull();
    const attacker = browser("198.51.100.7");
    expect(await attacker.join(s.token, mturk("A1B2C3D4E5F6G7", "3XYZ0ASSIGN2"))).toMatch(TAKEN);
    expect(await attacker.uid()).toBeNull();
    const other = browser("203.0.113.4");
    expect(await other.join(s.token, mturk("A1B2C3D4E5F6G7", "3XYZ0ASSIGN1"))).toBeNull();
    expect(await other.uid()).toBe(await own.uid());
    expect(w.db.$client.prepare("select platform_id as id, platform_session_id as a from participants").all()).toEqual([{ id: "A1B2C3D4E5F6G7", a: "3XYZ0ASSIGN1" }]);
  });

  it("a plain link: 'Ann' and 'ann' are two ids; neither signs in as the other", async () => {
    const { w, s } = setup("link");
    const ann = browser();
    expect(await ann.join(s.token, { id: "Ann" })).toBeNull();
    const other = browser("198.51.100.7");
    expect(await other.join(s.token, { id: "ann" })).toBeNull();
    expect(await other.uid()).not.toBe(await ann.uid());
    // From a third browser, neither without its code.
    const third = browser("203.0.113.9");
    expect(await third.join(s.token, { id: "Ann" })).toMatch(TAKEN);
    expect(await third.join(s.token, { id: "ann" })).toMatch(TAKEN);
    expect((w.db.$client.prepare("select platform_id as id from participants order by rowid").all() as { id: string }[]).map((r) => r.id)).toEqual(["Ann", "ann"]);
  });
});

describe("guessing", () => {
  it("resume codes: after the participant's allowance, even the right code waits; the participant's own browser is never held up", async () => {
    process.env.LEXGOLD_RESUME_RATE = "0.001,5";
    process.env.LEXGOLD_ADDRESS_REJOIN_RATE = "off";
    resetRateLimits(() => 0);
    const { s } = setup("link");
    const own = browser();
    await own.join(s.token, { id: "reader-9" });
    const code = own.cookie("lexgold-resume-code")!;
    const uid = await own.uid();
    // Five wrong codes, from five addresses: the allowance is the participant's, not an address's.
    for (let i = 0; i < 5; i++) expect(await browser(`198.51.100.${10 + i}`).join(s.token, { id: "reader-9" }, { resumeCode: `0000-0000-000${i}` })).toMatch(/does not match/);
    const late = browser("203.0.113.20");
    expect(await late.join(s.token, { id: "reader-9" }, { resumeCode: code })).toMatch(/^Too many tries for this id: try again in \d+ s\.$/);
    expect(await late.uid()).toBeNull();
    // The participant's own browser still comes back.
    expect(await own.join(s.token, { id: "reader-9" })).toBeNull();
    expect(await own.uid()).toBe(uid);
  });
});
