/**
 * Joining a study by its link (issue #32). The link's token is the credential: whoever holds
 * it and arrives with the platform's parameters becomes a participant of the study — a users row
 * with the role "participant" and no usable password (lib/server/people/signin.ts refuses password
 * sign-in to it whatever is typed), an annotator of the study's project and of nothing else, and a
 * participants row. One participant per (study, platform id), the id compared exactly as the
 * platform issued it (or the participant typed it).
 *
 * Arriving again resumes the same account and batch, never a second one — but only for the
 * person who joined (issue #38): a platform id is no secret (researchers, other tools and forums
 * see it). On the first join the browser gets a random key (lib/auth puts it in an HttpOnly cookie
 * of the study's) and the participant a resume code to keep; only their hashes are stored
 * (./participant-keys.ts). Arriving again resumes from a browser holding the key; from any other
 * browser only with the platform session of the first join (Prolific's SESSION_ID, Mechanical
 * Turk's assignmentId) or the resume code, and that browser gets a key of its own. Anyone else is
 * told the id is already taking part: no session, nothing written, and the participant's own
 * session untouched.
 *
 * What is checked, before anything is written:
 *  - the study: a token of the right shape that names a study; paused studies take no one new
 *    (those in go on), closed ones no one;
 *  - the platform's ids, for shape: Prolific's PROLIFIC_PID, STUDY_ID and SESSION_ID are 24
 *    hexadecimal digits; Mechanical Turk's workerId, assignmentId and hitId letters and digits
 *    (at most 64), turkSubmitTo one of its two hosts, and its preview (assignmentId
 *    ASSIGNMENT_ID_NOT_AVAILABLE) never joins; a plain link's id 1–64 letters, digits, dot,
 *    dash or underscore;
 *  - the consent, when the study has one: accepted in this request (or before);
 *  - the limits (lib/server/kernel/rate-limit.ts): limitJoin per study link and per address for
 *    new participants; limitRejoin for those already in, per participant (their own browser and
 *    other browsers apart: strangers' tries never hold up the participant's browser) and per
 *    address. The resume bucket is what limits guessing a resume code or a session id.
 *
 * A new participant's batch is allocated in the same transaction (./allocation.ts), so the
 * workspace finds it. An arrival again that changes nothing (their own browser, consent given,
 * batch given, no batch of the study past its time) only reads; anything else is one short write
 * transaction that yields to the saves waiting in this process (lib/server/kernel/write-lock.ts).
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { memberships, participantBrowsers, participants, projects, studies, users } from "../../../db/schema";
import { AuthError, RetryLaterError, InputError, NotFoundError } from "../kernel/errors";
import { limitJoin, limitRejoin, retryAfterSeconds } from "../kernel/rate-limit";
import { get, run } from "../kernel/statements";
import { named } from "../../../db/sql-names";
import { writeTransaction } from "../kernel/write-lock";
import { allocateBatch, allocationDue, heldItems } from "./allocation";
import { matchesHash, newBrowserKey, newResumeCode, normaliseResumeCode, samePlatformSession, secretHash } from "./participant-keys";
import { type Platform, resumeOpening, type StudyState } from "./studies";

/** Too many new participants at once (from this link or this address), or arrivals again (of this participant or from this address): nothing written; try again later. */
class TooManyJoinsError extends RetryLaterError {
  readonly status = 429 as const;
}

/** A study whose slots are still being written takes no one yet: nothing written; try again shortly. */
class StudyOpeningError extends RetryLaterError {
  readonly status = 503 as const;
}

/** The password hash of a participant account: not a bcrypt hash, so no password ever matches it. */
const NO_PASSWORD = "!participant";

/** The URL's query, one value per name (the first when repeated). */
export type LinkParams = Record<string, string | undefined>;

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const PROLIFIC_ID = /^[0-9a-f]{24}$/i;
const MTURK_ID = /^[A-Za-z0-9]{1,64}$/;
const LINK_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MTURK_PREVIEW = "ASSIGNMENT_ID_NOT_AVAILABLE";
/** Where Mechanical Turk's externalSubmit form may go: the live site and the sandbox. */
const MTURK_HOSTS = ["https://www.mturk.com", "https://workersandbox.mturk.com"] as const;

