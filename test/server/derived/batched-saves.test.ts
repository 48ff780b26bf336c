/**
 * #39: saves the write lock runs together in one batch (kernel/write-lock.ts) keep their instances'
 * figures in one pass at the end of the batch (maintain.ts maintainInstanceAtCommit). What the batch
 * commits equals the whole project's derivation and a rebuild from nothing, as one save at a time
 * does: the gold and mwgold files, the kept tables, every stored run's outcomes. A write in the
 * same batch that reads the figures (not a save) sees the saves before it in them.
 */
import { describe, expect, it } from "vitest";
import { saveResponseAsync } from "../../../lib/server/annotate/responses";
import { projectGold } from "../../../lib/server/gold/gold";
import { goldFileText } from "../../../lib/server/derived/read";
import { rebuildDerived } from "../../../lib/server/derived/rebuild";
import { sumRunOutcomes } from "../../../lib/server/derived/run-items";
import { writeTransaction } from "../../../lib/server/kernel/write-lock";
import { computeBoardOthers, keptScoreBoard } from "../../../lib/server/scoring/board";
import { scoreBoard } from "../../../lib/server/scoring/scores";
import { uploadRun } from "../../../lib/server/scoring/runs";
import type { UserActor } from "../../../lib/server/kernel/actor";
import { actorFor } from "../../support/db";
import { derivedTables } from "../../support/full-derivation";
import { goldFixture } from "../../support/gold-fixture";
import { addMember } from "../../../lib/server/people/users";

const turn = () => new Promise<void>((r) => setImmediate(r));

describe("saves committed in one batch", () => {
  it("keep the figures a save at a time keeps: equal to the whole derivation and to a rebuild", async () => {
    const f = goldFixture();
    const { db, coord } = f;
    const projectId = f.project.id;
    for (const [type, text] of [
      ["best", "calm.a c1 :: still\ncalm.a c2 :: quiet\nhop.v h1 :: jump\nhop.v h2 :: ride\n"],
      ["oot", "calm.a c1 ::: serene;still\nhop.v h1 ::: skip;jump\nhop.v h2 ::: board\n"],
    ]) {
      uploadRun(db, coord, projectId, { fileName: `sys.${type}`, text, confirm: true });
    }
    const dan = actorFor(db, "dan", "annotator");
    addMember(db, coord, projectId, "dan");
    const existing = (name: string): UserActor => ({ kind: "user", userId: db.$client.prepare("select id from users where name = ?").pluck().get(name) as number, name, role: "annotator" });
    const who = { ann: f.ann, bea: existing("bea"), dan };
    const refOf = (id: string) => db.$client.prepare("select id from instances where project_id = ? and instance_id = ?").pluck().get(projectId, id) as number;
    const revisionOf = (name: keyof typeof who, id: string) =>
      (db.$client.prepare("select revision from responses where instance_ref = ? and user_id = ?").pluck().get(refOf(id), who[name].userId) as number | undefined) ?? 0;
    const lineOf = (id: string) => db.$client.prepare("select line from gold_items where project_id = ? and instance_id = ?").pluck().get(projectId, id) as string;

    // The connection is in a transaction of its own meanwhile: the saves queue, then run as one batch.
    db.$client.exec("BEGIN");
    const save = (name: keyof typeof who, id: string, substitutes: string[], phrase?: string) =>
      saveResponseAsync(db, who[name], projectId, refOf(id), { kind: "substitutes", substitutes, multiword: phrase !== undefined, phrase }, { expectedRevision: revisionOf(name, id) });
    const first = [save("dan", "c1", ["serene", "quiet"]), save("ann", "c1", ["quiet"]), save("dan", "h1", ["jump"], "hop about")];
    // A write that reads the figures, between the saves: it sees dan's and ann's answers on c1 in c1's line.
    const seen = writeTransaction(db, () => lineOf("c1"));
    const rest = [save("dan", "h2", ["ride", "board"]), save("bea", "c2", ["tranquil"]), save("dan", "c2", ["still"])];
    await turn();
    expect(db.$client.prepare("select count(*) from responses where user_id = ?").pluck().get(dan.userId)).toBe(0);
    db.$client.exec("COMMIT");
    const saved = await Promise.all([...first, ...rest]);
    expect(saved.map((s) => s.revision)).toEqual([1, 2, 1, 1, 2, 1]);
    expect(await seen).toMatch(/quiet 2/);
    expect(lineOf("c1")).toMatch(/quiet 2/);

    // The figures equal the whole derivation, and nothing differs from a rebuild from nothing.
    const g = projectGold(db, coord, projectId);
    expect(goldFileText(db, projectId, "gold")).toBe(g.gold);
    expect(goldFileText(db, projectId, "mwgold")).toBe(g.mwgold);
    expect(g.gold).toMatch(/c2 :: .*still 1/);
    // The board's intervals and other readings are the background's (computed here as it would).
    computeBoardOthers(db, coord, projectId, { kind: "project" });
    const { others: _others, ...kept } = keptScoreBoard(db, coord, projectId, { kind: "project" })!;
    expect(kept).toEqual(scoreBoard(db, coord, projectId, { kind: "project" }));
    const runs = () =>
      (db.$client.prepare("select id, type from system_runs where project_id = ? order by id").all(projectId) as { id: number; type: "best" | "oot" | "mw" }[]).map((r) =>
        sumRunOutcomes(db, r.id, r.type, { total: 0, totalWithMode: 0, groups: [], multiwords: 0 }),
      );
    const tables = derivedTables(db, projectId);
    const outcomes = runs();
    rebuildDerived(db, projectId);
    expect(derivedTables(db, projectId)).toEqual(tables);
    expect(runs()).toEqual(outcomes);
    expect(db.$client.prepare("select count(*) from derive_queue").pluck().get()).toBe(0);
  });
});
