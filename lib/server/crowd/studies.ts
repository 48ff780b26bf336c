/**
 * Crowd studies (issue #32): a coordinator opens a study on a project, an unguessable link
 * (/study/<token>) that Prolific, Mechanical Turk or anyone with it joins by (./join.ts), and
 * pauses or closes it. Opening fills study_slots, one row per instance a batch may hold, in
 * corpus order; ./allocation.ts hands them out.
 *
 * Which instances get slots: every instance of the project's lexelts except training items
 * (known_answers role "training": the training gate shows them before the batch, they are no
 * part of it) and instances excluded from the gold (answers there would go nowhere). Hidden
 * attention checks (role "check") are slots like any instance, so a participant meets them in
 * the batch as an annotator meets them in the workspace, unmarked. Instances added to the
 * project later get their slots at the next allocation (allocation.ts, topUpSlots).
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { instances, knownAnswers, lexelts, studies, studySlots } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, actorUserId, requireProject, requireSignedIn } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { all, get, run } from "../kernel/statements";
import { parseOrThrow } from "../kernel/validate";
import { writeTransaction } from "../kernel/write-lock";
import { setting } from "../../config";

const [I, L, K, S, SS] = [named(instances, "i"), named(lexelts, "l"), named(knownAnswers, "k"), named(studies, "s"), named(studySlots, "ss")];
const [SLOTS, STUDIES, INSTANCES] = [named(studySlots), named(studies), named(instances)];

const PLATFORMS = ["prolific", "mturk", "link"] as const;
export type Platform = (typeof PLATFORMS)[number];
const STUDY_STATES = ["open", "paused", "closed"] as const;
export type StudyState = (typeof STUDY_STATES)[number];

/** The most a batch holds, participants an instance needs, and minutes a batch is kept. */
export const MAX_BATCH = 500;
export const MAX_OVERLAP = 50;
export const MAX_MINUTES = 24 * 60;
const MAX_CONSENT_CHARS = 20_000;

/** Absent, null (a form field not sent) and "" all mean "not given". */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === null || v === undefined || (typeof v === "string" && v.trim() === "") ? undefined : v), schema.optional());

const whole = (field: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z
      .number({ message: `${field}: give a whole number.` })
      .int(`${field}: give a whole number.`)
      .min(min, `${field} is at least ${min}.`)
      .max(max, `${field} is at most ${max.toLocaleString("en")}.`),
  );

/** A code the platform shows or takes back: Prolific's completion codes are letters and digits. */
const code = (field: string) => optional(z.string().trim().max(64, `${field}: at most 64 characters.`).regex(/^[A-Za-z0-9_-]+$/, `${field}: letters, digits, dash or underscore only.`));

const studySchema = z
  .object({
    platform: z.enum(PLATFORMS, { message: "Platform: prolific, mturk or link." }),
    batchSize: whole("Batch size", 1, MAX_BATCH),
    overlap: whole("Overlap", 1, MAX_OVERLAP),
    minutes: whole("Minutes", 1, MAX_MINUTES),
    completionCode: code("Completion code"),
    screenOutCode: code("Screen-out code"),
    consent: optional(z.string().max(MAX_CONSENT_CHARS, `Consent: at most ${MAX_CONSENT_CHARS.toLocaleString("en")} characters.`)),
    name: optional(z.string().trim().max(100, "Name: at most 100 characters.")),
  })
  .superRefine((v, ctx) => {
    // Prolific takes a participant back only with the study's completion code.
    if (v.platform === "prolific" && !v.completionCode) ctx.addIssue({ code: "custom", path: ["completionCode"], message: "Completion code: Prolific needs the study's completion code (Prolific shows it under the study's completion paths)." });
  });

export interface StudyInput {
  platform: unknown;
  batchSize: unknown;
  overlap: unknown;
  minutes: unknown;
  completionCode?: unknown;
  screenOutCode?: unknown;
  consent?: unknown;
  name?: unknown;
}

export interface StudyRow {
  id: number;
  projectId: number;
  token: string;
  name: string;
  platform: Platform;
  batchSize: number;
  overlap: number;
  minutes: number;
  completionCode: string;
  screenOutCode: string;
  consent: string;
  state: StudyState;
  createdAt: number;
}

/** 128 random bits, base64url: the link's secret. */
function newToken(): string {
  return randomBytes(16).toString("base64url");
}

