/**
 * The Agreement tab's Models section (issue #41): each model measured against the people with the task's
 * own measures (lib/lexsub/model-agreement.ts), computed from the responses directly in the background (a
 * "model-measures" job) and kept in model_measures with the data version it was computed at, so that the
 * page shows the figures and their age at once and a newer computation is started when answers changed.
 *
 * The people: every response the gold reads (lib/server/gold/gold-responses.ts: crowd participants left
 * out and answers given after the known answers were shown are out), without any model's. A model's
 * answers: each sample's, as its pseudo-annotator gave them. Both go through the same derivation
 * (deriveGold: the project's lemma decisions, exclusions and PoS corrections; adjudications are the
 * gold's, not applied here), so substitutes are compared as the gold compares them.
 */
import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { instances, jobs, knownAnswers, lemmaOverrides, lexelts, modelDecisions, modelMeasures, models, modelSamples, projects, responses, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type AgreementReport, computeAgreement } from "../../lexsub/agreement";
import { deriveGold, type GoldInstance, type GoldItem } from "../../lexsub/gold";
import { type Figure, type ModelAgreement, modelAgreement, samplesAgreement } from "../../lexsub/model-agreement";
import { lemmaTable } from "../../lexsub/normalize";
import { phraseBreak, type Rule, substituteBreak, targetBreak, tidy } from "../../lexsub/substitute-rules";
import { type AnnotatorResponse, parseLexeltItem } from "../../lexsub/types";
import { type Actor, requireProject } from "../kernel/actor";
import { dataVersion } from "../kernel/data-version";
import { modelUserNames } from "../kernel/model-users";
import { lemmaProposer, responseRecords } from "../gold";
import { sampleLabel, samplesOf } from "./samples";

const I = named(instances, "i");
const L = named(lexelts, "l");
const K = named(knownAnswers, "k");
const R = named(responses, "r");

interface SampleSummary {
  sample: number;
  label: string;
  answered: number;
  names: number;
  nils: number;
  multiwords: number;
  /** Answers kept as written that break a rule of the workspace, by rule (substitute-rules.ts). */
  breaks: Partial<Record<Rule, number>>;
}

export interface ModelFigures extends ModelAgreement {
  name: string;
  counted: boolean;
  samples: SampleSummary[];
  /** Krippendorff's α (MASI) of the people with the model's first sample. */
  alphaWith: number | null;
  /** The pairwise agreement of the model's samples with each other (null with one sample). */
  samplesAgreement: Figure | null;
}

export interface ModelMeasuresReport {
  people: { annotators: number; pairwise: number | null; modeAgreement: number | null; alphaMasi: number | null; perAnnotator: { annotator: string; pairwise: number | null; pairs: number }[] };
  models: ModelFigures[];
}

export interface ModelMeasuresView {
  report: ModelMeasuresReport | null;
  computedAt: number | null;
  computeMs: number | null;
  /** The answers changed since: a newer computation is on its way (or waits for its lane). */
  stale: boolean;
  /** A model-measures job is queued or running for the project. */
  computing: boolean;
  /** A model of the project has answers to measure (else there is nothing to compute). */
  answering: boolean;
}

/** The figures now (the job's work): O(responses × (1 + samples)). */
export function computeModelMeasures(db: Db, projectId: number): ModelMeasuresReport {
  const project = db.select({ language: projects.language }).from(projects).where(eq(projects.id, projectId)).get()!;
  const inst = db.$client
    .prepare(
      `select ${L.item} as lexelt, ${I.instanceId} as instanceId, ${I.head} as head, ${I.correctedPos} as correctedPos,
              coalesce(${I.excludedReason}, (select 'attention check' from ${K.$} where ${K.instanceRef} = ${I.id} and ${K.role} = 'check')) as excludedReason
         from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} where ${I.projectId} = ? order by ${L.position}, ${I.position}`,
    )
    .all(projectId) as GoldInstance[];
  const rows = db.select({ form: lemmaOverrides.form, lemma: lemmaOverrides.lemma, decision: lemmaOverrides.decision }).from(lemmaOverrides).where(eq(lemmaOverrides.projectId, projectId)).all();
  const options = { lemmaTable: lemmaTable(rows, project.language), propose: lemmaProposer(project.language), unreviewed: "keep" as const, language: project.language };
  const modelNames = modelUserNames(db, projectId);
  const people = responseRecords(db, projectId).filter((r) => !modelNames.has(r.annotator));
  const peopleGold = deriveGold(inst, people, options).items;
  const agreement: AgreementReport = computeAgreement(peopleGold, { bootstrapIterations: 0 });
  const shown = shownKeys(db, projectId);
  const out: ModelFigures[] = [];
  for (const m of db.select().from(models).where(eq(models.projectId, projectId)).orderBy(models.name).all()) {
    const samples = [...samplesOf(db, m.id)].sort((a, b) => a[0] - b[0]);
    if (samples.length === 0) continue;
    const perSample: GoldItem[][] = [];
    const names: string[] = [];
    const summaries: SampleSummary[] = [];
    for (const [k, userId] of samples) {
      const answers = sampleResponses(db, projectId, userId);
      names.push(answers.name);
      perSample.push(deriveGold(inst, [...people, ...answers.rows], options).items);
      summaries.push(summarise(answers.rows, k, sampleLabel(m.name, k, samples.length), inst, project.language));
    }
    const first = modelAgreement(peopleGold, perSample[0], names[0], shown);
    out.push({
      name: m.name,
      counted: isCountedNow(db, m.id),
      samples: summaries,
      ...first,
      alphaWith: computeAgreement(perSample[0], { bootstrapIterations: 0 }).alphaMasi,
      samplesAgreement: samples.length > 1 ? samplesAgreement(perSample, names) : null,
    });
  }
  return {
    people: {
      annotators: agreement.perAnnotator.length,
      pairwise: agreement.pairwise,
      modeAgreement: agreement.modeAgreement,
      alphaMasi: agreement.alphaMasi,
      perAnnotator: agreement.perAnnotator.map((a) => ({ annotator: a.annotator, pairwise: a.pairwise, pairs: a.pairs })),
    },
    models: out,
  };
}

