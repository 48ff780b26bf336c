/**
 * The study page's "you have started" panel (issue #38): right after the first join the page
 * shows the participant their resume code, which the sign-in handed to their browser in an
 * HttpOnly cookie on the study page's path (lib/auth/sign-in-cookies.ts). The code is shown only
 * to the participant of this study who is signed in, and only when it is theirs (checked against
 * the stored hash, in constant time); nothing is written.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { participants, studies } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import type { Actor } from "../kernel/actor";
import { get } from "../kernel/statements";
import { matchesHash, normaliseResumeCode, secretHash } from "./participant-keys";

const PA = named(participants, "pa");
const S = named(studies, "s");

export interface StartedView {
  projectId: number;
  /** The resume code as shown (XXXX-XXXX-XXXX), or null when this browser has none of theirs. */
  resumeCode: string | null;
}

/**
 * For a signed-in participant of the study whose link this is: their project and, when the code
 * from the page's cookie is theirs, the code. Null for anyone else (the page then is the study's
 * page as anyone sees it).
 */
export function startedView(db: Db, actor: Actor, token: string, codeCookie: string | null): StartedView | null {
  if (!actor || actor.kind !== "user" || actor.role !== "participant") return null;
  const row = get<{ projectId: number; hash: string | null }>(
    db,
    `select ${PA.projectId} as projectId, ${PA.resumeCodeHash} as hash from ${PA.$} join ${S.$} on ${S.id} = ${PA.studyId} where ${PA.userId} = ? and ${S.token} = ?`,
    actor.userId,
    token,
  );
  if (!row) return null;
  const code = normaliseResumeCode(codeCookie);
  const theirs = code !== null && matchesHash(secretHash(code), row.hash);
  return { projectId: row.projectId, resumeCode: theirs && code ? `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}` : null };
}
