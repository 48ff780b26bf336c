/**
 * Joining a study by its link (issue #32). The link's token is the credential: whoever holds
 * it and arrives with the platform's parameters becomes (or, arriving again, resumes as) a
 * participant of the study — a users row with the role "participant" and no usable password
 * (lib/server/people/signin.ts refuses password sign-in to it whatever is typed), an annotator
 * of the study's project and of nothing else, and a participants row. One participant per
 * (study, platform id): arriving again resumes the same account and batch, never a second one.
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
 *  - the join limits (lib/server/kernel/rate-limit.ts limitJoin): per study link and per
 *    address, for new participants only.
 *
 * The participant's batch is allocated in the same transaction (./allocation.ts), so the
 * workspace finds it.
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { memberships, participants, projects, studies, users } from "../../../db/schema";
import { RetryLaterError, InputError, NotFoundError } from "../kernel/errors";
import { limitJoin, retryAfterSeconds } from "../kernel/rate-limit";
import { writeTransaction } from "../kernel/write-lock";
import { allocateBatch } from "./allocation";
import { type Platform, resumeOpening, type StudyState } from "./studies";

/** Too many new participants at once, from this link or this address: nothing written; try again later. */
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
    return { ok: true, ids: { platformId: pid.toLowerCase(), platformStudyId: study.toLowerCase(), platformSessionId: session.toLowerCase(), submitTo: null } };
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
    // Mechanical Turk's ids are upper case; a worker id is one worker whatever the case it arrives in.
    return { ok: true, ids: { platformId: worker.toUpperCase(), platformStudyId: hit, platformSessionId: assignment, submitTo: host } };
  }
  const id = v("id");
  if (!id) return { ok: false, preview: false, problem: "Choose an id to take part under (the same one brings you back to your place)." };
  if (!LINK_ID.test(id)) return { ok: false, preview: false, problem: "Your id: 1 to 64 letters, digits, dots, dashes or underscores." };
  // "Ann" and "ann" are one participant (as account names are one account whatever their case).
  return { ok: true, ids: { platformId: id.toLowerCase(), platformStudyId: null, platformSessionId: null, submitTo: null } };
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
  /** The client's address (lib/net/trusted-proxy.ts), for the per-address limit; null when unknown. */
  address: string | null;
  /** Whether the participant accepted the study's consent in this request. */
  consent?: boolean;
  /** Epoch ms. */
  now: number;
}

export interface Joined {
  participantId: number;
  projectId: number;
  studyId: number;
  /** The account to sign in as. */
  user: { id: number; name: string; role: "participant"; sessionVersion: number };
  /** Arrived before: the same account and batch. */
  resumed: boolean;
  /** Items in the batch. */
  items: number;
}

const existingParticipant = (db: Db, studyId: number, platformId: string) =>
  db
    .select({ id: participants.id, userId: participants.userId, consentedAt: participants.consentedAt, name: users.name, sessionVersion: users.sessionVersion, disabled: users.disabled })
    .from(participants)
    .innerJoin(users, eq(users.id, participants.userId))
    .where(and(eq(participants.studyId, studyId), eq(participants.platformId, platformId)))
    .get();

/** The participant account's name: the platform, the study and the id; ":" keeps it apart from every name a person can be given. */
function participantName(platform: Platform, studyId: number, platformId: string): string {
  return `${platform}:${studyId}:${platformId}`;
}

/**
 * Join a study, or resume in it. Throws NotFoundError (no such study), InputError (a closed or
 * paused study, ids of the wrong shape, a preview, consent not given) or TooManyJoinsError, each
 * with a sentence for the participant; writes nothing then.
 */
export async function joinStudy(db: Db, req: JoinRequest): Promise<Joined> {
  const study = studyByToken(db, req.token);
  if (!study) throw new NotFoundError("No such study: check the link you were given.");
  const read = readParams(study.platform, req.params);
  if (!read.ok) throw new InputError(read.preview ? "This is Mechanical Turk's preview: accept the HIT to start." : read.problem);
  const { ids } = read;
  const now = req.now;
  const found = existingParticipant(db, study.id, ids.platformId);
  const closed = closedSentence(study.state, !!found);
  if (closed) throw new InputError(closed);
  if (study.opening) {
    // Its slots are being written (or a stopped server left them half-written: taken up again here).
    resumeOpening(db, study.id);
    throw new StudyOpeningError("This study is still being opened: try again in a minute.", 30);
  }
  if (found?.disabled) throw new InputError("This participation has been ended by the study's coordinator.");
  const needsConsent = study.consent.trim() !== "";
  if (needsConsent && !req.consent && !found?.consentedAt) throw new InputError("Read the consent and agree to it to start.");
  if (!found) {
    const v = limitJoin({ studyId: study.id, address: req.address });
    if (!v.ok) {
      const s = retryAfterSeconds(v.retryAfterMs);
      throw new TooManyJoinsError(`Many people are joining just now: try again in ${s} s.`, s);
    }
  }
  return writeTransaction(db, (): Joined => {
    // Looked up again under the write lock: two tabs arriving at once make one participant.
    const again = existingParticipant(db, study.id, ids.platformId);
    if (again) {
      if (needsConsent && req.consent && !again.consentedAt) db.update(participants).set({ consentedAt: new Date(now) }).where(eq(participants.id, again.id)).run();
      db.update(participants).set({ lastSeenAt: new Date(now) }).where(eq(participants.id, again.id)).run();
      const a = allocateBatch(db, again.id, now);
      return { participantId: again.id, projectId: study.projectId, studyId: study.id, user: { id: again.userId, name: again.name, role: "participant", sessionVersion: again.sessionVersion }, resumed: true, items: a.items };
    }
    const user = db
      .insert(users)
      .values({ name: participantName(study.platform, study.id, ids.platformId), role: "participant", passwordHash: NO_PASSWORD })
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
      })
      .returning({ id: participants.id })
      .get();
    const a = allocateBatch(db, p.id, now);
    return { participantId: p.id, projectId: study.projectId, studyId: study.id, user: { ...user, role: "participant" }, resumed: false, items: a.items };
  });
}
