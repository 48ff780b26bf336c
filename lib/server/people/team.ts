/**
 * A project's team and settings: who is in it, what each annotator annotates,
 * how many annotators each instance needs, and the guidelines annotators read.
 * Coordinators of the project only.
 */
import "server-only";
import { randomInt } from "node:crypto";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { annotatorCounts, assignments, lexelts, participants, projects, users } from "../../../db/schema";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import type { Paged } from "../annotate";
import { containsText } from "../kernel/search";
import { named } from "../../../db/sql-names";
import { hashPassword, passwordProblem } from "./passwords";
import { addMember, createUser, listMembers, listUsers, type ProjectMember, projectRoleSchema, type PublicUser, userNameSchema } from "./users";
import { parseOrThrow } from "../kernel/validate";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const ANNOTATOR_COUNTS = named(annotatorCounts);
const ASSIGNMENTS = named(assignments);
const A_ASSIGNMENTS = named(assignments, "a");
const L = named(lexelts, "l");
const PARTICIPANTS = named(participants);

/** Most annotators an instance can be set to need (the original task used five). */
const MAX_REQUIRED_ANNOTATORS = 100;
const MAX_GUIDELINES_LENGTH = 20_000;

export interface TeamMember extends ProjectMember {
  /** The lexelts this annotator is restricted to: how many, and the first few items in corpus order; null = every lexelt (and for judges and coordinators, who annotate nothing). */
  assigned: { count: number; first: string[] } | null;
  /** Current responses in this project. */
  responses: number;
}

/** One row of the assignment editor: a lexelt, and whether the annotator being edited annotates it. */
interface TeamLexelt {
  id: number;
  item: string;
  instances: number;
  assigned: boolean;
}

export interface TeamView {
  project: { id: number; name: string; requiredAnnotators: number | null; guidelines: string };
  /** Every lexelt of the project. */
  lexeltCount: number;
  /** The assignment editor's page of lexelts (matching `lq`), with `assigned` for the annotator `editing`. */
  lexeltPage: Paged<TeamLexelt>;
  members: TeamMember[];
  /**
   * What the responses download holds: every current response of the project (`count`), by how
   * many accounts (`annotators`); `formerMembers` of them are by accounts no longer on the team
   * (a removed member's answers stay in the project). From the maintained counters, not the rows.
   */
  responses: { count: number; annotators: number; formerMembers: number };
  /** Study participants of the project (issue #32), listed on the Crowd tab rather than here. */
  participants: number;
  /** Accounts that could be added to the project: of the coordinator's other projects (all, for an admin), not members, not disabled. */
  others: PublicUser[];
}

/** What the Team page shows of one request: the annotator whose assignment is edited, the editor's search and page. */
export interface TeamQuery {
  editing?: number;
  lq?: string;
  lpage?: number;
  /** Default: every lexelt on one page. */
  pageSize?: number;
}

/** Items listed per annotator in the Team page's summary of what they annotate. */
const FIRST_ASSIGNED = 5;

