/**
 * Everything a release holds, read in ONE read transaction (so every file of it describes the same
 * state of the project, whatever saves go on meanwhile): the corpus, the gold inputs and what is
 * derived from them (gold, mwgold, agreement, the dataset exports through their own writers), the
 * answers with their status, the facts the datasheet states, the guidelines, the coordinator's
 * datasheet answers, the pseudonyms given so far and the previous release's archive.
 */
import "server-only";
import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { READ } from "../../../db/immediate";
import {
  adjudications,
  instanceFlags,
  instances,
  judgementRounds,
  knownAnswers,
  lemmaOverrides,
  lexelts,
  projects,
  releaseArchives,
  releaseDatasheets,
  releasePseudonyms,
  releases,
  responses,
  trainingAttempts,
  users,
} from "../../../db/schema";
import { type AgreementReport, computeAgreement, pairAgreement, type PairAgreement } from "../../lexsub/agreement";
import { progressChartRows, type ProgressChartData } from "../annotate";
import { formatGold, formatMwGold, type GoldResult } from "../../lexsub/gold";
import type { AnnotatorResponse } from "../../lexsub/types";
import { type Actor, type ProjectRow, requireProject } from "../kernel/actor";
import { dataVersion } from "../kernel/data-version";
import { AGREEMENT_OPTIONS, deriveProjectGold, deriveResponseGold, excludedParticipantNames, type GoldInputs, goldInputs, scopedGoldInputs } from "../gold";
import { datasetExportItems, type DatasetExport, writeDatasetExport } from "../datasets";
import type { DatasheetAnswers, ReleaseFacts, ReleaseSummary } from "./release-types";

/** One answer as a release lists it (before pseudonyms are put in). */
interface SnapshotAnswer {
  userId: number;
  name: string;
  participant: boolean;
  response: AnnotatorResponse;
  /** The answer the gold counts when a coordinator adjudicated it (null: as given; "STRUCK": struck whole). */
  counted: AnnotatorResponse | "STRUCK" | null;
  status: "counted" | "left out" | "excluded instance";
  reason: string | null;
  flag: string | null;
  note: string | null;
}

