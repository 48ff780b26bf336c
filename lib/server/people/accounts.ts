/**
 * Accounts in the app: change your own password; a coordinator resets an
 * annotator's password, disables or re-enables the account, removes a member
 * from a project; an admin does the same for every account. Each change is
 * audited (account_audit) and ends the account's sessions at once (its session
 * version is bumped: lib/auth/session.ts refuses older sessions).
 *
 * A coordinator sees only the accounts of their own projects; an account outside
 * them is "No such account." (its existence does not leak). They reset or disable
 * only an annotator whose every membership lies in projects they coordinate: an
 * annotator shared with another coordinator's project is managed by an admin, so
 * one project's coordinator cannot take over an account that writes into another.
 */
import "server-only";
import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountAudit, assignments, memberships, projects, signInFailures, users } from "../../../db/schema";
import { type Actor, actorUserId, requireAccountManager, requireProject, requireSignedIn, type Role, type SystemActor, type UserActor } from "../kernel/actor";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { named } from "../../../db/sql-names";
import { checkPassword, hashPassword, passwordProblem } from "./passwords";
import { generatePassword } from "./team";
import { listUsers, projectIdsOf } from "./users";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const M = named(memberships, "m");
const MEMBERSHIPS = named(memberships);

type AuditAction = (typeof accountAudit.$inferInsert)["action"];

function audit(db: Db, actor: UserActor | SystemActor, action: AuditAction, targetId: number, projectId: number | null = null) {
  db.insert(accountAudit).values({ at: new Date(), actorId: actorUserId(actor), action, targetId, projectId }).run();
}

/** End every session of the account now. */
function revokeSessions(db: Db, userId: number): void {
  db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, userId)).run();
}

/** Sign-out: the session's version is retired, so a copy of the cookie opens nothing. */
export function signOutEverywhere(db: Db, userId: number, sessionVersion: number): void {
  db.transaction(() => {
    const r = db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.id, userId), eq(users.sessionVersion, sessionVersion)))
      .run();
    if (r.changes > 0) db.insert(accountAudit).values({ at: new Date(), actorId: userId, action: "sign-out", targetId: userId }).run();
  });
}

export interface AccountRow {
  id: number;
  name: string;
  role: Role;
  disabled: boolean;
  /** Projects (of those the actor may see) the account belongs to. */
  projects: Array<{ id: number; name: string }>;
  /** Whether the actor may reset, disable or enable it. */
  manageable: boolean;
  /** Why not, when the account is one the actor could otherwise manage (shared with projects they do not coordinate). */
  unmanageableReason: string | null;
}

/** The refusal when an annotator is also in a project the coordinator does not coordinate. */
export const SHARED_ACCOUNT = "This account is also in projects you do not coordinate: only an admin can reset its password or disable it.";

