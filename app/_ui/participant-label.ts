/**
 * Platform ids as people are shown them. Prolific ids (24 hexadecimal digits, a MongoDB
 * ObjectId: a time stamp first, a counter last) of people who joined about the same time
 * share their first digits and differ at the end, so a long id is shortened in the middle:
 * its first and last characters, with the whole id for a tooltip (and in the downloads).
 */
const PLATFORM_ID: Record<string, string> = { prolific: "Prolific ID", mturk: "Worker ID", link: "ID" };

/** Ids up to this many characters are shown whole. */
const MAX_SHOWN = 14;
const HEAD = 6;
const TAIL = 4;

/** `64a000…0002` for a long id (counted in characters, not bytes); a short one as it is. */
export function shortId(id: string): string {
  const chars = [...id];
  return chars.length > MAX_SHOWN ? `${chars.slice(0, HEAD).join("")}…${chars.slice(-TAIL).join("")}` : id;
}

/**
 * What the header shows a crowd participant instead of their account's name. The account is
 * named `<platform>:<study id>:<platform id>` (lib/server/crowd/join.ts), which means nothing
 * to them; they know the id their platform gave them (Prolific ID, Mechanical Turk worker ID,
 * or the id they typed on a plain link).
 */
export function participantLabel(accountName: string): { label: string; id: string; short: string } | null {
  const m = /^([a-z]+):[0-9]+:(.+)$/s.exec(accountName);
  if (!m) return null;
  return { label: PLATFORM_ID[m[1]] ?? "ID", id: m[2], short: shortId(m[2]) };
}
