/**
 * A project's team and settings: who is in it, what each annotator annotates,
 * how many annotators each instance needs, and the guidelines annotators read.
 * Coordinators of the project only.
 */
import "server-only";
import { randomInt } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { lexelts, projects, users } from "../../db/schema";
import { type Actor, requireProject } from "./actor";
import { listAssignments } from "./assignments";
import { InputError } from "./errors";
import { hashPassword, passwordProblem } from "./passwords";
import { addMember, createUser, listMembers, listUsers, parseOrThrow, type PublicUser, userNameSchema } from "./users";

/** Most annotators an instance can be set to need (the original task used five). */
export const MAX_REQUIRED_ANNOTATORS = 100;
export const MAX_GUIDELINES_LENGTH = 20_000;

export interface TeamMember extends PublicUser {
  /** Lexelt ids this annotator is restricted to; null = every lexelt (and for coordinators). */
  lexeltIds: number[] | null;
  /** Current responses in this project. */
  responses: number;
}

export interface TeamView {
  project: { id: number; name: string; requiredAnnotators: number | null; guidelines: string };
  lexelts: Array<{ id: number; item: string; instances: number }>;
  members: TeamMember[];
  /** Accounts that could be added to the project: of the coordinator's other projects (all, for an admin), not members, not disabled. */
  others: PublicUser[];
}

export function teamOverview(db: Db, actor: Actor, projectId: number): TeamView {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  // The counters the saves and imports keep (lexelts.instance_count, annotator_counts), not a count over every
  // instance and response: the page costs the same at 100,000 instances as at 2,000.
  const lx = db
    .select({ id: lexelts.id, item: lexelts.item, instances: lexelts.instanceCount })
    .from(lexelts)
    .where(eq(lexelts.projectId, projectId))
    .orderBy(asc(lexelts.position))
    .all();
  const restricted = new Map(listAssignments(db, actor, projectId).map((a) => [a.userId, a.lexeltIds]));
  const answered = new Map(
    (db.$client.prepare("select user_id as userId, done as n from annotator_counts where project_id = ?").all(projectId) as { userId: number; n: number }[]).map((r) => [
      r.userId,
      r.n,
    ]),
  );
  const members = listMembers(db, actor, projectId).map((m) => ({
    ...m,
    lexeltIds: restricted.get(m.id) ?? null,
    responses: answered.get(m.id) ?? 0,
  }));
  const memberIds = new Set(members.map((m) => m.id));
  const visible = listUsers(db, actor).filter((u) => !memberIds.has(u.id) && u.role !== "admin");
  const disabled = new Set(
    visible.length === 0
      ? []
      : db.select({ id: users.id }).from(users).where(and(eq(users.disabled, true), inArray(users.id, visible.map((u) => u.id)))).all().map((r) => r.id),
  );
  const others = visible.filter((u) => !disabled.has(u.id));
  return {
    project: { id: p.id, name: p.name, requiredAnnotators: p.requiredAnnotators, guidelines: p.guidelines },
    lexelts: lx,
    members,
    others,
  };
}

const requiredSchema = z.object({
  requiredAnnotators: z.preprocess(
    (v) => (v === null || v === undefined || (typeof v === "string" && v.trim() === "") ? null : typeof v === "string" ? Number(v.trim()) : v),
    z
      .number({ message: "Give a whole number, or leave it blank for everyone assigned." })
      .int("Give a whole number, or leave it blank for everyone assigned.")
      .min(1, "At least 1 annotator per instance.")
      .max(MAX_REQUIRED_ANNOTATORS, `At most ${MAX_REQUIRED_ANNOTATORS} annotators per instance.`)
      .nullable(),
  ),
});

/**
 * How many annotators each instance needs: a whole number, or null (blank) for
 * everyone assigned to its lexelt. Returns the stored value.
 */
export function setRequiredAnnotators(db: Db, actor: Actor, projectId: number, value: unknown): number | null {
  requireProject(db, actor, projectId, { coordinator: true });
  const { requiredAnnotators } = parseOrThrow(requiredSchema, { requiredAnnotators: value }, "Cannot set the number of annotators");
  db.update(projects).set({ requiredAnnotators }).where(eq(projects.id, projectId)).run();
  return requiredAnnotators;
}

const guidelinesSchema = z.object({
  guidelines: z
    .string({ message: "Guidelines are text." })
    .transform((s) => s.replace(/\r\n?/g, "\n").replace(/\s+$/, ""))
    .pipe(z.string().max(MAX_GUIDELINES_LENGTH, `Guidelines have at most ${MAX_GUIDELINES_LENGTH.toLocaleString("en")} characters.`)),
});

/** The guidelines annotators are shown (plain text; blank lines separate paragraphs). */
export function setGuidelines(db: Db, actor: Actor, projectId: number, text: unknown): string {
  requireProject(db, actor, projectId, { coordinator: true });
  const { guidelines } = parseOrThrow(guidelinesSchema, { guidelines: text }, "Cannot save the guidelines");
  db.update(projects).set({ guidelines }).where(eq(projects.id, projectId)).run();
  return guidelines;
}

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand. */
const PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A random initial password: three groups of four, e.g. "k7qm-3xtp-9fhw" (about 59 bits). */
export function generatePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 3; g++) {
    let s = "";
    for (let k = 0; k < 4; k++) s += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
    groups.push(s);
  }
  return groups.join("-");
}

export interface CreatedAnnotator {
  user: PublicUser;
  /** The initial password, to show the coordinator once; never stored or logged in clear. */
  password: string;
  generated: boolean;
}

/**
 * Create an annotator account and add it to the project, in one transaction.
 * A blank password is replaced by a generated one.
 */
export async function createAnnotatorForProject(
  db: Db,
  actor: Actor,
  projectId: number,
  input: { name: string; password?: string | null },
): Promise<CreatedAnnotator> {
  requireProject(db, actor, projectId, { coordinator: true });
  const typed = input.password ?? "";
  const generated = typed === "";
  const password = generated ? generatePassword() : typed;
  // Check the input before the (slow) hash, then write user and membership in one transaction.
  const name = parseOrThrow(userNameSchema, input.name, "Cannot create the user");
  const problem = passwordProblem(password);
  if (problem) throw new InputError(`Cannot create the user: ${problem}`, { password: problem });
  const passwordHash = await hashPassword(password);
  requireProject(db, actor, projectId, { coordinator: true });
  // better-sqlite3 is synchronous: calls on db inside the callback run in the transaction.
  const user = db.transaction(() => {
    const u = createUser(db, actor, { name, role: "annotator", password }, { passwordHash });
    addMember(db, actor, projectId, u.name);
    return u;
  });
  return { user, password, generated };
}

/** Add an existing account to the project by id: one the actor can see (an account of their other projects). */
export function addExistingMember(db: Db, actor: Actor, projectId: number, userId: unknown): { added: boolean; user: PublicUser } {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = typeof userId === "string" ? Number(userId) : userId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new InputError("Choose an account to add.", { userId: "Choose an account." });
  const u = db.select({ name: users.name, disabled: users.disabled, role: users.role }).from(users).where(eq(users.id, id)).get();
  const visible = !!u && listUsers(db, actor).some((v) => v.id === id);
  if (!u || u.disabled || u.role === "admin" || !visible) throw new InputError("No such account.", { userId: "No such account." });
  return addMember(db, actor, projectId, u.name);
}
