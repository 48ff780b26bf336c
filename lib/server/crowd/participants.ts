/**
 * The coordinator's view of a crowd study (issue #32): the project's studies, each
 * study's participants with what they did (time on task, items, attention checks,
 * agreement with the others, flags), the review (approve, reject with a reason, a
 * bonus) and the decision to leave rejected participants' answers out of the gold,
 * recorded and undoable like an adjudication. Coordinators of the project only.
 *
 * Every decision is one transaction with a row in gold_review_log (kind "participant"
 * for a review or bonus, "participants" for leaving answers out or putting them
 * back): the log the Gold tab shows, whose trigger (drizzle/0009) raises the data
 * version, so derived pages are computed again after a decision.
 *
 * What is reused rather than written again: the attention checks are scored by the
 * Training tab's report (lib/server/quality/training.ts checkReport, the judgeAnswer
 * rule); the speed flag is the Progress tab's (timedMedian under
 * projects.speed_threshold_ms); the agreement is the Agreement tab's per-annotator
 * pairwise figure (lib/lexsub/agreement, SemEval-2007 §2.2: the mean of |A∩B|/|A∪B|
 * over the pairs the participant forms with the others on the items they share),
 * over the gold derived from the study's instances (lib/server/gold/gold.ts).
 */
import "server-only";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { batchItems, goldReviewLog, participantExclusions, participants, projects, responses, studies, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { computeAgreement } from "../../lexsub/agreement";
import { timedMedian } from "../annotate";
import { deriveResponseGold, scopedGoldInputs } from "../gold";
import { type Actor, type ProjectRow, actorUserId, requireProject } from "../kernel/actor";
import { dataVersion } from "../kernel/data-version";
import { InputError, NotFoundError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";
import { checkReport } from "../quality";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const S = named(studies, "s");
const PA = named(participants, "pa");
const BI = named(batchItems, "bi");
const R = named(responses, "r");
const U = named(users, "u");
/** Who reviewed or decided (a second alias of users). */
const BY = named(users, "by");
const PE = named(participantExclusions, "pe");
const PARTICIPANTS = named(participants);
const EXCLUSIONS = named(participantExclusions);
const PROJECTS = named(projects);

/** The project's speed flag (the Progress tab's): a median time per item under it is "fast". */
function speedThresholdMs(db: Db, projectId: number): number {
  return (db.$client.prepare(`select ${PROJECTS.speedThresholdMs} as ms from ${PROJECTS.$} where ${PROJECTS.id} = ?`).get(projectId) as { ms: number } | undefined)?.ms ?? 4000;
}

/** The measure the participants table shows, named as the page names it. */
const AGREEMENT_MEASURE =
  "Pairwise agreement with the others (SemEval-2007 §2.2): the mean of |A∩B| / |A∪B| over the pairs the participant forms with the other annotators on the items they share.";

/** A reject reason is at most this long (Mechanical Turk shows it to the worker as feedback). */
export const MAX_REASON = 500;
/** The largest bonus one participant can be given here, in hundredths (a typing slip, not a payment, above it). */
const MAX_BONUS_CENTS = 100_000;

type StudyPlatform = (typeof studies.$inferSelect)["platform"];
export type ReviewState = (typeof participants.$inferSelect)["review"];
type ParticipantState = (typeof participants.$inferSelect)["state"];

export interface StudyOverview {
  id: number;
  name: string;
  platform: StudyPlatform;
  state: (typeof studies.$inferSelect)["state"];
  batchSize: number;
  overlap: number;
  minutes: number;
  createdAt: Date;
  joined: number;
  finished: number;
  /** Instances with `overlap` answers from the study's participants, those left out of the gold not counted. */
  complete: number;
}

/** The project's studies, newest first, with their participants counted (coordinators). */
export function studyOverviews(db: Db, actor: Actor, projectId: number): StudyOverview[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  return studyRows(db, p.id);
}

function studyRows(db: Db, projectId: number, studyId?: number): StudyOverview[] {
  const rows = db.$client
    .prepare(
      `select ${S.id} as id, ${S.name} as name, ${S.platform} as platform, ${S.state} as state, ${S.batchSize} as batchSize, ${S.overlap} as overlap,
              ${S.minutes} as minutes, ${S.createdAt} as createdAt,
              (select count(*) from ${PA.$} where ${PA.studyId} = ${S.id}) as joined,
              (select count(*) from ${PA.$} where ${PA.studyId} = ${S.id} and ${PA.state} = 'finished') as finished,
              (select count(*) from (select ${R.instanceRef} from ${PA.$} cross join ${R.$} on ${R.projectId} = ${PA.projectId} and ${R.userId} = ${PA.userId}
                                      where ${PA.studyId} = ${S.id}
                                        and not exists (select 1 from ${PE.$} where ${PE.participantId} = ${PA.id} and ${PE.undoneAt} is null)
                                      group by ${R.instanceRef} having count(*) >= ${S.overlap})) as complete
         from ${S.$} where ${S.projectId} = ?${studyId === undefined ? "" : ` and ${S.id} = ?`}
        order by ${S.createdAt} desc, ${S.id} desc`,
    )
    .all(...(studyId === undefined ? [projectId] : [projectId, studyId])) as (Omit<StudyOverview, "createdAt"> & { createdAt: number })[];
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/** An id as a number, or as digits only (a form field, a path): anything else is null. */
function idOf(v: unknown): number | null {
  if (typeof v === "number") return Number.isSafeInteger(v) && v > 0 ? v : null;
  return typeof v === "string" && /^[1-9][0-9]{0,14}$/.test(v) ? Number(v) : null;
}

function findStudy(db: Db, project: ProjectRow, studyId: unknown): StudyOverview {
  const id = idOf(studyId);
  if (id === null) throw new NotFoundError("No such study in this project.");
  const s = studyRows(db, project.id, id)[0];
  if (!s) throw new NotFoundError("No such study in this project.");
  return s;
}

type ParticipantFlag = "failed checks" | "fast" | "screened out" | "timed out";

export interface ParticipantRow {
  id: number;
  platformId: string;
  /** Prolific's SESSION_ID / Mechanical Turk's assignmentId. */
  sessionId: string | null;
  /** Mechanical Turk's hitId / Prolific's STUDY_ID. */
  platformStudyId: string | null;
  state: ParticipantState;
  joinedAt: Date;
  finishedAt: Date | null;
  /** Time on task measured on the server. */
  activeMs: number;
  answered: number;
  /** Instances given in the participant's batch (released ones included); 0 for one screened out (their batch went back at once). */
  batch: number;
  checksSeen: number;
  checksPassed: number;
  /** AGREEMENT_MEASURE, null without a pair to compare. */
  agreement: number | null;
  /** Pairs behind the agreement figure. */
  pairs: number;
  /** Median time per answered instance (ms), null without timed answers. */
  medianMs: number | null;
  flags: ParticipantFlag[];
  review: ReviewState;
  reviewReason: string;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  bonusCents: number | null;
  /** Their answers are left out of the gold (an active decision). */
  excluded: boolean;
  /**
   * Whether approving or rejecting applies: not to a participant screened out by the training
   * (Prolific pays them through the screen-out code; a plain link pays nobody), except on Mechanical
   * Turk, where their assignment was submitted and must be approved or rejected (#38).
   */
  canReview: boolean;
  /** Whether a bonus applies: not to a participant screened out by the training. */
  canBonus: boolean;
}

/** What the review allows for a participant in this state on this platform (ParticipantRow's canReview, canBonus). */
function applies(state: ParticipantState, platform: StudyPlatform): { canReview: boolean; canBonus: boolean } {
  const out = state === "screened-out";
  return { canReview: !out || platform === "mturk", canBonus: !out };
}

interface RawParticipant {
  id: number;
  userId: number;
  name: string;
  platformId: string;
  sessionId: string | null;
  platformStudyId: string | null;
  state: ParticipantState;
  joinedAt: number;
  finishedAt: number | null;
  activeMs: number;
  answered: number;
  batch: number;
  review: ReviewState;
  reviewReason: string;
  reviewedBy: string | null;
  reviewedAt: number | null;
  bonusCents: number | null;
  excluded: number;
}

function rawParticipants(db: Db, projectId: number, studyId: number, page?: { limit: number; offset: number }): RawParticipant[] {
  return db.$client
    .prepare(
      `select ${PA.id} as id, ${PA.userId} as userId, ${U.name} as name, ${PA.platformId} as platformId, ${PA.platformSessionId} as sessionId,
              ${PA.platformStudyId} as platformStudyId, ${PA.state} as state, ${PA.joinedAt} as joinedAt, ${PA.finishedAt} as finishedAt,
              ${PA.activeMs} as activeMs,
              (select count(*) from ${R.$} where ${R.projectId} = ${PA.projectId} and ${R.userId} = ${PA.userId}) as answered,
              (select count(*) from ${BI.$} where ${BI.participantId} = ${PA.id}) as batch,
              ${PA.review} as review, ${PA.reviewReason} as reviewReason,
              (select ${BY.name} from ${BY.$} where ${BY.id} = ${PA.reviewedBy}) as reviewedBy, ${PA.reviewedAt} as reviewedAt, ${PA.bonusCents} as bonusCents,
              exists (select 1 from ${PE.$} where ${PE.participantId} = ${PA.id} and ${PE.undoneAt} is null) as excluded
         from ${PA.$} join ${U.$} on ${U.id} = ${PA.userId}
        where ${PA.projectId} = ? and ${PA.studyId} = ?
        order by ${PA.joinedAt}, ${PA.id}${page ? " limit ? offset ?" : ""}`,
    )
    .all(...(page ? [projectId, studyId, page.limit, page.offset] : [projectId, studyId])) as RawParticipant[];
}

/** Per database: the last agreement computed for each study, under the project's data version. */
const agreementCache = new WeakMap<Db, Map<number, { version: number; byName: Map<string, { pairwise: number | null; pairs: number }> }>>();

/**
 * Each annotator's pairwise agreement with the others over the study's instances
 * (every answer to them, those left out of the gold included: the coordinator judges
 * the participant, not the gold). Kept per study while the data version holds.
 */
function studyAgreement(db: Db, project: ProjectRow, studyId: number): Map<string, { pairwise: number | null; pairs: number }> {
  const version = dataVersion(db, project.id);
  let perDb = agreementCache.get(db);
  if (!perDb) agreementCache.set(db, (perDb = new Map()));
  const hit = perDb.get(studyId);
  if (hit && hit.version === version) return hit.byName;
  const inputs = scopedGoldInputs(db, project, { studyId, withExcludedParticipants: true });
  const gold = deriveResponseGold(inputs);
  const report = computeAgreement(gold.items, { bootstrapIterations: 0 });
  const byName = new Map(report.perAnnotator.map((a) => [a.annotator, { pairwise: a.pairwise, pairs: a.pairs }]));
  if (perDb.size >= 32) perDb.clear();
  perDb.set(studyId, { version, byName });
  return byName;
}

function participantRowsOf(db: Db, actor: Actor, project: ProjectRow, study: StudyOverview, raw: RawParticipant[]): ParticipantRow[] {
  if (raw.length === 0) return [];
  const checks = new Map(checkReport(db, actor, project.id).map((c) => [c.userId, c]));
  const speedMs = speedThresholdMs(db, project.id);
  const agreement = studyAgreement(db, project, study.id);
  return raw.map((r) => {
    const c = checks.get(r.userId);
    const { medianMs } = timedMedian(db, project.id, r.userId);
    const a = agreement.get(r.name);
    const flags: ParticipantFlag[] = [];
    if (c && c.seen > c.passed) flags.push("failed checks");
    if (medianMs !== null && medianMs < speedMs) flags.push("fast");
    if (r.state === "screened-out") flags.push("screened out");
    if (r.state === "timed-out") flags.push("timed out");
    return {
      id: r.id,
      platformId: r.platformId,
      sessionId: r.sessionId,
      platformStudyId: r.platformStudyId,
      state: r.state,
      joinedAt: new Date(r.joinedAt),
      finishedAt: r.finishedAt === null ? null : new Date(r.finishedAt),
      activeMs: r.activeMs,
      answered: r.answered,
      batch: r.state === "screened-out" ? 0 : r.batch,
      checksSeen: c?.seen ?? 0,
      checksPassed: c?.passed ?? 0,
      agreement: a?.pairwise ?? null,
      pairs: a?.pairs ?? 0,
      medianMs,
      flags,
      review: r.review,
      reviewReason: r.reviewReason,
      reviewedBy: r.reviewedBy,
      reviewedAt: r.reviewedAt === null ? null : new Date(r.reviewedAt),
      bonusCents: r.bonusCents,
      excluded: r.excluded === 1,
      ...applies(r.state, study.platform),
    };
  });
}

/** Every participant of the study with their figures (the downloads); coordinators. */
export function studyParticipants(db: Db, actor: Actor, projectId: number, studyId: unknown): { project: ProjectRow; study: StudyOverview; rows: ParticipantRow[] } {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const study = findStudy(db, project, studyId);
  return { project, study, rows: participantRowsOf(db, actor, project, study, rawParticipants(db, project.id, study.id)) };
}

const PARTICIPANTS_PAGE_SIZE = 50;

export interface ParticipantsPage {
  study: StudyOverview;
  rows: ParticipantRow[];
  page: number;
  pages: number;
  total: number;
  /** Participants per review state. */
  reviews: Record<ReviewState, number>;
  /** Of the pending, those screened out by the training where no review applies (on Prolific): counted apart, not as "pending". */
  screenedOut: number;
  /** Rejected participants whose answers are still in the gold, and those left out. */
  rejectedInGold: number;
  excluded: number;
  /** The last decision on leaving answers out (for its undo), null when none. */
  lastExclusion: { at: Date; by: string | null; active: boolean } | null;
  speedThresholdSeconds: number;
  measure: string;
}

/** One page of a study's participants in the order they joined (coordinators). */
export function participantsPage(db: Db, actor: Actor, projectId: number, studyId: unknown, page = 1): ParticipantsPage {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const study = findStudy(db, project, studyId);
  const counts = db.$client
    .prepare(
      `select ${PA.review} as review, count(*) as n, sum(${PA.state} = 'screened-out') as screened,
              sum(exists (select 1 from ${PE.$} where ${PE.participantId} = ${PA.id} and ${PE.undoneAt} is null)) as excluded
         from ${PA.$} where ${PA.projectId} = ? and ${PA.studyId} = ? group by ${PA.review}`,
    )
    .all(project.id, study.id) as { review: ReviewState; n: number; screened: number; excluded: number }[];
  const reviews: Record<ReviewState, number> = { pending: 0, approved: 0, rejected: 0 };
  let excluded = 0;
  let screenedOut = 0;
  let rejectedExcluded = 0;
  for (const c of counts) {
    reviews[c.review] = c.n;
    excluded += c.excluded;
    if (c.review === "rejected") rejectedExcluded = c.excluded;
    if (c.review === "pending" && !applies("screened-out", study.platform).canReview) screenedOut = c.screened;
  }
  const total = reviews.pending + reviews.approved + reviews.rejected;
  const pages = Math.max(1, Math.ceil(total / PARTICIPANTS_PAGE_SIZE));
  const at = Number.isSafeInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
  const raw = rawParticipants(db, project.id, study.id, { limit: PARTICIPANTS_PAGE_SIZE, offset: (at - 1) * PARTICIPANTS_PAGE_SIZE });
  const last = lastExclusion(db, project.id, study.id);
  const speedMs = speedThresholdMs(db, project.id);
  return {
    study,
    rows: participantRowsOf(db, actor, project, study, raw),
    page: at,
    pages,
    total,
    reviews,
    screenedOut,
    rejectedInGold: reviews.rejected - rejectedExcluded,
    excluded,
    lastExclusion: last,
    speedThresholdSeconds: speedMs / 1000,
    measure: AGREEMENT_MEASURE,
  };
}

function lastExclusion(db: Db, projectId: number, studyId: number): ParticipantsPage["lastExclusion"] {
  const row = db.$client
    .prepare(
      `select ${PE.decidedAt} as at, (select ${BY.name} from ${BY.$} where ${BY.id} = ${PE.decidedBy}) as decidedBy, ${PE.undoneAt} is null as active
         from ${PE.$} join ${PA.$} on ${PA.id} = ${PE.participantId}
        where ${PE.projectId} = ? and ${PA.studyId} = ? order by ${PE.id} desc limit 1`,
    )
    .get(projectId, studyId) as { at: number; decidedBy: string | null; active: number } | undefined;
  return row ? { at: new Date(row.at), by: row.decidedBy, active: row.active === 1 } : null;
}

function findParticipant(db: Db, projectId: number, participantId: unknown) {
  const id = idOf(participantId);
  if (id === null) throw new NotFoundError("No such participant in this project.");
  const row = db.$client
    .prepare(
      `select ${PA.id} as id, ${PA.studyId} as studyId, ${PA.platformId} as platformId, ${PA.review} as review, ${PA.state} as state, ${S.platform} as platform
         from ${PA.$} join ${S.$} on ${S.id} = ${PA.studyId} where ${PA.id} = ? and ${PA.projectId} = ?`,
    )
    .get(id, projectId) as { id: number; studyId: number; platformId: string; review: ReviewState; state: ParticipantState; platform: StudyPlatform } | undefined;
  if (!row) throw new NotFoundError("No such participant in this project.");
  return row;
}

const reviewSchema = z.discriminatedUnion("review", [
  z.object({ review: z.literal("approved") }),
  z.object({ review: z.literal("pending") }),
  z.object({
    review: z.literal("rejected"),
    reason: z
      .string({ message: "Say why the participant is rejected." })
      .transform((s) => s.replace(/\s+/g, " ").trim())
      .pipe(z.string().min(1, "Say why the participant is rejected: the platform shows the reason to them.").max(MAX_REASON, `The reason is at most ${MAX_REASON} characters.`)),
  }),
]);

/**
 * Approve or reject a participant (a reason required, at most MAX_REASON characters),
 * or set them back to pending; logged in gold_review_log (kind "participant").
 */
export function reviewParticipant(
  db: Db,
  actor: Actor,
  projectId: number,
  input: { participantId: unknown; review: unknown; reason?: unknown },
): { platformId: string; review: ReviewState; reason: string } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const d = parseOrThrow(reviewSchema, { review: input.review, reason: input.reason ?? "" }, "review");
  const who = findParticipant(db, p.id, input.participantId);
  // Setting them back to pending always goes (an older review may predate this rule).
  if (d.review !== "pending" && !applies(who.state, who.platform).canReview) {
    const why = who.platform === "prolific" ? "Prolific pays them through the screen-out code, so there is nothing to approve or reject here." : "there is nothing to approve or reject.";
    throw new InputError(`${who.platformId} was screened out by the training: ${why}`, { review: "Does not apply." });
  }
  const reason = d.review === "rejected" ? d.reason : "";
  const userId = actorUserId(actor!);
  const now = new Date();
  db.transaction((tx) => {
    db.$client
      .prepare(`update ${PARTICIPANTS.$} set ${PARTICIPANTS.review} = ?, ${PARTICIPANTS.reviewReason} = ?, ${PARTICIPANTS.reviewedBy} = ?, ${PARTICIPANTS.reviewedAt} = ? where ${PARTICIPANTS.id} = ?`)
      .run(d.review, reason, userId, d.review === "pending" ? null : now.getTime(), who.id);
    tx.insert(goldReviewLog)
      .values({ projectId: p.id, kind: "participant", target: who.platformId, value: JSON.stringify({ study: who.studyId, review: d.review, reason }), userId, at: now })
      .run();
  });
  return { platformId: who.platformId, review: d.review, reason };
}

/** "1.50", "1,50", "£1.50" → hundredths; "" or 0 → null (no bonus). */
function parseBonus(v: unknown): number | null {
  const s = String(v ?? "")
    .trim()
    .replace(/^[£$€]\s*/, "")
    .replace(",", ".");
  if (s === "") return null;
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(s)) throw new InputError("A bonus is an amount such as 1.50 (two decimals at most).", { bonus: "An amount such as 1.50." });
  const [whole, frac = ""] = s.split(".");
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  if (cents > MAX_BONUS_CENTS) throw new InputError(`A bonus is at most ${(MAX_BONUS_CENTS / 100).toFixed(2)}.`, { bonus: "Too large." });
  return cents === 0 ? null : cents;
}

/** Set (or clear, with "" or 0) a participant's bonus; logged in gold_review_log (kind "participant"). */
export function setBonus(db: Db, actor: Actor, projectId: number, input: { participantId: unknown; bonus: unknown }): { platformId: string; bonusCents: number | null } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const cents = parseBonus(input.bonus);
  const who = findParticipant(db, p.id, input.participantId);
  if (cents !== null && !applies(who.state, who.platform).canBonus) throw new InputError(`${who.platformId} was screened out by the training: a bonus does not apply.`, { bonus: "Does not apply." });
  const userId = actorUserId(actor!);
  db.transaction((tx) => {
    db.$client.prepare(`update ${PARTICIPANTS.$} set ${PARTICIPANTS.bonusCents} = ? where ${PARTICIPANTS.id} = ?`).run(cents, who.id);
    tx.insert(goldReviewLog)
      .values({ projectId: p.id, kind: "participant", target: who.platformId, value: JSON.stringify({ study: who.studyId, bonusCents: cents }), userId, at: new Date() })
      .run();
  });
  return { platformId: who.platformId, bonusCents: cents };
}

