/**
 * A big project for the scale tests, seeded in one transaction of raw inserts
 * (100,000 instances in a few seconds): lexelts of ten instances, the counters
 * the XML import keeps, and optionally an annotator who has answered a prefix.
 */
import type { Db } from "../../db/client";
import type { UserActor } from "../../lib/server/kernel/actor";
import { createProject } from "../../lib/server/corpus/projects";
import { recountLexelts } from "../../lib/server/annotate/queue";
import { addMember } from "../../lib/server/people/users";
import { actorFor, testDb } from "./db";

export interface BigProject {
  db: Db;
  projectId: number;
  /** A member who has answered nothing. */
  fresh: UserActor;
  /** A member who has answered the first `answered` instances of the queue. */
  busy: UserActor;
  /** Instance refs in queue order. */
  refs: number[];
}

export function bigProject(opts: { instances: number; answered: number; perLexelt?: number }): BigProject {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const fresh = actorFor(db, "fresh", "annotator");
  const busy = actorFor(db, "busy", "annotator");
  const project = createProject(db, coord, { name: "big" });
  addMember(db, coord, project.id, "fresh");
  addMember(db, coord, project.id, "busy");
  const perLexelt = opts.perLexelt ?? 10;
  const c = db.$client;
  const refs: number[] = [];
  c.transaction(() => {
    const lx = c.prepare("insert into lexelts (project_id, item, lemma, pos, position) values (?, ?, ?, 'n', ?)");
    const inst = c.prepare("insert into instances (project_id, lexelt_id, instance_id, before, head, after, position) values (?, ?, ?, 'the ', ?, ' here', ?)");
    const resp = c.prepare(
      "insert into responses (project_id, instance_ref, user_id, kind, substitutes, revision, updated_at) values (?, ?, ?, 'substitutes', '[\"x\"]', 1, ?)",
    );
    const hist = c.prepare(
      "insert into response_history (response_id, project_id, instance_ref, user_id, kind, substitutes, revision, source, saved_at) values (?, ?, ?, ?, 'substitutes', '[\"x\"]', 1, 'import', ?)",
    );
    let lexeltId = 0;
    for (let i = 0; i < opts.instances; i++) {
      if (i % perLexelt === 0) {
        const k = i / perLexelt;
        lexeltId = Number(lx.run(project.id, `w${k}.n`, `w${k}`, k + 1).lastInsertRowid);
      }
      const ref = Number(inst.run(project.id, lexeltId, `i${i}`, `w${Math.floor(i / perLexelt)}`, i + 1).lastInsertRowid);
      refs.push(ref);
      if (i < opts.answered) {
        const id = Number(resp.run(project.id, ref, busy.userId, 1_700_000_000_000 + i).lastInsertRowid);
        hist.run(id, project.id, ref, busy.userId, 1_700_000_000_000 + i);
      }
    }
    recountLexelts(db, project.id);
    // The counters the saves and imports keep, as the backfill migration fills them.
    c.prepare(
      `insert into queue_counts (project_id, user_id, lexelt_id, done)
       select r.project_id, r.user_id, i.lexelt_id, count(*) from responses r join instances i on i.id = r.instance_ref group by 1, 2, 3`,
    ).run();
    c.prepare("insert into annotator_counts (project_id, user_id, done) select project_id, user_id, count(*) from responses group by 1, 2").run();
  })();
  return { db, projectId: project.id, fresh, busy, refs };
}
