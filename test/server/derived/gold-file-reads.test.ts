/**
 * The gold and mwgold files are read from the index of the kept lines in corpus order alone (#39,
 * migration 0033): a kept row holds its instance's sums and is about a page of 4 KB, so reading the
 * lines from the rows read a page per instance (84,000 pages for 6 MB of gold at 100,000 instances).
 */
import { describe, expect, it } from "vitest";
import { catchUpNow } from "../../../lib/server/derived/actor-free";
import { goldFileText } from "../../../lib/server/derived/read";
import { goldFileSlices } from "../../../lib/server/gold/gold-files";
import { projectGold } from "../../../lib/server/gold/gold";
import { goldFixture } from "../../support/gold-fixture";
import { recordStatements } from "../../support/statements";

/** The SQL texts of the statements `fn` runs, each once (test/support/statements.ts). */
const statementsOf = (db: Parameters<typeof recordStatements>[0], fn: () => void): string[] => [...new Set(recordStatements(db, fn).sql)];

describe("reading the gold and mwgold files", () => {
  it("gives the derivation's files through the covering index of the lines, never the rows", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    catchUpNow(f.db, f.project.id);
    const derived = projectGold(f.db, f.coord, f.project.id);
    const reads: string[] = [];
    for (const file of ["gold", "mwgold"] as const) {
      let sliced = "";
      let whole = "";
      reads.push(
        ...statementsOf(f.db, () => {
          sliced = [...goldFileSlices(f.db, f.coord, f.project.id, file)].join("");
          whole = goldFileText(f.db, f.project.id, file);
        }),
      );
      expect(sliced).toBe(derived[file]);
      expect(whole).toBe(derived[file]);
    }
    const lineReads = reads.filter((s) => /\bline\b|mw_line/.test(s) && /gold_items/.test(s));
    expect(lineReads.length).toBeGreaterThanOrEqual(2);
    for (const sql of lineReads) {
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
      const plan = (f.db.$client.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail).join(" | ");
      expect(plan, sql).toMatch(/USING COVERING INDEX gold_items_order/);
      expect(plan, sql).not.toMatch(/TEMP B-TREE/);
    }
  });
});