/** Which instances of the project get slots (see the top of this file). */
const SLOTTED = `${L.projectId} = ? and ${I.excludedReason} is null
  and not exists (select 1 from ${K.$} where ${K.instanceRef} = ${I.id} and ${K.role} = 'training')`;

/**
 * Studies up to this many instances have their slots written in createStudy's transaction, in one
 * statement (a few milliseconds); bigger ones in slices of this many, one short write transaction
 * each, the event loop free between them (a single statement took 275 ms at 100,000 instances).
 */
export const SLOTS_SLICE = 1_000;

/** The slots of every instance a batch may hold, in corpus order (one statement). */
function fillSlots(db: Db, studyId: number, projectId: number): number {
  return db.$client
    .prepare(
      `insert into ${SLOTS.$} (${SLOTS.studyId}, ${SLOTS.instanceRef}, ${SLOTS.taken}, ${SLOTS.position})
       select ?, ${I.id}, 0, row_number() over (order by ${L.position}, ${I.position}, ${I.id})
       from ${L.$} join ${I.$} on ${I.lexeltId} = ${L.id}
       where ${SLOTTED}`,
    )
    .run(studyId, projectId).changes;
}

/**
 * The next instances without a slot after a point in corpus order (lexelt position, instance
 * position, id): the lexelts from that position on through their index, each one's instances
 * through theirs, so a slice reads about as many rows as it writes.
 */
const NEXT_SLICE_SQL = `select ${I.id} as id from ${L.$} join ${I.$} on ${I.lexeltId} = ${L.id}
  where ${SLOTTED} and ${L.position} >= ? and (${L.position}, ${I.position}, ${I.id}) > (?, ?, ?)
    and not exists (select 1 from ${SS.$} where ${SS.studyId} = ? and ${SS.instanceRef} = ${I.id})
  order by ${L.position}, ${I.position}, ${I.id} limit ?`;

/** Before every position (the first slice's point). */
const START = -Number.MAX_SAFE_INTEGER;

/**
 * Write the next slice of an opening study's slots, inside a write transaction; when fewer than
 * `slice` were left the study is ready (it takes joins from this commit on). True once ready.
 * Safe to run from two processes or again after a crash: the point to go on from is read from
 * the study's row under the write lock, and an instance that already has a slot is skipped.
 */
function fillSlice(db: Db, studyId: number, slice: number): boolean {
  const s = get<{ projectId: number; ready: number; after: number | null }>(
    db,
    `select ${S.projectId} as projectId, ${S.slotsReady} as ready, ${S.slotsAfter} as after from ${S.$} where ${S.id} = ?`,
    studyId,
  );
  if (!s || s.ready) return true;
  // The instance written last, and its slot's position; deleted since (the corpus changed while the study
  // opened): start over after the last position (rare: it reads the study's slots), what has a slot is skipped.
  const at =
    s.after === null
      ? undefined
      : get<{ lp: number; ip: number; pos: number }>(
          db,
          `select ${L.position} as lp, ${I.position} as ip, ${SS.position} as pos from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId}
             join ${SS.$} on ${SS.studyId} = ? and ${SS.instanceRef} = ${I.id} where ${I.id} = ?`,
          studyId,
          s.after,
        );
  const point = at ? [at.lp, at.lp, at.ip, s.after] : [START, START, START, START];
  const base = at ? at.pos : s.after === null ? 0 : (get<{ m: number | null }>(db, `select max(${SS.position}) as m from ${SS.$} where ${SS.studyId} = ?`, studyId)?.m ?? 0);
  const next = all<{ id: number }>(db, NEXT_SLICE_SQL, s.projectId, ...point, studyId, slice);
  next.forEach(({ id }, k) => run(db, `insert into ${SLOTS.$} (${SLOTS.studyId}, ${SLOTS.instanceRef}, ${SLOTS.taken}, ${SLOTS.position}) values (?, ?, 0, ?)`, studyId, id, base + k + 1));
  const done = next.length < slice;
  run(db, `update ${STUDIES.$} set ${STUDIES.slotsReady} = ?, ${STUDIES.slotsAfter} = ? where ${STUDIES.id} = ?`, done ? 1 : 0, done ? null : next[next.length - 1].id, studyId);
  return done;
}

/** Per connection: the studies whose slots this process is writing now, and when it will be done. */
const opening = new WeakMap<Db["$client"], Map<number, Promise<number>>>();