/** The platform's ids of one arrival. */
interface PlatformIds {
  platformId: string;
  platformStudyId: string | null;
  platformSessionId: string | null;
  submitTo: string | null;
}

/** What the link's parameters come to: the ids, Mechanical Turk's preview, or what is wrong (a sentence for the participant). */
export type ReadParams = { ok: true; ids: PlatformIds } | { ok: false; preview: true } | { ok: false; preview: false; problem: string };

/** Read and check the platform's parameters for shape (nothing else: no database). */
export function readParams(platform: Platform, params: LinkParams): ReadParams {
  const v = (k: string) => (typeof params[k] === "string" ? params[k]!.trim() : "");
  if (platform === "prolific") {
    const [pid, study, session] = [v("PROLIFIC_PID"), v("STUDY_ID"), v("SESSION_ID")];
    if (!pid || !study || !session) return { ok: false, preview: false, problem: "This link needs Prolific's PROLIFIC_PID, STUDY_ID and SESSION_ID: open it from the study's page on Prolific." };
    for (const [name, value] of [["PROLIFIC_PID", pid], ["STUDY_ID", study], ["SESSION_ID", session]] as const) {
      if (!PROLIFIC_ID.test(value)) return { ok: false, preview: false, problem: `Prolific's ${name} should be 24 hexadecimal digits: open the study again from Prolific.` };
    }
    // As Prolific issued them: an id in another case is another id (issue #38).
    return { ok: true, ids: { platformId: pid, platformStudyId: study, platformSessionId: session, submitTo: null } };
  }
  if (platform === "mturk") {
    const [worker, assignment, hit, submit] = [v("workerId"), v("assignmentId"), v("hitId"), v("turkSubmitTo")];
    if (assignment === MTURK_PREVIEW) return { ok: false, preview: true };
    if (!worker || !assignment || !hit || !submit) return { ok: false, preview: false, problem: "This link needs Mechanical Turk's workerId, assignmentId, hitId and turkSubmitTo: accept the HIT on Mechanical Turk and open it there." };
    for (const [name, value] of [["workerId", worker], ["assignmentId", assignment], ["hitId", hit]] as const) {
      if (!MTURK_ID.test(value)) return { ok: false, preview: false, problem: `Mechanical Turk's ${name} should be letters and digits (at most 64): open the HIT again from Mechanical Turk.` };
    }
    const host = submit.replace(/\/+$/, "");
    if (!(MTURK_HOSTS as readonly string[]).includes(host)) return { ok: false, preview: false, problem: `turkSubmitTo must be ${MTURK_HOSTS.join(" or ")}: open the HIT again from Mechanical Turk.` };
    // As Mechanical Turk issued them: no case folding that could merge two ids (issue #38).
    return { ok: true, ids: { platformId: worker, platformStudyId: hit, platformSessionId: assignment, submitTo: host } };
  }
  const id = v("id");
  if (!id) return { ok: false, preview: false, problem: "Choose an id to take part under (the same one brings you back to your place)." };
  if (!LINK_ID.test(id)) return { ok: false, preview: false, problem: "Your id: 1 to 64 letters, digits, dots, dashes or underscores." };
  // As typed: "Ann" and "ann" are two ids (issue #38); a participant's own browser and resume code bring them back.
  return { ok: true, ids: { platformId: id, platformStudyId: null, platformSessionId: null, submitTo: null } };
}

/** A study as its link shows it to anyone who has the link (no coordinator's figures, no codes). */
export interface PublicStudy {
  id: number;
  projectId: number;
  projectName: string;
  projectLanguage: string;
  guidelines: string;
  name: string;
  platform: Platform;
  batchSize: number;
  minutes: number;
  consent: string;
  state: StudyState;
  /** Its slots are still being written (lib/server/crowd/studies.ts): nobody joins yet. */
  opening: boolean;
}

