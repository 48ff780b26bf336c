/**
 * What a model's run is asked to do, checked before the job is started (the route, the action or the CLI
 * then starts it: lib/server/jobs' startJob, or the CLI in its own process). One run of a model at a time.
 */
import "server-only";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { and, eq } from "drizzle-orm";
import { jobs, judgementRounds } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";
import { modelNamed } from "./connections";
import type { RunInput } from "./run";

const J = named(jobs);

const schema = z.object({
  model: z.string().trim().min(1, "Choose a model."),
  purpose: z.enum(["annotate", "candidates"]).default("annotate"),
  samples: z.coerce.number().int("Samples are a whole number.").min(1, "At least 1 sample.").max(10, "At most 10 samples.").default(1),
  temperature: z.coerce.number().min(0, "The temperature is 0 or more.").max(2, "The temperature is at most 2.").default(0),
  instances: z
    .union([z.literal("all"), z.coerce.number().int("Instances: all, or a whole number.").min(1, "At least 1 instance.")])
    .default("all"),
});

/** The run's input, checked (coordinators of the project; the CLI). Refused while a run of the same model is queued or running. */
export function modelRunInput(db: Db, actor: Actor, projectId: number, raw: Record<string, unknown>): RunInput {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
  const d = parseOrThrow(schema, Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, blank(v)])), "Cannot start the run");
  const m = modelNamed(db, p.id, d.model);
  const busy = db.$client
    .prepare(`select 1 from ${J.$} where ${J.projectId} = ? and ${J.kind} = 'model-run' and ${J.state} in ('queued', 'running') and json_extract(${J.input}, '$.modelId') = ?`)
    .get(p.id, m.id);
  if (busy) throw new InputError(`"${m.name}" is running already: wait for it, or cancel it.`, { model: "Running already." });
  return { modelId: m.id, purpose: d.purpose, samples: d.purpose === "annotate" ? d.samples : 1, temperature: d.temperature, limit: d.instances === "all" ? null : d.instances, roundId: null };
}

/**
 * The candidates runs a judgement round's `model:NAME` sources need (coordinators of the round's project):
 * one per model, over the round's instances, adding each model's candidates to the round as they come
 * (cached ones at once). Empty when the round asks no model.
 */
export function roundRunInputs(db: Db, actor: Actor, projectId: number, roundId: number): RunInput[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const round = db.select({ sources: judgementRounds.sourcesAsked }).from(judgementRounds).where(and(eq(judgementRounds.id, roundId), eq(judgementRounds.projectId, p.id))).get();
  if (!round) return [];
  return (JSON.parse(round.sources) as string[])
    .filter((s) => s.startsWith("model:"))
    .map((s) => ({ modelId: modelNamed(db, p.id, s.slice(6)).id, purpose: "candidates" as const, samples: 1, temperature: 0, limit: null, roundId }));
}
