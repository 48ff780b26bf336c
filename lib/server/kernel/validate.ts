/** Checking input against a zod schema: a failure is an InputError with a message per field. */
import "server-only";
import type { z } from "zod";
import { InputError } from "./errors";

function fieldErrors(err: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const errors = fieldErrors(r.error);
    throw new InputError(`${what}: ${Object.values(errors)[0]}`, errors);
  }
  return r.data;
}
