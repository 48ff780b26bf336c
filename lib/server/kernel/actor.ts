/**
 * Who is asking. Every function in lib/server takes an Actor and checks it
 * before touching the database: this is the one authorization chokepoint.
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { memberships, type ProjectRole, projects } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { AuthError, NotFoundError } from "./errors";
import { get } from "./statements";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const MEMBERSHIPS = named(memberships);
const PROJECTS = named(projects);

/** admin manages every account (made from the CLI); it is not a project role. */
/** participant: a crowd worker in one study (lib/server/crowd), an annotator of its project only. */
/** model: one sample of a model's answers (lib/server/models); never an actor (lib/auth/session.ts refuses it). */
export type Role = "coordinator" | "annotator" | "admin" | "participant" | "model";

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
  /** The actor's role in this project (memberships.role); null for the CLI. */
  memberRole: ProjectRole | null;
}

/**
 * The project, if the actor may see it: members only (coordinators, annotators and judges
 * alike). Throws 404 for projects the actor is not a member of, so their existence does not
 * leak. `coordinator`: the project's coordinators only (a coordinator account that is this
 * project's coordinator, not one that judges or annotates in it). `annotate`: the annotation
 * workspace, refused to the project's judges (they only label in their judgement rounds).
 */
export function requireProject(db: Db, actor: Actor, projectId: number, opts: { coordinator?: boolean; annotate?: boolean } = {}): ProjectRow {
  const a = opts.coordinator ? requireCoordinator(actor) : requireSignedIn(actor);
  // Prepared statements kept per connection (kernel/statements.ts): every request of the workspace asks this.
  const p = get<Omit<ProjectRow, "memberRole">>(
    db,
    `select ${PROJECTS.id}, ${PROJECTS.name}, ${PROJECTS.guidelines}, ${PROJECTS.requiredAnnotators} as requiredAnnotators, ${PROJECTS.archivedAt} as archivedAt, ${PROJECTS.language} from ${PROJECTS.$} where ${PROJECTS.id} = ?`,
    projectId,
  );
  if (!p) throw new NotFoundError("No such project.");
  if (a.kind === "system") return { ...p, memberRole: null };
  const m = get<{ role: ProjectRole }>(db, `select ${MEMBERSHIPS.role} as role from ${MEMBERSHIPS.$} where ${MEMBERSHIPS.projectId} = ? and ${MEMBERSHIPS.userId} = ?`, projectId, a.userId);
  if (!m) throw new NotFoundError("No such project.");
  if (opts.coordinator && m.role !== "coordinator") throw new AuthError(`You are ${m.role === "judge" ? "a judge" : "an annotator"} in “${p.name}”, not its coordinator.`);
  if (opts.annotate && m.role === "judge") throw new AuthError(JUDGE_NO_WORKSPACE(p.name));
  return { ...p, memberRole: m.role };
}

/** Why a judge is refused the workspace of a project they judge in. */
const JUDGE_NO_WORKSPACE = (project: string) =>
  `You are a judge in “${project}”: you label its judgement rounds (listed on your Annotate page); its annotation workspace is for its annotators.`;

export function findProjectByName(db: Db, actor: Actor, name: string, opts: { coordinator?: boolean } = {}): ProjectRow {
  const p = db.select({ id: projects.id }).from(projects).where(eq(projects.name, name)).get();
  if (!p) {
    requireSignedIn(actor);
    throw new NotFoundError(`No project named "${name}".`);
  }
  return requireProject(db, actor, p.id, opts);
}
