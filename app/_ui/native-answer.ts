import "server-only";
/**
 * Forms that post to a route (uploads: their files go to the route as they are) work without
 * JavaScript (#38). The page's script sends such a form itself and reads the route's JSON; the
 * browser sends it natively when the script is off or not yet running, and then gets a redirect
 * (303) back to the form's page, the JSON kept for it (lib/server/kernel/outcome.ts) and named in
 * the URL (`?outcome=…`), which the page hands to the form to show as the script would have.
 *
 * The route does its checks (origin, session, role, input, limits) the same either way: only its
 * answer's shape differs. Where it sends the browser back to is the route's choice, never the
 * request's (no redirect to anywhere a form names).
 */
import { getActor } from "@/lib/auth/session";
import { signInHref } from "@/lib/auth/return-to";
import { isNativeForm, keepOutcome, pathId, readOutcome } from "@/lib/server/kernel";

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

/** `to` with one more query parameter (before its #fragment). */
function withParam(to: string, name: string, value: string): string {
  const hash = to.indexOf("#");
  const [base, fragment] = hash < 0 ? [to, ""] : [to.slice(0, hash), to.slice(hash)];
  return `${base}${base.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}${fragment}`;
}

/** A project's page from the route's own path parameter (a project id, else the project list). */
export function projectPage(projectId: string, rest = ""): string {
  const id = pathId(projectId);
  return id === null ? "/projects" : `/projects/${id}${rest}`;
}

/** A route's answer to a form posted without JavaScript, kept for the page: which form it was (a page may have several), and the JSON. */
export interface FormOutcome {
  form: string;
  answer: { ok: boolean; message?: string; details?: string[]; errors?: Record<string, string> } & Record<string, unknown>;
}

/**
 * The route's answer `res` to `req`: as it is for the page's script; for a form the browser sent
 * itself, a redirect to the page `to` (or the one `to` picks from the answer), with the answer kept
 * for the signed-in account as `form`'s; signed out, to the sign-in page, which comes back to `to`.
 */
export async function answerForm(req: Request, res: Response, to: string | ((answer: unknown) => string), form = ""): Promise<Response> {
  if (!isNativeForm(req)) return res;
  const answer: unknown = await res.json().catch(() => ({ ok: false, message: `The server answered ${res.status} without a reason.` }));
  const page = typeof to === "string" ? to : to(answer);
  const actor = await getActor();
  if (res.status === 401 || !actor || actor.kind !== "user") return seeOther(signInHref(page));
  const path = page.replace(/[?#].*$/, "");
  const outcome: FormOutcome = { form, answer: answer as FormOutcome["answer"] };
  return seeOther(withParam(page, "outcome", keepOutcome(actor.userId, path, outcome)));
}

/** The answer kept for this page (`path`) under the URL's `outcome`, for the signed-in account; null when there is none. */
export async function pageOutcome(path: string, id: string | string[] | undefined): Promise<FormOutcome | null> {
  if (typeof id !== "string") return null;
  const actor = await getActor();
  if (!actor || actor.kind !== "user") return null;
  return readOutcome(actor.userId, path, id) as FormOutcome | null;
}

/** The answer of `form` in a page's outcome, or null. */
export function answerOf<T = FormOutcome["answer"]>(outcome: FormOutcome | null, form = ""): T | null {
  return outcome && outcome.form === form ? (outcome.answer as T) : null;
}
