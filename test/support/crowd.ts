/**
 * Study participants for tests, made by inserting rows as joining a study does (db/schema.ts:
 * studies, participants, batch_items): a users row with role "participant", a membership as
 * the project's annotator, a participants row and their batch in `position` order.
 */
import type { Db } from "../../db/client";
import type { UserActor } from "../../lib/server/kernel/actor";

export interface StudyOptions {
  platform?: "prolific" | "mturk" | "link";
  completionCode?: string;
  screenOutCode?: string;
  state?: "open" | "paused" | "closed";
  batchSize?: number;
  overlap?: number;
  minutes?: number;
}

let tokens = 0;

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
