/** The quick start's demo project: a corpus, a coordinator and three annotators. Idempotent. */
import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projects, users } from "../../db/schema";
import { SYSTEM } from "./actor";
import { importLexeltXml } from "./corpus";
import { createProject } from "./projects";
import { addMember, createUser } from "./users";

export const DEMO_PROJECT = "demo";
export const DEMO_PASSWORD = "lexgold-demo";
export const DEMO_USERS = [
  { name: "coordinator", role: "coordinator" as const },
  { name: "annotator1", role: "annotator" as const },
  { name: "annotator2", role: "annotator" as const },
  { name: "annotator3", role: "annotator" as const },
];

export interface DemoReport {
  created: string[];
  importMessage: string | null;
}

export function seedDemo(db: Db, corpus: { fileName: string; bytes: Uint8Array }): DemoReport {
  const created: string[] = [];
  for (const u of DEMO_USERS) {
    if (!db.select({ id: users.id }).from(users).where(eq(users.name, u.name)).get()) {
      createUser(db, SYSTEM, { name: u.name, role: u.role, password: DEMO_PASSWORD });
      created.push(`user ${u.name}`);
    }
  }
  let project = db.select({ id: projects.id }).from(projects).where(eq(projects.name, DEMO_PROJECT)).get();
  if (!project) {
    project = createProject(db, SYSTEM, { name: DEMO_PROJECT });
    created.push(`project ${DEMO_PROJECT}`);
  }
  for (const u of DEMO_USERS) addMember(db, SYSTEM, project.id, u.name);
  const report = importLexeltXml(db, SYSTEM, project.id, corpus);
  return { created, importMessage: report.message };
}
