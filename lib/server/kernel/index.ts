/**
 * lib/server/kernel: What every feature and route uses: the actor, the errors and how they reach the browser,
 * request bodies and uploads read within limits, streamed and attachment responses, ids in paths,
 * the request limits. Besides the actor checks themselves (actor.ts), no data access here, so
 * nothing else takes the actor: routes call these around the actor-checked functions of the
 * features.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index).
 */
export { type Actor, requireProject } from "./actor";
export { attachmentDisposition } from "./download";
export { AuthError, InputError, NotFoundError, toActionError } from "./errors";
export { assertSameOrigin, errorResponse, FORM_OVERHEAD_BYTES, readBodyLimited, readFormLimited, saveBodyToFile, saveUpload, toResponse } from "./http";
export { isNativeForm, keepOutcome, readOutcome } from "./outcome";
export { pathId, projectIdOf } from "./path-ids";
export { limitPage, limitSaveShared, retryAfterSeconds } from "./rate-limit";
export { streamedResponse, stringSlices } from "./stream";
