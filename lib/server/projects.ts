/** Projects: created by coordinators, seen by their members only. */
import "server-only";
import { asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { imports, instances, lexelts, memberships, projects } from "../../db/schema";
import { type Actor, actorUserId, requireCoordinator, requireProject, requireSignedIn } from "./actor";
import { InputError } from "./errors";
import { parseOrThrow } from "./users";

export const projectNameSchema = z
  .string()
  .trim()
  .min(1, "A project needs a name.")
  .max(80, "A project name has at most 80 characters.")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "Start with a letter or digit; then letters, digits, space, dot, dash or underscore.");

export interface ProjectSummary {
  id: number;
  name: string;
  lexelts: number;
  instances: number;
}

export function createProject(db: Db, actor: Actor, input: { name: string }): { id: number; name: string } {
  const a = requireCoordinator(actor);
  const { name } = parseOrThrow(z.object({ name: projectNameSchema }), input, "Cannot create the project");
  return db.transaction((tx) => {
    const existing = tx.select({ id: projects.id }).from(projects).where(eq(projects.name, name)).get();
    if (existing) throw new InputError(`A project named "${name}" already exists.`, { name: "That name is taken." });
    const p = tx
      .insert(projects)
      .values({ name, createdBy: actorUserId(a) })
      .returning({ id: projects.id, name: projects.name })
      .get();
    if (a.kind === "user") tx.insert(memberships).values({ projectId: p.id, userId: a.userId }).run();
    return p;
  });
}

/** The projects the actor is a member of (the CLI sees all). */
export function listProjects(db: Db, actor: Actor): ProjectSummary[] {
  const a = requireSignedIn(actor);
  const counts = {
    id: projects.id,
    name: projects.name,
    lexelts: sql<number>`(select count(*) from "lexelts" as "l" where "l"."project_id" = "projects"."id")`,
    instances: sql<number>`(select coalesce(sum("l"."instance_count"), 0) from "lexelts" as "l" where "l"."project_id" = "projects"."id")`,
  };
  // Holding projects of imports in progress (projects.staging_for) are never listed.
  if (a.kind === "system") return db.select(counts).from(projects).where(isNull(projects.stagingFor)).orderBy(asc(projects.name)).all();
  return db
    .select(counts)
    .from(projects)
    .innerJoin(memberships, eq(memberships.projectId, projects.id))
    .where(eq(memberships.userId, a.userId))
    .orderBy(asc(projects.name))
    .all();
}

export interface LexeltSummary {
  id: number;
  item: string;
  lemma: string;
  pos: string;
  originalPos: string | null;
  instances: number;
}

export interface ImportSummary {
  id: number;
  fileName: string;
  lexeltsAdded: number;
  instancesAdded: number;
  instancesAlreadyPresent: number;
  repairs: number;
  createdAt: Date;
}

export interface ProjectOverview {
  id: number;
  name: string;
  guidelines: string;
  requiredAnnotators: number | null;
  lexelts: LexeltSummary[];
  totalInstances: number;
  imports: ImportSummary[];
}

export function projectOverview(db: Db, actor: Actor, projectId: number): ProjectOverview {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const lx = db
    .select({
      id: lexelts.id,
      item: lexelts.item,
      lemma: lexelts.lemma,
      pos: lexelts.pos,
      originalPos: lexelts.originalPos,
      // The counter the imports keep, not a count over every instance.
      instances: lexelts.instanceCount,
    })
    .from(lexelts)
    .where(eq(lexelts.projectId, projectId))
    .orderBy(asc(lexelts.position))
    .all();
  const im = db
    .select()
    .from(imports)
    .where(eq(imports.projectId, projectId))
    .orderBy(desc(imports.id))
    .all()
    .map((r) => ({
      id: r.id,
      fileName: r.fileName,
      lexeltsAdded: r.lexeltsAdded,
      instancesAdded: r.instancesAdded,
      instancesAlreadyPresent: r.instancesAlreadyPresent,
      repairs: (JSON.parse(r.repairs) as unknown[]).length,
      createdAt: r.createdAt,
    }));
  return { ...p, lexelts: lx, totalInstances: lx.reduce((s, l) => s + l.instances, 0), imports: im };
}
