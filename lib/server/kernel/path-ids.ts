/**
 * Ids from a route's path, checked before anything uses them: digits only, no
 * sign, space, exponent or leading zero (Number() would take "1\n", " 1", "1e2"
 * and "0x1f", and the raw text could reach a header or a message).
 */
import "server-only";
import { NotFoundError } from "./errors";

/** The id, or null when the text is not one. */
export function pathId(value: string): number | null {
  if (!/^[1-9][0-9]{0,14}$/.test(value)) return null;
  return Number(value);
}

/** A project id from the path; anything else is "No such project." (404), as for a project one may not see. */
export function projectIdOf(value: string): number {
  const id = pathId(value);
  if (id === null) throw new NotFoundError("No such project.");
  return id;
}
