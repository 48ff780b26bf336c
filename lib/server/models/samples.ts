/**
 * A model's samples and their answers (issue #41). Sample k of a model is a pseudo-annotator: a users row
 * with role "model" (never signed in, never a member, no password), named `model:<project>:<model>:<k>` (a
 * colon no person's name can hold), linked by model_samples. Its answers are responses like people's,
 * stored as the model wrote them (tidied as the workspace tidies: NFC, apostrophes, spaces) with a
 * response_history row (source "model"); the workspace's rules are checked afterwards and reported.
 */
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { modelSamples, responseHistory, responses, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { prepared } from "../kernel/statements";
import { foldCase } from "../../lexsub/language";
import { tidy } from "../../lexsub/substitute-rules";
import type { ModelRow } from "./connections";
import type { ModelAnswer } from "./prompt";

const RS = named(responses);
const RH = named(responseHistory);

/** The account name of sample k (no person's name holds a colon: people/users.ts). */
function sampleUserName(model: Pick<ModelRow, "projectId" | "name">, k: number): string {
  return `model:${model.projectId}:${model.name}:${k}`;
}

/** How a sample is called on pages: the model's name, and the sample's number when there are several. */
export function sampleLabel(modelName: string, k: number, samples: number): string {
  return samples > 1 ? `${modelName} #${k}` : modelName;
}

/** The pseudo-annotators of samples 1…k (made when missing), by sample. */
export function ensureSamples(db: Db, model: ModelRow, k: number): Map<number, number> {
  return db.transaction(() => {
    const out = new Map<number, number>();
    for (const s of db.select({ sample: modelSamples.sample, userId: modelSamples.userId }).from(modelSamples).where(eq(modelSamples.modelId, model.id)).all()) out.set(s.sample, s.userId);
    for (let i = 1; i <= k; i++) {
      if (out.has(i)) continue;
      const u = db.insert(users).values({ name: sampleUserName(model, i), role: "model", passwordHash: "!model" }).returning({ id: users.id }).get();
      db.insert(modelSamples).values({ modelId: model.id, sample: i, userId: u.id }).run();
      out.set(i, u.id);
    }
    return out;
  });
}

/** The samples a model has, by sample (no rows made). */
export function samplesOf(db: Db, modelId: number): Map<number, number> {
  return new Map(db.select({ sample: modelSamples.sample, userId: modelSamples.userId }).from(modelSamples).where(eq(modelSamples.modelId, modelId)).all().map((s) => [s.sample, s.userId]));
}

/** Instances (refs) the given pseudo-annotators have answered, as "ref:userId". */
export function answeredBy(db: Db, projectId: number, userIds: number[]): Set<string> {
  if (userIds.length === 0) return new Set();
  return new Set(
    db
      .select({ ref: responses.instanceRef, userId: responses.userId })
      .from(responses)
      .where(and(eq(responses.projectId, projectId), inArray(responses.userId, userIds)))
      .all()
      .map((r) => `${r.ref}:${r.userId}`),
  );
}

/** An answer as stored: tidied, empty and repeated substitutes dropped (the first kept), nothing else changed. */
export function storedAnswer(a: ModelAnswer, language: string): { kind: "substitutes" | "NAME" | "NIL"; substitutes: string[]; multiword: string | null } {
  const seen = new Set<string>();
  const substitutes: string[] = [];
  if (a.answer === "substitutes") {
    for (const raw of a.substitutes) {
      const s = tidy(raw);
      const key = foldCase(s, language);
      if (s === "" || seen.has(key)) continue;
      seen.add(key);
      substitutes.push(s);
    }
  }
  const mw = a.multiword === null ? null : tidy(a.multiword) || null;
  return { kind: substitutes.length === 0 && a.answer === "substitutes" ? "NIL" : a.answer, substitutes, multiword: mw };
}

/**
 * Store sample answers (in the caller's transaction): a response and its history row each, unless the
 * pseudo-annotator has answered the instance already (a run goes on from where it was; nothing is overwritten).
 * Returns how many were stored.
 */
export function storeAnswers(db: Db, projectId: number, rows: { ref: number; userId: number; answer: ReturnType<typeof storedAnswer> }[], now = Date.now()): number {
  // Prepared once per connection (kernel/statements.ts): a run writes in many short transactions.
  const insert = prepared(
    db,
    `insert into ${RS.$} (${RS.projectId}, ${RS.instanceRef}, ${RS.userId}, ${RS.kind}, ${RS.substitutes}, ${RS.multiword}, ${RS.revision}, ${RS.updatedAt}, ${RS.createdAt})
     values (?, ?, ?, ?, ?, ?, 1, ?, ?) on conflict (${RS.instanceRef}, ${RS.userId}) do nothing returning ${RS.id} as id`,
  );
  const history = prepared(
    db,
    `insert into ${RH.$} (${RH.responseId}, ${RH.projectId}, ${RH.instanceRef}, ${RH.userId}, ${RH.kind}, ${RH.substitutes}, ${RH.multiword}, ${RH.revision}, ${RH.source}, ${RH.savedAt})
     values (?, ?, ?, ?, ?, ?, ?, 1, 'model', ?)`,
  );
  let stored = 0;
  for (const r of rows) {
    const subs = JSON.stringify(r.answer.substitutes);
    const got = insert.get(projectId, r.ref, r.userId, r.answer.kind, subs, r.answer.multiword, now, now) as { id: number } | undefined;
    if (!got) continue;
    history.run(got.id, projectId, r.ref, r.userId, r.answer.kind, subs, r.answer.multiword, now);
    stored++;
  }
  return stored;
}
