/**
 * The derivations that are too heavy for the request thread (issue #14): the
 * gold / mwgold files as nobody keeps them (case folded, proposals applied) and
 * every problem, the agreement downloads (every item of T), the responses TSV
 * download, the Datasets page's downloads and loss reports, the Scoring page's
 * board (every stored run scored against the chosen gold). The Gold, Agreement
 * and Progress pages read the kept figures (#39, lib/server/derived) on the
 * request thread. lib/server/jobs/derive-pool.ts runs them on a worker thread with its
 * own read-only connection to the same WAL database (or here, in-process, for
 * an in-memory database); this module is what both run.
 *
 * Results are cached per database and job under the project's data version
 * (data_versions, raised by triggers in the transaction of every response,
 * corpus change and review decision; drizzle/0006): a page load after nothing
 * changed is a cache lookup, the first one after a save recomputes. The
 * version and the inputs are read in one transaction, so a result is exactly
 * the version it is filed under.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { type Actor, requireProject } from "../kernel/actor";
import { type AgreementFile, agreementDownload } from "../gold/agreement";
import { dataVersion } from "../kernel/data-version";
import { projectGold } from "../gold/gold";
import { firstProblems } from "../derived/actor-free";
import { type GoldSource } from "../scoring/golds";
import { type RunInfo } from "../scoring/runs";
import {
  type ScoreBoard,
  type ScoreMode,
  runDetail,
  runReport,
  scoreBoard,
  scoresFile,
  scoringFingerprint,
} from "../scoring/scores";
import { type SensevalOutcome, type SensevalUpload, scoreSensevalUpload } from "../scoring/senseval";
import { type BaselineFiles, wordNetBaselineFiles } from "../scoring/baselines";
import { type RankedUpload, type RankingOutcome, scoreRankingUpload } from "../scoring/ranking";
import { exportAdjudicatedResponses, goldProblemsTsv } from "../gold/gold-review";
import { type ProgressChartData, progressChartData } from "../annotate/progress-charts";
import { type DatasetExport, type DatasetFormat, type SwordsIds, type TsarCells, exportDataset } from "../datasets/datasets";

export type DeriveJob =
  | { op: "agreementDownload"; actor: Actor; projectId: number; query: { format?: string; table?: string } }
  | { op: "goldFile"; actor: Actor; projectId: number; file: "gold" | "mwgold" | "problems"; foldCase: boolean; applyProposals?: boolean }
  | { op: "scoreBoard"; actor: Actor; projectId: number; source: GoldSource; mode: ScoreMode }
  | { op: "scoresFile"; actor: Actor; projectId: number; source: GoldSource; mode: ScoreMode }
  | { op: "responsesFile"; actor: Actor; projectId: number }
  // The Progress page's charts: answers per day and time on task (cached under the data version).
  | { op: "progressCharts"; actor: Actor; projectId: number }
  // The Datasets page's downloads (CoInCo XML, SWORDS JSON, TSAR TSV) and what each cannot carry (the report reads the file's cache entry).
  | { op: "datasetFile"; actor: Actor; projectId: number; format: DatasetFormat; goldOnly: boolean; cells?: TsarCells; ids?: SwordsIds }
  | { op: "datasetReport"; actor: Actor; projectId: number; format: DatasetFormat; goldOnly: boolean; cells?: TsarCells; ids?: SwordsIds }
  // Scoring work that grows with a file (uploads, a run's detail): computed every time, never cached.
  | { op: "runDetail"; actor: Actor; projectId: number; runId: number; mode: ScoreMode }
  | { op: "runReport"; actor: Actor; projectId: number; runId: number; verbose: boolean; mode: ScoreMode }
  | { op: "baselineFiles"; actor: Actor; projectId: number }
  | { op: "senseval"; actor: Actor; projectId: number; input: SensevalUpload }
  | { op: "ranking"; actor: Actor; projectId: number; input: RankedUpload };

/** What each job answers. */
interface DeriveResults {
  agreementDownload: AgreementFile;
  goldFile: { text: string };
  scoreBoard: ScoreBoard;
  /** The JSON download of every run's figures (`scoresJson`) as text, with the file name it is offered under. */
  scoresFile: { fileName: string; text: string };
  responsesFile: { text: string };
  progressCharts: ProgressChartData;
  datasetFile: DatasetExport;
  datasetReport: Omit<DatasetExport, "text">;
  /** The detail as JSON text (`{"ok":true,"detail":…}`): one string crosses from the process, not a graph of objects. */
  runDetail: { text: string };
  runReport: { run: RunInfo; text: string };
  baselineFiles: BaselineFiles;
  senseval: SensevalOutcome;
  ranking: RankingOutcome;
}

/** Jobs computed on every call (not cached): they depend on an upload, or their answer is too large to keep. */
const UNCACHED_OPS: ReadonlySet<DeriveJob["op"]> = new Set(["runDetail", "runReport", "baselineFiles", "senseval", "ranking"]);
/** Jobs carrying an uploaded file: never shared between callers (nor keyed by their content). */
export const UPLOAD_OPS: ReadonlySet<DeriveJob["op"]> = new Set(["senseval", "ranking"]);

