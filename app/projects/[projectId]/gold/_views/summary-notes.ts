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

/**
 * The bulk accept button's words. Accepting a proposal that is the form itself changes no gold line,
 * so the button says how many of the open forms a proposal would change: "Accept all 30 open
 * proposals" beside "0 proposals to decide" read as a contradiction.
 */
export function acceptAllLabel(open: number, openChanged: number): string {
  if (open === 0) return "No open proposals";
  if (openChanged === 0) return open === 1 ? "Accept the open form as its own lemma" : `Accept all ${open} open forms as their own lemma`;
  return `Accept all ${open} open proposal${open === 1 ? "" : "s"} (${openChanged} change${openChanged === 1 ? "s" : ""} the form)`;
}
