/** Counts as the pages print them (pure: used by server and client components). */

/** A count with thousands separators. */
export function int(n: number): string {
  return n.toLocaleString("en");
}

/** A count and its noun: "1 line", "1,204 lines", "3 proposals" (`many` for an irregular plural). */
export function plural(n: number, word: string, many = word + "s"): string {
  return `${int(n)} ${n === 1 ? word : many}`;
}