export interface ReleaseSnapshot {
  project: ProjectRow & { trainingRequired: boolean; trainingThreshold: number };
  dataVersion: number;
  corpus: { lexelt: string; instances: { id: string; before: string; head: string; after: string; excluded: string | null }[] }[];
  gold: GoldResult;
  goldText: string;
  mwgoldText: string;
  agreement: AgreementReport;
  /** Pairwise agreement per pair of annotators (by account name), for the heatmap. */
  pairs: PairAgreement[];
  /** Answers per day and time on task, each person named "#<user id>" (a release puts the pseudonym in), a study's participants together by day. */
  progress: Omit<ProgressChartData, "thresholdSeconds" | "computedAt">;
  speedThresholdSeconds: number;
  datasets: Record<"coinco" | "swords" | "tsar", DatasetExport>;
  answers: SnapshotAnswer[];
  pseudonyms: Map<number, string>;
  facts: ReleaseFacts;
  datasheet: DatasheetAnswers;
  previous: { version: string; summary: ReleaseSummary; archive: Buffer } | null;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The responses to describe: every stored one, those left out of the gold too, with who gave them. */
function answersOf(db: Db, project: ProjectRow, inputs: GoldInputs): SnapshotAnswer[] {
  const leftOut = excludedParticipantNames(db, project.id);
  const shown = new Set(inputs.afterKnownAnswers.map((r) => `${r.instanceId}\t${r.annotator}`));
  const all = leftOut.size === 0 && shown.size === 0 ? inputs.typed : scopedGoldInputs(db, project, { withExcludedParticipants: true, withShownAnswers: true }).typed;
  const people = new Map(
    db
      .selectDistinct({ id: users.id, name: users.name, role: users.role })
      .from(responses)
      .innerJoin(users, eq(users.id, responses.userId))
      .where(eq(responses.projectId, project.id))
      .all()
      .map((u) => [u.name, u]),
  );
  const excluded = new Map(inputs.instances.map((i) => [i.instanceId, i.excludedReason]));
  const after = new Map(inputs.responses.map((r) => [`${r.instanceId}\t${r.annotator}`, r]));
  const adjudicated = new Set(inputs.adjudications.filter((a) => !inputs.staleAdjudications.has(a.id)).map((a) => `${a.instanceId}\t${a.annotator}`));
  const flags = new Map(
    db
      .select({ instanceId: instances.instanceId, userId: instanceFlags.userId, flag: instanceFlags.flag, note: instanceFlags.note })
      .from(instanceFlags)
      .innerJoin(instances, eq(instances.id, instanceFlags.instanceRef))
      .where(eq(instanceFlags.projectId, project.id))
      .all()
      .map((f) => [`${f.instanceId}\t${f.userId}`, f]),
  );
  return all.map((r) => {
    const key = `${r.instanceId}\t${r.annotator}`;
    const who = people.get(r.annotator)!;
    const out = leftOut.get(r.annotator);
    const instanceExcluded = excluded.get(r.instanceId) ?? null;
    const status: SnapshotAnswer["status"] = out || shown.has(key) ? "left out" : instanceExcluded !== null ? "excluded instance" : "counted";
    const reason = out
      ? "participant left out of the gold"
      : shown.has(key)
        ? "answered after its known answers were shown in the training"
        : instanceExcluded;
    const f = flags.get(`${r.instanceId}\t${who.id}`);
    return {
      userId: who.id,
      name: r.annotator,
      participant: who.role === "participant",
      response: r,
      counted: adjudicated.has(key) ? (after.get(key) ?? "STRUCK") : null,
      status,
      reason,
      flag: f?.flag ?? null,
      note: f?.note ? f.note : null,
    };
  });
}

function factsOf(db: Db, project: ReleaseSnapshot["project"], gold: GoldResult, agreement: AgreementReport, answers: SnapshotAnswer[]): ReleaseFacts {
  const pid = project.id;
  const n = (q: { n: number } | undefined) => q?.n ?? 0;
  const perInstance = new Map<string, number>();
  for (const a of answers) if (a.status !== "excluded instance") perInstance.set(a.response.instanceId, (perInstance.get(a.response.instanceId) ?? 0) + 1);
  const notExcluded = gold.items.filter((i) => i.excluded === null);
  const overlap = notExcluded.map((i) => perInstance.get(i.instanceId) ?? 0);
  const dates = db
    .select({ first: sql<number | null>`min(${responses.createdAt})`, last: sql<number | null>`max(${responses.updatedAt})` })
    .from(responses)
    .where(eq(responses.projectId, pid))
    .get();
  const attempts = db
    .select({ passed: sql<number>`coalesce(sum(${trainingAttempts.passed}), 0)`, done: sql<number>`coalesce(sum(${trainingAttempts.score} is not null), 0)` })
    .from(trainingAttempts)
    .where(eq(trainingAttempts.projectId, pid))
    .get();
  const people = new Map(answers.map((a) => [a.userId, a.participant]));
  return {
    lexelts: n(db.select({ n: count() }).from(lexelts).where(eq(lexelts.projectId, pid)).get()),
    instances: gold.items.length,
    excludedInstances: gold.items.length - notExcluded.length,
    goldLines: gold.items.filter((i) => i.line !== null && i.excluded === null).length,
    mwgoldLines: gold.items.filter((i) => i.mwLine !== null && i.excluded === null).length,
    answers: answers.length,
    countedAnswers: answers.filter((a) => a.status === "counted").length,
    leftOutAnswers: answers.filter((a) => a.status === "left out").length,
    annotators: [...people.values()].filter((p) => !p).length,
    participants: [...people.values()].filter((p) => p).length,
    overlap: { min: overlap.length ? Math.min(...overlap) : 0, median: median(overlap), max: overlap.length ? Math.max(...overlap) : 0 },
    trainingItems: n(db.select({ n: count() }).from(knownAnswers).where(and(eq(knownAnswers.projectId, pid), eq(knownAnswers.role, "training"))).get()),
    attentionChecks: n(db.select({ n: count() }).from(knownAnswers).where(and(eq(knownAnswers.projectId, pid), eq(knownAnswers.role, "check"))).get()),
    trainingRequired: project.trainingRequired,
    trainingPassMark: project.trainingThreshold,
    trainingPassed: attempts?.passed ?? 0,
    trainingFailed: (attempts?.done ?? 0) - (attempts?.passed ?? 0),
    adjudications: n(db.select({ n: count() }).from(adjudications).where(and(eq(adjudications.projectId, pid), isNull(adjudications.undoneAt))).get()),
    lemmaDecisions: n(db.select({ n: count() }).from(lemmaOverrides).where(eq(lemmaOverrides.projectId, pid)).get()),
    judgementRounds: n(db.select({ n: count() }).from(judgementRounds).where(eq(judgementRounds.projectId, pid)).get()),
    firstAnswer: dates?.first ?? null,
    lastAnswer: dates?.last ?? null,
    agreement: {
      items: agreement.items,
      pairs: agreement.pairs,
      pairwise: agreement.pairwise,
      pairwiseInterval: agreement.intervals.pairwise,
      modeAgreement: agreement.modeAgreement,
      alphaMasi: agreement.alphaMasi,
      alphaInterval: agreement.intervals.alphaMasi,
    },
  };
}

/** Read everything a release of the project holds, in one read transaction (coordinator of the project). */
export function readReleaseSnapshot(db: Db, actor: Actor, projectId: number): ReleaseSnapshot {
  return db.transaction(() => {
    const row = requireProject(db, actor, projectId, { coordinator: true });
    const settings = db
      .select({ trainingRequired: projects.trainingRequired, trainingThreshold: projects.trainingThreshold, speedThresholdMs: projects.speedThresholdMs })
      .from(projects)
      .where(eq(projects.id, projectId))
      .get()!;
    const project = { ...row, trainingRequired: settings.trainingRequired, trainingThreshold: settings.trainingThreshold };
    const inputs = goldInputs(db, actor, projectId);
    const gold = deriveProjectGold(inputs);
    const responseGold = deriveResponseGold(inputs);
    const agreement = computeAgreement(responseGold.items, AGREEMENT_OPTIONS);
    const items = datasetExportItems(db, actor, projectId, inputs);
    const datasets = {
      coinco: writeDatasetExport(items, "coinco"),
      swords: writeDatasetExport(items, "swords"),
      tsar: writeDatasetExport(items, "tsar"),
    };
    const rows = db
      .select({ lexelt: lexelts.item, id: instances.instanceId, before: instances.before, head: instances.head, after: instances.after, excluded: instances.excludedReason })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      .where(eq(lexelts.projectId, projectId))
      .orderBy(asc(lexelts.position), asc(instances.position))
      .all();
    const corpus: ReleaseSnapshot["corpus"] = [];
    for (const r of rows) {
      if (corpus.at(-1)?.lexelt !== r.lexelt) corpus.push({ lexelt: r.lexelt, instances: [] });
      corpus.at(-1)!.instances.push({ id: r.id, before: r.before, head: r.head, after: r.after, excluded: r.excluded });
    }
    const answers = answersOf(db, project, inputs);
    const pseudonyms = new Map(
      db
        .select({ userId: releasePseudonyms.userId, pseudonym: releasePseudonyms.pseudonym })
        .from(releasePseudonyms)
        .where(eq(releasePseudonyms.projectId, projectId))
        .all()
        .map((p) => [p.userId, p.pseudonym]),
    );
    const sheet = db.select({ answers: releaseDatasheets.answers }).from(releaseDatasheets).where(eq(releaseDatasheets.projectId, projectId)).get();
    const prev = db
      .select({ version: releases.version, summary: releases.summary, archive: releaseArchives.archive })
      .from(releases)
      .innerJoin(releaseArchives, eq(releaseArchives.releaseId, releases.id))
      .where(eq(releases.projectId, projectId))
      .orderBy(desc(releases.id))
      .limit(1)
      .get();
    return {
      project,
      dataVersion: dataVersion(db, projectId),
      corpus,
      gold,
      goldText: formatGold(gold.items),
      mwgoldText: formatMwGold(gold.items),
      agreement,
      pairs: pairAgreement(responseGold.items),
      progress: progressChartRows(
        db,
        projectId,
        (a) => `#${a.userId}`,
        (a) => (a.study ? `study ${a.study.id} (participants)` : `#${a.userId}`),
      ),
      speedThresholdSeconds: settings.speedThresholdMs / 1000,
      datasets,
      answers,
      pseudonyms,
      facts: factsOf(db, project, gold, agreement, answers),
      datasheet: sheet ? (JSON.parse(sheet.answers) as DatasheetAnswers) : {},
      previous: prev ? { version: prev.version, summary: JSON.parse(prev.summary) as ReleaseSummary, archive: Buffer.from(prev.archive) } : null,
    };
  }, READ);
}