/**
 * Write the rest of a study's slots, a slice at a time through the write queue
 * (lib/server/kernel/write-lock.ts: other writes queued meanwhile go in between), yielding to the
 * event loop after each; resolves once the study takes joins (at once if it already does), with
 * the number of its slots (its instances). One
 * run per study and process; a run cut short (a crash, the write lock held too long) is taken
 * up again by the next call: the study's row says where it stopped.
 */
export function studySlotsWritten(db: Db, studyId: number, { slice = SLOTS_SLICE }: { slice?: number } = {}): Promise<number> {
  let running = opening.get(db.$client);
  if (!running) opening.set(db.$client, (running = new Map()));
  const was = running.get(studyId);
  if (was) return was;
  const map = running;
  const job = (async () => {
    // Each slice after a turn of the event loop (the caller's own request first).
    do await new Promise<void>((resolve) => setImmediate(resolve));
    while (!(await writeTransaction(db, () => fillSlice(db, studyId, slice))));
    return get<{ n: number }>(db, `select ${S.instanceCount} as n from ${S.$} where ${S.id} = ?`, studyId)?.n ?? 0;
  })().finally(() => map.delete(studyId));
  map.set(studyId, job);
  return job;
}

/** Go on writing an opening study's slots in the background (a study half-opened by a killed server is finished by whoever looks at it next). */
export function resumeOpening(db: Db, studyId: number): void {
  studySlotsWritten(db, studyId).catch((e: unknown) => console.error(`lexgold: writing the slots of study ${studyId} stopped (taken up again at the next visit):`, e));
}

/**
 * At a server's start (instrumentation.ts): go on writing the slots of every study a stopped server
 * left half-opened, so that it takes joins again without waiting for someone to look at it. Safe in
 * each of the server's processes at once (fillSlice). The ids of the studies taken up.
 */
export function resumeOpeningStudies(db: Db): number[] {
  const ids = all<{ id: number }>(db, `select ${S.id} as id from ${S.$} where ${S.slotsReady} = 0`).map((r) => r.id);
  for (const id of ids) resumeOpening(db, id);
  return ids;
}

/**
 * Open a study on a project: its coordinator (or the CLI) only. A big study (more than SLOTS_SLICE
 * instances) is `opening`: its first slice of slots is written here, the rest after, in the
 * background (studySlotsWritten resolves when done, with the exact count); its `instances` is then
 * the project's instance count, training items and instances excluded from the gold (which get no
 * slot) included.
 */
export function createStudy(db: Db, actor: Actor, projectId: number, input: StudyInput): StudyRow & { instances: number; opening: boolean } {
  const a = requireSignedIn(actor);
  const p = requireProject(db, a, projectId, { coordinator: true });
  const v = parseOrThrow(studySchema, input, "Cannot open the study");
  if (p.archivedAt) throw new InputError(`“${p.name}” is archived: unarchive it before opening a study.`);
  const made = db.transaction(() => {
    // The project's instances (the import keeps the count per lexelt): whether the slots fit in one statement.
    const project = get<{ n: number | null }>(db, `select sum(${L.instanceCount}) as n from ${L.$} where ${L.projectId} = ?`, p.id)?.n ?? 0;
    const opening = project > SLOTS_SLICE;
    const row = db
      .insert(studies)
      .values({
        projectId: p.id,
        token: newToken(),
        name: v.name ?? "",
        platform: v.platform,
        batchSize: v.batchSize,
        overlap: v.overlap,
        minutes: v.minutes,
        completionCode: v.completionCode ?? "",
        screenOutCode: v.screenOutCode ?? "",
        consent: v.consent ?? "",
        createdBy: actorUserId(a),
        slotsReady: !opening,
        // Every instance there is now gets its slot: in this transaction, or by the slices, which pass them all.
        slotsThrough: get<{ m: number | null }>(db, `select max(${INSTANCES.id}) as m from ${INSTANCES.$}`)?.m ?? 0,
      })
      .returning()
      .get();
    const n = opening ? (fillSlice(db, row.id, SLOTS_SLICE), project) : fillSlots(db, row.id, p.id);
    // Thrown inside the transaction: nothing of the study stays.
    if (n === 0 || (opening && get<{ n: number }>(db, `select ${S.instanceCount} as n from ${S.$} where ${S.id} = ?`, row.id)!.n === 0))
      throw new InputError(`“${p.name}” has no instances a batch could hold yet: import its sentences first (training items and instances excluded from the gold are left out).`);
    return { ...toRow(row), instances: n, opening };
  });
  if (made.opening) resumeOpening(db, made.id);
  return made;
}

