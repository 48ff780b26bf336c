/**
 * The responses a gold derivation reads (lib/server/gold/gold.ts), and the answers it leaves out:
 * those of crowd participants the coordinator left out of the gold, those saved after their
 * annotator was shown the instance's known answers in the training, and a model's (lib/server/models)
 * unless the coordinator counts it as an annotator (lib/server/kernel/model-users.ts).
 */
import "server-only";
import type { Db } from "../../../db/client";
import { batchItems, instances, lexelts, participantExclusions, participants, responses, trainingAnswers, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import type { AnnotatorResponse } from "../../lexsub/types";
import { uncountedModelUsers } from "../kernel/model-users";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const I = named(instances, "i");
const L = named(lexelts, "l");
const R = named(responses, "r");
const U = named(users, "u");
const BI = named(batchItems, "bi");
const PA = named(participants, "pa");
const PE = named(participantExclusions, "pe");
const BY = named(users, "by"); // who decided
const TA = named(trainingAnswers, "ta");

/**
 * What a derivation reads of the project. By default everything the gold is made of; the
 * crowd tab (lib/server/crowd/participants.ts) reads one study's instances with every
 * participant's answers, to compare each participant with the others.
 */
export interface GoldScope {
  /** Only the instances given in this study's batches (every annotator's answers to them). */
  studyId?: number;
  /** Keep the answers of participants the coordinator left out of the gold. */
  withExcludedParticipants?: boolean;
  /** Keep the answers given after the annotator was shown the instance's known answers (see shownAnswers). */
  withShownAnswers?: boolean;
}

/**
 * When each annotator was first shown each instance's known answers: their first answer to it in
 * the training (lib/server/quality/training.ts), after which the feedback shows the known answers.
 * Key `userId:instanceRef`, value the time in ms. O(training answers), read once per derivation.
 * A training answer is only ever added (now), so it never changes whether an earlier response was
 * given blind: the gold changes only with a save, which raises the data version.
 */
function shownAnswers(db: Db, projectId: number): Map<string, number> {
  const rows = db.$client
    .prepare(`select ${TA.userId} as userId, ${TA.instanceRef} as ref, min(${TA.at}) as at from ${TA.$} where ${TA.projectId} = ? group by ${TA.userId}, ${TA.instanceRef}`)
    .all(projectId) as { userId: number; ref: number; at: number }[];
  return new Map(rows.map((r) => [`${r.userId}:${r.ref}`, r.at]));
}

/**
 * The users whose answers the coordinator left out of the gold (participant_exclusions
 * rows not undone: lib/server/crowd/participants.ts). Every change to those rows, a row
 * removed with its participant included, raises the data version (drizzle/0023's triggers).
 */
function excludedParticipantUsers(db: Db, projectId: number): Set<number> {
  const rows = db.$client
    .prepare(`select distinct ${PA.userId} as userId from ${PE.$} join ${PA.$} on ${PA.id} = ${PE.participantId} where ${PE.projectId} = ? and ${PE.undoneAt} is null`)
    .all(projectId) as { userId: number }[];
  return new Set(rows.map((r) => r.userId));
}

/**
 * The account names of the participants left out of the gold, with the latest decision (SQLite's bare columns beside max() are that row's), for
 * the views that show answers one by one (the responses export marks theirs). The caller checks the actor.
 */
export function excludedParticipantNames(db: Db, projectId: number): Map<string, { by: string | null; at: Date }> {
  const rows = db.$client
    .prepare(
      `select ${U.name} as name, max(${PE.decidedAt}) as at, (select ${BY.name} from ${BY.$} where ${BY.id} = ${PE.decidedBy}) as decidedBy
         from ${PE.$} join ${PA.$} on ${PA.id} = ${PE.participantId} join ${U.$} on ${U.id} = ${PA.userId}
        where ${PE.projectId} = ? and ${PE.undoneAt} is null group by ${U.name}`,
    )
    .all(projectId) as { name: string; at: number; decidedBy: string | null }[];
  return new Map(rows.map((r) => [r.name, { by: r.decidedBy, at: new Date(r.at) }]));
}

/**
 * The project's responses as the derivation reads them, in corpus order (by
 * annotator name within an instance): the same rows as response-import.ts's
 * projectResponseRecords, streamed from SQLite with .iterate() into one array
 * (no second array of raw rows beside it: 500,000 responses are the largest
 * thing a derivation holds).
 */
export function responseRecords(db: Db, projectId: number, scope: GoldScope = {}, leftOut: { annotator: string; instanceId: string }[] = []): AnnotatorResponse[] {
  const out: AnnotatorResponse[] = [];
  const excluded = scope.withExcludedParticipants ? new Set<number>() : excludedParticipantUsers(db, projectId);
  for (const id of uncountedModelUsers(db, projectId)) excluded.add(id);
  const shown = shownAnswers(db, projectId);
  // One study: its instances first (CROSS JOIN keeps that order), then their answers by the instance index.
  const from = scope.studyId === undefined ? R.$ : `(select distinct ${BI.instanceRef} as ref from ${BI.$} join ${PA.$} on ${PA.id} = ${BI.participantId} where ${PA.studyId} = ?) s cross join ${R.$} on ${R.instanceRef} = s.ref`;
  const rows = db.$client
    .prepare(
      `select ${R.userId} as userId, ${R.instanceRef} as ref, ${R.updatedAt} as savedAt, ${U.name} as annotator, ${L.item} as lexelt, ${I.instanceId} as instanceId, ${R.kind} as kind, ${R.substitutes} as substitutes, ${R.multiword} as multiword
         from ${from}
         join ${I.$} on ${I.id} = ${R.instanceRef}
         join ${L.$} on ${L.id} = ${I.lexeltId}
         join ${U.$} on ${U.id} = ${R.userId}
        where ${R.projectId} = ?
        order by ${L.position}, ${I.position}, ${U.name}`,
    )
    .iterate(...(scope.studyId === undefined ? [projectId] : [scope.studyId, projectId])) as IterableIterator<{ userId: number; ref: number; savedAt: number; annotator: string; lexelt: string; instanceId: string; kind: AnnotatorResponse["kind"]; substitutes: string; multiword: string | null }>;
  for (const r of rows) {
    if (excluded.has(r.userId)) continue;
    const at = shown.get(`${r.userId}:${r.ref}`);
    if (at !== undefined && r.savedAt > at) {
      leftOut.push({ annotator: r.annotator, instanceId: r.instanceId });
      if (!scope.withShownAnswers) continue;
    }
    out.push({ annotator: r.annotator, lexelt: r.lexelt, instanceId: r.instanceId, kind: r.kind, substitutes: JSON.parse(r.substitutes) as string[], multiword: r.multiword || null });
  }
  return out;
}
