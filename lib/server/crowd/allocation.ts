/**
 * Batches with balanced overlap (issue #32). A participant's batch is up to `batchSize`
 * instances of the study's slots with fewer than `overlap` places taken, fewest first, then in
 * corpus order (the index study_slots_fewest walks them in that order, so a batch reads about
 * as many slots as it takes, whatever the project's size), never one the participant already
 * had. Taking a place raises study_slots.taken; a place stays taken while it is held in a batch
 * or answered, so no instance ever gets more than `overlap` answers, and once every held place
 * is answered or released every instance has exactly `overlap`.
 *
 * A batch not finished within the study's `minutes` is released by the next allocation of the
 * same study: its unanswered items give their places back (batch_items.released_at, taken − 1),
 * its answered ones keep theirs, and the participant is marked timed-out. "Answered" is a row in
 * responses for (instance, the participant's user).
 *
 * A participant gets one batch: once batch_at is set, allocating again gives nothing more (a
 * participant who found every place taken, batch_at still null, is tried again when they return).
 *
 * Instances added to the project after the study opened get their slots here, at the next
 * allocation after an import (topUpSlots: one insert … select … where not exists, O(the
 * project) once per import, whichever process comes first; between imports a lookup of the largest instance id and
 * of the study's slots_through).
 *
 * No actor here: join.ts calls this for the participant it has just identified, in its
 * transaction; the workspace (lib/server/annotate) and the coordinator's pages reach it through
 * functions that check who asks.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { batchItems, instances, knownAnswers, lexelts, participants, responses, studies, studySlots } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { all, get, run } from "../kernel/statements";
import { releaseBatch } from "../annotate/batch-release";

// The release itself is the workspace's too (a screen-out): it lives in lib/server/annotate.
export { releaseBatch };

const [B, I, K, L, P, R, S, SS] = [named(batchItems, "b"), named(instances, "i"), named(knownAnswers, "k"), named(lexelts, "l"), named(participants, "p"), named(responses, "r"), named(studies, "s"), named(studySlots, "ss")];
const [BATCH, PARTS, SLOTS, INST, STUDIES] = [named(batchItems), named(participants), named(studySlots), named(instances), named(studies)];

/** The candidates of a batch: slots below the overlap, fewest taken first, then corpus order; none the participant had, no training item, nothing excluded from the gold. */
export const CANDIDATES_SQL = `select ${SS.instanceRef} as ref, ${SS.position} as position from ${SS.$}
  where ${SS.studyId} = ? and ${SS.taken} < ?
    and not exists (select 1 from ${B.$} where ${B.participantId} = ? and ${B.instanceRef} = ${SS.instanceRef})
    and not exists (select 1 from ${I.$} where ${I.id} = ${SS.instanceRef} and ${I.excludedReason} is not null)
    and not exists (select 1 from ${K.$} where ${K.instanceRef} = ${SS.instanceRef} and ${K.role} = 'training')
  order by ${SS.taken}, ${SS.position} limit ?`;

/** The study's batches given before `cutoff` and not finished (the index participants_study_state). */
export const EXPIRED_SQL = `select ${P.id} as id from ${P.$} where ${P.studyId} = ? and ${P.state} = 'active' and ${P.batchAt} < ? and ${P.finishedAt} is null`;

interface StudyOfParticipant {
  participantId: number;
  userId: number;
  state: string;
  batchAt: number | null;
  finishedAt: number | null;
  studyId: number;
  projectId: number;
  batchSize: number;
  overlap: number;
  minutes: number;
  studyState: string;
  /** The study's slots are all written (lib/server/crowd/studies.ts): until then nobody is given a batch. */
  slotsReady: number;
}

function participantStudy(db: Db, participantId: number): StudyOfParticipant | undefined {
  return get<StudyOfParticipant>(
    db,
    `select ${P.id} as participantId, ${P.userId} as userId, ${P.state} as state, ${P.batchAt} as batchAt, ${P.finishedAt} as finishedAt,
       ${S.id} as studyId, ${S.projectId} as projectId, ${S.batchSize} as batchSize, ${S.overlap} as overlap, ${S.minutes} as minutes, ${S.state} as studyState, ${S.slotsReady} as slotsReady
     from ${P.$} join ${S.$} on ${S.id} = ${P.studyId} where ${P.id} = ?`,
    participantId,
  );
}

/** Release the study's batches older than its minutes. Inside a transaction. */
function releaseExpired(db: Db, studyId: number, minutes: number, now: number): number {
  let released = 0;
  for (const { id } of all<{ id: number }>(db, EXPIRED_SQL, studyId, now - minutes * 60_000)) released += releaseBatch(db, id, now, "timed-out");
  return released;
}

/** Per connection and study: the largest instance id when the study's slots were last topped up. */
const toppedUpTo = new WeakMap<Db["$client"], Map<number, number>>();

/** Full top-up scans made, per connection (tests: a scan reads the whole project). */
const scans = new WeakMap<Db["$client"], number>();
export const topUpScans = (db: Db): number => scans.get(db.$client) ?? 0;

