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
  // Dynamic imports: LEXGOLD_BCRYPT_COST must be set before lib/server/people/users loads.
  const { SYSTEM } = await import("../../lib/server/kernel/actor");
  const { createUser, addMember } = await import("../../lib/server/people/users");
  const { createProject } = await import("../../lib/server/corpus/projects");
  const { importLexeltXml } = await import("../../lib/server/corpus/corpus");
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

/**
 * `k` more annotators (prefill1…k, members, not signed in by the load) answer
 * every instance of the project, written with raw inserts in one transaction:
 * a project the size of "100,000 instances × 5" for the coordinator's gold and
 * agreement, while the load's own annotators save on top. Answers are drawn
 * from a small vocabulary per lexelt with a seeded PRNG (some NAME and NIL,
 * some multiwords), so agreement has something to compute. Returns the count.
 */
export function prefillResponses(dbFile: string, projectId: number, k: number): number {
  const db = openDb(dbFile);
  try {
    let seed = 2007;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const sqlite = db.$client;
    const userIds: number[] = [];
    const insertUser = sqlite.prepare("insert into users (name, role, password_hash, created_at) values (?, 'annotator', '!', ?) returning id");
    const member = sqlite.prepare("insert into memberships (project_id, user_id) values (?, ?)");
    const rows = sqlite
      .prepare("select i.id as ref, i.lexelt_id as lexeltId from instances i where i.project_id = ? order by i.id")
      .all(projectId) as { ref: number; lexeltId: number }[];
    const insert = sqlite.prepare(
      "insert into responses (project_id, instance_ref, user_id, kind, substitutes, multiword, revision, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 1, ?, ?)",
    );
    let n = 0;
    sqlite.transaction(() => {
      const now = Date.now();
      for (let a = 1; a <= k; a++) {
        const id = (insertUser.get(`prefill${a}`, now) as { id: number }).id;
        member.run(projectId, id);
        userIds.push(id);
      }
      for (const r of rows) {
        const vocab = Array.from({ length: 8 }, (_, j) => `word${(r.lexeltId * 7 + j * 13) % 5000}`);
        for (const userId of userIds) {
          const x = rand();
          const kind = x < 0.04 ? "NAME" : x < 0.1 ? "NIL" : "substitutes";
          const subs: string[] = [];
          if (kind === "substitutes") {
            const m = 1 + Math.floor(rand() * rand() * 3);
            for (let j = 0; j < m; j++) {
              const w = vocab[Math.floor(rand() * rand() * vocab.length)];
              if (!subs.includes(w)) subs.push(w);
            }
          }
          const mw = rand() < 0.05 ? `take word${r.lexeltId % 5000}` : null;
          insert.run(projectId, r.ref, userId, kind, JSON.stringify(subs), mw, now, now);
          n++;
        }
      }
    })();
    return n;
  } finally {
    db.$client.close();
  }
}
