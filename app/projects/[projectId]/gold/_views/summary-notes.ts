/** The words beside the Gold summary's figures. */
import type { GoldPageData } from "@/lib/server/gold";

/**
 * Beside the count of proposals to decide: the forms not reviewed that need no decision (their proposed
 * lemma is the form itself) are said to be such, so "0 to decide" and "62 not reviewed" do not read as a contradiction.
 */
export function proposalsNote(l: GoldPageData["lemmas"]): string {
  const asTyped = l.open - l.openChanged;
  const parts: string[] = [];
  if (l.openChanged > 0) parts.push("written as typed until decided");
  if (asTyped > 0) parts.push(`${asTyped} of ${l.forms} forms not reviewed are their own lemma: nothing to decide`);
  else if (l.open === 0) parts.push(`all ${l.forms} forms reviewed`);
  return parts.join(" · ");
}
