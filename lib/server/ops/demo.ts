/**
 * The quick start's demo project: a corpus, a coordinator and five annotators, four
 * of whom have already answered every instance (samples/demo-responses.tsv) so the
 * gold, agreement and progress pages have something to show; annotator1 starts with
 * an empty queue for trying the workspace. Idempotent.
 */
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { projects, responses, users } from "../../../db/schema";
import { SYSTEM } from "../kernel/actor";
import { createProject, importLexeltXml } from "../corpus";
import { importResponses } from "../annotate";
import { addMember, createUser, DEMO_PASSWORD } from "../people";

const DEMO_PROJECT = "demo";
export { DEMO_PASSWORD } from "../people";
export const DEMO_USERS = [
  { name: "coordinator", role: "coordinator" as const },
  { name: "annotator1", role: "annotator" as const },
  { name: "annotator2", role: "annotator" as const },
  { name: "annotator3", role: "annotator" as const },
  { name: "annotator4", role: "annotator" as const },
  { name: "annotator5", role: "annotator" as const },
];
/** The annotators whose answers samples/demo-responses.tsv holds. */
export const DEMO_RESPONDENTS = ["annotator2", "annotator3", "annotator4", "annotator5"];

export interface DemoReport {
  created: string[];
  importMessage: string | null;
  responsesMessage: string | null;
}

export function seedDemo(
  db: Db,
  corpus: { fileName: string; bytes: Uint8Array },
  demoResponses?: { fileName: string; text: string },
): DemoReport {
  const created: string[] = [];
  for (const u of DEMO_USERS) {
    if (!db.select({ id: users.id }).from(users).where(eq(users.name, u.name)).get()) {
      createUser(db, SYSTEM, { name: u.name, role: u.role, password: DEMO_PASSWORD }, { demo: true });
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

  let responsesMessage: string | null = null;
  if (demoResponses) {
    // Only into a fresh demo: once any of them has answered, their answers are theirs.
    const answered = db
      .select({ id: responses.id })
      .from(responses)
      .innerJoin(users, eq(users.id, responses.userId))
      .where(and(eq(responses.projectId, project.id), inArray(users.name, DEMO_RESPONDENTS)))
      .get();
    responsesMessage = answered
      ? "demo responses already present; left as they are"
      : importResponses(db, SYSTEM, project.id, demoResponses).message;
  }
  return { created, importMessage: report.message, responsesMessage };
}
