/**
 * lib/server/derived: the derived figures of a project (#39) — its gold and mwgold lines, counts,
 * agreement sums, lemma review and the scores of stored runs — kept up to date as answers change,
 * instance by instance, by one maintenance function (maintain.ts), with a queue (queue.ts) for
 * changes that touch many instances, and a rebuild from nothing (rebuild.ts). The pages read them
 * through the features that take the actor (gold/, scoring/, annotate/progress.ts), which, like the save
 * and the derivations of lib/server/jobs, use this folder's actor-free functions through actor-free.ts.
 * docs/derivations.md describes the design.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { type Actor, requireProject } from "../kernel/actor";
import { catchUp, drainAll } from "./queue";
import { rebuildDerived } from "./rebuild";

/** Derive the project's figures again from nothing (`lexgold derive --rebuild`); how many instances. Coordinators of the project only. */
export function rebuildProjectFigures(db: Db, actor: Actor, projectId: number): number {
  requireProject(db, actor, projectId, { coordinator: true });
  return rebuildDerived(db, projectId);
}

/** Bring the project's queued figures up to date now (`lexgold derive`); how many instances. Coordinators of the project only. */
export function bringFiguresUpToDate(db: Db, actor: Actor, projectId: number): number {
  requireProject(db, actor, projectId, { coordinator: true });
  return drainAll(db, projectId);
}

/**
 * Before a page reads the project's figures: what is queued brought up to date, a bounded amount
 * in the server (the applier does the rest); how many still wait. Coordinators of the project only.
 */
export async function catchUpFigures(db: Db, actor: Actor, projectId: number): Promise<number> {
  requireProject(db, actor, projectId, { coordinator: true });
  return catchUp(db, projectId);
}