/**
 * Leave the answers of the study's rejected participants out of the gold, gold files,
 * modes and agreement (one decision: a participant_exclusions row for each rejected
 * participant not left out yet, and one log line). Refused when there is nobody to
 * leave out. Returns their platform ids.
 */
export function excludeRejected(db: Db, actor: Actor, projectId: number, studyId: unknown): { platformIds: string[] } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const study = findStudy(db, p, studyId);
  const userId = actorUserId(actor!);
  return db.transaction((tx) => {
    const who = db.$client
      .prepare(
        `select ${PA.id} as id, ${PA.platformId} as platformId from ${PA.$}
          where ${PA.projectId} = ? and ${PA.studyId} = ? and ${PA.review} = 'rejected'
            and not exists (select 1 from ${PE.$} where ${PE.participantId} = ${PA.id} and ${PE.undoneAt} is null)
          order by ${PA.joinedAt}, ${PA.id}`,
      )
      .all(p.id, study.id) as { id: number; platformId: string }[];
    if (who.length === 0) throw new InputError("No rejected participant's answers are in the gold: nothing to leave out.", { study: "Nothing to leave out." });
    const now = new Date();
    const insert = db.$client.prepare(
      `insert into ${EXCLUSIONS.$} (${EXCLUSIONS.projectId}, ${EXCLUSIONS.participantId}, ${EXCLUSIONS.reason}, ${EXCLUSIONS.decidedBy}, ${EXCLUSIONS.decidedAt}) values (?, ?, 'rejected', ?, ?)`,
    );
    for (const w of who) insert.run(p.id, w.id, userId, now.getTime());
    const platformIds = who.map((w) => w.platformId);
    tx.insert(goldReviewLog)
      .values({ projectId: p.id, kind: "participants", target: study.name || `study ${study.id}`, value: JSON.stringify({ study: study.id, action: "left out", participants: platformIds }), userId, at: now })
      .run();
    return { platformIds };
  });
}

