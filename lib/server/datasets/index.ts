/**
 * lib/server/datasets: Published datasets (SemEval-2007, CoInCo, SWORDS, TSAR) imported as a project with its gold
 * counts, and exported back.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { datasetSummary, type DatasetSummary, datasetImportRecords, type DatasetImportRecord } from "./datasets";
// Without an actor: a file name and content type from a name the caller already read through requireProject.
export { datasetFileInfo } from "./datasets";
// Without an actor: a type guard for the form field (datasetImport checks again).
export { isDatasetFormat } from "./datasets";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { datasetExportItems, type DatasetExport, writeDatasetExport } from "./datasets";
// Without an actor: this feature's derivation kinds, for the derivations (lib/server/jobs/derive-jobs.ts); each job
// carries the actor, which the derivation checks before it runs.
export { DATASETS_DERIVE_KINDS } from "./derive-kinds";
