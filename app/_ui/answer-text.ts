/**
 * Answers listed to people (the workspace, training, the Flags and Gold tabs, scoring's items): substitutes
 * joined by a comma and a space, everywhere. Files keep their own separators (`;` in the responses TSV and
 * the gold). A substitute never holds a comma or a semicolon (lib/lexsub/substitute-rules.ts refuses lists).
 */
export const ANSWER_SEPARATOR = ", ";

export function listAnswers(xs: readonly string[]): string {
  return xs.join(ANSWER_SEPARATOR);
}
