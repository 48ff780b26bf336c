/**
 * A project's life after creation: renamed, archived (it leaves annotators'
 * lists and takes no new answers, and keeps everything), unarchived, deleted.
 * The project's coordinators only.
 *
 * Deleting: one short transaction hides the project (it becomes a holding
 * project, `projects.staging_for`, which nothing lists) and removes its
 * memberships, so nobody reaches it any more; its rows then go a slice at a
 * time (the same deletion as an abandoned import's), yielding between slices.
 * A server stopped half-way finishes the deletion at its next start
 * (recoverJobs discards every holding project it finds).
 */
import "server-only";
import { and, count, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { datasetGold, judgementRounds, lexelts, memberships, participants, projects, responses, systemRuns, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, requireProject } from "../kernel/actor";
import { deleteModelUsers, modelUserIds } from "../kernel/model-users";
import { InputError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";
import { z } from "zod";
import { discardDatasetStaging } from "./dataset-import";
import { projectLanguageSchema, projectNameSchema } from "./projects";

const RESPONSES = named(responses);
const DATASET_GOLD = named(datasetGold);
const LEXELTS = named(lexelts);

/** Rows deleted per step. */
const SLICE = 2000;

/** Counting stops here: the page asking "delete?" costs the same for any project. */
const COUNT_CAP = 100_000;

export interface ProjectContents {
  id: number;
  name: string;
  archivedAt: Date | null;
  lexelts: number;
  instances: number;
  /** Answers stored, counted up to COUNT_CAP (then `responsesAtLeast`). */
  responses: number;
  responsesAtLeast: boolean;
  datasetEntries: number;
  datasetEntriesAtLeast: boolean;
  members: number;
  judgementRounds: number;
  systemRuns: number;
}

function capped(db: Db, table: { $: string; projectId: string }, projectId: number): { n: number; atLeast: boolean } {
  const n = (db.$client.prepare(`select count(*) as n from (select 1 from ${table.$} where ${table.projectId} = ? limit ${COUNT_CAP + 1})`).get(projectId) as { n: number }).n;
  return n > COUNT_CAP ? { n: COUNT_CAP, atLeast: true } : { n, atLeast: false };
}

/** What the project holds: what deleting it would remove (bounded counts). */
export function projectContents(db: Db, actor: Actor, projectId: number): ProjectContents {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const row = db.select({ archivedAt: projects.archivedAt }).from(projects).where(eq(projects.id, projectId)).get()!;
  // The counter the imports keep, not a count over every instance.
  const lx = db.$client
    .prepare(`select count(*) as n, coalesce(sum(${LEXELTS.instanceCount}), 0) as total from ${LEXELTS.$} where ${LEXELTS.projectId} = ?`)
    .get(projectId) as { n: number; total: number };
  const r = capped(db, RESPONSES, projectId);
  const d = capped(db, DATASET_GOLD, projectId);
  const countOf = (table: typeof memberships | typeof judgementRounds | typeof systemRuns) =>
    db.select({ n: count() }).from(table).where(eq(table.projectId, projectId)).get()!.n;
  return {
    id: p.id,
    name: p.name,
    archivedAt: row.archivedAt,
    lexelts: lx.n,
    instances: lx.total,
    responses: r.n,
    responsesAtLeast: r.atLeast,
    datasetEntries: d.n,
    datasetEntriesAtLeast: d.atLeast,
    members: countOf(memberships),
    judgementRounds: countOf(judgementRounds),
    systemRuns: countOf(systemRuns),
  };
}

/** Give the project another name (unique among projects, the rules of a new project's name). */
export function renameProject(db: Db, actor: Actor, projectId: number, input: { name: string }): { id: number; name: string } {
  requireProject(db, actor, projectId, { coordinator: true });
  const { name } = parseOrThrow(z.object({ name: projectNameSchema }), input, "Cannot rename the project");
  return db.transaction((tx) => {
    const taken = tx.select({ id: projects.id }).from(projects).where(and(eq(projects.name, name), ne(projects.id, projectId))).get();
    if (taken) throw new InputError(`A project named "${name}" already exists.`, { name: "That name is taken." });
    tx.update(projects).set({ name }).where(eq(projects.id, projectId)).run();
    return { id: projectId, name };
  });
}

/**
 * Set the project's language (a BCP 47 tag, put in canonical form): the pages'
 * `lang`, case folding and sorting of answers, and whether WordNet proposes
 * lemmas (English only). Stored answers are kept as they are.
 */
export function setProjectLanguage(db: Db, actor: Actor, projectId: number, input: { language: string }): { language: string } {
  requireProject(db, actor, projectId, { coordinator: true });
  const { language } = parseOrThrow(z.object({ language: projectLanguageSchema }), input, "Cannot set the language");
  db.update(projects).set({ language }).where(eq(projects.id, projectId)).run();
  return { language };
}

/**
 * Archive (or, `archived: false`, bring back) the project: archived, it leaves
 * the annotators' lists and takes no new answers; everything it holds is kept
 * and its coordinators see it as before.
 */
export function setProjectArchived(db: Db, actor: Actor, projectId: number, archived: boolean): { archivedAt: Date | null } {
  requireProject(db, actor, projectId, { coordinator: true });
  const archivedAt = archived ? new Date() : null;
  // Archiving an archived project keeps the first date.
  const where = archived ? and(eq(projects.id, projectId), isNull(projects.archivedAt)) : eq(projects.id, projectId);
  db.update(projects).set({ archivedAt }).where(where).run();
  return { archivedAt: db.select({ archivedAt: projects.archivedAt }).from(projects).where(eq(projects.id, projectId)).get()!.archivedAt };
}

/**
 * Delete the project and everything in it, its crowd participants' accounts
 * included. `confirmName` must be the project's name exactly (the page and the
 * CLI ask for it). Hidden and unreachable at once, the participants' sessions
 * ended at once; its rows go in slices, yielding to other requests between them.
 * Resolves with what was removed.
 */
export async function deleteProject(db: Db, actor: Actor, projectId: number, confirmName: string): Promise<ProjectContents> {
  const contents = projectContents(db, actor, projectId);
  if (confirmName !== contents.name) {
    throw new InputError(`To delete the project, type its name, "${contents.name}", exactly; nothing was deleted.`, { confirm: `Type "${contents.name}" to confirm.` });
  }
  // A model's pseudo-annotators (lib/server/models) belong to the project: they go once its rows (their answers) have.
  const modelUsers = modelUserIds(db, projectId);
  db.transaction((tx) => {
    tx.update(projects).set({ stagingFor: projectId }).where(eq(projects.id, projectId)).run();
    tx.delete(memberships).where(eq(memberships.projectId, projectId)).run();
    // Its crowd participants' accounts belong to it alone: every session of theirs ends now, and the
    // accounts go with the project's last rows (lib/server/corpus/lexelt-import.ts discardStaging).
    tx.update(users)
      .set({ disabled: true, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.role, "participant"), inArray(users.id, tx.select({ id: participants.userId }).from(participants).where(eq(participants.projectId, projectId)))))
      .run();
  });
  for (const _ of discardDatasetStaging(db.$client, projectId, SLICE)) await new Promise((r) => setTimeout(r, 2));
  deleteModelUsers(db, modelUsers);
  return contents;
}
