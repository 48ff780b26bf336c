/** Accounts: created by coordinators (or the CLI) only; no open sign-up. */
import "server-only";
import bcrypt from "bcryptjs";
import { and, eq, gt, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { memberships, signInFailures, users } from "../../db/schema";
import { type Actor, type Role, requireCoordinator, requireProject } from "./actor";
import { InputError, NotFoundError } from "./errors";

const BCRYPT_COST = Number(process.env.LEXGOLD_BCRYPT_COST ?? 10);

export const userNameSchema = z
  .string()
  .trim()
  .min(2, "A user name needs at least 2 characters.")
  .max(40, "A user name has at most 40 characters.")
  .regex(/^[A-Za-z0-9._-]+$/, "Use letters, digits, dot, dash or underscore.");

/** bcrypt reads only the first 72 bytes of a password: longer ones would share a hash with their prefix. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_LENGTH = 10;

/** Why a password is refused, or null when it is acceptable. The one password rule, for every way an account is made. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (new Set(password).size === 1) return "A password cannot be one character repeated.";
  if (Buffer.byteLength(password, "utf8") > PASSWORD_MAX_BYTES) return `A password has at most ${PASSWORD_MAX_BYTES} bytes (letters outside ASCII take two to four).`;
  return null;
}

export const passwordSchema = z.string().superRefine((password, ctx) => {
  const problem = passwordProblem(password);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const newUserSchema = z.object({
  name: userNameSchema,
  role: z.enum(["coordinator", "annotator"], { message: "Role is coordinator or annotator." }),
  password: passwordSchema,
});

function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const errors = fieldErrors(r.error);
    throw new InputError(`${what}: ${Object.values(errors)[0]}`, errors);
  }
  return r.data;
}

export interface PublicUser {
  id: number;
  name: string;
  role: Role;
}

export function createUser(db: Db, actor: Actor, input: { name: string; role: string; password: string }): PublicUser {
  requireCoordinator(actor);
  const data = parseOrThrow(newUserSchema, input, "Cannot create the user");
  const existing = db.select({ id: users.id }).from(users).where(eq(users.name, data.name)).get();
  if (existing) throw new InputError(`A user named "${data.name}" already exists.`, { name: "That name is taken." });
  const passwordHash = bcrypt.hashSync(data.password, BCRYPT_COST);
  const row = db
    .insert(users)
    .values({ name: data.name, role: data.role, passwordHash })
    .returning({ id: users.id, name: users.name, role: users.role })
    .get();
  return row;
}

export function listUsers(db: Db, actor: Actor): PublicUser[] {
  requireCoordinator(actor);
  return db.select({ id: users.id, name: users.name, role: users.role }).from(users).orderBy(users.name).all();
}

/** Add a user to a project (idempotent). */
export function addMember(db: Db, actor: Actor, projectId: number, userName: string): { added: boolean; user: PublicUser } {
  requireProject(db, actor, projectId, { coordinator: true });
  const user = db.select({ id: users.id, name: users.name, role: users.role }).from(users).where(eq(users.name, userName)).get();
  if (!user) throw new NotFoundError(`No user named "${userName}".`);
  const r = db.insert(memberships).values({ projectId, userId: user.id }).onConflictDoNothing().run();
  return { added: r.changes > 0, user };
}

export function listMembers(db: Db, actor: Actor, projectId: number): PublicUser[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.projectId, projectId))
    .orderBy(users.name)
    .all();
}

/** Sign-in rate limit: this many failures per user name (and per client) in the window. */
export const SIGN_IN_LIMIT = Number(process.env.LEXGOLD_SIGNIN_LIMIT ?? 5);
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export type VerifyResult = { ok: true; user: PublicUser } | { ok: false; reason: "invalid" | "rate-limited" };

/**
 * Check a name and password. After SIGN_IN_LIMIT failures for the name or the
 * client within the window, every attempt is refused until the window passes.
 */
export function verifyCredentials(db: Db, name: string, password: string, client = "unknown"): VerifyResult {
  const now = Date.now();
  const keys = [`user:${name.toLowerCase()}`, `client:${client}`];
  db.delete(signInFailures).where(lt(signInFailures.at, new Date(now - SIGN_IN_WINDOW_MS))).run();
  for (const key of keys) {
    const n = db
      .select({ id: signInFailures.id })
      .from(signInFailures)
      .where(and(eq(signInFailures.key, key), gt(signInFailures.at, new Date(now - SIGN_IN_WINDOW_MS))))
      .all().length;
    if (n >= SIGN_IN_LIMIT) return { ok: false, reason: "rate-limited" };
  }
  const row = db.select().from(users).where(eq(users.name, name)).get();
  // Compare against a dummy hash for unknown names so timing does not reveal them.
  const hash = row?.passwordHash ?? "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.GYqkZ5Qk8yS6g3oU0F3WqkVbW3lS";
  const good = bcrypt.compareSync(password, hash) && !!row && !row.disabled;
  if (!good) {
    db.transaction((tx) => {
      for (const key of keys) tx.insert(signInFailures).values({ key, at: new Date(now) }).run();
    });
    return { ok: false, reason: "invalid" };
  }
  return { ok: true, user: { id: row!.id, name: row!.name, role: row!.role } };
}
