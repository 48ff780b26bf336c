/**
 * The authorization matrix's lines for lib/server/models (issue #41), spread into CALLS in
 * matrix.test.ts (and so run again as study participants, participant-matrix.ts). Every model action is
 * the project's coordinators' (and the CLI's): annotators, other projects' coordinators and nobody are
 * refused, and a refused call writes nothing. A model of p, registered by the CLI against an address
 * nothing listens on (no call reaches it in these lines), is there for the lines that need one.
 */
import { addModel, listModels, removeModel } from "../../lib/server/models/connections";
import { discardModelAnswers, setModelCounted } from "../../lib/server/models/decisions";
import { addModelRuns, modelSystemFile } from "../../lib/server/models/exports";
import { modelMeasuresView } from "../../lib/server/models/measures";
import { modelRunInput, roundRunInputs } from "../../lib/server/models/run-input";
import { modelRuns } from "../../lib/server/models/runs-view";
import { setStudySuggestions, setSuggestions, suggestionSettings } from "../../lib/server/models/suggestion-settings";
import { createRound } from "../../lib/server/judgement/judgement";
import { createStudy } from "../../lib/server/crowd/studies";
import { workspaceSuggestionMode, workspaceSuggestions } from "../../lib/server/models/suggestions";
import { setModelTemplate, templatesView } from "../../lib/server/models/templates";
import { SYSTEM } from "../../lib/server/kernel/actor";
import type { ActorKey, World } from "./world";

/** The project's coordinator only: annotators are refused on their role, other coordinators see no project. */
const COORDINATOR = "401 403 403 404 ok ok";
/** One's own workspace in a project one belongs to; the CLI has no workspace. */
const OWN_WORK = "401 404 ok 404 ok 403";

interface ModelCall {
  name: string;
  expect: string;
  call: (w: World, k: ActorKey) => unknown;
  prep?: (w: World) => void;
  check?: (result: unknown, w: World, k: ActorKey) => void;
}

/** A model "m" in p, as `lexgold model add` registers it (no call is made). */
export function withModel(w: World): void {
  w.db.$client
    .prepare("insert into models (project_id, name, kind, base_url, model, registered_from) values (?, 'm', 'ollama', 'http://127.0.0.1:9', 'test-model', 'cli')")
    .run(w.p.id);
}

/** …with one sample's answer to p1 (as a run stores it), so that its answers can be exported, scored and discarded. */
export function withAnswers(w: World): void {
  withModel(w);
  const model = (w.db.$client.prepare("select id from models where name = 'm'").get() as { id: number }).id;
  const user = w.db.$client.prepare("insert into users (name, role, password_hash) values (?, 'model', '!model') returning id").get(`model:${w.p.id}:m:1`) as { id: number };
  w.db.$client.prepare("insert into model_samples (model_id, sample, user_id) values (?, 1, ?)").run(model, user.id);
  w.db.$client.prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, updated_at) values (?, ?, ?, 'substitutes', '[\"vivid\"]', 0)").run(w.p.id, w.ref.p1, user.id);
}

/** A round of p asking the model for candidates (made by the CLI). */
function withModelRound(w: World): void {
  withModel(w);
  createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators", "model:m"] });
}
const roundOf = (w: World) => (w.db.$client.prepare("select id from judgement_rounds order by id desc").get() as { id: number }).id;

/** p shows the model's suggestions (assist). */
function withSuggestions(w: World): void {
  withModel(w);
  setSuggestions(w.db, SYSTEM, w.p.id, { mode: "assist", model: "m" });
}

/** A crowd study of p (made by the CLI). */
function withStudy(w: World): void {
  createStudy(w.db, SYSTEM, w.p.id, { platform: "link", batchSize: 2, overlap: 2, minutes: 30, name: "pilot" });
}
const studyOf = (w: World) => (w.db.$client.prepare("select id from studies where project_id = ? order by id desc").get(w.p.id) as { id: number }).id;

/** …counted as an annotator (by the CLI), to stop counting it. */
function withCounted(w: World): void {
  withAnswers(w);
  setModelCounted(w.db, SYSTEM, w.p.id, "m", true);
}

const ADD = { name: "new-model", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "x" };

