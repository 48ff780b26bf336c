/**
 * Display helpers for the workspace. The lexelt files hold tokenised text
 * ("the radiators ." / "did n't"); annotators read it with the tokeniser's
 * spaces taken out. Display only: what is stored is never changed.
 */
export function displayText(s: string): string {
  return s
    .replace(/ ([.,;:!?%)\]}]|'s\b|'re\b|'ve\b|'ll\b|'d\b|'m\b|n't\b)/g, "$1")
    .replace(/([([{$]) /g, "$1")
    .replace(/`` ?/g, "\u201c")
    .replace(/ ?''/g, "\u201d")
    // A straight quote standing alone at the sentence's start opens it, at its end closes it (in the
    // middle it may do either, and web text leaves many unpaired: those keep their spaces).
    .replace(/^" (?=\S)/, '"')
    .replace(/(\S) "$/, '$1"');
}
