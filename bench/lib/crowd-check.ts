/**
 * The crowd run's check of balanced overlap (issue #32), on the rows the database holds
 * afterwards: no instance with more than K answers; every instance whose K places were all
 * given out and answered has exactly K answers from K distinct participants; no participant
 * answered an instance twice or outside their batch; one participant per platform id; each
 * slot's count of places equals the places its batches hold. Pure: crowdRows reads the rows.
 */
import Database from "better-sqlite3";

export interface CrowdRows {
  overlap: number;
  /** study_slots: the instance and its places given out. */
  slots: ReadonlyArray<{ ref: number; taken: number }>;
  /** participants: their account and platform id. */
  participants: ReadonlyArray<{ id: number; userId: number; platformId: string }>;
  /** batch_items: released ones gave their place back. */
  items: ReadonlyArray<{ participantId: number; ref: number; released: boolean }>;
  /** responses of the study's instances by participants' accounts (one row each). */
  answers: ReadonlyArray<{ userId: number; ref: number }>;
}

export interface CrowdCheck {
  instances: number;
  /** Instances with exactly K answers. */
  reachedK: number;
  /** Instances whose K places were all given out (held or answered). */
  placesAllGiven: number;
  /** Of those, every place answered. */
  allAnswered: number;
  /** Of those, exactly K answers from K distinct participants (should equal allAnswered). */
  exactlyK: number;
  /** Instances with more than K answers. */
  overK: number[];
  /** Instances whose places were all given and answered, without exactly K answers from distinct participants. */
  notExactlyK: number[];
  /** (participant, instance) answered more than once. */
  twice: number;
  /** Answers by a participant to an instance not held in their batch (absent or released). */
  outsideBatch: number;
  /** Platform ids with more than one participant. */
  platformIdTwice: number;
  /** Slots whose count of places differs from the places their batches hold. */
  takenMismatch: number[];
  /** Instances given to one participant twice (two batch rows). */
  itemTwice: number;
}

/** The check itself. */
export function checkOverlap(rows: CrowdRows): CrowdCheck {
  const K = rows.overlap;
  const userOf = new Map(rows.participants.map((p) => [p.id, p.userId]));
  const participantOfUser = new Map(rows.participants.map((p) => [p.userId, p.id]));
  const held = new Map<string, boolean>();
  const heldPerRef = new Map<number, number>();
  let itemTwice = 0;
  for (const it of rows.items) {
    const user = userOf.get(it.participantId);
    const k = `${user}:${it.ref}`;
    if (held.has(k)) itemTwice++;
    held.set(k, held.get(k) === true || !it.released);
    if (!it.released) heldPerRef.set(it.ref, (heldPerRef.get(it.ref) ?? 0) + 1);
  }
  const answersPerRef = new Map<number, Set<number>>();
  const countPerRef = new Map<number, number>();
  const seen = new Set<string>();
  let twice = 0;
  let outsideBatch = 0;
  for (const a of rows.answers) {
    if (!participantOfUser.has(a.userId)) continue;
    const k = `${a.userId}:${a.ref}`;
    if (seen.has(k)) twice++;
    seen.add(k);
    if (held.get(k) !== true) outsideBatch++;
    countPerRef.set(a.ref, (countPerRef.get(a.ref) ?? 0) + 1);
    let s = answersPerRef.get(a.ref);
    if (!s) answersPerRef.set(a.ref, (s = new Set()));
    s.add(a.userId);
  }
  const byPlatformId = new Map<string, number>();
  for (const p of rows.participants) byPlatformId.set(p.platformId, (byPlatformId.get(p.platformId) ?? 0) + 1);

  const out: CrowdCheck = {
    instances: rows.slots.length,
    reachedK: 0,
    placesAllGiven: 0,
    allAnswered: 0,
    exactlyK: 0,
    overK: [],
    notExactlyK: [],
    twice,
    outsideBatch,
    platformIdTwice: [...byPlatformId.values()].filter((n) => n > 1).length,
    takenMismatch: [],
    itemTwice,
  };
  for (const s of rows.slots) {
    const n = countPerRef.get(s.ref) ?? 0;
    const distinct = answersPerRef.get(s.ref)?.size ?? 0;
    if (n === K) out.reachedK++;
    if (n > K) out.overK.push(s.ref);
    if (s.taken !== (heldPerRef.get(s.ref) ?? 0)) out.takenMismatch.push(s.ref);
    if (s.taken >= K) {
      out.placesAllGiven++;
      // Every place answered: as many answers as places (or more, which overK reports).
      if (n >= s.taken) {
        out.allAnswered++;
        if (n === K && distinct === K) out.exactlyK++;
        else out.notExactlyK.push(s.ref);
      }
    }
  }
  return out;
}

/** The study's rows from the database the server wrote. */
export function crowdRows(dbFile: string, studyId: number): CrowdRows {
  const db = new Database(dbFile, { readonly: true });
  try {
    const overlap = (db.prepare("select overlap from studies where id = ?").get(studyId) as { overlap: number }).overlap;
    const slots = db.prepare("select instance_ref as ref, taken from study_slots where study_id = ?").all(studyId) as CrowdRows["slots"];
    const participants = db.prepare("select id, user_id as userId, platform_id as platformId from participants where study_id = ?").all(studyId) as CrowdRows["participants"];
    const items = (
      db
        .prepare("select b.participant_id as participantId, b.instance_ref as ref, b.released_at is not null as released from batch_items b join participants p on p.id = b.participant_id where p.study_id = ?")
        .all(studyId) as Array<{ participantId: number; ref: number; released: number }>
    ).map((r) => ({ ...r, released: r.released === 1 }));
    const answers = db
      .prepare(
        "select r.user_id as userId, r.instance_ref as ref from responses r join participants p on p.user_id = r.user_id where p.study_id = ? and r.project_id = p.project_id",
      )
      .all(studyId) as CrowdRows["answers"];
    return { overlap, slots, participants, items, answers };
  } finally {
    db.close();
  }
}

/** The participants who joined since `since` (epoch ms) by state, from the database (for the report). */
export function participantStates(dbFile: string, studyId: number, since: number): Record<string, number> {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db.prepare("select state, count(*) as n from participants where study_id = ? and joined_at >= ? group by state").all(studyId, since) as Array<{ state: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  } finally {
    db.close();
  }
}
