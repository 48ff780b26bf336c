/**
 * The acknowledged-save check of the load and crash runs. Every save the
 * server acknowledged (ok, with a revision) is looked up in what the database
 * holds afterwards: its history row must exist exactly once with the content
 * sent, and the current response must not be older than it. Each save sent
 * by the load carries substitutes no other save uses, so a save applied twice
 * shows up as two history rows holding the same substitute. Pure: the caller
 * reads the rows.
 */

export interface SentResponse {
  kind: "substitutes" | "NAME" | "NIL";
  substitutes: string[];
  multiword: string | null;
}

export interface AckedSave extends SentResponse {
  userId: number;
  instanceRef: number;
  /** The revision the server acknowledged. */
  revision: number;
}

/** A row of response_history or responses, substitutes as stored (a JSON array). */
export interface StoredRow {
  userId: number;
  instanceRef: number;
  revision: number;
  kind: string;
  substitutes: string;
  multiword: string | null;
}

export interface AckReport {
  acknowledged: number;
  /** Found exactly once in the history with the content sent. */
  present: number;
  /** No history row at (user, instance, revision) with the content sent. */
  missing: AckedSave[];
  /** Found more than once (a substitute of the save in two history rows, or two rows at one revision). */
  doubled: AckedSave[];
  /** A history row at the acknowledged revision holds other content. */
  mismatched: AckedSave[];
  /** The current response is missing or at an older revision than an acknowledged save. */
  currentBehind: AckedSave[];
  /** The current response is at the acknowledged revision but holds other content. */
  currentMismatched: AckedSave[];
  /** (user, instance, revision) triples with more than one history row, over the whole history. */
  duplicateRevisions: number;
}

const key = (u: number, i: number, r?: number) => (r === undefined ? `${u}:${i}` : `${u}:${i}:${r}`);

function sameContent(sent: SentResponse, row: StoredRow): boolean {
  let subs: unknown;
  try {
    subs = JSON.parse(row.substitutes);
  } catch {
    return false;
  }
  return (
    row.kind === sent.kind &&
    Array.isArray(subs) &&
    subs.length === sent.substitutes.length &&
    subs.every((s, k) => s === sent.substitutes[k]) &&
    (row.multiword ?? null) === (sent.multiword ?? null)
  );
}

export function checkAcknowledged(acked: readonly AckedSave[], history: readonly StoredRow[], current: readonly StoredRow[]): AckReport {
  const byRevision = new Map<string, StoredRow[]>();
  const bySubstitute = new Map<string, number>();
  for (const h of history) {
    const k = key(h.userId, h.instanceRef, h.revision);
    const list = byRevision.get(k);
    if (list) list.push(h);
    else byRevision.set(k, [h]);
    let subs: unknown = [];
    try {
      subs = JSON.parse(h.substitutes);
    } catch {
      // counted as mismatched where it matters
    }
    if (Array.isArray(subs)) for (const s of subs) if (typeof s === "string") bySubstitute.set(s, (bySubstitute.get(s) ?? 0) + 1);
  }
  const currentBy = new Map(current.map((c) => [key(c.userId, c.instanceRef), c]));

  const report: AckReport = {
    acknowledged: acked.length,
    present: 0,
    missing: [],
    doubled: [],
    mismatched: [],
    currentBehind: [],
    currentMismatched: [],
    duplicateRevisions: [...byRevision.values()].filter((l) => l.length > 1).length,
  };
  // The latest acknowledged save per (user, instance), for the current-response check.
  const latest = new Map<string, AckedSave>();
  for (const a of acked) {
    const rows = byRevision.get(key(a.userId, a.instanceRef, a.revision)) ?? [];
    const twice = rows.length > 1 || a.substitutes.some((s) => (bySubstitute.get(s) ?? 0) > 1);
    if (rows.length === 0) report.missing.push(a);
    else if (!rows.some((r) => sameContent(a, r))) report.mismatched.push(a);
    else if (twice) report.doubled.push(a);
    else report.present++;
    const k = key(a.userId, a.instanceRef);
    const prev = latest.get(k);
    if (!prev || a.revision > prev.revision) latest.set(k, a);
  }
  for (const [k, a] of latest) {
    const c = currentBy.get(k);
    if (!c || c.revision < a.revision) report.currentBehind.push(a);
    else if (c.revision === a.revision && !sameContent(a, c)) report.currentMismatched.push(a);
  }
  return report;
}

/** Lost = not stored as acknowledged; doubled = stored more than once. */
export function lostAndDoubled(r: AckReport): { lost: number; doubled: number } {
  return {
    lost: new Set([...r.missing, ...r.mismatched, ...r.currentBehind, ...r.currentMismatched]).size,
    doubled: Math.max(r.doubled.length, r.duplicateRevisions),
  };
}
