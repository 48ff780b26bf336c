/**
 * Who is asking. Every function in lib/server takes an Actor and checks it
 * before touching the database: this is the one authorization chokepoint.
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { memberships, projects } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { AuthError, NotFoundError } from "./errors";
import { get } from "./statements";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const MEMBERSHIPS = named(memberships);
const PROJECTS = named(projects);

/** admin manages every account (made from the CLI); it is not a project role. */
export type Role = "coordinator" | "annotator" | "admin";

export interface UserActor {
  kind: "user";
  userId: number;
  name: string;
  role: Role;
}

/** The CLI: whoever can run it has the database file, so it acts with full rights. */
export interface SystemActor {
  kind: "system";
}

export type Actor = UserActor | SystemActor | null;

export const SYSTEM: SystemActor = { kind: "system" };

export function requireSignedIn(actor: Actor): UserActor | SystemActor {
  if (!actor) throw new AuthError("Sign in first.", 401);
  return actor;
}

export function requireCoordinator(actor: Actor): UserActor | SystemActor {
  const a = requireSignedIn(actor);
  if (a.kind === "user" && a.role !== "coordinator") throw new AuthError("Only a coordinator can do that.");
  return a;
}

/** Who may manage accounts: coordinators (their projects' accounts), admins (all) and the CLI. */
export function requireAccountManager(actor: Actor): UserActor | SystemActor {
  const a = requireSignedIn(actor);
  if (a.kind === "user" && a.role !== "coordinator" && a.role !== "admin") throw new AuthError("Only a coordinator can do that.");
  return a;
}

export function actorUserId(actor: UserActor | SystemActor): number | null {
  return actor.kind === "user" ? actor.userId : null;
}

export interface ProjectRow {
  id: number;
  name: string;
  guidelines: string;
  requiredAnnotators: number | null;
  /** When the project was archived (epoch ms; lib/server/corpus/project-lifecycle.ts), or null. */
  archivedAt: number | null;
  /** The project's language, a BCP 47 tag (lib/lexsub/language.ts). */
  language: string;
}

/**
 * The project, if the actor may see it: members only (coordinators and annotators
 * alike). Throws 404 for projects the actor is not a member of, so their
 * existence does not leak.
 */
export function requireProject(db: Db, actor: Actor, projectId: number, opts: { coordinator?: boolean } = {}): ProjectRow {
  const a = opts.coordinator ? requireCoordinator(actor) : requireSignedIn(actor);
  // Prepared statements kept per connection (kernel/statements.ts): every request of the workspace asks this.
  const p = get<ProjectRow>(db, `select ${PROJECTS.id}, ${PROJECTS.name}, ${PROJECTS.guidelines}, ${PROJECTS.requiredAnnotators} as requiredAnnotators, ${PROJECTS.archivedAt} as archivedAt, ${PROJECTS.language} from ${PROJECTS.$} where ${PROJECTS.id} = ?`, projectId);
  if (!p) throw new NotFoundError("No such project.");
  if (a.kind === "user") {
    const m = get(db, `select 1 as x from ${MEMBERSHIPS.$} where ${MEMBERSHIPS.projectId} = ? and ${MEMBERSHIPS.userId} = ?`, projectId, a.userId);
    if (!m) throw new NotFoundError("No such project.");
  }
  return p;
}

export function findProjectByName(db: Db, actor: Actor, name: string, opts: { coordinator?: boolean } = {}): ProjectRow {
  const p = db.select({ id: projects.id }).from(projects).where(eq(projects.name, name)).get();
  if (!p) {
    requireSignedIn(actor);
    throw new NotFoundError(`No project named "${name}".`);
  }
  return requireProject(db, actor, p.id, opts);
}
