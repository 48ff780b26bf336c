/** The Scoring page's calls to its route handlers (app/api/projects/[projectId]/scoring/…). */
import type { ScoreBoard } from "@/lib/server/scoring";

/** The gold the page ranks against: a stored gold's id, or null for the project's own. */
export type GoldChoice = number | null;

/** The query parameter that carries the gold (in the page's URL and the routes'). */
export const GOLD_PARAM = "gold";

/** `url` asking for the runs of a gold (the project's own needs no parameter). */
export function withGold(url: string, gold: GoldChoice): string {
  if (gold === null) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${GOLD_PARAM}=${gold}`;
}
/** Which figures the page shows: score.pl's (the default) or the documented repairs'. */
export type FiguresMode = "official" | "repaired";

/** The query parameter that carries the mode (in the page's URL and the routes'). */
export const FIGURES_PARAM = "figures";

/** `url` asking for the mode's figures (the default needs no parameter). */
export function withFigures(url: string, mode: FiguresMode): string {
  if (mode === "official") return url;
  return `${url}${url.includes("?") ? "&" : "?"}${FIGURES_PARAM}=repaired`;
}

/**
 * The form field that confirms storing a run with errors, and the field a refusal marks when it asks
 * for that (lib/server/scoring/runs.ts CONFIRM_FIELD).
 */
export const CONFIRM_FIELD = "confirm";

/** How the files' characters are read: as bytes, as score.pl reads them (the default), or as UTF-8 text, as `perl -CSD score.pl` does. */
export type Reading = ScoreBoard["reading"];

/** The query parameter that carries the reading (in the page's URL and the routes'). */
export const READING_PARAM = "reading";

/** `url` asking for the reading, always named (the default without one is the project's, by its language). */
export function withReading(url: string, reading: Reading): string {
  return `${url}${url.includes("?") ? "&" : "?"}${READING_PARAM}=${reading}`;
}

export type ApiError = { ok: false; message: string; errors?: Record<string, string>; details?: string[] };

export function base(projectId: number): string {
  return `/api/projects/${projectId}/scoring`;
}

/** Call a JSON route; errors come back as `{ ok: false }`. */
export async function call<T>(url: string, init: RequestInit = {}): Promise<({ ok: true } & T) | ApiError> {
  try {
    const res = await fetch(url, init);
    const json = (await res.json().catch(() => null)) as (({ ok: true } & T) | ApiError) | null;
    if (!json) return { ok: false, message: `The server answered ${res.status} without a reason.` };
    return json;
  } catch {
    return { ok: false, message: "The request did not reach the server." };
  }
}
