/** Accounts: created by coordinators (or the CLI) only; no open sign-up. */
import "server-only";
import { and, count, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { accountAudit, assignments, memberships, PROJECT_ROLES, type ProjectRole, responses, users } from "../../../db/schema";
import { type Actor, actorUserId, type Role, requireAccountManager, requireProject } from "../kernel/actor";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";
import { demoPasswordSchema, hashPasswordSync, passwordSchema } from "./passwords";

export const userNameSchema = z
  .string()
  .trim()
  .min(2, "A user name needs at least 2 characters.")
  .max(40, "A user name has at most 40 characters.")
  .regex(/^[A-Za-z0-9._-]+$/, "Use letters, digits, dot, dash or underscore.");

export const newUserSchema = z.object({
  name: userNameSchema,
  role: z.enum(["coordinator", "annotator", "admin"], { message: "Role is coordinator, annotator or admin." }),
  password: passwordSchema,
});

/** The demo's own accounts: the published demo password (refused for any other account). */
const demoUserSchema = newUserSchema.extend({ password: demoPasswordSchema });

export interface PublicUser {
  id: number;
  name: string;
  role: Role;
}

/**
 * Create an account. Annotators by any coordinator; coordinators by an admin or
 * the CLI; admins by the CLI only. The hash may be made beforehand (async, off
 * the request's critical path); otherwise it is made here (CLI, seeding).
 * `demo` (the demo's seeding, from the command line only) takes the demo's
 * published password, which every other account is refused.
 */
export function createUser(
  db: Db,
  actor: Actor,
  input: { name: string; role: string; password: string },
  opts: { passwordHash?: string; demo?: boolean } = {},
): PublicUser {
  const a = requireAccountManager(actor);
  if (opts.demo && a.kind !== "system") throw new AuthError("Only the command line seeds the demo.");
  const data = parseOrThrow(opts.demo ? demoUserSchema : newUserSchema, input, "Cannot create the user");
  if (data.role === "admin" && a.kind !== "system") throw new AuthError("Admin accounts are made from the command line.");
  if (data.role === "coordinator" && a.kind === "user" && a.role !== "admin") throw new AuthError("Only an admin can create a coordinator.");
  // Names are one account whatever their case (the users_name_nocase index): "Ann" is taken when "ann" exists.
  const existing = db.select({ name: users.name }).from(users).where(sql`${users.name} = ${data.name} collate nocase`).get();
  if (existing) {
    const twin = existing.name === data.name ? "" : ` ("${existing.name}": names differ from each other by more than their case)`;
    throw new InputError(`A user named "${existing.name}" already exists${twin}.`, { name: twin ? `Taken as "${existing.name}": choose a name that differs by more than its case.` : "That name is taken." });
  }
  const passwordHash = opts.passwordHash ?? hashPasswordSync(data.password);
  return db.transaction((tx) => {
    const row = tx
      .insert(users)
      .values({ name: data.name, role: data.role, passwordHash })
      .returning({ id: users.id, name: users.name, role: users.role })
      .get();
    tx.insert(accountAudit).values({ at: new Date(), actorId: actorUserId(a), action: "create", targetId: row.id }).run();
    return row;
  });
}

/** Ids of the projects a coordinator coordinates (not those they only judge or annotate in). */
export function projectIdsOf(db: Db, userId: number): number[] {
  return db
    .select({ id: memberships.projectId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, "coordinator")))
    .all()
    .map((r) => r.id);
}

/**
 * Accounts the actor may see: a coordinator sees the accounts of their own
 * projects; an admin and the CLI see every account.
 */
export function listUsers(db: Db, actor: Actor): PublicUser[] {
  const a = requireAccountManager(actor);
  const cols = { id: users.id, name: users.name, role: users.role };
  // Study participants' accounts are their study's (the Crowd tab lists them): no password to reset, nothing to manage here;
  // a model's pseudo-annotators are its samples (lib/server/models), never accounts.
  const people = notInArray(users.role, ["participant", "model"]);
  if (a.kind === "system" || a.role === "admin") return db.select(cols).from(users).where(people).orderBy(users.name).all();
  const projectIds = projectIdsOf(db, a.userId);
  if (projectIds.length === 0) return [];
  return db
    .selectDistinct(cols)
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(and(inArray(memberships.projectId, projectIds), people))
    .orderBy(users.name)
    .all();
}

export const projectRoleSchema = z.enum(PROJECT_ROLES, { message: "The project roles are annotator, judge and coordinator." });