/** The study a link names, or null: the token is the credential (no actor), so a wrong one learns nothing. */
export function studyByToken(db: Db, token: unknown): PublicStudy | null {
  if (typeof token !== "string" || !TOKEN.test(token)) return null;
  const r = db
    .select({
      id: studies.id,
      projectId: studies.projectId,
      projectName: projects.name,
      projectLanguage: projects.language,
      guidelines: projects.guidelines,
      name: studies.name,
      platform: studies.platform,
      batchSize: studies.batchSize,
      minutes: studies.minutes,
      consent: studies.consent,
      state: studies.state,
      slotsReady: studies.slotsReady,
      stagingFor: projects.stagingFor,
      archivedAt: projects.archivedAt,
    })
    .from(studies)
    .innerJoin(projects, eq(projects.id, studies.projectId))
    .where(eq(studies.token, token))
    .get();
  if (!r || r.stagingFor !== null) return null;
  const { stagingFor: _, archivedAt, slotsReady, ...rest } = r;
  const study = { ...rest, opening: !slotsReady };
  // An archived project takes no answers: its studies are closed whatever they say.
  return archivedAt ? { ...study, state: "closed" } : study;
}

/** Why a study takes no one now, in a sentence for the participant; null when it does. */
export function closedSentence(state: StudyState, resuming: boolean): string | null {
  if (state === "closed") return "This study is closed: it takes no more participants or answers. Thank you for your interest.";
  if (state === "paused" && !resuming) return "This study is paused: it takes no new participants just now. Try again later, or return it on your platform.";
  return null;
}

export interface JoinRequest {
  token: unknown;
  /** The study link's query (the platform's parameters), as sent. */
  params: LinkParams;
  /** The client's address (lib/net/trusted-proxy.ts), for the per-address limits; null when unknown. */
  address: string | null;
  /** Whether the participant accepted the study's consent in this request. */
  consent?: boolean;
  /** The browser's participant key for a study (its cookie, lib/auth), by the study's id; null when it holds none. */
  browserKey?: (studyId: number) => string | null;
  /** A resume code the participant typed, to continue from a browser without their key. */
  resumeCode?: unknown;
  /** Epoch ms. */
  now: number;
}

export interface Joined {
  participantId: number;
  projectId: number;
  studyId: number;
  /** The study's token and minutes (where and how long its page may show the resume code). */
  study: { token: string; minutes: number };
  /** The account to sign in as. */
  user: { id: number; name: string; role: "participant"; sessionVersion: number };
  /** Arrived before: the same account and batch. */
  resumed: boolean;
  /** Items in the batch. */
  items: number;
  /**
   * Secrets for this browser, given once: a new key when it held none of the participant's, and
   * the resume code when the participant is new. Only their hashes are stored.
   */
  issued: { browserKey: string | null; resumeCode: string | null };
}

/** The most browsers a participant may hold a key in; beyond them the oldest key is dropped. */
const MAX_BROWSERS = 8;

const PA = named(participants, "pa");
const PB = named(participantBrowsers);
const U = named(users);
const UA = named(users, "u");

interface Found {
  id: number;
  userId: number;
  consentedAt: number | null;
  platformSessionId: string | null;
  resumeCodeHash: string | null;
  name: string;
  sessionVersion: number;
  disabled: number;
}

const FOUND = `select ${PA.id} as id, ${PA.userId} as userId, ${PA.consentedAt} as consentedAt, ${PA.platformSessionId} as platformSessionId, ${PA.resumeCodeHash} as resumeCodeHash,
  ${UA.name} as name, ${UA.sessionVersion} as sessionVersion, ${UA.disabled} as disabled
  from ${PA.$} join ${UA.$} on ${UA.id} = ${PA.userId} where ${PA.studyId} = ? and ${PA.platformId} = ?`;

const existingParticipant = (db: Db, studyId: number, platformId: string) => get<Found>(db, FOUND, studyId, platformId);

/** Whether the browser's key is one of the participant's: every stored hash compared, in constant time each. */
function holdsKey(db: Db, participantId: number, key: string | null): boolean {
  if (!key) return false;
  const presented = secretHash(key);
  const rows = db.$client.prepare(`select ${PB.keyHash} as h from ${PB.$} where ${PB.participantId} = ?`).all(participantId) as { h: string }[];
  let match = false;
  for (const r of rows) match = matchesHash(presented, r.h) || match;
  return match;
}

