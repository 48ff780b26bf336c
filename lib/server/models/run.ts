/**
 * A model's run over a project, as a background job (kind "model-run"; jobs.ts gives model runs lanes,
 * threads and a time limit of their own). For `annotate` it answers each instance of the project's queue
 * (training items and attention checks left out; the first N with `limit`) once per sample, as that
 * sample's pseudo-annotator (samples.ts); for `candidates` it asks for up to ten ranked candidates (oot
 * runs, judgement rounds: `roundId` takes the round's instances and adds the candidates to it).
 *
 * - Resumable: an instance a sample has answered is skipped, and a call made before with the same model,
 *   settings, prompt, instance and sample is taken from the cache (calls.ts): running again goes on.
 * - Calls run `maxConcurrency` at once; 429 (its Retry-After), 5xx, time-outs and dropped connections are
 *   retried with back-off (5 tries); a malformed reply or a schema violation is a failure, never half an
 *   answer. The report lists what failed, per instance.
 * - Answers and call records are written in short transactions every ~100 ms, between which saves get the
 *   lock; progress is the job's. A cancel aborts the calls in flight at once: what was answered is kept.
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { InputError } from "../kernel/errors";
import { prepared } from "../kernel/statements";
import { JobCancelled, type JobContext } from "../kernel/job-context";
import { KeyUnreadable, openCaller } from "./calls";
import type { Outcome } from "./client";
import type { ModelRow } from "./connections";
import type { ModelAnswer, ModelCandidates, Purpose } from "./prompt";
import { answeredBy, ensureSamples, storeAnswers, storedAnswer } from "./samples";
import { addRoundCandidates } from "./round-candidates";

const I = named(schema.instances, "i");
const L = named(schema.lexelts, "l");
const K = named(schema.knownAnswers, "k");
const JI = named(schema.judgementItems, "ji");
const MC = named(schema.modelCalls, "mc");
const JOBS = named(schema.jobs);
const MCI = named(schema.modelCalls);

export interface RunInput {
  modelId: number;
  purpose: Purpose;
  samples: number;
  temperature: number;
  /** The first N instances of the queue; null: all. */
  limit: number | null;
  /** candidates for a judgement round's instances (judgement.ts's sources `model:NAME`). */
  roundId?: number | null;
}

interface RunFailure {
  lexelt: string;
  instanceId: string;
  sample: number;
  outcome: Outcome;
  detail: string;
}

export interface RunReport {
  model: string;
  purpose: Purpose;
  samples: number;
  temperature: number;
  templateVersion: number;
  /** Instances × samples in the run. */
  total: number;
  /** Answered before this run (skipped). */
  skipped: number;
  /** Answered now: by a call, or from the cache. */
  answered: number;
  cached: number;
  failed: number;
  /** Calls made (tries included), by outcome. */
  outcomes: Partial<Record<Outcome, number>>;
  tokensIn: number;
  tokensOut: number;
  /** The first 200 failures, instance by instance. */
  failures: RunFailure[];
}

interface RunInstance {
  ref: number;
  lexelt: string;
  instanceId: string;
  before: string;
  head: string;
  after: string;
}

/** The instances a run goes through, in corpus order. */
function runInstances(db: Db, projectId: number, input: RunInput): RunInstance[] {
  const cols = `${I.id} as ref, ${L.item} as lexelt, ${I.instanceId} as instanceId, ${I.before} as before, ${I.head} as head, ${I.after} as after`;
  if (input.roundId != null) {
    return db.$client
      .prepare(`select ${cols} from ${JI.$} join ${I.$} on ${I.id} = ${JI.instanceId} join ${L.$} on ${L.id} = ${I.lexeltId} where ${JI.roundId} = ? and ${I.projectId} = ? order by ${JI.position}`)
      .all(input.roundId, projectId) as RunInstance[];
  }
  const sql = `select ${cols} from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId}
     where ${I.projectId} = ? and ${I.inQueue} = 1 and not exists (select 1 from ${K.$} where ${K.instanceRef} = ${I.id})
     order by ${L.position}, ${I.position}, ${I.id}${input.limit != null ? " limit ?" : ""}`;
  return db.$client.prepare(sql).all(...(input.limit != null ? [projectId, input.limit] : [projectId])) as RunInstance[];
}

/** Instances that have an ok candidates call already (for this model): a candidates run goes on past them. */
function candidatesDone(db: Db, modelId: number): Set<number> {
  const rows = db.$client.prepare(`select distinct ${MC.instanceRef} as ref from ${MC.$} where ${MC.modelId} = ? and ${MC.purpose} = 'candidates' and ${MC.outcome} = 'ok'`).all(modelId) as { ref: number }[];
  return new Set(rows.map((r) => r.ref));
}

interface Work {
  inst: RunInstance;
  sample: number;
  userId: number | null;
}

