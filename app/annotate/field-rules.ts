/**
 * The workspace's check before sending: the same rules the server applies at
 * save (lib/lexsub/substitute-rules.ts, pure, so it runs in the browser too),
 * so an answer the gold or the scorer cannot carry is refused beside its field
 * without a round trip, with the message the server would give.
 */
import { type ResponseKind, checkResponse } from "@/lib/lexsub/substitute-rules";

export { MAX_PHRASE_LENGTH, MAX_SUBSTITUTE_LENGTH } from "@/lib/lexsub/substitute-rules";

/** The field errors for a draft, keyed as the server keys them (substitute1..3, multiword, form); null when it may be sent. */
export function draftErrors(
  draft: { kind: ResponseKind; subs: readonly string[]; multiword: boolean; phrase: string },
  target: { lemma: string; head: string; language?: string },
): Record<string, string> | null {
  const { errors } = checkResponse(
    { kind: draft.kind, substitutes: draft.kind === "substitutes" ? draft.subs : [], multiword: draft.multiword, phrase: draft.phrase },
    target,
  );
  return Object.keys(errors).length > 0 ? (errors as Record<string, string>) : null;
}

/** The errors without the one for `field` (it is being edited: its message no longer describes what it holds). */
export function withoutError(errors: Record<string, string>, field: string): Record<string, string> {
  if (!(field in errors)) return errors;
  const { [field]: _edited, ...rest } = errors;
  return rest;
}
