/**
 * lib/server/scoring: Scoring systems against the gold: runs and gold files (scoring.ts), WordNet baselines
 * (baselines.ts), ranking benchmarks (ranking.ts).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { storeWordNetBaselineRuns } from "./baselines";
export { type RankingOutcome } from "./ranking";
// Without an actor: limits shown by the forms and checked before reading.
export { MAX_RANKED_RUNS } from "./ranking";
export { deleteGold, deleteRun, type GoldInfo, type GoldSource, type GroupRow, type ItemRow, listGolds, listRuns, type NamedText, type RunDetail, type RunFigures, runFile, type RunSummary, type ScoreBoard, scoreBoard, type ScoreMode, scoresJson, type SensevalOutcome, type UploadRunResult } from "./scoring";
// Without an actor: bytes to text (no data access); the scoring itself checks the actor.
export { decodeUpload } from "./scoring";
export { MAX_RUN_BYTES } from "./scoring";