/** One call's record (in the caller's transaction), by a statement prepared once per connection. */
function recordCall(db: Db, c: typeof schema.modelCalls.$inferInsert): void {
  prepared(
    db,
    `insert into ${MCI.$} (${MCI.modelId}, ${MCI.purpose}, ${MCI.instanceRef}, ${MCI.sample}, ${MCI.settingsHash}, ${MCI.promptHash}, ${MCI.templateVersion}, ${MCI.settings}, ${MCI.outcome}, ${MCI.httpStatus}, ${MCI.detail}, ${MCI.answer}, ${MCI.tokensIn}, ${MCI.tokensOut}, ${MCI.latencyMs}, ${MCI.jobId}, ${MCI.at})
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(c.modelId, c.purpose, c.instanceRef, c.sample, c.settingsHash, c.promptHash, c.templateVersion, c.settings, c.outcome, c.httpStatus ?? null, c.detail ?? "", c.answer ?? null, c.tokensIn ?? null, c.tokensOut ?? null, c.latencyMs, c.jobId ?? null, (c.at ?? new Date()).getTime());
}

/** The job's handler (job-kinds.ts MODELS_JOB_KINDS["model-run"]). */
export async function modelRunJob(ctx: JobContext): Promise<RunReport> {
  const db = drizzle(ctx.sqlite, { schema }) as unknown as Db;
  const input = ctx.job.input as unknown as RunInput;
  const model = db.select().from(schema.models).where(and(eq(schema.models.id, input.modelId), eq(schema.models.projectId, ctx.job.projectId))).get() as ModelRow | undefined;
  if (!model) throw new InputError("The model was removed before its run started.");
  const project = db.select({ guidelines: schema.projects.guidelines, language: schema.projects.language }).from(schema.projects).where(eq(schema.projects.id, ctx.job.projectId)).get()!;
  await ctx.step(0, 0, `Starting ${model.name}…`);
  const ac = new AbortController();
  const cancelAsked = ctx.sqlite.prepare(`select ${JOBS.cancelRequested} as c from ${JOBS.$} where ${JOBS.id} = ?`);
  const poll = setInterval(() => {
    if ((cancelAsked.get(ctx.job.id) as { c: number } | undefined)?.c) ac.abort();
  }, 200);
  let caller;
  try {
    caller = openCaller(db, model, project, ac.signal);
  } catch (e) {
    clearInterval(poll);
    if (e instanceof KeyUnreadable) throw new InputError(e.message);
    throw e;
  }
  const report: RunReport = {
    model: model.name,
    purpose: input.purpose,
    samples: input.samples,
    temperature: input.temperature,
    templateVersion: caller.templates[input.purpose].version,
    total: 0,
    skipped: 0,
    answered: 0,
    cached: 0,
    failed: 0,
    outcomes: {},
    tokensIn: 0,
    tokensOut: 0,
    failures: [],
  };
  try {
    const instances = runInstances(db, ctx.job.projectId, input);
    const work: Work[] = [];
    if (input.purpose === "annotate") {
      const users = ensureSamples(db, model, input.samples);
      const answered = answeredBy(db, ctx.job.projectId, [...users.values()]);
      for (const inst of instances) {
        for (let k = 1; k <= input.samples; k++) {
          const userId = users.get(k)!;
          if (answered.has(`${inst.ref}:${userId}`)) report.skipped++;
          else work.push({ inst, sample: k, userId });
        }
      }
    } else {
      const done = input.roundId != null ? new Set<number>() : candidatesDone(db, model.id);
      for (const inst of instances) {
        if (done.has(inst.ref)) report.skipped++;
        else work.push({ inst, sample: 1, userId: null });
      }
    }
    report.total = report.skipped + work.length;
    const pending: { w: Work; done: Awaited<ReturnType<typeof caller.answer>> }[] = [];
    let next = 0;
    const lanes = Array.from({ length: Math.min(model.maxConcurrency, Math.max(1, work.length)) }, async () => {
      while (next < work.length && !ac.signal.aborted) {
        const w = work[next++];
        const done = await caller.answer(input.purpose, w.inst, w.sample, input.temperature, { attempts: 5, jobId: ctx.job.id });
        pending.push({ w, done });
      }
    });
    let finished = false;
    const all = Promise.all(lanes).finally(() => {
      finished = true;
    });
    const flush = () => {
      if (pending.length === 0) return;
      const batch = pending.splice(0, pending.length);
      db.transaction(() => {
        for (const c of batch.flatMap((b) => b.done.rows)) recordCall(db, c);
        const answers: Parameters<typeof storeAnswers>[2] = [];
        for (const { w, done } of batch) {
          for (const row of done.rows) {
            report.outcomes[row.outcome] = (report.outcomes[row.outcome] ?? 0) + 1;
            report.tokensIn += row.tokensIn ?? 0;
            report.tokensOut += row.tokensOut ?? 0;
          }
          const r = done.done.result;
          if (r.outcome !== "ok" || !r.answer) {
            if (r.outcome === "cancelled") continue;
            report.failed++;
            if (report.failures.length < 200) report.failures.push({ lexelt: w.inst.lexelt, instanceId: w.inst.instanceId, sample: w.sample, outcome: r.outcome, detail: r.detail });
            continue;
          }
          report.answered++;
          if (done.done.cached) report.cached++;
          if (input.purpose === "annotate") answers.push({ ref: w.inst.ref, userId: w.userId!, answer: storedAnswer(r.answer as ModelAnswer, project.language) });
          else if (input.roundId != null) addRoundCandidates(db, input.roundId, w.inst.ref, (r.answer as ModelCandidates).candidates, `model:${model.name}`);
        }
        if (answers.length > 0) storeAnswers(db, ctx.job.projectId, answers);
      });
    };
    // Every ~250 ms: a few dozen answers a transaction, so that saves meet the lock taken as seldom as possible.
    const message = () => `${model.name}: ${report.skipped + report.answered + report.failed} of ${report.total} (${report.failed} failed)`;
    try {
      while (!finished) {
        await Promise.race([all, new Promise((r) => setTimeout(r, 250))]);
        flush();
        await ctx.step(report.skipped + report.answered + report.failed, report.total, message());
      }
      flush();
    } catch (e) {
      if (!(e instanceof JobCancelled)) throw e;
      ac.abort();
    }
    if (ac.signal.aborted) {
      await all.catch(() => undefined);
      flush();
      const c = new JobCancelled();
      c.message = `Cancelled: ${report.answered} answered in this run are kept (${report.skipped} before it); start it again to go on.`;
      throw c;
    }
    await ctx.step(report.total, report.total, message());
    return report;
  } finally {
    clearInterval(poll);
    await caller.close();
  }
}
