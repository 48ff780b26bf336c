/**
 * lib/server/runtime: The worker runtime under jobs and derivations: pools, worker files, upload quota.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
// Takes the actor to find whose quota of waiting uploads it is: not an authorization check (the
// route checks who asks first, then refuses an upload past the quota before reading its body).
export { checkDeclaredUpload } from "./upload-quota";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { compareOnPool, hashOnPool, hashThreads } from "./hash-pool";
export { distWorkerDir, WORKER_NAMES } from "./worker-files";
export { FairQueue } from "./fair-queue";
export { LimitError, WorkerPool } from "./pool";
export { checkUploadRoom } from "./upload-quota";
export { holdUploadBytes } from "./upload-quota";
