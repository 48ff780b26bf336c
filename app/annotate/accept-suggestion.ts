/** A model's suggestion taken into the answer: NAME / NIL chooses it; a word goes into the next empty field (not twice). */
import type { DraftState } from "./use-draft";
import type { Fields } from "./use-fields";

export function acceptSuggestion(word: string, draft: DraftState, fields: Fields): void {
  if (word === "NAME" || word === "NIL") {
    if (draft.draftRef.current.kind !== word) fields.chooseKind(word);
    return;
  }
  const d = draft.draftRef.current;
  if (d.kind !== "substitutes") fields.chooseKind(d.kind);
  const subs = draft.draftRef.current.subs;
  if (subs.some((x) => x.trim().toLowerCase() === word.toLowerCase())) return;
  const i = subs.findIndex((x) => x.trim() === "");
  if (i >= 0) {
    fields.setSub(i, word);
    fields.subRefs[i].current?.focus();
  }
}
