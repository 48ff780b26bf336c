/**
 * The training page's counter. The feedback on an item is shown before the page's view is
 * refreshed, so the view's list of answered items does not have that item yet: it counts here
 * until the list has it (counting it twice, or not at all, made the counter lag by one).
 */
export function answeredCount(answered: readonly { ref: number }[], justAnswered: number | null): number {
  const listed = justAnswered !== null && answered.some((a) => a.ref === justAnswered);
  return answered.length + (justAnswered !== null && !listed ? 1 : 0);
}

/** Where the trainee is: "Item 2 of 5" while answering one, "2 of 5 answered" once done with it. */
export function trainingCounter(answered: number, total: number, answering: boolean): string {
  return answering ? `Item ${Math.min(answered + 1, total)} of ${total}` : `${answered} of ${total} answered`;
}
