/**
 * The gold and mwgold downloads from the lines kept as answers change (#39, lib/server/derived):
 * streamed in slices of a few thousand lines, each slice one indexed read that resumes after the
 * last line sent, so the server never holds the file and no read stays open across the stream
 * (saves go on between slices; the file is the gold as each slice was read). The variants nobody
 * keeps (case folded, proposals applied) are derived in the derivation process instead.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { goldItems } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, requireProject } from "../kernel/actor";
import { prepared } from "../kernel/statements";
import { catchUpNow, problemsInOrder } from "../derived/actor-free";
import type { GoldProblem } from "../../lexsub/gold";

const GI = named(goldItems);

/** Lines a slice reads. */
const SLICE_LINES = 4000;

/**
 * The gold (or mwgold) file as lib/lexsub/gold.ts formatGold writes it — a blank line, then each
 * line of an instance not excluded, in corpus order — as text pieces, read a slice at a time while
 * the consumer pulls. Coordinators of the project only.
 */
export function goldFileSlices(db: Db, actor: Actor, projectId: number, file: "gold" | "mwgold"): Iterable<string> {
  requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, projectId);
  const col = file === "gold" ? GI.line : GI.mwLine;
  const sql = `select ${GI.lexeltPosition} as lp, ${GI.position} as p, ${col} as line from ${GI.$} indexed by gold_items_order
     where ${GI.projectId} = ? and (${GI.lexeltPosition}, ${GI.position}) > (?, ?) and ${GI.excluded} = 0 and ${col} is not null
     order by ${GI.lexeltPosition}, ${GI.position} limit ${SLICE_LINES}`;
  return {
    *[Symbol.iterator]() {
      yield "\n";
      let after: [number, number] = [-Infinity, -Infinity];
      for (;;) {
        // Rows as arrays [lp, p, line]: a keyed object per line was half the slice's time.
        const rows = prepared(db, sql).raw(true).all(projectId, after[0], after[1]) as [number, number, string][];
        if (rows.length === 0) return;
        let text = "";
        for (const r of rows) text += r[2] + "\n";
        yield text;
        const last = rows[rows.length - 1];
        after = [last[0], last[1]];
        if (rows.length < SLICE_LINES) return;
      }
    },
  };
}

/** Every problem of the project's gold, in the order a derivation of the whole project lists them. Coordinators of the project only. */
export function goldProblems(db: Db, actor: Actor, projectId: number): Iterable<GoldProblem> {
  requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, projectId);
  return problemsInOrder(db, projectId);
}