export type DeriveResult<J extends DeriveJob> = DeriveResults[J["op"]];

interface Entry {
  /** The data version (and, for the Scoring board, the stored runs and golds) the value was computed at. */
  version: number | string;
  value: unknown;
  /** When it was computed (ms). */
  at: number;
}

/**
 * Results served for a while after the data moved on (ms), for figures that are global and slow
 * while a change to them is small: the Progress tab's charts (answers per UTC day, time on task)
 * are drawn again at most once a minute while people save, and say when they were drawn (#39).
 */
const SERVED_AFTER_A_CHANGE: Partial<Record<DeriveJob["op"], number>> = { progressCharts: 60_000 };

/** Per database: job key → the last result and the version it was computed at (least recently used dropped first). */
const cache = new WeakMap<Db, Map<string, Entry>>();
/** Results kept per database: a few pages of a few projects. Each is one page or one file. */
const CACHE_ENTRIES = 24;

function jobKey(job: DeriveJob): string {
  // The actor is part of the key: every call checks the actor again anyway, but a cached value must never
  // carry one caller's view to another.
  return JSON.stringify(job);
}

function compute(db: Db, job: DeriveJob): unknown {
  switch (job.op) {
    case "agreementDownload":
      return agreementDownload(db, job.actor, job.projectId, job.query);
    case "goldFile": {
      // Every problem, from the kept figures (#39); the files as kept are streamed by the route itself, and come here only
      // as the variants nobody keeps: case folded, or with the proposals nobody decided applied (derived from every response).
      if (job.file === "problems") return { text: goldProblemsTsv(firstProblems(db, job.projectId, Number.MAX_SAFE_INTEGER)) };
      const g = projectGold(db, job.actor, job.projectId, { foldCase: job.foldCase, applyProposals: job.applyProposals === true });
      return { text: job.file === "gold" ? g.gold : g.mwgold };
    }
    case "scoreBoard":
      return scoreBoard(db, job.actor, job.projectId, job.source, job.mode);
    case "scoresFile":
      return scoresFile(db, job.actor, job.projectId, job.source, job.mode);
    case "responsesFile":
      return { text: exportAdjudicatedResponses(db, job.actor, job.projectId) };
    case "progressCharts":
      return progressChartData(db, job.actor, job.projectId);
    case "datasetFile":
      return exportDataset(db, job.actor, job.projectId, job.format, { goldOnly: job.goldOnly, cells: job.cells, ids: job.ids });
    case "datasetReport": {
      // The file's own cache entry (the same data version): asking for the report after the download, or the other way round, derives once.
      const { text: _text, ...report } = runDeriveJob(db, { ...job, op: "datasetFile" });
      return report;
    }
    case "runDetail":
      return { text: JSON.stringify({ ok: true, detail: runDetail(db, job.actor, job.projectId, job.runId, job.mode) }) };
    case "runReport":
      return runReport(db, job.actor, job.projectId, job.runId, job.verbose, job.mode);
    case "baselineFiles":
      return wordNetBaselineFiles(db, job.actor, job.projectId);
    case "senseval":
      return scoreSensevalUpload(db, job.actor, job.projectId, job.input);
    case "ranking":
      return scoreRankingUpload(db, job.actor, job.projectId, job.input);
  }
}

/** What a cached result must have been computed at to be served: the data version; the board and its JSON also depend on the stored runs and golds. */
function versionOf(db: Db, job: DeriveJob): number | string {
  const v = dataVersion(db, job.projectId);
  return job.op === "scoreBoard" || job.op === "scoresFile" ? `${v}|${scoringFingerprint(db, job.projectId)}` : v;
}

/** Run a job against `db` now, or answer from the cache when the project's data version has not moved. */
export function runDeriveJob<J extends DeriveJob>(db: Db, job: J): DeriveResult<J> {
  // Who asks is checked on every call, before the cache is read.
  requireProject(db, job.actor, job.projectId, { coordinator: true });
  // The scoring jobs depend on an upload or answer too much to keep: computed every time.
  if (UNCACHED_OPS.has(job.op)) return compute(db, job) as DeriveResult<J>;
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const key = jobKey(job);
  return db.$client.transaction(() => {
    const version = versionOf(db, job);
    const hit = perDb.get(key);
    if (hit && (hit.version === version || Date.now() - hit.at < (SERVED_AFTER_A_CHANGE[job.op] ?? 0))) {
      perDb.delete(key);
      perDb.set(key, hit);
      return hit.value as DeriveResult<J>;
    }
    const value = compute(db, job);
    perDb.delete(key);
    perDb.set(key, { version, value, at: Date.now() });
    while (perDb.size > CACHE_ENTRIES) perDb.delete(perDb.keys().next().value!);
    return value as DeriveResult<J>;
  })();
}
