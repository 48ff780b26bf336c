/**
 * lib/server/corpus: Projects and their corpus: creating and listing projects, importing lexelt XML (the staged
 * import of lexelt-import.ts, also used by the datasets import).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
// Without an actor: the configured upload limit, checked before the body is read.
export { maxImportBytes } from "./corpus";
export { createProject, listProjects, projectAccessRequest, projectOverview, type ProjectOverview, type ProjectSummary } from "./projects";
export { deleteProject, projectContents, type ProjectContents, renameProject, setProjectArchived, setProjectLanguage } from "./project-lifecycle";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { importLexeltXml } from "./corpus";
export { setInstancesBefore } from "./lexelt-import";
export { type DatasetImportInput, type DatasetImportReport, discardDatasetStaging, isDatasetFormat, readDataset, stagedDatasetImport } from "./dataset-import";
// Without an actor: this feature's job kinds, for the jobs worker (lib/server/jobs/jobs-kinds.ts); the job
// carries the actor that startJob checked before queueing it.
export { CORPUS_JOB_KINDS } from "./job-kinds";
