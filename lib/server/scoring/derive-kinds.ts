/**
 * Scoring's derivation kinds (#43: lib/server/jobs/derive-jobs.ts takes them from this feature's
 * index): the Scoring board (every stored run scored against the chosen gold) and its JSON, cached
 * until the data or the stored runs and golds change; and, computed every time, the board and a run's
 * figures page from the outcomes kept per id, a run's detail and report, the WordNet baselines' files
 * and the SENSEVAL and ranking uploads. Each job carries the
 * actor; the derivation checked it, and each function called here checks it again.
 */
import type { Db } from "../../../db/client";
import type { DeriveJobBase, DeriveKinds } from "../kernel/derive-kind";
import { wordNetBaselineFiles } from "./baselines";
import { keptScoreBoard } from "./board";
import type { GoldSource } from "./golds";
import { type RankedUpload, scoreRankingUpload } from "./ranking";
import { type ItemsQuery, keptRunDetail } from "./run-page";
import { type ScoreMode, runDetail, runReport, scoreBoard, scoresFile, scoringFingerprint } from "./scores";
import { type SensevalUpload, scoreSensevalUpload } from "./senseval";

type BoardJob = DeriveJobBase & { source: GoldSource; mode: ScoreMode };

export const SCORING_DERIVE_KINDS = {
  /**
   * The board added up from the outcomes kept per id (#39), null when they cannot give it: here, off the
   * serving thread, since adding up a run of 1,000,000 lines held a serving process for tens of ms, and
   * every save waiting on it. Computed every time (its figures follow every save).
   */
  keptBoard: { run: (db: Db, job: BoardJob) => keptScoreBoard(db, job.actor, job.projectId, job.source, job.mode), uncached: true, light: true },
  /** A run's figures page from its kept outcomes, as JSON text (`{"ok":true,"detail":…}`), null when they cannot give it. */
  keptRunDetail: {
    run: (db: Db, job: DeriveJobBase & { runId: number; mode: ScoreMode; query: ItemsQuery }): { text: string } | null => {
      const detail = keptRunDetail(db, job.actor, job.projectId, job.runId, job.mode, job.query);
      return detail && { text: JSON.stringify({ ok: true, detail }) };
    },
    uncached: true,
    light: true,
  },
  scoreBoard: { run: (db: Db, job: BoardJob) => scoreBoard(db, job.actor, job.projectId, job.source, job.mode), fingerprint: scoringFingerprint },
  /** The JSON download of every run's figures (`scoresJson`) as text, with the file name it is offered under. */
  scoresFile: { run: (db: Db, job: BoardJob) => scoresFile(db, job.actor, job.projectId, job.source, job.mode), fingerprint: scoringFingerprint },
  /** The detail as JSON text (`{"ok":true,"detail":…}`): one string crosses from the process, not a graph of objects. */
  runDetail: {
    run: (db: Db, job: DeriveJobBase & { runId: number; mode: ScoreMode }): { text: string } => ({
      text: JSON.stringify({ ok: true, detail: runDetail(db, job.actor, job.projectId, job.runId, job.mode) }),
    }),
    uncached: true,
  },
  runReport: {
    run: (db: Db, job: DeriveJobBase & { runId: number; verbose: boolean; mode: ScoreMode }) => runReport(db, job.actor, job.projectId, job.runId, job.verbose, job.mode),
    uncached: true,
  },
  baselineFiles: { run: (db: Db, job: DeriveJobBase) => wordNetBaselineFiles(db, job.actor, job.projectId), uncached: true },
  senseval: { run: (db: Db, job: DeriveJobBase & { input: SensevalUpload }) => scoreSensevalUpload(db, job.actor, job.projectId, job.input), uncached: true, upload: true },
  ranking: { run: (db: Db, job: DeriveJobBase & { input: RankedUpload }) => scoreRankingUpload(db, job.actor, job.projectId, job.input), uncached: true, upload: true },
} satisfies DeriveKinds;
