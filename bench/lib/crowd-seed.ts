/**
 * The crowd run's study (issue #32): a Prolific study opened on the load's project through
 * lib/server (createStudy, as `lexgold study create` does), and — because a human-paced run of a
 * few hundred participants gives out a few thousand places, not the 100,000 × K a study of that
 * size ends with — the study as it stands late in its life: every instance but the last `open`
 * (in corpus order) already holds its K answers from earlier participants, written with raw
 * inserts in one transaction (finished participants, their batches, their answers, the slots'
 * counts). The live participants then take the open instances' places, and the check afterwards
 * covers all of them: the earlier ones and the ones answered during the run.
 *
 * The earlier participants' answers have no history rows and do not move the queue counters
 * (the load's prefill does the same): nothing in a participant's workspace reads either.
 */
import { openDb } from "../../db/client";

export interface CrowdStudy {
  studyId: number;
  token: string;
  completionCode: string;
  overlap: number;
  batchSize: number;
  minutes: number;
  /** Instances the study hands out (slots). */
  instances: number;
  /** Of them, the instances already holding K answers from earlier participants. */
  prefilled: number;
  /** Earlier participants written. */
  earlierParticipants: number;
  /** The instances still short of K answers when the run starts. */
  openRefs: number[];
}

const COMPLETION_CODE = "C1LOADCROWD";

/** 24 hexadecimal digits, Prolific's id shape, from a number (the earlier participants'): "e", then the number. */
export function prolificId(n: number): string {
  return "e" + n.toString(16).padStart(23, "0");
}

export async function openCrowdStudy(
  dbFile: string,
  projectId: number,
  opts: { batchSize: number; overlap: number; minutes: number; open: number; earlierBatch?: number },
): Promise<CrowdStudy> {
  const { SYSTEM } = await import("../../lib/server/kernel/actor");
  const { createStudy } = await import("../../lib/server/crowd");
  const { studySlotsWritten } = await import("../../lib/server/crowd/studies");
  const db = openDb(dbFile);
  try {
    const opened = createStudy(db, SYSTEM, projectId, {
      platform: "prolific",
      batchSize: opts.batchSize,
      overlap: opts.overlap,
      minutes: opts.minutes,
      completionCode: COMPLETION_CODE,
      name: "load crowd",
      // Prolific studies show one; the participants accept it as they join (consent "yes").
      consent: "You take part in a study of word meanings. Your answers are kept without your name.",
    });
    const sqlite = db.$client;
    // A big study's slots are written in slices after createStudy returns: wait for them, then count them.
    const study = { ...opened, instances: await studySlotsWritten(db, opened.id) };
    const K = opts.overlap;
    const closed = Math.max(0, study.instances - opts.open);
    const per = Math.max(1, opts.earlierBatch ?? 100);
    let earlier = 0;
    if (closed > 0) {
      const refs = (
        sqlite.prepare("select instance_ref as ref from study_slots where study_id = ? order by position limit ?").all(study.id, closed) as Array<{ ref: number }>
      ).map((r) => r.ref);
      const insertUser = sqlite.prepare("insert into users (name, role, password_hash, created_at) values (?, 'participant', '!participant', ?) returning id");
      const member = sqlite.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')");
      const insertParticipant = sqlite.prepare(
        `insert into participants (study_id, project_id, user_id, platform_id, platform_study_id, platform_session_id, joined_at, batch_at, finished_at, state, active_ms, last_seen_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'finished', ?, ?) returning id`,
      );
      const item = sqlite.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)");
      const answer = sqlite.prepare(
        "insert into responses (project_id, instance_ref, user_id, kind, substitutes, multiword, revision, active_ms, created_at, updated_at) values (?, ?, ?, 'substitutes', ?, null, 1, ?, ?, ?)",
      );
      const full = sqlite.prepare("update study_slots set taken = ? where study_id = ? and instance_ref = ?");
      sqlite.transaction(() => {
        // A day ago: long finished, nothing of theirs expires during the run.
        const t = Date.now() - 86_400_000;
        // Round r: the instances in blocks of `per`, one earlier participant each, so no one answers an instance twice.
        for (let r = 0; r < K; r++) {
          for (let b = 0; b < refs.length; b += per) {
            earlier++;
            const pid = prolificId(earlier);
            const userId = (insertUser.get(`prolific:${study.id}:${pid}`, t) as { id: number }).id;
            member.run(projectId, userId);
            const participantId = (insertParticipant.get(study.id, projectId, userId, pid, prolificId(0), prolificId(earlier + 1_000_000), t, t, t + 600_000, 600_000, t + 600_000) as { id: number }).id;
            refs.slice(b, b + per).forEach((ref, k) => {
              item.run(participantId, ref, k + 1);
              answer.run(projectId, ref, userId, JSON.stringify([`earlier${(ref * 7 + r) % 997}`]), 12_000, t, t);
            });
          }
        }
        for (const ref of refs) full.run(K, study.id, ref);
      })();
    }
    const openRefs = (
      sqlite.prepare("select instance_ref as ref from study_slots where study_id = ? order by position limit -1 offset ?").all(study.id, closed) as Array<{ ref: number }>
    ).map((r) => r.ref);
    return {
      openRefs,
      studyId: study.id,
      token: study.token,
      completionCode: COMPLETION_CODE,
      overlap: K,
      batchSize: opts.batchSize,
      minutes: opts.minutes,
      instances: study.instances,
      prefilled: closed,
      earlierParticipants: earlier,
    };
  } finally {
    db.$client.close();
  }
}
