/**
 * The project's data version: a counter bumped by every write that changes what
 * the gold, mwgold and agreement derive to, so a cache of derived results keyed
 * by (project, version) is never served stale. Call it inside the write's
 * transaction. Internal to lib/server: callers have checked the actor already.
 */
import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projects } from "../../db/schema";

/**
 * Bump the project's data version; returns the new version. Call it inside the
 * write's transaction (better-sqlite3 runs it on the same connection, so `db`
 * inside `db.transaction(...)` is part of that transaction).
 */
export function bumpProjectVersion(db: Db, projectId: number): number {
  db.update(projects).set({ dataVersion: sql`${projects.dataVersion} + 1` }).where(eq(projects.id, projectId)).run();
  return projectVersion(db, projectId);
}

/** The project's data version now (0 for a project nothing has changed yet). */
export function projectVersion(db: Db, projectId: number): number {
  return db.select({ v: projects.dataVersion }).from(projects).where(eq(projects.id, projectId)).get()?.v ?? 0;
}
