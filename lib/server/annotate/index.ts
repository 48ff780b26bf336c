/**
 * lib/server/annotate: The annotator's work: the workspace and its queue, saving a response (save-request.ts, the save route's: checked and
 * stored in responses.ts), flags and returns, assignments, progress, importing and exporting
 * responses.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { applySplit, changeAssignments, previewSplit, setAssignments, type SplitPlan } from "./assignments";
export { type AnnotatorNote, type FlagKind, type FlagNote, type FlagPage, flagsTsv, instanceNotes, listFlags, returnInstance, returnLog, type ReturnLogEntry, saveFlag, withdrawReturn } from "./flags";
// Without an actor: the flag kinds and their labels, shown by the forms.
export { FLAG_KINDS } from "./flags";
export { FLAG_LABELS } from "./flags";
export { type ProgressPageView, progressPageView, type StudyProgress } from "./progress";
export { type ProgressChartData } from "./progress-charts";
export { exportResponses, type PreviewRow, type ResponseImportPreview } from "./response-import";
// Without an actor: the upload limit the route and form show.
export { MAX_RESPONSES_BYTES } from "./response-import";
export { annotatorProjects, type InstanceStep, type InstanceView, type LexeltProgress, type OwnResponse, type Progress, type ResponseInput, type ResponseKind, type SaveResult, workspace, workspaceTargets, type WorkspaceView } from "./responses";
// The save request, served by the route and (in the production server) before Next; it asks the actor of the session itself.
export { handleSaveRequest, serveSave } from "./save-request";
export { isSaveRequest } from "./save-route";
// A study participant's end screens (issue #32): null for anyone else.
export { participantView, type ParticipantView } from "./participant";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { releaseBatch } from "./batch-release";
export { flaggedInstanceIds } from "./flags";
export { importResponses } from "./response-import";
export { suggestedWords } from "./suggestions-record";
export { screenOutOnFail } from "./participant";
export { syncTrainingQueue } from "./queue";
export { trainingPending } from "./training-gate";
// Without an actor: this feature's job kinds, for the jobs worker (lib/server/jobs/jobs-kinds.ts); the job
// carries the actor that startJob checked before queueing it.
export { ANNOTATE_JOB_KINDS } from "./job-kinds";
// Without an actor: this feature's derivation kinds, for the derivations (lib/server/jobs/derive-jobs.ts); each job
// carries the actor, which the derivation checks before it runs.
export { ANNOTATE_DERIVE_KINDS } from "./derive-kinds";
// For other features (the progress reads' parts): the page of a list, one annotator's timed median, the charts' rows.
export { type Paged, timedMedian } from "./progress";
export { progressChartRows } from "./progress-charts";
