/**
 * The cookies a sign-in that starts a session adds to its answer (lib/auth/route.ts):
 *
 *  - the device cookie, for the account whose password was just checked (./device.ts);
 *  - a study participant's (issue #38, lib/server/crowd/join.ts): the browser's key for the study,
 *    `lexgold-participant-<study id>` — HttpOnly, random, sent only to the study sign-in, kept a
 *    year; only its hash is stored — which lets this browser resume as the participant; and, on
 *    the first join, the resume code in `lexgold-resume-code` — HttpOnly, sent only to the study's
 *    page, which shows it (app/study/[token]) — for the study's minutes or until the participant
 *    comes back by the link (a resume clears it: the code is their first screen's).
 *
 * SameSite=Lax (the sign-in is a same-site POST from the study's page); Secure when NEXTAUTH_URL is https.
 */
import "server-only";
import { setting } from "../config";
import { deviceCookieHeader } from "./device";

const PARTICIPANT_COOKIE_PREFIX = "lexgold-participant-";
/** The resume code's cookie, on the study page's path. */
export const RESUME_CODE_COOKIE = "lexgold-resume-code";
/** Where a participant's browser key is sent: the study sign-in, nowhere else. */
const PARTICIPANT_COOKIE_PATH = "/api/auth/callback/study";
const PARTICIPANT_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The cookie holding this browser's participant key for a study. */
export function participantCookieName(studyId: number): string {
  return `${PARTICIPANT_COOKIE_PREFIX}${studyId}`;
}

/** The study page's path (where the resume code's cookie is sent). */
export function studyPagePath(token: string): string {
  return `/study/${encodeURIComponent(token)}`;
}

function cookie(name: string, value: string, path: string, maxAgeS: number): string {
  const secure = (setting("NEXTAUTH_URL") ?? "").startsWith("https:");
  return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** What a study participant's browser is given by a join or a resume (lib/auth/options.ts SignInOutcome). */
export interface ParticipantIssued {
  studyId: number;
  token: string;
  minutes: number;
  /** A new key for this browser, or null when it already holds one of the participant's. */
  browserKey: string | null;
  /** The resume code, on the first join only. */
  resumeCode: string | null;
}

/** The Set-Cookie values for a sign-in's outcome (the route adds them only to an answer that starts a session). */
export function outcomeCookies(outcome: { signedIn?: { id: number }; participant?: ParticipantIssued }): string[] {
  const out: string[] = [];
  if (outcome.signedIn) out.push(deviceCookieHeader(outcome.signedIn.id));
  const p = outcome.participant;
  if (p?.browserKey) out.push(cookie(participantCookieName(p.studyId), p.browserKey, PARTICIPANT_COOKIE_PATH, PARTICIPANT_COOKIE_MAX_AGE_S));
  if (p?.resumeCode) out.push(cookie(RESUME_CODE_COOKIE, p.resumeCode, studyPagePath(p.token), Math.max(60, p.minutes * 60)));
  else if (p) out.push(cookie(RESUME_CODE_COOKIE, "", studyPagePath(p.token), 0));
  return out;
}