/** `f` with the operator's list letting the page register 127.0.0.1 (no call is made: registering only checks the address). */
async function privateAllowed<T>(f: () => Promise<T>): Promise<T> {
  process.env.LEXGOLD_MODEL_PRIVATE_HOSTS = "127.0.0.1";
  try {
    return await f();
  } finally {
    delete process.env.LEXGOLD_MODEL_PRIVATE_HOSTS;
  }
}

export const MODEL_CALLS: ModelCall[] = [
  // lib/server/models/connections.ts
  { name: "addModel", expect: COORDINATOR, call: (w, k) => privateAllowed(() => addModel(w.db, w.actor(k), w.p.id, ADD)) },
  { name: "listModels", expect: COORDINATOR, prep: withModel, call: (w, k) => listModels(w.db, w.actor(k), w.p.id) },
  { name: "removeModel", expect: COORDINATOR, prep: withModel, call: (w, k) => removeModel(w.db, w.actor(k), w.p.id, "m") },
  // decisions.ts
  { name: "setModelCounted", expect: COORDINATOR, prep: withAnswers, call: (w, k) => setModelCounted(w.db, w.actor(k), w.p.id, "m", true, "pilot") },
  { name: "setModelCounted (stop)", expect: COORDINATOR, prep: withCounted, call: (w, k) => setModelCounted(w.db, w.actor(k), w.p.id, "m", false) },
  { name: "discardModelAnswers", expect: COORDINATOR, prep: withAnswers, call: (w, k) => discardModelAnswers(w.db, w.actor(k), w.p.id, "m") },
  // exports.ts
  { name: "modelSystemFile", expect: COORDINATOR, prep: withAnswers, call: (w, k) => modelSystemFile(w.db, w.actor(k), w.p.id, "m", "best") },
  { name: "addModelRuns", expect: COORDINATOR, prep: withAnswers, call: (w, k) => addModelRuns(w.db, w.actor(k), w.p.id, "m") },
  // measures.ts, run-input.ts, templates.ts
  { name: "modelMeasuresView", expect: COORDINATOR, prep: withAnswers, call: (w, k) => modelMeasuresView(w.db, w.actor(k), w.p.id) },
  { name: "modelRunInput", expect: COORDINATOR, prep: withModel, call: (w, k) => modelRunInput(w.db, w.actor(k), w.p.id, { model: "m", samples: "2" }) },
  { name: "templatesView", expect: COORDINATOR, call: (w, k) => templatesView(w.db, w.actor(k), w.p.id) },
  { name: "roundRunInputs", expect: COORDINATOR, prep: withModelRound, call: (w, k) => roundRunInputs(w.db, w.actor(k), w.p.id, roundOf(w)) },
  { name: "modelRuns", expect: COORDINATOR, prep: withModel, call: (w, k) => modelRuns(w.db, w.actor(k), w.p.id) },
  // suggestion-settings.ts
  { name: "suggestionSettings", expect: COORDINATOR, prep: withModel, call: (w, k) => suggestionSettings(w.db, w.actor(k), w.p.id) },
  { name: "setSuggestions", expect: COORDINATOR, prep: withModel, call: (w, k) => setSuggestions(w.db, w.actor(k), w.p.id, { mode: "assist", model: "m" }) },
  { name: "setStudySuggestions", expect: COORDINATOR, prep: withStudy, call: (w, k) => setStudySuggestions(w.db, w.actor(k), w.p.id, studyOf(w), true) },
  // suggestions.ts: the workspace's (p's suggestions on, with the model "m"; no call reaches it: the instance has no answer and its
  // background call to the closed port fails, writing only its own record)
  { name: "workspaceSuggestionMode", expect: OWN_WORK, prep: withSuggestions, call: (w, k) => workspaceSuggestionMode(w.db, w.actor(k), w.p.id) },
  { name: "workspaceSuggestions", expect: OWN_WORK, prep: withSuggestions, call: (w, k) => workspaceSuggestions(w.db, w.actor(k), w.p.id, []) },
  { name: "setModelTemplate", expect: COORDINATOR, call: (w, k) => setModelTemplate(w.db, w.actor(k), w.p.id, "annotate", "Substitutes for {{target}} in: {{sentence}}") },
];