export function teamOverview(db: Db, actor: Actor, projectId: number, query: TeamQuery = {}): TeamView {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  // Counts, the first few items and one page of lexelts, from SQL: the page costs the same at 10,000
  // lexelts as at 10 (the counters the saves and imports keep, not a count over every instance and response).
  const lexeltCount = db.select({ n: count() }).from(lexelts).where(eq(lexelts.projectId, projectId)).get()!.n;
  const lq = (query.lq ?? "").trim();
  const matching = lq === "" ? eq(lexelts.projectId, projectId) : and(eq(lexelts.projectId, projectId), containsText(lexelts.item, lq));
  const matched = lq === "" ? lexeltCount : db.select({ n: count() }).from(lexelts).where(matching).get()!.n;
  const size = query.pageSize && query.pageSize > 0 ? Math.floor(query.pageSize) : Math.max(1, matched);
  const pages = Math.max(1, Math.ceil(matched / size));
  const page = Number.isInteger(query.lpage) ? Math.min(Math.max(query.lpage!, 1), pages) : 1;
  const rows = db
    .select({ id: lexelts.id, item: lexelts.item, instances: lexelts.instanceCount })
    .from(lexelts)
    .where(matching)
    .orderBy(asc(lexelts.position))
    .limit(size)
    .offset((page - 1) * size)
    .all();
  const counts = new Map(
    (db.$client.prepare(`select ${ASSIGNMENTS.userId} as userId, count(*) as n from ${ASSIGNMENTS.$} where ${ASSIGNMENTS.projectId} = ? group by ${ASSIGNMENTS.userId}`).all(projectId) as { userId: number; n: number }[]).map(
      (r) => [r.userId, r.n],
    ),
  );
  const firstOf = db.$client.prepare(
    `select ${L.item} as item from ${A_ASSIGNMENTS.$} join ${L.$} on ${L.id} = ${A_ASSIGNMENTS.lexeltId} where ${A_ASSIGNMENTS.projectId} = ? and ${A_ASSIGNMENTS.userId} = ? order by ${L.position} limit ?`,
  );
  let editingIds: Set<number> | null = null;
  if (query.editing !== undefined && counts.has(query.editing) && rows.length > 0) {
    editingIds = new Set(
      (
        db.$client
          .prepare(`select ${ASSIGNMENTS.lexeltId} as id from ${ASSIGNMENTS.$} where ${ASSIGNMENTS.projectId} = ? and ${ASSIGNMENTS.userId} = ? and ${ASSIGNMENTS.lexeltId} in (${rows.map(() => "?").join(",")})`)
          .all(projectId, query.editing, ...rows.map((r) => r.id)) as { id: number }[]
      ).map((r) => r.id),
    );
  }
  const answered = new Map(
    (db.$client.prepare(`select ${ANNOTATOR_COUNTS.userId} as userId, ${ANNOTATOR_COUNTS.done} as n from ${ANNOTATOR_COUNTS.$} where ${ANNOTATOR_COUNTS.projectId} = ?`).all(projectId) as { userId: number; n: number }[]).map((r) => [
      r.userId,
      r.n,
    ]),
  );
  const members = listMembers(db, actor, projectId).map((m) => {
    const n = m.projectRole === "annotator" ? counts.get(m.id) : undefined;
    return {
      ...m,
      assigned: n === undefined ? null : { count: n, first: (firstOf.all(projectId, m.id, FIRST_ASSIGNED) as { item: string }[]).map((r) => r.item) },
      responses: answered.get(m.id) ?? 0,
    };
  });
  // Study participants answer as annotators but are listed on the Crowd tab: counted here, never "former members".
  const participantIds = (db.$client.prepare(`select ${PARTICIPANTS.userId} as id from ${PARTICIPANTS.$} where ${PARTICIPANTS.projectId} = ?`).all(projectId) as { id: number }[]).map((r) => r.id);
  const memberIds = new Set([...members.map((m) => m.id), ...participantIds]);
  const responseTotals = { count: 0, annotators: 0, formerMembers: 0 };
  for (const [userId, n] of answered) {
    if (n <= 0) continue;
    responseTotals.count += n;
    responseTotals.annotators += 1;
    if (!memberIds.has(userId)) responseTotals.formerMembers += n;
  }
  const visible = listUsers(db, actor).filter((u) => !memberIds.has(u.id) && u.role !== "admin");
  const disabled = new Set(
    visible.length === 0
      ? []
      : db.select({ id: users.id }).from(users).where(and(eq(users.disabled, true), inArray(users.id, visible.map((u) => u.id)))).all().map((r) => r.id),
  );
  const others = visible.filter((u) => !disabled.has(u.id));
  return {
    project: { id: p.id, name: p.name, requiredAnnotators: p.requiredAnnotators, guidelines: p.guidelines },
    lexeltCount,
    lexeltPage: { rows: rows.map((r) => ({ ...r, assigned: editingIds === null || editingIds.has(r.id) })), page, pages, total: matched },
    members,
    participants: participantIds.length,
    responses: responseTotals,
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
 * Create an annotator account and add it to the project as `projectRole` (annotator, the
 * default, or judge), in one transaction. A blank password is replaced by a generated one.
 */
export async function createAnnotatorForProject(
  db: Db,
  actor: Actor,
  projectId: number,
  input: { name: string; password?: string | null; projectRole?: unknown },
): Promise<CreatedAnnotator> {
  requireProject(db, actor, projectId, { coordinator: true });
  const typed = input.password ?? "";
  const generated = typed === "";
  const password = generated ? generatePassword() : typed;
  // Check the input before the (slow) hash, then write user and membership in one transaction.
  const name = parseOrThrow(userNameSchema, input.name, "Cannot create the user");
  const projectRole = parseOrThrow(projectRoleSchema, input.projectRole || "annotator", "Cannot create the user");
  const problem = passwordProblem(password);
  if (problem) throw new InputError(`Cannot create the user: ${problem}`, { password: problem });
  const passwordHash = await hashPassword(password);
  requireProject(db, actor, projectId, { coordinator: true });
  // better-sqlite3 is synchronous: calls on db inside the callback run in the transaction.
  const user = db.transaction(() => {
    const u = createUser(db, actor, { name, role: "annotator", password }, { passwordHash });
    addMember(db, actor, projectId, u.name, projectRole);
    return u;
  });
  return { user, password, generated };
}

/**
 * Add an existing account to the project by id: one the actor can see (an account of their
 * other projects), as `projectRole`: annotator or judge (or coordinator, for a coordinator account);
 * left out, a coordinator account coordinates and any other annotates.
 */
export function addExistingMember(db: Db, actor: Actor, projectId: number, userId: unknown, projectRole?: unknown): { added: boolean; user: PublicUser } {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = typeof userId === "string" ? Number(userId) : userId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new InputError("Choose an account to add.", { userId: "Choose an account." });
  const u = db.select({ name: users.name, disabled: users.disabled, role: users.role }).from(users).where(eq(users.id, id)).get();
  const visible = !!u && listUsers(db, actor).some((v) => v.id === id);
  if (!u || u.disabled || u.role === "admin" || !visible) throw new InputError("No such account.", { userId: "No such account." });
  return addMember(db, actor, projectId, u.name, projectRole);
}
