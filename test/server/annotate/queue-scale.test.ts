/**
 * Issue #14: a save and a workspace step cost the same in a project of 1,000 and
 * of 100,000 instances. Every statement they run is recorded (better-sqlite3's
 * Statement methods are wrapped) and checked two ways: the same operations run the same
 * number of statements in both projects, and SQLite's query plan for each is an
 * indexed SEARCH, never a SCAN of a table or index that grows with the project.
 * The counters the statements read are checked against a recount.
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { saveResponse, workspace, workspaceTargets } from "../../../lib/server/annotate/responses";
import { syncTrainingQueue } from "../../../lib/server/annotate/queue";
import { bigProject, type BigProject } from "../../support/big-project";
import { recordStatements } from "../../support/statements";

const answer = (s: string) => ({ kind: "substitutes", substitutes: [s], multiword: false });

/**
 * Run fn and return the SQL of every statement it ran (once per run, whether
 * prepared now or earlier and kept), with how many rows they returned in all.
 * better-sqlite3's Statement methods are wrapped on the prototype for the call.
 * Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE) reads no row and is left out.
 */
function recorded(db: Db, fn: () => void): string[] & { rows: number } {
  const r = recordStatements(db, fn);
  return Object.assign(r.sql, { rows: r.rows });
}

/** SQLite's plan for a statement, one line per step. */
function plan(db: Db, sql: string): string[] {
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
  return (db.$client.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}

/** The operations of an annotator's session: resume, open an instance, save it, save at the frontier, revise. */
function session(b: BigProject) {
  const middle = b.refs[Math.floor(b.refs.length / 2)];
  const frontier = b.refs[b.refs.length / 5];
  return {
    resume: () => workspace(b.db, b.busy, b.projectId),
    open: () => workspace(b.db, b.fresh, b.projectId, middle),
    saveNew: () => saveResponse(b.db, b.fresh, b.projectId, middle, answer("first"), { expectedRevision: 0 }),
    saveAtFrontier: () => saveResponse(b.db, b.busy, b.projectId, frontier, answer("next"), { expectedRevision: 0 }),
    revise: () => saveResponse(b.db, b.fresh, b.projectId, middle, answer("second"), { expectedRevision: 1 }),
  };
}

describe("a save and a workspace step in a big project", { timeout: 300_000 }, () => {
  // Each test runs the session once on projects of its own (a session saves, so it runs once per project).
  const projects = () => [bigProject({ instances: 1_000, answered: 200 }), bigProject({ instances: 100_000, answered: 20_000 })];

  it("give the same answers as in a small one, scaled", () => {
    for (const b of projects()) {
      const n = b.refs.length;
      const s = session(b);
      const resume = s.resume();
      expect(resume.instance?.ref).toBe(b.refs[n / 5]);
      expect(resume.position).toBe(n / 5 + 1);
      expect(resume.progress).toEqual({ done: n / 5, total: n });
      expect(resume.upcoming.map((u) => u.instance.ref)).toEqual(b.refs.slice(n / 5 + 1, n / 5 + 4));
      expect(resume.upcoming.map((u) => u.position)).toEqual([n / 5 + 2, n / 5 + 3, n / 5 + 4]);
      const open = s.open();
      expect([open.prevRef, open.nextRef, open.position]).toEqual([b.refs[n / 2 - 1], b.refs[n / 2 + 1], n / 2 + 1]);
      const saved = s.saveNew();
      expect(saved.next).toBe(b.refs[n / 2 + 1]);
      expect(saved.progress).toEqual({ done: 1, total: n });
      expect(saved.lexelt).toMatchObject({ done: 1, total: 10 });
      expect(saved.upcoming[0]).toMatchObject({ position: n / 2 + 2, prevRef: b.refs[n / 2], nextUnansweredRef: b.refs[n / 2 + 2] });
      expect(s.saveAtFrontier().progress).toEqual({ done: n / 5 + 1, total: n });
      expect(s.revise().progress).toEqual({ done: 1, total: n });
    }
  });

  /** Training items out of the queue at the same places of both projects: next to the middle the session saves at, and the last instance. */
  const withTraining = (b: BigProject): BigProject => {
    const n = b.refs.length;
    const mark = b.db.$client.prepare("insert into known_answers (instance_ref, project_id, role, accepted, set_at) values (?, ?, 'training', '[\"x\"]', 0)");
    for (const ref of [b.refs[n / 2 + 3], b.refs[n - 1]]) mark.run(ref, b.projectId);
    syncTrainingQueue(b.db, b.projectId);
    return b;
  };

  it("run the same statements in a project of 100,000 instances as in one of 1,000, with training items out of the queue", () => {
    const count = (b: BigProject) =>
      Object.fromEntries(
        Object.entries(session(b)).map(([name, fn]) => {
          const r = recorded(b.db, fn);
          return [name, { statements: r.length, rows: r.rows }];
        }),
      );
    const [a, z] = projects().map(withTraining).map(count);
    expect(z).toEqual(a);
    for (const { statements, rows } of Object.values(z)) {
      expect(statements).toBeLessThan(60);
      expect(rows).toBeLessThan(60);
    }
  });

  it("find every row through an index: no statement scans a table that grows with the project", () => {
    const big = withTraining(bigProject({ instances: 100_000, answered: 20_000 }));
    const s = session(big);
    const statements = new Set<string>();
    for (const fn of Object.values(s)) for (const sql of recorded(big.db, fn)) statements.add(sql);
    const scans: string[] = [];
    for (const sql of statements) {
      if (!/^\s*(select|with)/i.test(sql)) continue;
      const steps = plan(big.db, sql);
      // A SCAN reads a whole table or index; a temporary b-tree sorts a set as large as what it matched.
      // (A SCAN of a subquery reads what the subquery returned, and its own steps are checked here too;
      // SCAN CONSTANT ROW is the one row of a select without FROM, whose scalar subqueries are checked;
      // a SCAN of json_each reads the list of keys the statement was given, one instance's forms.)
      for (const step of steps) if (/^SCAN (?!\(subquery|CONSTANT ROW|json_each VIRTUAL TABLE)|TEMP B-TREE/.test(step)) scans.push(`${step}  ←  ${sql.replace(/\s+/g, " ").slice(0, 140)}`);
      expect(steps.some((step) => /^SEARCH /.test(step)), sql).toBe(true);
    }
    expect(scans).toEqual([]);
  });

  it("keeps the counters equal to a recount through web saves and a responses import", () => {
    const b = bigProject({ instances: 50, answered: 12 });
    saveResponse(b.db, b.fresh, b.projectId, b.refs[3], answer("one"), { expectedRevision: 0 });
    saveResponse(b.db, b.fresh, b.projectId, b.refs[3], answer("two"), { expectedRevision: 1 });
    saveResponse(b.db, b.busy, b.projectId, b.refs[40], answer("three"), { expectedRevision: 0 });
    const tsv = ["annotator\tlexelt\tinstance\tanswer\tmultiword", "fresh\tw1.n\ti11\tfour\t", "busy\tw0.n\ti0\tfive\t", "busy\tw4.n\ti45\tsix\t"].join("\n");
    importResponses(b.db, { kind: "system" }, b.projectId, { fileName: "r.tsv", text: tsv + "\n" });
    const rows = (sql: string) => b.db.$client.prepare(sql).all();
    expect(rows("select user_id, lexelt_id, done from queue_counts order by 1, 2")).toEqual(
      rows("select r.user_id, i.lexelt_id, count(*) as done from responses r join instances i on i.id = r.instance_ref group by 1, 2 order by 1, 2"),
    );
    expect(rows("select user_id, done from annotator_counts order by 1")).toEqual(rows("select user_id, count(*) as done from responses group by 1 order by 1"));
    expect(workspace(b.db, b.fresh, b.projectId).progress).toEqual({ done: 2, total: 50 });
    expect(workspaceTargets(b.db, b.busy, b.projectId).slice(0, 5).map((l) => l.done)).toEqual([10, 2, 0, 0, 2]);
  });
});
