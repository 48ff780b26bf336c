/**
 * A stored gold's facts are kept (derived_snapshots) the first time the board or a run's figures
 * read them, and never written inside their read transactions: in WAL mode a write inside a
 * deferred transaction is refused at once (SQLITE_BUSY, no busy wait) when another connection has
 * committed since the transaction began — which the jobs and derivation processes do all the time.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDb } from "../../../db/client";
import { scoringGolds } from "../../../db/schema";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { keepStoredGoldFacts, keptGoldFacts, keptScoreBoard } from "../../../lib/server/scoring/board";
import { storeGold } from "../../../lib/server/scoring/golds";
import { projectFixture } from "../../support/db";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function world() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-board-"));
  dirs.push(dir);
  const file = path.join(dir, "board.db");
  const { db, coord, project } = projectFixture(file);
  const gold = storeGold(db, SYSTEM, project.id, { name: "g", gold: { name: "d.gold", text: "bright.a 1 :: clever 2;smart 1;\nbright.a 2 :: shining 3;\n" }, mwgold: null });
  const other = openDb(file);
  const kept = () => (db.$client.prepare("select count(*) as n from derived_snapshots where project_id = ? and kind like 'stored-gold:%'").get(project.id) as { n: number }).n;
  return { db, coord, project, goldId: gold.id!, other, kept };
}

describe("a stored gold's facts and the read transactions", () => {
  it("read inside a read transaction after another connection committed: computed, not written, no SQLITE_BUSY", () => {
    const { db, project, goldId, other, kept } = world();
    const row = db.select().from(scoringGolds).where(eq(scoringGolds.id, goldId)).get() ?? null;
    expect(row).not.toBeNull();
    const facts = db.$client.transaction(() => {
      db.$client.prepare("select count(*) from instances").get(); // the snapshot begins
      other.$client.prepare("insert into data_versions (project_id, version) values (?, 1) on conflict do update set version = version + 1").run(project.id);
      return keptGoldFacts(db, project, row, "bytes").facts;
    })();
    expect(facts.gold?.totals.total).toBe(2);
    expect(kept()).toBe(0);
    // Outside a transaction it is kept, once.
    keepStoredGoldFacts(db, project.id, goldId, "bytes");
    expect(kept()).toBe(1);
  });

  it("the board keeps them before its read transaction, so it answers while another connection commits", () => {
    const { db, coord, project, goldId, kept } = world();
    expect(kept()).toBe(0);
    const board = keptScoreBoard(db, coord, project.id, { kind: "stored", id: goldId });
    expect(board?.gold.items).toBe(2);
    expect(kept()).toBe(1);
  });
});
