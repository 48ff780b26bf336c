/**
 * lib/server/scoring: Scoring systems against the gold: uploaded files (uploads.ts), runs (runs.ts), golds
 * (golds.ts), their figures (scores.ts), SENSEVAL answers (senseval.ts), WordNet baselines (baselines.ts),
 * ranking benchmarks (ranking.ts).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { storeWordNetBaselineRuns } from "./baselines";
export { type RankingOutcome } from "./ranking";
// Without an actor: limits shown by the forms and checked before reading.
export { MAX_RANKED_RUNS } from "./ranking";
export { deleteGold, type GoldInfo, type GoldSource, listGolds } from "./golds";
export { deleteRunInSlices, listRuns, runFileDownload, type UploadRunResult } from "./runs";
export { type GroupRow, type ItemRow, type RunDetail, type RunFigures, type RunSummary, type ScoreBoard, type ScoreMode } from "./scores";
export { type ItemsPage, type ItemsQuery } from "./run-page";
export { type SensevalOutcome } from "./senseval";
export { type NamedText } from "./uploads";
// Without an actor: bytes to text (no data access); the scoring itself checks the actor.
export { readUpload } from "./uploads";
export { MAX_RUN_BYTES } from "./uploads";
// Without an actor: this feature's job kinds, for the jobs worker (lib/server/jobs/jobs-kinds.ts); the job
// carries the actor that startJob checked before queueing it.
export { SCORING_JOB_KINDS } from "./job-kinds";
// Without an actor: this feature's derivation kinds, for the derivations (lib/server/jobs/derive-jobs.ts); each job
// carries the actor, which the derivation checks before it runs.
export { SCORING_DERIVE_KINDS } from "./derive-kinds";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { baselineInstances, wordnetBaseline } from "./baselines";
export { runFile, storeRunUpload } from "./runs";
// For the derivations (lib/server/jobs/derive-pool.ts and the derivation process): a gold's facts kept before the
// board or a run's page is added up there, a gold's runs scored whole in the background, and the items of runs
// stored before #39 written. No actor, or one the
// caller checked: the server's own work.
export { computeBoardOthers, keepBoardGoldFacts, keepRunGoldFacts } from "./board";
export { runsWithoutItems, writeItemsOfStoredRun } from "./run-store";
