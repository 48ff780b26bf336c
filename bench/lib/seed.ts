/**
 * A throw-away database for the load runs, written through lib/server as the
 * CLI would (SYSTEM actor): a coordinator, N annotators, one project holding a
 * synthetic lexelt corpus. Passwords are hashed at LEXGOLD_BCRYPT_COST (the
 * caller lowers it before this module loads lib/server).
 */
import { asc, eq } from "drizzle-orm";
import { openDb } from "../../db/client";
import { instances, lexelts } from "../../db/schema";
import { lexeltXml } from "./corpus";

export const LOAD_PASSWORD = "load-test-password";

export interface Seeded {
  projectId: number;
  /** A second, empty project of the coordinator's (the crash test imports into it). */
  importProjectId: number;
  coordinator: string;
  annotators: Array<{ name: string; userId: number }>;
  /** Instance ids (database refs) in queue order. */
  instanceRefs: number[];
  /** The head word of each instance, in the same order (a multiword phrase must hold it). */
  heads: string[];
  seedMs: number;
}

export async function seedLoadDb(
  dbFile: string,
  opts: { annotators: number; lexelts: number; instancesPerLexelt: number },
): Promise<Seeded> {
  const t0 = performance.now();
  // Dynamic imports: LEXGOLD_BCRYPT_COST must be set before lib/server/users loads.
  const { SYSTEM } = await import("../../lib/server/actor");
  const { createUser, addMember } = await import("../../lib/server/users");
  const { createProject } = await import("../../lib/server/projects");
  const { importLexeltXml } = await import("../../lib/server/corpus");
  const db = openDb(dbFile);
  try {
    const coordinator = "loadcoord";
    createUser(db, SYSTEM, { name: coordinator, role: "coordinator", password: LOAD_PASSWORD });
    const project = createProject(db, SYSTEM, { name: "loadtest" });
    addMember(db, SYSTEM, project.id, coordinator);
    const importProject = createProject(db, SYSTEM, { name: "loadimports" });
    addMember(db, SYSTEM, importProject.id, coordinator);
    const annotators: Seeded["annotators"] = [];
    for (let i = 1; i <= opts.annotators; i++) {
      const u = createUser(db, SYSTEM, { name: `loadann${i}`, role: "annotator", password: LOAD_PASSWORD });
      addMember(db, SYSTEM, project.id, u.name);
      annotators.push({ name: u.name, userId: u.id });
    }
    const xml = lexeltXml({ lexelts: opts.lexelts, instancesPerLexelt: opts.instancesPerLexelt, idPrefix: "s", seed: 2007 });
    const report = importLexeltXml(db, SYSTEM, project.id, { fileName: "load-corpus.xml", bytes: new TextEncoder().encode(xml) });
    const expected = opts.lexelts * opts.instancesPerLexelt;
    if (report.instancesAdded !== expected) throw new Error(`seed: imported ${report.instancesAdded} instances, expected ${expected}`);
    const rows = db
      .select({ ref: instances.id, head: instances.head })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      .where(eq(instances.projectId, project.id))
      .orderBy(asc(lexelts.position), asc(instances.position), asc(instances.id))
      .all();
    const instanceRefs = rows.map((r) => r.ref);
    const heads = rows.map((r) => r.head);
    return { projectId: project.id, importProjectId: importProject.id, coordinator, annotators, instanceRefs, heads, seedMs: performance.now() - t0 };
  } finally {
    db.$client.close();
  }
}