function toRow(r: typeof studies.$inferSelect): StudyRow {
  return {
    id: r.id,
    projectId: r.projectId,
    token: r.token,
    name: r.name,
    platform: r.platform,
    batchSize: r.batchSize,
    overlap: r.overlap,
    minutes: r.minutes,
    completionCode: r.completionCode,
    screenOutCode: r.screenOutCode,
    consent: r.consent,
    state: r.state,
    createdAt: r.createdAt.getTime(),
  };
}

/** The study and its project, if the actor coordinates that project (404 for a study that does not exist). */
function studyOf(db: Db, actor: Actor, studyId: unknown): StudyRow {
  const a = requireSignedIn(actor);
  const id = typeof studyId === "string" && /^\d+$/.test(studyId.trim()) ? Number(studyId) : studyId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new NotFoundError("No such study.");
  const row = db.select().from(studies).where(eq(studies.id, id)).get();
  if (!row) throw new NotFoundError("No such study.");
  requireProject(db, a, row.projectId, { coordinator: true });
  return toRow(row);
}

/**
 * Open, pause or close a study. Paused: no one new joins, those in keep going; closed: no one
 * joins and no answers are taken. Either can be opened again. `projectId`, when given, must be
 * the study's (a form of one project's page cannot reach another's study).
 */
export function setStudyState(db: Db, actor: Actor, studyId: unknown, state: unknown, projectId?: number): StudyRow {
  const s = studyOf(db, actor, studyId);
  if (projectId !== undefined && s.projectId !== projectId) throw new NotFoundError("No such study.");
  const v = parseOrThrow(z.object({ state: z.enum(STUDY_STATES, { message: "State: open, paused or closed." }) }), { state }, "Cannot change the study");
  db.update(studies).set({ state: v.state }).where(eq(studies.id, s.id)).run();
  return { ...s, state: v.state };
}

export interface StudySummary extends StudyRow {
  /** Participants who joined. */
  participants: number;
  /** Instances the study hands out (slots written so far, while it opens). */
  instances: number;
  /** Places given out (held in a batch or answered), of instances × overlap. */
  placesTaken: number;
  /** Instances whose every place is taken. */
  full: number;
  /** Its slots are still being written: nobody joins yet. */
  opening: boolean;
}

/**
 * The project's studies, newest first, with their counts: its coordinator only. One statement on
 * the studies' own rows (their counts are kept by triggers, drizzle/0023), whatever the studies' size.
 */
export function listStudies(db: Db, actor: Actor, projectId: number): StudySummary[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const rows = db.select().from(studies).where(eq(studies.projectId, p.id)).orderBy(desc(studies.id)).all();
  return rows.map((r) => {
    // A study a stopped server left half-opened is finished now, in the background.
    if (!r.slotsReady) resumeOpening(db, r.id);
    return { ...toRow(r), participants: r.participantCount, instances: r.instanceCount, placesTaken: r.placesTaken, full: r.fullCount, opening: !r.slotsReady };
  });
}

/** The study's address: /study/<token> under the server's public origin. */
export function studyLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/study/${encodeURIComponent(token)}`;
}

/**
 * The link to give the platform: Prolific's with its URL placeholders (Prolific fills them per
 * participant); Mechanical Turk's ExternalQuestion adds workerId, assignmentId, hitId and
 * turkSubmitTo itself; a plain link asks the participant for an id.
 */
export function platformLink(origin: string, token: string, platform: Platform): string {
  const base = studyLink(origin, token);
  if (platform === "prolific") return `${base}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
  return base;
}

/**
 * The address participants reach the server at, for the links shown to the coordinator:
 * LEXGOLD_PUBLIC_URL or NEXTAUTH_URL when set (what `lexgold start` checks), else the host the
 * coordinator's own request came to.
 */
export function publicOrigin(requestHeaders: { get(name: string): string | null }): string {
  const set = setting("LEXGOLD_PUBLIC_URL") ?? setting("NEXTAUTH_URL");
  if (set) return set.replace(/\/+$/, "");
  const host = requestHeaders.get("host") ?? "localhost:3000";
  const proto = requestHeaders.get("x-forwarded-proto") === "https" ? "https" : "http";
  return `${proto}://${host}`;
}
