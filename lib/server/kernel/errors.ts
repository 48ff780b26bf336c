/**
 * Errors the data access layer throws. Server actions and route handlers turn
 * them into `{ ok: false, message, errors }` or HTTP statuses; the CLI prints them.
 */
export class AuthError extends Error {
  /** 401 when nobody is signed in, 403 when the signed-in user may not do this. */
  constructor(
    message: string,
    public status: 401 | 403 = 403,
  ) {
    super(message);
  }
}

export class NotFoundError extends Error {
  status = 404 as const;
}

/** Bad input: a message, plus per-field messages to show next to the fields. */
export class InputError extends Error {
  status = 400 as const;
  constructor(
    message: string,
    public fieldErrors: Record<string, string> = {},
    public details: string[] = [],
  ) {
    super(message);
  }
}

/** Someone else saved first (optimistic concurrency on responses). */
export class ConflictError extends Error {
  status = 409 as const;
  constructor(
    message: string,
    public current: unknown,
  ) {
    super(message);
  }
}

/** Refused for now, nothing written: the same request may be sent again after `retryAfter` seconds (HTTP Retry-After). */
export abstract class RetryLaterError extends Error {
  abstract readonly status: 429 | 503;
  constructor(
    message: string,
    /** Seconds after which trying again is sensible. */
    public retryAfter: number,
  ) {
    super(message);
  }
}

/** Too much of one user's work already waits (queued uploads, #27 finding 10): try again once some has run. */
export class QueueFullError extends RetryLaterError {
  readonly status = 429 as const;
  constructor(message: string, retryAfter = 60) {
    super(message, retryAfter);
  }
}

/** The database's write lock stayed taken too long (lib/server/kernel/write-lock.ts): nothing was written; send it again. */
export class BusyError extends RetryLaterError {
  readonly status = 503 as const;
  constructor(message: string, retryAfter = 1) {
    super(message, retryAfter);
  }
}

/**
 * Work stopped at one of its limits — its time or its memory (lib/server/runtime/pool.ts LimitError):
 * the message names the limit, the setting that raises it and what else to do (#38 finding 8), and
 * reaches the browser as it is, never as a generic failure.
 */
export class LimitReachedError extends Error {
  readonly status = 503 as const;
  constructor(
    message: string,
    public readonly limit: "time" | "heap",
  ) {
    super(message);
  }
}

/** Map a thrown error to the shape every server action returns. */
export function toActionError(e: unknown): { ok: false; message: string; errors?: Record<string, string>; details?: string[]; conflict?: unknown } {
  if (e instanceof InputError) return { ok: false, message: e.message, errors: e.fieldErrors, details: e.details };
  if (e instanceof ConflictError) return { ok: false, message: e.message, conflict: e.current };
  if (e instanceof AuthError || e instanceof NotFoundError || e instanceof RetryLaterError || e instanceof LimitReachedError) return { ok: false, message: e.message };
  console.error(e);
  return { ok: false, message: "Something went wrong on the server; nothing was saved." };
}

export function httpStatus(e: unknown): number {
  if (e instanceof AuthError || e instanceof NotFoundError || e instanceof InputError || e instanceof ConflictError || e instanceof RetryLaterError || e instanceof LimitReachedError) return e.status;
  return 500;
}