/**
 * Slots for the instances added to the project since the study's slots were made (after those, in
 * corpus order). The scan reads the whole project (a few hundred milliseconds at 100,000 instances,
 * under the write lock), so it runs only when an instance newer than the study's slots_through
 * exists: once after each import, in whichever process allocates first. (It used to run at each
 * process's first allocation, holding up everyone's saves while a crowd arrived: #38.)
 */
function topUpSlots(db: Db, studyId: number, projectId: number): number {
  const maxId = get<{ m: number | null }>(db, `select max(${INST.id}) as m from ${INST.$}`)?.m ?? 0;
  let seen = toppedUpTo.get(db.$client);
  if (!seen) toppedUpTo.set(db.$client, (seen = new Map()));
  if (seen.get(studyId) === maxId) return 0;
  const through = get<{ t: number | null }>(db, `select ${STUDIES.slotsThrough} as t from ${STUDIES.$} where ${STUDIES.id} = ?`, studyId)?.t ?? null;
  if (through !== null && through >= maxId) {
    seen.set(studyId, maxId);
    return 0;
  }
  scans.set(db.$client, topUpScans(db) + 1);
  const added = db.$client
    .prepare(
      `insert into ${SLOTS.$} (${SLOTS.studyId}, ${SLOTS.instanceRef}, ${SLOTS.taken}, ${SLOTS.position})
       select ?, ${I.id}, 0, (select coalesce(max(${SS.position}), 0) from ${SS.$} where ${SS.studyId} = ?) + row_number() over (order by ${L.position}, ${I.position}, ${I.id})
       from ${L.$} join ${I.$} on ${I.lexeltId} = ${L.id}
       where ${L.projectId} = ? and ${I.excludedReason} is null
         and not exists (select 1 from ${K.$} where ${K.instanceRef} = ${I.id} and ${K.role} = 'training')
         and not exists (select 1 from ${SS.$} where ${SS.studyId} = ? and ${SS.instanceRef} = ${I.id})`,
    )
    .run(studyId, studyId, projectId, studyId).changes;
  run(db, `update ${STUDIES.$} set ${STUDIES.slotsThrough} = ? where ${STUDIES.id} = ?`, maxId, studyId);
  seen.set(studyId, maxId);
  return added;
}

/** The participant's items held or answered (not released). */
export function heldItems(db: Db, participantId: number): number {
  return get<{ n: number }>(db, `select count(*) as n from ${BATCH.$} where ${BATCH.participantId} = ? and ${BATCH.releasedAt} is null`, participantId)!.n;
}

/**
 * Whether allocateBatch would change anything now (read only): a batch of the study past its
 * minutes to release, or a batch to give this participant. False while the study's slots are
 * being written (allocateBatch gives nothing then either).
 */
export function allocationDue(db: Db, participantId: number, now: number): boolean {
  const p = participantStudy(db, participantId);
  if (!p || !p.slotsReady) return false;
  if (get(db, `${EXPIRED_SQL} limit 1`, p.studyId, now - p.minutes * 60_000)) return true;
  return p.batchAt === null && p.state === "active" && p.finishedAt === null && p.studyState !== "closed";
}

export interface Allocation {
  /** Items in the participant's batch now (held or answered, not released). */
  items: number;
  /** Items given by this call. */
  given: number;
  /** Places released from expired batches of the study by this call. */
  released: number;
}

/**
 * Release the study's expired batches, then give the participant their batch if they have none
 * yet: one short transaction (a savepoint when the caller already holds one).
 */
export function allocateBatch(db: Db, participantId: number, now: number): Allocation {
  return db.$client
    .transaction((): Allocation => {
      const p0 = participantStudy(db, participantId);
      if (!p0 || !p0.slotsReady) return { items: 0, given: 0, released: 0 };
      const released = releaseExpired(db, p0.studyId, p0.minutes, now);
      const p = participantStudy(db, participantId)!;
      const held = () => heldItems(db, participantId);
      if (p.batchAt !== null || p.state !== "active" || p.finishedAt !== null || p.studyState === "closed") return { items: held(), given: 0, released };
      topUpSlots(db, p.studyId, p.projectId);
      const picked = all<{ ref: number; position: number }>(db, CANDIDATES_SQL, p.studyId, p.overlap, participantId, p.batchSize);
      if (picked.length === 0) return { items: held(), given: 0, released };
      // Shown in corpus order (a lexelt's sentences together), whatever order they were taken in.
      picked.sort((a, b) => a.position - b.position);
      const start = get<{ n: number }>(db, `select coalesce(max(${BATCH.position}), 0) as n from ${BATCH.$} where ${BATCH.participantId} = ?`, participantId)!.n;
      picked.forEach(({ ref }, k) => {
        run(db, `update ${SLOTS.$} set ${SLOTS.taken} = ${SLOTS.taken} + 1 where ${SLOTS.studyId} = ? and ${SLOTS.instanceRef} = ?`, p.studyId, ref);
        run(db, `insert into ${BATCH.$} (${BATCH.participantId}, ${BATCH.instanceRef}, ${BATCH.position}) values (?, ?, ?)`, participantId, ref, start + k + 1);
      });
      run(db, `update ${PARTS.$} set ${PARTS.batchAt} = ? where ${PARTS.id} = ?`, now, participantId);
      return { items: held(), given: picked.length, released };
    })
    .immediate();
}
