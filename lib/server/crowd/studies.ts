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
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { instances, knownAnswers, lexelts, participants, studies, studySlots } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, actorUserId, requireProject, requireSignedIn } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";
import { setting } from "../../config";

const [I, L, K, S, SS, P] = [named(instances, "i"), named(lexelts, "l"), named(knownAnswers, "k"), named(studies, "s"), named(studySlots, "ss"), named(participants, "p")];
const SLOTS = named(studySlots);

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

/** The slots of every instance a batch may hold, in corpus order (one statement). */
function fillSlots(db: Db, studyId: number, projectId: number): number {
  return db.$client
    .prepare(
      `insert into ${SLOTS.$} (${SLOTS.studyId}, ${SLOTS.instanceRef}, ${SLOTS.taken}, ${SLOTS.position})
       select ?, ${I.id}, 0, row_number() over (order by ${L.position}, ${I.position}, ${I.id})
       from ${L.$} join ${I.$} on ${I.lexeltId} = ${L.id}
       where ${L.projectId} = ? and ${I.excludedReason} is null
         and not exists (select 1 from ${K.$} where ${K.instanceRef} = ${I.id} and ${K.role} = 'training')`,
    )
    .run(studyId, projectId).changes;
}

/** Open a study on a project: its coordinator (or the CLI) only. */
export function createStudy(db: Db, actor: Actor, projectId: number, input: StudyInput): StudyRow & { instances: number } {
  const a = requireSignedIn(actor);
  const p = requireProject(db, a, projectId, { coordinator: true });
  const v = parseOrThrow(studySchema, input, "Cannot open the study");
  if (p.archivedAt) throw new InputError(`“${p.name}” is archived: unarchive it before opening a study.`);
  return db.transaction(() => {
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
      })
      .returning()
      .get();
    const n = fillSlots(db, row.id, p.id);
    // Thrown inside the transaction: nothing of the study stays.
    if (n === 0) throw new InputError(`“${p.name}” has no instances a batch could hold yet: import its sentences first (training items and instances excluded from the gold are left out).`);
    return { ...toRow(row), instances: n };
  });
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
  /** Instances the study hands out. */
  instances: number;
  /** Places given out (held in a batch or answered), of instances × overlap. */
  placesTaken: number;
  /** Instances whose every place is taken. */
  full: number;
}

/** The project's studies, newest first, with their counts: its coordinator only. */
export function listStudies(db: Db, actor: Actor, projectId: number): StudySummary[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const rows = db.$client
    .prepare(
      `select ${S.id} as id,
         (select count(*) from ${P.$} where ${P.studyId} = ${S.id}) as participants,
         (select count(*) from ${SS.$} where ${SS.studyId} = ${S.id}) as instances,
         (select coalesce(sum(${SS.taken}), 0) from ${SS.$} where ${SS.studyId} = ${S.id}) as placesTaken,
         (select count(*) from ${SS.$} where ${SS.studyId} = ${S.id} and ${SS.taken} >= ${S.overlap}) as "full"
       from ${S.$} where ${S.projectId} = ? order by ${S.id} desc`,
    )
    .all(p.id) as Array<{ id: number; participants: number; instances: number; placesTaken: number; full: number }>;
  const byId = new Map(db.select().from(studies).where(eq(studies.projectId, p.id)).all().map((r) => [r.id, toRow(r)]));
  return rows.map((r) => ({ ...byId.get(r.id)!, participants: r.participants, instances: r.instances, placesTaken: r.placesTaken, full: r.full }));
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
