/**
 * Accounts in bulk from a TSV file (`lexgold user import FILE.tsv`):
 *
 *   name	role	project	password
 *   ann1	annotator	study	(blank: a password is generated and printed once)
 *
 * The header is optional; the project may be blank (no membership). Every line
 * is checked first — name, role, project, password rules, names already taken or
 * repeated — and each bad line is named; then all accounts are written in one
 * transaction, or none. The command line only (it acts with full rights).
 */
import "server-only";
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountAudit, memberships, projects, users } from "../../../db/schema";
import { type Actor, type Role, requireSignedIn } from "../kernel/actor";
import { AuthError, InputError } from "../kernel/errors";
import { named } from "../../../db/sql-names";
import { hashPasswordSync, passwordProblem } from "./passwords";
import { generatePassword } from "./team";
import { userNameSchema } from "./users";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const USERS = named(users);

const USER_COLUMNS = ["name", "role", "project", "password"] as const;
const ROLES: readonly Role[] = ["annotator", "coordinator", "admin"];

export interface ImportedUser {
  name: string;
  role: Role;
  project: string | null;
  /** The password to hand over once (typed in the file, or generated). */
  password: string;
  generated: boolean;
}

interface Row extends ImportedUser {
  line: number;
}

export function importUsers(db: Db, actor: Actor, input: { fileName: string; text: string }): ImportedUser[] {
  const a = requireSignedIn(actor);
  if (a.kind !== "system") throw new AuthError("Accounts are imported from the command line.");
  const file = input.fileName;
  const errors: string[] = [];
  const rows: Row[] = [];
  const seen = new Map<string, number>();
  const lines = input.text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((src, i) => {
    const line = i + 1;
    if (src.trim() === "") return;
    const cells = src.split("\t");
    if (rows.length === 0 && errors.length === 0 && cells[0].trim().toLowerCase() === "name") {
      const ok = cells.length >= 3 && cells.length <= 4 && cells.every((c, k) => c.trim().toLowerCase() === USER_COLUMNS[k]);
      if (!ok) errors.push(`${file}:${line}: the header must be "${USER_COLUMNS.join("\\t")}"`);
      return;
    }
    if (cells.length < 3 || cells.length > 4) {
      errors.push(`${file}:${line}: ${cells.length} tab-separated cells; expected ${USER_COLUMNS.join(", ")} (the password may be empty)`);
      return;
    }
    const [rawName, rawRole, rawProject] = cells.map((c) => c.trim());
    const typed = cells[3] ?? "";
    const name = userNameSchema.safeParse(rawName);
    if (!name.success) {
      errors.push(`${file}:${line}: name "${rawName}": ${name.error.issues[0].message}`);
      return;
    }
    if (!ROLES.includes(rawRole as Role)) {
      errors.push(`${file}:${line}: role "${rawRole}": the roles are ${ROLES.join(", ")}`);
      return;
    }
    const key = name.data.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push(`${file}:${line}: "${name.data}" is already on line ${earlier}`);
      return;
    }
    seen.set(key, line);
    const problem = typed === "" ? null : passwordProblem(typed);
    if (problem) {
      errors.push(`${file}:${line}: password for "${name.data}": ${problem}`);
      return;
    }
    const generated = typed === "";
    rows.push({ line, name: name.data, role: rawRole as Role, project: rawProject || null, password: generated ? generatePassword() : typed, generated });
  });
  if (rows.length === 0 && errors.length === 0) errors.push(`${file}: no accounts in the file`);
  const names = rows.map((r) => r.name);
  // Taken whatever the case: "Ann" is the account "ann" (the users_name_nocase index).
  const taken = new Map<string, string>();
  const lookUp = db.$client.prepare(`select ${USERS.name} from ${USERS.$} where ${USERS.name} = ? collate nocase`);
  for (const n of names) {
    const u = lookUp.get(n) as { name: string } | undefined;
    if (u) taken.set(n, u.name);
  }
  const projectNames = [...new Set(rows.map((r) => r.project).filter((p): p is string => p !== null))];
  const projectIds = new Map(
    projectNames.length ? db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.name, projectNames)).all().map((p) => [p.name, p.id]) : [],
  );
  for (const r of rows) {
    if (taken.has(r.name)) errors.push(`${file}:${r.line}: a user named "${taken.get(r.name)}" already exists${taken.get(r.name) === r.name ? "" : " (names must differ by more than their case)"}`);
    else if (r.project !== null && !projectIds.has(r.project)) errors.push(`${file}:${r.line}: no project named "${r.project}"`);
  }
  if (errors.length > 0) {
    errors.sort((x, y) => Number(/:(\d+):/.exec(x)?.[1] ?? 0) - Number(/:(\d+):/.exec(y)?.[1] ?? 0));
    throw new InputError(`${errors.length} bad line${errors.length === 1 ? "" : "s"}; no account was created.`, {}, errors);
  }
  const hashed = rows.map((r) => hashPasswordSync(r.password));
  db.transaction(() => {
    rows.forEach((r, k) => {
      const u = db.insert(users).values({ name: r.name, role: r.role, passwordHash: hashed[k] }).returning({ id: users.id }).get();
      db.insert(accountAudit).values({ at: new Date(), actorId: null, action: "create", targetId: u.id }).run();
      if (r.project !== null) {
        const projectId = projectIds.get(r.project)!;
        db.insert(memberships).values({ projectId, userId: u.id, role: r.role === "coordinator" ? "coordinator" : "annotator" }).run();
        db.insert(accountAudit).values({ at: new Date(), actorId: null, action: "member-add", targetId: u.id, projectId }).run();
      }
    });
  });
  return rows.map(({ line: _line, ...r }) => r);
}
