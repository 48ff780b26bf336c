/**
 * Crowd studies for tests, written straight into the tables (db/schema.ts: studies,
 * participants, batch_items): a participant is a users row with role participant, an
 * annotator membership of the study's project and a participants row. Answers go
 * through saveResponse as the participant.
 */
import type { Db } from "../../db/client";
import type { UserActor } from "../../lib/server/kernel/actor";
import { saveResponse } from "../../lib/server/annotate/responses";

export interface SeededParticipant {
  id: number;
  platformId: string;
  actor: UserActor;
}

let tokens = 0;

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
  saveResponse(db, who.actor, projectId, ref, input, { expectedRevision: 0 });
}
