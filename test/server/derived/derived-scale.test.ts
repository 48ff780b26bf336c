/**
 * #39: one save's derivation work is the same in a project of 2,000 instances and of 200,000, with
 * two runs stored with the project's gold: the statements the maintenance runs (and the rows they
 * return) for the saved instance, counted as queue-scale.test.ts counts a save's, and none of them
 * reads more than the instance's own rows (SQLite's plan: an indexed SEARCH, never a SCAN).
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { maintainInstances } from "../../../lib/server/derived/maintain";
import { drainAll } from "../../../lib/server/derived/queue";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { bigProject, type BigProject } from "../../support/big-project";
import { recordStatements } from "../../support/statements";

const answer = (subs: string[]) => ({ kind: "substitutes", substitutes: subs, multiword: false });

/** The statements `fn` runs (SQL text, transaction control left out) and the rows they return (test/support/statements.ts). */
const recorded = (db: Db, fn: () => void): { sql: string[]; rows: number } => recordStatements(db, fn);

/** A big project whose first instances are answered, its figures built, two runs of its gold stored. */
function project(instances: number): BigProject {
  const b = bigProject({ instances, answered: 1000 });
  drainAll(b.db, b.projectId);
  for (const type of ["best", "oot"]) {
    const lines = b.refs.slice(0, 2000).map((_, i) => `w${Math.floor(i / 10)}.n i${i} :${type === "oot" ? "::" : ":"} x;y`);
    uploadRun(b.db, SYSTEM, b.projectId, { fileName: `sys.${type}`, text: lines.join("\n") + "\n" });
  }
  return b;
}

describe("one save's derivation work", { timeout: 600_000 }, () => {
  it("is the same at 2,000 and at 200,000 instances, and reads through indexes only", () => {
    const measure = (b: BigProject) => {
      const ref = b.refs[500];
      // A save (which keeps its instance in its transaction), then the same instance answered again as a save
      // writes it, and the maintenance that save runs, on its own: its gold line changes, so its id is scored
      // again in both runs.
      saveResponse(b.db, b.fresh, b.projectId, ref, answer(["xa", "za"]), { expectedRevision: 0 });
      b.db.$client.prepare("update responses set substitutes = '[\"ya\"]', revision = 2 where instance_ref = ? and user_id = ?").run(ref, b.fresh.userId);
      const r = recorded(b.db, () => b.db.$client.transaction(() => maintainInstances(b.db, b.projectId, [ref]))());
      return { statements: r.sql.length, rows: r.rows, sql: r.sql };
    };
    const small = measure(project(2_000));
    const big = project(200_000);
    const large = measure(big);
    expect({ statements: large.statements, rows: large.rows }).toEqual({ statements: small.statements, rows: small.rows });
    expect(large.statements).toBeLessThan(30);
    // Every read finds its rows through an index (a json_each list is the statement's own keys).
    for (const sql of new Set(large.sql)) {
      if (!/^\s*(select|with)/i.test(sql)) continue;
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
      const plan = (big.db.$client.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail);
      expect(plan.filter((s) => /^SCAN (?!\(subquery|CONSTANT ROW|json_each VIRTUAL TABLE)|TEMP B-TREE/.test(s)), sql).toEqual([]);
    }
  });
});
