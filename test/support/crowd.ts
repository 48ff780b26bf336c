/**
 * Crowd studies for tests, written straight into the tables as joining a study and the saves leave them.
 * makeStudy / makeParticipant (the workspace's tests) and seedStudy / seedParticipant / answer (the
 * coordinator's view's).
 *
 * Study participants for tests, made by inserting rows as joining a study does (db/schema.ts:
 * studies, participants, batch_items): a users row with role "participant", a membership as
 * the project's annotator, a participants row and their batch in `position` order.
 */
import type { Db } from "../../db/client";
import type { UserActor } from "../../lib/server/kernel/actor";
import { saveResponse } from "../../lib/server/annotate/responses";

let tokens = 0;

export interface StudyOptions {
  platform?: "prolific" | "mturk" | "link";
  completionCode?: string;
  screenOutCode?: string;
  state?: "open" | "paused" | "closed";
  batchSize?: number;
  overlap?: number;
  minutes?: number;
}

export function makeStudy(db: Db, projectId: number, o: StudyOptions = {}): number {
  const row = db.$client
    .prepare(
      `insert into studies (project_id, token, platform, batch_size, overlap, minutes, completion_code, screen_out_code, state)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    )
    .get(projectId, `test-token-${++tokens}-${Math.random().toString(36).slice(2)}`, o.platform ?? "prolific", o.batchSize ?? 3, o.overlap ?? 2, o.minutes ?? 60, o.completionCode ?? "C0MPL3TE", o.screenOutCode ?? "SCR33N", o.state ?? "open") as { id: number };
  return row.id;
}

export interface Participant {
  actor: UserActor;
  participantId: number;
}

/** A participant of the study with these instance refs as their batch (in this order). */
export function makeParticipant(
  db: Db,
  studyId: number,
  name: string,
  refs: number[],
  o: { platformSessionId?: string; submitTo?: string } = {},
): Participant {
  const projectId = (db.$client.prepare("select project_id as p from studies where id = ?").get(studyId) as { p: number }).p;
  // No password: a hash no password matches.
  const user = db.$client.prepare("insert into users (name, password_hash, role) values (?, '!', 'participant') returning id").get(name) as { id: number };
  db.$client.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(projectId, user.id);
  const now = Date.now();
  const p = db.$client
    .prepare(
      `insert into participants (study_id, project_id, user_id, platform_id, platform_session_id, submit_to, joined_at, batch_at)
       values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    )
    .get(studyId, projectId, user.id, `pid-${name}`, o.platformSessionId ?? null, o.submitTo ?? null, now, now) as { id: number };
  const add = db.$client.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)");
  refs.forEach((ref, i) => add.run(p.id, ref, i + 1));
  return { actor: { kind: "user", userId: user.id, name, role: "participant" }, participantId: p.id };
}

export function participantRow(db: Db, participantId: number) {
  return db.$client.prepare("select state, finished_at as finishedAt, active_ms as activeMs, last_seen_at as lastSeenAt from participants where id = ?").get(participantId) as {
    state: string;
    finishedAt: number | null;
    activeMs: number;
    lastSeenAt: number | null;
  };
}

export interface SeededParticipant {
  id: number;
  platformId: string;
  actor: UserActor;
}

/** A study of the project (prolific unless said), open. Returns its id. */
export function seedStudy(db: Db, projectId: number, opts: { name?: string; platform?: "prolific" | "mturk" | "link"; batchSize?: number; overlap?: number; minutes?: number } = {}): number {
  const r = db.$client
    .prepare("insert into studies (project_id, token, name, platform, batch_size, overlap, minutes) values (?, ?, ?, ?, ?, ?, ?)")
    .run(projectId, `test-token-${++tokens}-${Math.random().toString(36).slice(2)}`, opts.name ?? "pilot", opts.platform ?? "prolific", opts.batchSize ?? 2, opts.overlap ?? 3, opts.minutes ?? 30);
  return Number(r.lastInsertRowid);
}

/**
 * A participant of the study with these instances (refs) in their batch, in order.
 * `session` is Prolific's SESSION_ID / Mechanical Turk's assignmentId, `hit` the STUDY_ID / hitId.
 */
export function seedParticipant(
  db: Db,
  studyId: number,
  platformId: string,
  opts: { refs?: number[]; session?: string; hit?: string; state?: "active" | "finished" | "screened-out" | "timed-out"; joinedAt?: number; activeMs?: number } = {},
): SeededParticipant {
  const { projectId } = db.$client.prepare("select project_id as projectId from studies where id = ?").get(studyId) as { projectId: number };
  const name = `${platformId}@study${studyId}`;
  const user = db.$client.prepare("insert into users (name, password_hash, role) values (?, '', 'participant')").run(name);
  const userId = Number(user.lastInsertRowid);
  db.$client.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(projectId, userId);
  const joinedAt = opts.joinedAt ?? Date.now();
  const state = opts.state ?? "active";
  const p = db.$client
    .prepare(
      "insert into participants (study_id, project_id, user_id, platform_id, platform_study_id, platform_session_id, joined_at, batch_at, finished_at, state, active_ms) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(studyId, projectId, userId, platformId, opts.hit ?? null, opts.session ?? null, joinedAt, joinedAt, state === "finished" ? joinedAt + 60_000 : null, state, opts.activeMs ?? 0);
  const id = Number(p.lastInsertRowid);
  (opts.refs ?? []).forEach((ref, k) => db.$client.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)").run(id, ref, k));
  return { id, platformId, actor: { kind: "user", userId, name, role: "participant" } };
}

/** The participant's answer to one instance (substitutes, or NAME / NIL). */
export function answer(db: Db, projectId: number, who: SeededParticipant, ref: number, substitutes: string[] | "NAME" | "NIL"): void {
  const input = Array.isArray(substitutes)
    ? { kind: "substitutes" as const, substitutes, multiword: false, phrase: "" }
    : { kind: substitutes, substitutes: [], multiword: false, phrase: "" };
  // Written as during the batch: a participant seeded as finished, timed out or screened out gave it
  // before, and their time on task stays as seeded.
  const seeded = db.$client.prepare("select state, active_ms as activeMs from participants where id = ?").get(who.id) as { state: string; activeMs: number } | undefined;
  if (seeded) db.$client.prepare("update participants set state = 'active' where id = ?").run(who.id);
  try {
    saveResponse(db, who.actor, projectId, ref, input, { expectedRevision: 0 });
  } finally {
    if (seeded) db.$client.prepare("update participants set state = ?, active_ms = ? where id = ?").run(seeded.state, seeded.activeMs, who.id);
  }
}
