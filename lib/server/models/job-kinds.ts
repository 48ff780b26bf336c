/** The models' job kinds (issue #41; #43: the jobs worker takes them from this feature's index): a model's run over a project, and the Agreement tab's Models section. */
import type { JobKinds } from "../kernel/job-context";
import { modelMeasuresJob } from "./measures-job";
import { modelRunJob } from "./run";

export const MODELS_JOB_KINDS: JobKinds = {
  "model-run": modelRunJob,
  "model-measures": modelMeasuresJob,
};
