/**
 * lib/server/releases: citable releases of a project's gold standard (issue #42): made from one
 * snapshot, frozen, checksummed, stored in the database (so backups carry them), with a datasheet,
 * CITATION.cff and a Hugging Face dataset card.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { releaseFile, type ReleasePlot, releasePlots } from "./release-files";
export { checkReleaseInput, datasheetAnswers, listReleases, releaseArchive, releaseDetail, type ReleaseDetail, saveDatasheet } from "./releases";
// Without an actor: the questions' text and keys, for the form.
export { DATASHEET_QUESTIONS, MAX_DATASHEET_ANSWER } from "./release-types";
// Without an actor: this feature's job kinds, for the jobs worker (lib/server/jobs/jobs-kinds.ts); the job
// carries the actor that startJob checked before queueing it.
export { RELEASES_JOB_KINDS } from "./job-kinds";
