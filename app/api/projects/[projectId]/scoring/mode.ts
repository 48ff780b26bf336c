/**
 * The Scoring routes' `figures` parameter: score.pl's figures (absent or
 * "official", the default) or the documented repairs' ("repaired"). Anything
 * else is refused, so a mistyped link never silently shows the other figures.
 */
import "server-only";
import type { Db } from "@/lib/db";
import { type Actor, InputError } from "@/lib/server/kernel";
import { type ScoreMode, listRuns } from "@/lib/server/scoring";

const FIGURES_PARAM = "figures";

/** The mode a `figures` value asks for; refuses values other than "", "official" and "repaired". */
export function modeOf(value: string | null | undefined): ScoreMode {
  const v = (value ?? "").trim();
  if (v === "" || v === "official") return { repaired: false };
  if (v === "repaired") return { repaired: true };
  throw new InputError(`Unknown figures "${v.slice(0, 40)}": choose official (score.pl's) or repaired.`, { figures: "official or repaired" });
}

/** The mode of a request's `?figures=`. */
function requestMode(req: Request): ScoreMode {
  return modeOf(new URL(req.url).searchParams.get(FIGURES_PARAM));
}

/**
 * The mode of a GET, read after the actor is checked as the project's
 * coordinator (so a stranger learns nothing from a bad value's message).
 */
export function checkedMode(db: Db, actor: Actor, projectId: number, req: Request): ScoreMode {
  listRuns(db, actor, projectId);
  return requestMode(req);
}
