/** Projects: created by coordinators, seen by their members only. */
import "server-only";
import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { imports, lexelts, memberships, projects, users } from "../../../db/schema";
import { type Actor, actorUserId, requireCoordinator, requireProject, requireSignedIn } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { containsText } from "../kernel/search";
import { parseOrThrow } from "../kernel/validate";
import { named } from "../../../db/sql-names";
import { DEFAULT_LANGUAGE, canonicalLanguage } from "../../lexsub/language";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const LEXELTS = named(lexelts);
// In drizzle sql: the select lists columns unqualified, so the subqueries name both sides.
const [L, PROJECTS_Q] = [named(lexelts, "l"), named(projects, "projects")];

export const projectNameSchema = z
  .string()
  .trim()
  .min(1, "A project needs a name.")
  .max(80, "A project name has at most 80 characters.")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "Start with a letter or digit; then letters, digits, space, dot, dash or underscore.");

/** A BCP 47 language tag, put in canonical form (`EN-gb` → `en-GB`; lib/lexsub/language.ts). */
export const projectLanguageSchema = z
  .string()
  .trim()
  .max(35, "A language tag has at most 35 characters.")
  .transform((tag, ctx) => {
    const canonical = canonicalLanguage(tag);
    if (canonical === null) {
      ctx.addIssue({ code: "custom", message: `"${tag}" is not a BCP 47 language tag (such as en, de, es, pt-BR).` });
      return z.NEVER;
    }
    return canonical;
  });

export interface ProjectSummary {
  id: number;
  name: string;
  lexelts: number;
  instances: number;
  /** When a coordinator archived it (lib/server/corpus/project-lifecycle.ts), or null. */
  archivedAt: Date | null;
}

/**
 * A new project; its language `en` unless given (a BCP 47 tag). Its coordinators, in the
 * same transaction: its creator (a signed-in coordinator), the study's own coordinator
 * (users.administersProjects, the account `lexgold init` made), and the coordinator
 * accounts named in `coordinators` (`lexgold project create NAME --coordinator USER`).
 */
export function createProject(db: Db, actor: Actor, input: { name: string; language?: string; coordinators?: string[] }): { id: number; name: string; language: string; coordinators: string[] } {
  const a = requireCoordinator(actor);
  const { name, language, coordinators } = parseOrThrow(
    z.object({ name: projectNameSchema, language: projectLanguageSchema.optional(), coordinators: z.array(z.string().trim().min(1, "Name the coordinator.")).optional() }),
    input,
    "Cannot create the project",
  );
  return db.transaction((tx) => {
    const existing = tx.select({ id: projects.id }).from(projects).where(eq(projects.name, name)).get();
    if (existing) throw new InputError(`A project named "${name}" already exists.`, { name: "That name is taken." });
    const asked = (coordinators ?? []).map((n) => {
      const u = tx.select({ id: users.id, name: users.name, role: users.role }).from(users).where(sql`${users.name} = ${n} collate nocase`).get();
      if (!u) throw new InputError(`No user named "${n}"; nothing was created.`, { coordinators: `No user named "${n}".` });
      if (u.role !== "coordinator") throw new InputError(`"${u.name}" is ${u.role === "admin" ? "an admin" : `an ${u.role}`} account, not a coordinator; nothing was created.`, { coordinators: `"${u.name}" is not a coordinator account.` });
      return u;
    });
    const p = tx
      .insert(projects)
      .values({ name, language: language ?? DEFAULT_LANGUAGE, createdBy: actorUserId(a) })
      .returning({ id: projects.id, name: projects.name, language: projects.language })
      .get();
    const study = tx.select({ id: users.id, name: users.name }).from(users).where(and(eq(users.administersProjects, true), eq(users.role, "coordinator"))).all();
    const members = new Map<number, string>();
    if (a.kind === "user") members.set(a.userId, a.name);
    for (const u of [...study, ...asked]) members.set(u.id, u.name);
    for (const userId of members.keys()) tx.insert(memberships).values({ projectId: p.id, userId, role: "coordinator" }).onConflictDoNothing().run();
    return { ...p, coordinators: [...members.values()] };
    // Immediate: it reads before it writes, and another process's commit between the two (a save, an import's
    // slice, the derived figures' applier) would otherwise refuse it as SQLITE_BUSY instead of waiting its turn.
  }, { behavior: "immediate" });
}

/**
 * For a signed-in coordinator account that is not a member of the project:
 * whom to ask to be added — the project's coordinators, else the study's own coordinator —
 * and nothing else of the project (not even its name). null when there is nothing to say
 * (no such project, a member, an annotator, an admin, a participant or nobody signed in): the page
 * then answers 404 as before, so a project's existence leaks only to coordinator accounts.
 */