/** Of these accounts, those with a membership in a project the coordinator is not in (does not coordinate). */
function sharedBeyond(db: Db, coordinatorId: number, userIds: number[]): Set<number> {
  if (userIds.length === 0) return new Set();
  const rows = db.$client
    .prepare(
      `select distinct ${M.userId} as id from ${M.$}
       where ${M.userId} in (${userIds.map(() => "?").join(",")})
         and ${M.projectId} not in (select ${MEMBERSHIPS.projectId} from ${MEMBERSHIPS.$} where ${MEMBERSHIPS.userId} = ?)`,
    )
    .all(...userIds, coordinatorId) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

/**
 * May the actor manage this account? Admins and the CLI: any account but their
 * own admin peers' (CLI: all). Coordinators: annotators all of whose
 * memberships are in projects they coordinate.
 * Returns the account, or throws "No such account." for accounts the actor cannot see.
 */
function requireManageable(db: Db, actor: Actor, userId: unknown): { id: number; name: string; role: Role; disabled: boolean } {
  const a = requireAccountManager(actor);
  const id = typeof userId === "string" && userId.trim() !== "" ? Number(userId) : userId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new InputError("Choose an account.", { userId: "Choose an account." });
  const u = db.select({ id: users.id, name: users.name, role: users.role, disabled: users.disabled }).from(users).where(eq(users.id, id)).get();
  // A model's pseudo-annotator (lib/server/models) is no account: `lexgold model` manages it.
  if (!u || u.role === "model") throw new NotFoundError("No such account.");
  if (a.kind === "system") return u;
  if (!listUsers(db, a).some((v) => v.id === u.id)) throw new NotFoundError("No such account.");
  if (u.id === a.userId) throw new AuthError("Change your own account from “Your account”.");
  if (a.role === "coordinator" && u.role !== "annotator") throw new AuthError("Coordinators manage annotators' accounts only.");
  if (a.role === "coordinator" && sharedBeyond(db, a.userId, [u.id]).size > 0) throw new AuthError(SHARED_ACCOUNT);
  if (a.role === "admin" && u.role === "admin") throw new AuthError("Admin accounts are managed from the command line.");
  return u;
}

export function listAccounts(db: Db, actor: Actor): AccountRow[] {
  const a = requireAccountManager(actor);
  const visible = listUsers(db, a);
  if (visible.length === 0) return [];
  const ids = visible.map((u) => u.id);
  const disabled = new Set(db.select({ id: users.id }).from(users).where(and(inArray(users.id, ids), eq(users.disabled, true))).all().map((r) => r.id));
  const scope = a.kind === "user" && a.role === "coordinator" ? projectIdsOf(db, a.userId) : null;
  const links = db
    .select({ userId: memberships.userId, id: projects.id, name: projects.name })
    .from(memberships)
    .innerJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(inArray(memberships.userId, ids), scope ? inArray(memberships.projectId, scope.length ? scope : [-1]) : undefined))
    .orderBy(projects.name)
    .all();
  const shared = a.kind === "user" && a.role === "coordinator" ? sharedBeyond(db, a.userId, visible.filter((u) => u.role === "annotator").map((u) => u.id)) : new Set<number>();
  return visible.map((u) => {
    const byRole = a.kind === "system" || (u.id !== a.userId && (a.role === "admin" ? u.role !== "admin" : u.role === "annotator"));
    return {
      ...u,
      disabled: disabled.has(u.id),
      projects: links.filter((l) => l.userId === u.id).map(({ id, name }) => ({ id, name })),
      manageable: byRole && !shared.has(u.id),
      unmanageableReason: byRole && shared.has(u.id) ? SHARED_ACCOUNT : null,
    };
  });
}

/** Change one's own password: the current one must match; every session (this one too) ends. */
export async function changeOwnPassword(db: Db, actor: Actor, input: { current: string; next: string; confirm?: string }): Promise<void> {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("The command line has no password of its own.");
  if (a.role === "participant") throw new AuthError("A study participant has no password.");
  const current = String(input.current ?? "");
  const next = String(input.next ?? "");
  if (input.confirm !== undefined && input.confirm !== next) throw new InputError("The new passwords differ.", { confirm: "Type the same new password twice." });
  const problem = passwordProblem(next);
  if (problem) throw new InputError(problem, { next: problem });
  const row = db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, a.userId)).get();
  if (!(await checkPassword(current, row?.hash))) throw new InputError("Your current password is not that.", { current: "That is not your current password." });
  if (current === next) throw new InputError("The new password is the current one.", { next: "Choose a different password." });
  const passwordHash = await hashPassword(next);
  db.transaction(() => {
    db.update(users).set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, a.userId)).run();
    audit(db, a, "password-change", a.userId);
  });
}

/** Reset an account's password to a generated one, shown once to the caller; its sessions end. */
export async function resetPassword(db: Db, actor: Actor, userId: unknown): Promise<{ name: string; password: string }> {
  const u = requireManageable(db, actor, userId);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const a = requireAccountManager(actor);
  db.transaction(() => {
    // Checked again where it is written: the account may have joined another project while the hash was made.
    requireManageable(db, actor, u.id);
    db.update(users).set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, u.id)).run();
    audit(db, a, "password-reset", u.id);
  });
  return { name: u.name, password };
}

/** Disable (sessions end, sign-in refused) or re-enable an account. */
export function setAccountDisabled(db: Db, actor: Actor, userId: unknown, disabled: boolean): { name: string; disabled: boolean } {
  const u = requireManageable(db, actor, userId);
  const a = requireAccountManager(actor);
  db.transaction(() => {
    db.update(users)
      .set({ disabled, ...(disabled ? { sessionVersion: sql`${users.sessionVersion} + 1` } : {}) })
      .where(eq(users.id, u.id))
      .run();
    audit(db, a, disabled ? "disable" : "enable", u.id);
  });
  return { name: u.name, disabled };
}

/**
 * Remove a member from a project (their responses stay, as the record of the
 * annotation); their assignments there go, and their sessions end.
 */
