/**
 * lib/server/models: models in the loop (issue #41, docs/models.md). A project's model connections
 * (connections.ts: OpenAI-compatible chat completions or Ollama's /api/chat, called only at their base
 * URL, within the reach, time, size and concurrency limits of net.ts; keys never in clear: keys.ts);
 * a model's runs over the project as a background job (run.ts; run-input.ts checks what is asked), its
 * answers stored as the responses of pseudo-annotators (samples.ts) and measured against the people's
 * (measures.ts, on the Agreement tab); counted as an annotator or not (decisions.ts); its answers as
 * system files and Scoring runs (exports.ts); its candidates in judgement rounds (round-candidates.ts);
 * the prompt templates (templates.ts, prompt.ts).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why.
 */
export { addModel, listModels, type ModelView, removeModel } from "./connections";
export { discardModelAnswers, setModelCounted } from "./decisions";
export { addModelRuns, modelSystemFile } from "./exports";
export { type ModelFigures, type ModelMeasuresReport, modelMeasuresView } from "./measures";
export { modelRunInput, roundRunInputs } from "./run-input";
export { setModelTemplate, type TemplatesView, templatesView } from "./templates";
export { setStudySuggestions, setSuggestions, type SuggestionSettings, suggestionSettings } from "./suggestion-settings";
export { type ModelRunView, modelRuns } from "./runs-view";
export { type SuggestionItem, workspaceSuggestionMode, workspaceSuggestions } from "./suggestions";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { modelSourceCandidates } from "./round-candidates";
// Without an actor: this feature's job kinds, for the jobs worker (lib/server/jobs/jobs-kinds.ts); the job
// carries the actor that startJob checked before queueing it.
export { MODELS_JOB_KINDS } from "./job-kinds";