/**
 * The role an account may hold in a project: annotator or judge for any account; coordinator for
 * coordinator accounts only (the account's role decides who may run projects). Default: a
 * coordinator account coordinates, any other account annotates.
 */
function memberRoleFor(account: { role: Role }, asked: unknown): ProjectRole {
  if (asked === undefined || asked === null || asked === "") return account.role === "coordinator" ? "coordinator" : "annotator";
  const role = parseOrThrow(projectRoleSchema, asked, "Cannot set the role");
  if (account.role === "participant" && role !== "annotator") throw new InputError("A study participant annotates in their study's project and does nothing else.", { role: "Annotator." });
  if (role === "coordinator" && account.role !== "coordinator") throw new InputError("Only a coordinator account can coordinate a project: make them an annotator or a judge.", { role: "Annotator or judge." });
  return role;
}

/**
 * Add a user to a project (idempotent: an existing member keeps their role), as `role`
 * (annotator, judge, or coordinator for coordinator accounts; memberRoleFor's default when left out).
 */
export function addMember(db: Db, actor: Actor, projectId: number, userName: string, role?: unknown): { added: boolean; user: PublicUser } {
  requireProject(db, actor, projectId, { coordinator: true });
  const user = db.select({ id: users.id, name: users.name, role: users.role }).from(users).where(eq(users.name, userName)).get();
  // A model's pseudo-annotator (lib/server/models) is no account to add.
  if (!user || user.role === "model") throw new NotFoundError(`No user named "${userName}".`);
  // A crowd participant's account was made by their study's link for its project alone (lib/server/crowd).
  if (user.role === "participant") throw new InputError(`"${user.name}" is a study participant: they take part in their study's project only.`, { userId: "A study participant." });
  const r = db.insert(memberships).values({ projectId, userId: user.id, role: memberRoleFor(user, role) }).onConflictDoNothing().run();
  if (r.changes > 0) {
    db.insert(accountAudit).values({ at: new Date(), actorId: actor && actor.kind === "user" ? actor.userId : null, action: "member-add", targetId: user.id, projectId }).run();
  }
  return { added: r.changes > 0, user };
}

/**
 * Change a member's role in the project (coordinators of the project). A judge annotates
 * nothing: a member with answers in the project stays an annotator (their answers are in
 * Progress and the gold), and a new judge's lexelt assignment goes. Not one's own role.
 */
export function setMemberRole(db: Db, actor: Actor, projectId: number, userId: unknown, role: unknown): { name: string; role: ProjectRole } {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = typeof userId === "string" && userId.trim() !== "" ? Number(userId) : userId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new InputError("Choose a member.", { userId: "Choose a member." });
  const m = db
    .select({ name: users.name, role: users.role, memberRole: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, id)))
    .get();
  if (!m) throw new InputError("That user is not a member of this project.", { userId: "Not a member." });
  if (actor && actor.kind === "user" && id === actor.userId) throw new AuthError("You cannot change your own role in the project.");
  const next = memberRoleFor(m, role === undefined || role === null || role === "" ? "missing" : role);
  if (next === m.memberRole) return { name: m.name, role: next };
  if (next === "judge") {
    const answered = db.select({ n: count() }).from(responses).where(and(eq(responses.projectId, projectId), eq(responses.userId, id))).get()!.n;
    if (answered > 0) {
      throw new InputError(`${m.name} has ${answered} answer${answered === 1 ? "" : "s"} in this project: a judge has none, so they stay an annotator (their answers count in Progress and the gold).`, { role: "Has answers here." });
    }
  }
  db.transaction((tx) => {
    tx.update(memberships).set({ role: next }).where(and(eq(memberships.projectId, projectId), eq(memberships.userId, id))).run();
    if (next !== "annotator") tx.delete(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, id))).run();
    tx.insert(accountAudit).values({ at: new Date(), actorId: actor && actor.kind === "user" ? actor.userId : null, action: "member-role", targetId: id, projectId }).run();
  });
  return { name: m.name, role: next };
}

export interface ProjectMember extends PublicUser {
  /** Their role in this project (memberships.role). */
  projectRole: ProjectRole;
}

export function listMembers(db: Db, actor: Actor, projectId: number): ProjectMember[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select({ id: users.id, name: users.name, role: users.role, projectRole: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    // Study participants are listed on the Crowd tab (lib/server/crowd), not among the team.
    .where(and(eq(memberships.projectId, projectId), ne(users.role, "participant")))
    .orderBy(users.name)
    .all();
}
