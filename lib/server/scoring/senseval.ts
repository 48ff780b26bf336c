/**
 * SENSEVAL answers scored on the Scoring page against a key (and sense map) as scorer2 does, through
 * the SENSEVAL scorer's `scoreSensevalTexts` / `sensevalReportTexts`. The function checks that the
 * actor is the project's coordinator.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { type Diagnostic, diag, hasErrors } from "../../lexsub/diagnostics";
import {
  type Granularity,
  type SensevalJson,
  type StingyReading,
  type Treatment,
  formatSensevalScore,
  scoreSensevalTexts,
  sensevalJson,
} from "../../scorers/senseval/score";
import { type SensevalReport, formatSensevalReport, sensevalReportTexts } from "../../scorers/senseval/report";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { type NamedText } from "./uploads";

// ---------------------------------------------------------------------------
// SENSEVAL (issue #7): scored on submit, not stored

export interface SensevalUpload {
  answers: NamedText;
  key: NamedText;
  sensemap: NamedText | null;
  granularity?: string;
  treatment?: string;
  stingy?: string;
}

export interface SensevalOutcome {
  granularity: Granularity;
  treatment: Treatment;
  stingy: StingyReading;
  /** scorer2's output. */
  text: string;
  json: SensevalJson;
  /** The SENSEVAL-1 grid, when a sense map was given. */
  report: Omit<SensevalReport, "diagnostics"> | null;
  reportText: string | null;
  diagnostics: Diagnostic[];
}

/** Score SENSEVAL answers against a key (and sense map) as scorer2 does, with the SENSEVAL-1 grid. */
export function scoreSensevalUpload(db: Db, actor: Actor, projectId: number, input: SensevalUpload): SensevalOutcome {
  requireProject(db, actor, projectId, { coordinator: true });
  const granularity = (input.granularity || "fine") as Granularity;
  if (!["fine", "coarse", "mixed"].includes(granularity)) throw new InputError(`Unknown granularity "${input.granularity}".`, { granularity: "fine, coarse or mixed" });
  const treatment = (input.treatment || "generous") as Treatment;
  if (!["minimal", "generous", "stingy"].includes(treatment)) throw new InputError(`Unknown treatment "${input.treatment}".`, { treatment: "minimal, generous or stingy" });
  const stingy = (input.stingy || "product") as StingyReading;
  if (!["product", "overlap"].includes(stingy)) throw new InputError(`Unknown stingy reading "${input.stingy}".`, { stingy: "product or overlap" });
  if (granularity !== "fine" && !input.sensemap) {
    throw new InputError(`${granularity} scoring needs a sense map.`, { sensemap: "Choose a sense map for coarse or mixed scoring." });
  }
  const files = { answers: input.answers, key: input.key, sensemap: input.sensemap };
  const result = scoreSensevalTexts(files, { granularity, treatment, stingy });
  let report: SensevalOutcome["report"] = null;
  let reportText: string | null = null;
  if (input.sensemap) {
    const r = sensevalReportTexts({ answers: input.answers, key: input.key, sensemap: input.sensemap }, { stingy });
    const { diagnostics: _d, ...grid } = r;
    report = grid;
    reportText = formatSensevalReport(r, { answers: input.answers.name, key: input.key.name, sensemap: input.sensemap.name });
  }
  const diagnostics = [...result.diagnostics];
  if (result.total === 0 && !hasErrors(diagnostics)) diagnostics.push(diag("warning", input.key.name, 0, "the key holds no instance; every figure is undefined"));
  return {
    granularity: result.granularity,
    treatment: result.treatment,
    stingy: result.stingy,
    text: formatSensevalScore(result, input.answers.name, input.key.name),
    json: sensevalJson(result),
    report,
    reportText,
    diagnostics,
  };
}
