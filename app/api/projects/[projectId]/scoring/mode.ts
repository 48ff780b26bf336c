/**
 * The Scoring routes' `figures` parameter: score.pl's figures (absent or
 * "official", the default) or the documented repairs' ("repaired"); and their
 * `reading` parameter: the files read as bytes as score.pl reads them ("bytes")
 * or as UTF-8 text as `perl -CSD score.pl` reads them ("utf8"); absent, the
 * project's default (bytes for English, UTF-8 text for another language).
 * Anything else is refused, so a mistyped link never silently shows the other figures.
 */
import "server-only";
import type { Db } from "@/lib/db";
import { type Actor, InputError } from "@/lib/server/kernel";
import { type ScoreMode, listRuns } from "@/lib/server/scoring";

const FIGURES_PARAM = "figures";
const READING_PARAM = "reading";

/** The mode a `figures` value asks for; refuses values other than "", "official" and "repaired". */
export function modeOf(value: string | null | undefined): ScoreMode {
  const v = (value ?? "").trim();
  if (v === "" || v === "official") return { repaired: false };
  if (v === "repaired") return { repaired: true };
  throw new InputError(`Unknown figures "${v.slice(0, 40)}": choose official (score.pl's) or repaired.`, { figures: "official or repaired" });
}

/** The reading a `reading` value asks for (absent: the project's default, by its language); refuses values other than "", "bytes" and "utf8". */
export function readingOf(value: string | null | undefined): ScoreMode["reading"] {
  const v = (value ?? "").trim();
  if (v === "") return undefined;
  if (v === "bytes") return "bytes";
  if (v === "utf8") return "utf8";
  throw new InputError(`Unknown reading "${v.slice(0, 40)}": choose bytes (score.pl's) or utf8 (perl -CSD).`, { reading: "bytes or utf8" });
}

/** The mode of a request's `?figures=` and `?reading=`. */
function requestMode(req: Request): ScoreMode {
  const q = new URL(req.url).searchParams;
  return { ...modeOf(q.get(FIGURES_PARAM)), reading: readingOf(q.get(READING_PARAM)) };
}

/**
 * The mode of a GET, read after the actor is checked as the project's
 * coordinator (so a stranger learns nothing from a bad value's message).
 */
export function checkedMode(db: Db, actor: Actor, projectId: number, req: Request): ScoreMode {
  listRuns(db, actor, projectId);
  return requestMode(req);
}