/** Store a browser's key for the participant, dropping the oldest beyond MAX_BROWSERS. In a transaction. */
function addBrowser(db: Db, participantId: number, key: string, now: number): void {
  run(db, `insert into ${PB.$} (${PB.participantId}, ${PB.keyHash}, ${PB.createdAt}) values (?, ?, ?)`, participantId, secretHash(key), now);
  run(
    db,
    `delete from ${PB.$} where ${PB.participantId} = ? and ${PB.id} not in (select ${PB.id} from ${PB.$} where ${PB.participantId} = ? order by ${PB.id} desc limit ${MAX_BROWSERS})`,
    participantId,
    participantId,
  );
}

/** How the refusals name the id. */
const ID_LABEL: Record<Platform, string> = { prolific: "Prolific ID", mturk: "worker id", link: "id" };

const takenSentence = (platform: Platform) =>
  `This ${ID_LABEL[platform]} is already taking part in this study from another browser. To continue here, enter the resume code you were shown when you started.`;
const CODE_MISMATCH = "That resume code does not match this id: check it and try again.";

/** The participant account's name: the platform, the study and the id; ":" keeps it apart from every name a person can be given. */
function participantName(platform: Platform, studyId: number, platformId: string): string {
  return `${platform}:${studyId}:${platformId}`;
}