function isCountedNow(db: Db, modelId: number): boolean {
  return db.select({ id: modelDecisions.id }).from(modelDecisions).where(and(eq(modelDecisions.modelId, modelId), isNull(modelDecisions.undoneAt))).get() !== undefined;
}

/** One sample's responses as the derivation reads them, and its account name. */
function sampleResponses(db: Db, projectId: number, userId: number): { name: string; rows: AnnotatorResponse[] } {
  const U = named(users, "u");
  const name = (db.$client.prepare(`select ${U.name} as name from ${U.$} where ${U.id} = ?`).get(userId) as { name: string }).name;
  const rows = db.$client
    .prepare(
      `select ${L.item} as lexelt, ${I.instanceId} as instanceId, ${R.kind} as kind, ${R.substitutes} as substitutes, ${R.multiword} as multiword
         from ${R.$} join ${I.$} on ${I.id} = ${R.instanceRef} join ${L.$} on ${L.id} = ${I.lexeltId}
        where ${R.projectId} = ? and ${R.userId} = ? order by ${L.position}, ${I.position}`,
    )
    .all(projectId, userId) as { lexelt: string; instanceId: string; kind: AnnotatorResponse["kind"]; substitutes: string; multiword: string | null }[];
  return { name, rows: rows.map((r) => ({ annotator: name, lexelt: r.lexelt, instanceId: r.instanceId, kind: r.kind, substitutes: JSON.parse(r.substitutes) as string[], multiword: r.multiword || null })) };
}

/** `annotator\tinstanceId` of the people's answers saved after a model's answers were shown to them. */
function shownKeys(db: Db, projectId: number): Set<string> {
  const U = named(users, "u");
  const rows = db.$client
    .prepare(
      `select ${U.name} as name, ${I.instanceId} as instanceId from ${R.$} join ${I.$} on ${I.id} = ${R.instanceRef} join ${U.$} on ${U.id} = ${R.userId}
        where ${R.projectId} = ? and ${R.suggestions} is not null and json_extract(${R.suggestions}, '$.shown') = 1`,
    )
    .all(projectId) as { name: string; instanceId: string }[];
  return new Set(rows.map((r) => `${r.name}\t${r.instanceId}`));
}

/** How a sample answered, and which of its answers break the workspace's rules (kept as written). */
function summarise(rows: readonly AnnotatorResponse[], sample: number, label: string, inst: readonly GoldInstance[], language: string): SampleSummary {
  const targets = new Map(inst.map((i) => [i.instanceId, { head: i.head ?? "", lemma: parseLexeltItem(i.lexelt)?.lemma ?? "", language }]));
  const s: SampleSummary = { sample, label, answered: rows.length, names: 0, nils: 0, multiwords: 0, breaks: {} };
  const count = (rule: Rule) => (s.breaks[rule] = (s.breaks[rule] ?? 0) + 1);
  for (const r of rows) {
    if (r.kind === "NAME") s.names++;
    if (r.kind === "NIL") s.nils++;
    if (r.multiword) s.multiwords++;
    const t = targets.get(r.instanceId) ?? { head: "", lemma: "", language };
    for (const sub of r.substitutes) {
      const broken = substituteBreak(sub) ?? targetBreak(tidy(sub), t);
      if (broken) count(broken.rule);
    }
    if (r.multiword) {
      const broken = phraseBreak(r.multiword, t);
      if (broken) count(broken.rule);
    }
  }
  return s;
}

/** Store the figures computed at `version` (the job). */
export function storeModelMeasures(db: Db, projectId: number, version: number, report: ModelMeasuresReport, computeMs: number): void {
  db.insert(modelMeasures)
    .values({ projectId, dataVersion: version, report: JSON.stringify(report), computeMs: Math.round(computeMs), computedAt: new Date() })
    .onConflictDoUpdate({ target: modelMeasures.projectId, set: { dataVersion: version, report: JSON.stringify(report), computeMs: Math.round(computeMs), computedAt: new Date() } })
    .run();
}

/** What the Agreement tab shows of the models: the last figures, their age, and whether newer ones are coming. Coordinators of the project. */
export function modelMeasuresView(db: Db, actor: Actor, projectId: number): ModelMeasuresView {
  requireProject(db, actor, projectId, { coordinator: true });
  const row = db.select().from(modelMeasures).where(eq(modelMeasures.projectId, projectId)).get();
  const J = named(jobs);
  const computing = db.$client.prepare(`select 1 from ${J.$} where ${J.projectId} = ? and ${J.kind} = 'model-measures' and ${J.state} in ('queued', 'running')`).get(projectId) !== undefined;
  return {
    report: row ? (JSON.parse(row.report) as ModelMeasuresReport) : null,
    computedAt: row?.computedAt.getTime() ?? null,
    computeMs: row?.computeMs ?? null,
    stale: !row || row.dataVersion !== dataVersion(db, projectId),
    computing,
    answering: hasSamples(db, projectId),
  };
}

/** Whether any model of the project has a sample (answers stored). */
function hasSamples(db: Db, projectId: number): boolean {
  const MS = named(modelSamples, "ms");
  const M = named(models, "m");
  return db.$client.prepare(`select 1 from ${MS.$} join ${M.$} on ${M.id} = ${MS.modelId} where ${M.projectId} = ? limit 1`).get(projectId) !== undefined;
}
