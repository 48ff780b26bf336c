/**
 * A model as a judgement round's source (`model:NAME`, issue #41; SWORDS' pipeline: a model proposes,
 * people judge blind). A round takes the model's cached candidates for its instances when it is made
 * (`cachedCandidates`, read by judgement.ts), and a candidates run (run.ts with `roundId`) adds the rest
 * as they come (`addRoundCandidates`): a text another source proposed already gains the model's tag, a
 * new one is a new candidate. Judges never see where a candidate came from.
 */
import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { judgementCandidates, judgementItems, modelCalls } from "../../../db/schema";
import { candidateKey } from "../../lexsub/judgement";
import { InputError, NotFoundError } from "../kernel/errors";
import { instances } from "../../../db/schema";
import { modelNamed } from "./connections";
import { candidatesSchema } from "./prompt";

/** Up to ten candidates of a model, by instance ref: each instance's latest ok candidates call. */
function cachedCandidates(db: Db, modelId: number, refs: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (let k = 0; k < refs.length; k += 500) {
    const rows = db
      .select({ ref: modelCalls.instanceRef, answer: modelCalls.answer })
      .from(modelCalls)
      .where(and(eq(modelCalls.modelId, modelId), eq(modelCalls.purpose, "candidates"), eq(modelCalls.outcome, "ok"), inArray(modelCalls.instanceRef, refs.slice(k, k + 500))))
      .orderBy(desc(modelCalls.id))
      .all();
    for (const r of rows) {
      if (out.has(r.ref) || !r.answer) continue;
      const parsed = candidatesSchema.safeParse(JSON.parse(r.answer));
      if (parsed.success) out.set(r.ref, parsed.data.candidates.map((c) => c.trim()).filter(Boolean).slice(0, 10));
    }
  }
  return out;
}

/**
 * A round's source `model:NAME` (judgement.ts createRound, which has checked the actor): the model's cached
 * candidates for the sampled instances, by instance id. An unknown model is refused naming the source.
 */
export function modelSourceCandidates(db: Db, projectId: number, name: string, instanceIds: ReadonlySet<string>): Map<string, string[]> {
  let model;
  try {
    model = modelNamed(db, projectId, name);
  } catch (e) {
    if (e instanceof NotFoundError) throw new InputError(`sources: no model "${name}" in this project.`, { sources: `model:${name}` });
    throw e;
  }
  const refs = db.select({ ref: instances.id, instanceId: instances.instanceId }).from(instances).where(eq(instances.projectId, projectId)).all().filter((r) => instanceIds.has(r.instanceId));
  const byRef = cachedCandidates(db, model.id, refs.map((r) => r.ref));
  const out = new Map<string, string[]>();
  for (const r of refs) {
    const c = byRef.get(r.ref);
    if (c) out.set(r.instanceId, c);
  }
  return out;
}

/** Add a model's candidates to the round's item for `instanceRef` (in the caller's transaction). Returns how many are new. */
export function addRoundCandidates(db: Db, roundId: number, instanceRef: number, candidates: readonly string[], tag: string): number {
  const item = db.select({ id: judgementItems.id }).from(judgementItems).where(and(eq(judgementItems.roundId, roundId), eq(judgementItems.instanceId, instanceRef))).get();
  if (!item) return 0;
  const have = new Map(db.select({ id: judgementCandidates.id, text: judgementCandidates.text, sources: judgementCandidates.sources }).from(judgementCandidates).where(eq(judgementCandidates.itemId, item.id)).all().map((c) => [candidateKey(c.text), c]));
  let added = 0;
  for (const raw of candidates.slice(0, 10)) {
    const key = candidateKey(raw);
    if (!key) continue;
    const c = have.get(key);
    if (c) {
      const sources = JSON.parse(c.sources) as string[];
      if (!sources.includes(tag)) {
        sources.push(tag);
        db.update(judgementCandidates).set({ sources: JSON.stringify(sources) }).where(eq(judgementCandidates.id, c.id)).run();
        c.sources = JSON.stringify(sources);
      }
      continue;
    }
    const row = db.insert(judgementCandidates).values({ itemId: item.id, text: raw.trim().replace(/\s+/g, " "), sources: JSON.stringify([tag]) }).returning({ id: judgementCandidates.id }).get();
    have.set(key, { id: row.id, text: raw, sources: JSON.stringify([tag]) });
    added++;
  }
  return added;
}