/** A name no account has, whatever its case: ids that differ only in case ("Ann", "ann") get "~2", "~3" … ("~" is in no id). */
function freeName(db: Db, base: string): string {
  const taken = db.$client.prepare(`select 1 from ${U.$} where ${U.name} = ? collate nocase`);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}~${n}`;
    if (!taken.get(name)) return name;
  }
}

/** The typed resume code: absent, or its hash (null when it cannot be a code: it matches nothing). */
function typedCode(v: unknown): { given: false } | { given: true; hash: string | null } {
  if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return { given: false };
  const code = normaliseResumeCode(v);
  return { given: true, hash: code ? secretHash(code) : null };
}

/**
 * Join a study, or resume in it. Throws NotFoundError (no such study), InputError (a closed or
 * paused study, ids of the wrong shape, a preview, consent not given), AuthError (the id is
 * taking part from elsewhere, a resume code that does not match) or TooManyJoinsError, each with
 * a sentence for the participant; writes nothing then.
 */
export async function joinStudy(db: Db, req: JoinRequest): Promise<Joined> {
  const study = studyByToken(db, req.token);
  if (!study) throw new NotFoundError("No such study: check the link you were given.");
  const read = readParams(study.platform, req.params);
  if (!read.ok) throw new InputError(read.preview ? "This is Mechanical Turk's preview: accept the HIT to start." : read.problem);
  const { ids } = read;
  const now = req.now;
  const code = typedCode(req.resumeCode);
  const found = existingParticipant(db, study.id, ids.platformId);
  const closed = closedSentence(study.state, !!found);
  if (closed) throw new InputError(closed);
  if (study.opening) {
    // Its slots are being written (or a stopped server left them half-written: taken up again here).
    resumeOpening(db, study.id);
    throw new StudyOpeningError("This study is still being opened: try again in a minute.", 30);
  }
  const needsConsent = study.consent.trim() !== "";
  const base = { projectId: study.projectId, studyId: study.id, study: { token: req.token as string, minutes: study.minutes } };
  const joined = (p: Found, resumed: boolean, items: number, issued: Joined["issued"]): Joined => ({
    ...base,
    participantId: p.id,
    user: { id: p.userId, name: p.name, role: "participant", sessionVersion: p.sessionVersion },
    resumed,
    items,
    issued,
  });

  /** Whether this arrival is the participant's (their key, their first platform session, their resume code); throws when it is not. */
  const prove = (p: Found): { ownBrowser: boolean } => {
    const ownBrowser = holdsKey(db, p.id, req.browserKey?.(study.id) ?? null);
    const v = limitRejoin({ participantId: p.id, address: req.address, ownBrowser });
    if (!v.ok) {
      const s = retryAfterSeconds(v.retryAfterMs);
      throw new TooManyJoinsError(ownBrowser ? `You have arrived very often just now: try again in ${s} s.` : `Too many tries for this id: try again in ${s} s.`, s);
    }
    if (ownBrowser) return { ownBrowser };
    // Both compared whichever matches, so the time taken does not say which.
    const bySession = samePlatformSession(ids.platformSessionId, p.platformSessionId);
    const byCode = code.given && code.hash !== null && matchesHash(code.hash, p.resumeCodeHash);
    if (!bySession && !byCode) throw new AuthError(code.given ? CODE_MISMATCH : takenSentence(study.platform));
    return { ownBrowser };
  };

  /** In a write transaction: a key for this browser when it has none, the consent, the batch. */
  const resumeWrites = (p: Found, ownBrowser: boolean): Joined => {
    const browserKey = ownBrowser ? null : newBrowserKey();
    if (browserKey) addBrowser(db, p.id, browserKey, now);
    if (needsConsent && req.consent && p.consentedAt === null) db.update(participants).set({ consentedAt: new Date(now) }).where(eq(participants.id, p.id)).run();
    const a = allocateBatch(db, p.id, now);
    return joined(p, true, a.items, { browserKey, resumeCode: null });
  };

  if (found) {
    const { ownBrowser } = prove(found);
    if (found.disabled) throw new InputError("This participation has been ended by the study's coordinator.");
    if (needsConsent && !req.consent && found.consentedAt === null) throw new InputError("Read the consent and agree to it to start.");
    const recordConsent = needsConsent && !!req.consent && found.consentedAt === null;
    // Nothing to change: their own browser, the consent on record, the batch given and none of the study's past its time.
    if (ownBrowser && !recordConsent && !allocationDue(db, found.id, now)) return joined(found, true, heldItems(db, found.id), { browserKey: null, resumeCode: null });
    return writeTransaction(
      db,
      (): Joined => {
        const again = existingParticipant(db, study.id, ids.platformId);
        if (!again) throw new NotFoundError("Your participation is no longer in this study: open the study link again.");
        return resumeWrites(again, ownBrowser);
      },
      { lowPriority: true },
    );
  }
  if (code.given) throw new AuthError(CODE_MISMATCH);
  if (needsConsent && !req.consent) throw new InputError("Read the consent and agree to it to start.");
  const v = limitJoin({ studyId: study.id, address: req.address });
  if (!v.ok) {
    const s = retryAfterSeconds(v.retryAfterMs);
    throw new TooManyJoinsError(`Many people are joining just now: try again in ${s} s.`, s);
  }
  return writeTransaction(
    db,
    (): Joined => {
      // Looked up again under the write lock: two arrivals at once make one participant; the second
      // resumes only as any other browser would (the same platform session), else it is refused.
      const again = existingParticipant(db, study.id, ids.platformId);
      if (again) {
        if (!samePlatformSession(ids.platformSessionId, again.platformSessionId)) throw new AuthError(takenSentence(study.platform));
        if (again.disabled) throw new InputError("This participation has been ended by the study's coordinator.");
        return resumeWrites(again, false);
      }
      const browserKey = newBrowserKey();
      const resumeCode = newResumeCode();
      const user = db
        .insert(users)
        .values({ name: freeName(db, participantName(study.platform, study.id, ids.platformId)), role: "participant", passwordHash: NO_PASSWORD })
        .returning({ id: users.id, name: users.name, sessionVersion: users.sessionVersion })
        .get();
      db.insert(memberships).values({ projectId: study.projectId, userId: user.id, role: "annotator" }).run();
      const p = db
        .insert(participants)
        .values({
          studyId: study.id,
          projectId: study.projectId,
          userId: user.id,
          ...ids,
          address: req.address,
          joinedAt: new Date(now),
          consentedAt: needsConsent ? new Date(now) : null,
          lastSeenAt: new Date(now),
          resumeCodeHash: secretHash(normaliseResumeCode(resumeCode)!),
        })
        .returning({ id: participants.id })
        .get();
      addBrowser(db, p.id, browserKey, now);
      const a = allocateBatch(db, p.id, now);
      return {
        ...base,
        participantId: p.id,
        user: { ...user, role: "participant" },
        resumed: false,
        items: a.items,
        issued: { browserKey, resumeCode },
      };
    },
    { lowPriority: true },
  );
}