export function removeMember(db: Db, actor: Actor, projectId: number, userId: unknown): { name: string } {
  requireProject(db, actor, projectId, { coordinator: true });
  const a = requireAccountManager(actor);
  const id = typeof userId === "string" && userId.trim() !== "" ? Number(userId) : userId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new InputError("Choose a member.", { userId: "Choose a member." });
  const m = db
    .select({ name: users.name, role: users.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, id)))
    .get();
  if (!m) throw new InputError("That user is not a member of this project.", { userId: "Not a member." });
  if (a.kind === "user" && id === a.userId) throw new AuthError("You cannot remove yourself from the project.");
  if (a.kind === "user" && m.role !== "annotator") throw new AuthError("Coordinators remove annotators only.");
  db.transaction(() => {
    db.delete(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, id))).run();
    db.delete(memberships).where(and(eq(memberships.projectId, projectId), eq(memberships.userId, id))).run();
    revokeSessions(db, id);
    audit(db, a, "member-remove", id, projectId);
  });
  return { name: m.name };
}

export interface FailedSignIn {
  name: string;
  at: Date;
  client: string;
  /** The browser had signed in to this account before (a valid device cookie). */
  knownDevice: boolean;
  /** Refused by the throttle, password unchecked. */
  throttled: boolean;
}

/**
 * Recent failed sign-ins: a coordinator sees those for the accounts of their
 * projects; an admin (and the CLI) sees all, including made-up names.
 */
export function failedSignIns(db: Db, actor: Actor, opts: { limit?: number } = {}): FailedSignIn[] {
  const a = requireAccountManager(actor);
  const limit = Math.min(Math.max(opts.limit ?? 200, 1), 1000);
  let keys: string[] | null = null;
  if (a.kind === "user" && a.role === "coordinator") {
    keys = listUsers(db, a).map((u) => u.name.toLowerCase());
    if (keys.length === 0) return [];
  }
  return db
    .select({ name: signInFailures.key, at: signInFailures.at, client: signInFailures.client, device: signInFailures.device, throttled: signInFailures.throttled })
    .from(signInFailures)
    .where(keys ? inArray(signInFailures.key, keys) : undefined)
    .orderBy(desc(signInFailures.at), desc(signInFailures.id))
    .limit(limit)
    .all()
    .map((r) => ({ name: r.name, at: r.at, client: r.client, knownDevice: r.device !== null, throttled: r.throttled }));
}

export interface AuditEntry {
  at: Date;
  actor: string | null;
  action: string;
  target: string | null;
  project: string | null;
}

/** The account audit: all of it for an admin; for a coordinator, what concerns their projects' accounts, their projects, or what they did. */
export function accountAuditLog(db: Db, actor: Actor, opts: { limit?: number } = {}): AuditEntry[] {
  const a = requireAccountManager(actor);
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 1000);
  // A coordinator: changes to the accounts of their projects, changes in their projects, and their own doings.
  let scope: SQL | undefined;
  if (a.kind === "user" && a.role === "coordinator") {
    const ids = listUsers(db, a).map((u) => u.id);
    const projectIds = projectIdsOf(db, a.userId);
    scope = or(
      eq(accountAudit.actorId, a.userId),
      ids.length ? inArray(accountAudit.targetId, ids) : undefined,
      projectIds.length ? inArray(accountAudit.projectId, projectIds) : undefined,
    );
  }
  const rows = db
    .select({ at: accountAudit.at, actorId: accountAudit.actorId, action: accountAudit.action, targetId: accountAudit.targetId, projectId: accountAudit.projectId })
    .from(accountAudit)
    .where(scope)
    .orderBy(desc(accountAudit.at), desc(accountAudit.id))
    .limit(limit)
    .all();
  const userIds = [...new Set(rows.flatMap((r) => [r.actorId, r.targetId]).filter((x): x is number => x !== null))];
  const names = new Map(userIds.length ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds)).all().map((u) => [u.id, u.name]) : []);
  const projectIds = [...new Set(rows.map((r) => r.projectId).filter((x): x is number => x !== null))];
  const pnames = new Map(projectIds.length ? db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, projectIds)).all().map((p) => [p.id, p.name]) : []);
  return rows.map((r) => ({
    at: r.at,
    actor: r.actorId === null ? null : (names.get(r.actorId) ?? null),
    action: r.action,
    target: r.targetId === null ? null : (names.get(r.targetId) ?? null),
    project: r.projectId === null ? null : (pnames.get(r.projectId) ?? null),
  }));
}

