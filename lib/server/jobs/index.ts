/**
 * lib/server/jobs: work off the request thread: jobs (imports, uploads: jobs.ts, their kinds gathered in jobs-kinds.ts from each feature's registry;
 * a job reports progress through its JobContext into the jobs table, read by getJob/listJobs)
 * and derivations (derive-pool.ts: the Gold, Agreement, Progress and Scoring pages and downloads,
 * computed in the derivation child by derive-jobs.ts, their kinds gathered there from each feature's registry).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
// Without an actor: the job carries the actor; derive-pool.ts checks it (requireProject) before queueing.
export { derive, deriveWithin } from "./derive-pool";
export { deriveDownload } from "./derive-pool";
export { keptRunDetailText, refreshAgreementAlpha, refreshScoringOthers, scoringBoardView } from "./derive-pool";
export { answerWithJob, cancelJob, getJob, type JobView, listJobs, startJob } from "./jobs";
// Without an actor: a fresh temp file for an upload body, before the actor-checked startJob.
export { uploadPath } from "./jobs";