export function projectAccessRequest(db: Db, actor: Actor, projectId: number): { coordinators: string[] } | null {
  if (!actor || actor.kind !== "user" || actor.role !== "coordinator" || !Number.isInteger(projectId)) return null;
  const p = db.select({ id: projects.id }).from(projects).where(and(eq(projects.id, projectId), isNull(projects.stagingFor))).get();
  if (!p) return null;
  const member = db.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.projectId, projectId), eq(memberships.userId, actor.userId))).get();
  if (member) return null;
  const names = (rows: { name: string }[]) => rows.map((r) => r.name);
  const coordinators = names(
    db
      .select({ name: users.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.projectId, projectId), eq(memberships.role, "coordinator"), eq(users.disabled, false)))
      .orderBy(asc(users.name))
      .all(),
  );
  if (coordinators.length > 0) return { coordinators };
  return { coordinators: names(db.select({ name: users.name }).from(users).where(and(eq(users.administersProjects, true), eq(users.disabled, false))).orderBy(asc(users.name)).all()) };
}

/** The projects the actor is a member of (the CLI sees all). */
export function listProjects(db: Db, actor: Actor): ProjectSummary[] {
  const a = requireSignedIn(actor);
  const counts = {
    id: projects.id,
    name: projects.name,
    archivedAt: projects.archivedAt,
    lexelts: sql<number>`(select count(*) from ${sql.raw(L.$)} where ${sql.raw(L.projectId)} = ${sql.raw(PROJECTS_Q.id)})`,
    instances: sql<number>`(select coalesce(sum(${sql.raw(L.instanceCount)}), 0) from ${sql.raw(L.$)} where ${sql.raw(L.projectId)} = ${sql.raw(PROJECTS_Q.id)})`,
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

interface LexeltSummary {
  id: number;
  item: string;
  lemma: string;
  pos: string;
  originalPos: string | null;
  instances: number;
}

interface ImportSummary {
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
  /** A BCP 47 tag (lib/lexsub/language.ts). */
  language: string;
  archivedAt: Date | null;
  guidelines: string;
  requiredAnnotators: number | null;
  /** The lexelts asked for: one page of those matching the search, in corpus order. */
  lexelts: LexeltSummary[];
  /** Every lexelt of the project, and those matching the search. */
  lexeltCount: number;
  matched: number;
  /** The page shown (1-based, the nearest when out of range) and how many there are. */
  page: number;
  pages: number;
  totalInstances: number;
  imports: ImportSummary[];
}

/** Which lexelts the overview lists: those whose item holds `q` (ASCII letters in either case), page `page` of `pageSize`. */
export interface OverviewQuery {
  q?: string;
  page?: number;
  /** Default: every lexelt on one page. */
  pageSize?: number;
}

/**
 * A project's lexelts (one page, searched in SQL: the page costs the same at
 * 10,000 lexelts as at 10), its counts and its import history.
 */
export function projectOverview(db: Db, actor: Actor, projectId: number, query: OverviewQuery = {}): ProjectOverview {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const q = (query.q ?? "").trim();
  const size = query.pageSize && query.pageSize > 0 ? Math.floor(query.pageSize) : Number.MAX_SAFE_INTEGER;
  // The counter the imports keep, not a count over every instance.
  const all = db.$client.prepare(`select count(*) as n, coalesce(sum(${LEXELTS.instanceCount}), 0) as total from ${LEXELTS.$} where ${LEXELTS.projectId} = ?`).get(projectId) as {
    n: number;
    total: number;
  };
  const matching = q === "" ? eq(lexelts.projectId, projectId) : and(eq(lexelts.projectId, projectId), containsText(lexelts.item, q));
  const matched = q === "" ? all.n : db.select({ n: count() }).from(lexelts).where(matching).get()!.n;
  const pages = Math.max(1, Math.ceil(matched / size));
  const page = Number.isInteger(query.page) ? Math.min(Math.max(query.page!, 1), pages) : 1;
  const lx = db
    .select({
      id: lexelts.id,
      item: lexelts.item,
      lemma: lexelts.lemma,
      pos: lexelts.pos,
      originalPos: lexelts.originalPos,
      instances: lexelts.instanceCount,
    })
    .from(lexelts)
    .where(matching)
    .orderBy(asc(lexelts.position))
    .limit(size === Number.MAX_SAFE_INTEGER ? -1 : size)
    .offset((page - 1) * (size === Number.MAX_SAFE_INTEGER ? 0 : size))
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
  const archivedAt = db.select({ archivedAt: projects.archivedAt }).from(projects).where(eq(projects.id, projectId)).get()!.archivedAt;
  return { ...p, archivedAt, lexelts: lx, lexeltCount: all.n, matched, page, pages, totalInstances: all.total, imports: im };
}
