/** Databases for tests: a fresh, migrated in-memory SQLite each time, plus handy fixtures. */
import { openDb, type Db } from "../../db/client";
import { SYSTEM, type UserActor } from "../../lib/server/kernel/actor";
import { createProject } from "../../lib/server/corpus/projects";
import { addMember, createUser } from "../../lib/server/people/users";

export function testDb(): Db {
  return openDb(":memory:");
}

export function actorFor(db: Db, name: string, role: "coordinator" | "annotator"): UserActor {
  const u = createUser(db, SYSTEM, { name, role, password: "password-" + name });
  return { kind: "user", userId: u.id, name: u.name, role: u.role };
}

/** A db (in memory, or the file given) with a project "p", its coordinator "coord" and annotator "ann" (both members). */
export function projectFixture(file?: string) {
  const db = file ? openDb(file) : testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const ann = actorFor(db, "ann", "annotator");
  const project = createProject(db, coord, { name: "p" });
  addMember(db, coord, project.id, "ann");
  return { db, coord, ann, project };
}

/** Counts of the corpus tables, to check that a refused write left nothing behind. */
export function corpusCounts(db: Db) {
  const c = (t: string) => (db.$client.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
  return { lexelts: c("lexelts"), instances: c("instances"), imports: c("imports") };
}
