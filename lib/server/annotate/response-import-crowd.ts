/**
 * The crowd's part of a responses import (issue #32): the lines of study participants of another
 * project the importer coordinates are read as theirs, never as members of this project; those their
 * own project left out of the gold are refused (lib/server/annotate/response-import.ts).
 */
import "server-only";
import type { Db } from "../../../db/client";
import { memberships, participantExclusions, participants, projects } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, actorUserId } from "../kernel/actor";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const PA = named(participants, "pa");
const PE = named(participantExclusions, "pe");
const P = named(projects, "p");
const M = named(memberships, "m");

/** Account names a study's join makes (lib/server/crowd/join.ts): `<platform>:<study id>:<platform id>`. */
export const PARTICIPANT_NAME = /^(prolific|mturk|link):[0-9]+:./s;

/** Crowd participants of other projects named in the file, read as the authors of their lines. */
export interface CarriedParticipants {
  /** Participants (accounts) and the lines of theirs read. */
  count: number;
  lines: number;
  /** The projects of their studies, by name. */
  from: string[];
}

/** A crowd participant of another project named in a file: their project, and whether it left them out of its gold. */
export interface Crowd {
  project: string;
  excluded: boolean;
}

/**
 * The participants among `userIds` (accounts with role participant, not members of the
 * project imported into) whose study's project `importer` coordinates (null: any), in one
 * read per 500 accounts.
 */
export function crowdOf(db: Db, userIds: readonly number[], importer: number | null): Map<number, Crowd> {
  const out = new Map<number, Crowd>();
  for (let k = 0; k < userIds.length; k += 500) {
    const chunk = userIds.slice(k, k + 500);
    const rows = db.$client
      .prepare(
        `select ${PA.userId} as userId, ${P.name} as project,
                exists (select 1 from ${PE.$} where ${PE.participantId} = ${PA.id} and ${PE.undoneAt} is null) as excluded
           from ${PA.$} join ${P.$} on ${P.id} = ${PA.projectId}
          where ${PA.userId} in (${chunk.map(() => "?").join(", ")})
            and (? is null or exists (select 1 from ${M.$} where ${M.projectId} = ${PA.projectId} and ${M.userId} = ? and ${M.role} = 'coordinator'))`,
      )
      .all(...chunk, importer, importer) as { userId: number; project: string; excluded: number }[];
    for (const r of rows) out.set(r.userId, { project: r.project, excluded: r.excluded === 1 });
  }
  return out;
}

/** The participants of other projects among the lines read, counted (null when none); those their project left out of the gold are refused, not counted. */
export function carried(ok: readonly { userId: number; crowd: Crowd | null }[]): CarriedParticipants | null {
  const who = new Set<number>();
  const from = new Set<string>();
  let lines = 0;
  for (const o of ok) {
    if (!o.crowd || o.crowd.excluded) continue;
    who.add(o.userId);
    from.add(o.crowd.project);
    lines++;
  }
  return who.size === 0 ? null : { count: who.size, lines, from: [...from].sort() };
}

/** `read 6 lines of 3 crowd participants of "wave" as theirs (…)`, or "". */
export function participantsClause(c: CarriedParticipants | null): string {
  if (!c) return "";
  const of = c.from.map((n) => `"${n}"`).join(", ");
  return `read ${c.lines === 1 ? "1 line" : `${c.lines} lines`} of ${c.count === 1 ? "1 crowd participant" : `${c.count} crowd participants`} of ${of} as theirs (not made members of this project; their review and payments stay with their study)`;
}

/** The user id a plan checks crowd participants against: the coordinator's, null for the operator (the command line). */
export function importerOf(actor: Actor): number | null {
  return actor && actor.kind === "user" ? actorUserId(actor) : null;
}