/** Undo: every participant of the study left out of the gold is put back (one decision, logged). */
export function undoExclusion(db: Db, actor: Actor, projectId: number, studyId: unknown): { platformIds: string[] } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const study = findStudy(db, p, studyId);
  const userId = actorUserId(actor!);
  return db.transaction((tx) => {
    const who = db.$client
      .prepare(
        `select ${PE.id} as id, ${PA.platformId} as platformId from ${PE.$} join ${PA.$} on ${PA.id} = ${PE.participantId}
          where ${PE.projectId} = ? and ${PA.studyId} = ? and ${PE.undoneAt} is null order by ${PA.joinedAt}, ${PA.id}`,
      )
      .all(p.id, study.id) as { id: number; platformId: string }[];
    if (who.length === 0) throw new InputError("No participant of this study is left out of the gold: nothing to undo.", { study: "Nothing to undo." });
    const now = new Date();
    const undo = db.$client.prepare(`update ${EXCLUSIONS.$} set ${EXCLUSIONS.undoneAt} = ?, ${EXCLUSIONS.undoneBy} = ? where ${EXCLUSIONS.id} = ?`);
    for (const w of who) undo.run(now.getTime(), userId, w.id);
    const platformIds = [...new Set(who.map((w) => w.platformId))];
    tx.insert(goldReviewLog)
      .values({ projectId: p.id, kind: "participants", target: study.name || `study ${study.id}`, value: JSON.stringify({ study: study.id, action: "put back", participants: platformIds }), userId, at: now })
      .run();
    return { platformIds };
  });
}
