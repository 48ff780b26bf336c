import "server-only";
/**
 * The preamble every server action shares: the actor from the session (lib/auth's
 * getActor, never anything the browser sent), handed to the action's work, which
 * passes it to lib/server (where it is checked); an error thrown anywhere in the
 * work comes back as the action's failure result — toActionError's shape, or what
 * `onError` makes of it.
 *
 * Keep redirect() outside the work: Next's redirect throws, and would be caught here.
 */
import { getActor } from "@/lib/auth/session";
import type { Actor } from "@/lib/server/kernel";
import { toActionError } from "@/lib/server/kernel";

export type ActionError = ReturnType<typeof toActionError>;

export function withActor<T>(work: (actor: Actor) => T | Promise<T>): Promise<T | ActionError>;
export function withActor<T, E>(work: (actor: Actor) => T | Promise<T>, onError: (err: ActionError, thrown: unknown) => E): Promise<T | E>;
export async function withActor<T, E>(
  work: (actor: Actor) => T | Promise<T>,
  onError?: (err: ActionError, thrown: unknown) => E,
): Promise<T | E | ActionError> {
  try {
    return await work(await getActor());
  } catch (e) {
    const err = toActionError(e);
    return onError ? onError(err, e) : err;
  }
}

/** For actions whose failure is only `{ ok: false, message }`. */
export function messageOnly(err: ActionError): { ok: false; message: string } {
  return { ok: false, message: err.message };
}
