/**
 * Deriving a project's figures again from nothing (#39): `lexgold derive --rebuild`, and the
 * tests' oracle for the figures kept as answers change. Every derived row of the project is
 * taken away and every instance queued, then the queue is worked through by the same
 * maintenance function as always (maintain.ts): a rebuild is that function applied to every
 * instance, from empty sums.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { agreementSums, annotatorLexeltCounts, annotatorSums, annotatorTotals, deriveQueue, derivedCounts, goldForms, goldItems, instances, lemmaForms, lexeltAnswerCounts, lexelts } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { run } from "../kernel/statements";
import { drainAll } from "./queue";

const Q = named(deriveQueue);
const I = named(instances, "i");
const L = named(lexelts, "l");

/**
 * The tables of a project's derived figures (each with a project_id), taken away in this order: each person's totals
 * before the (person, lexelt) counts their triggers sum (migration 0036), so that those triggers find nothing to keep.
 */
const DERIVED = [goldItems, goldForms, lemmaForms, agreementSums, annotatorSums, derivedCounts, lexeltAnswerCounts, annotatorTotals, annotatorLexeltCounts].map((t) => named(t));

/** Take away the project's derived figures and queue every instance of it (one transaction). */
function resetDerived(db: Db, projectId: number): void {
  db.$client
    .transaction(() => {
      for (const t of DERIVED) run(db, `delete from ${t.$} where ${t.projectId} = ?`, projectId);
      run(
        db,
        `insert into ${Q.$} (${Q.instanceRef}, ${Q.projectId}) select ${I.id}, ${I.projectId} from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} and ${L.projectId} = ${I.projectId}
          where ${I.projectId} = ? on conflict (${Q.instanceRef}) do update set ${Q.projectId} = excluded.${Q.projectId}`,
        projectId,
      );
    })
    .immediate();
}

/** Derive the project's figures again from its inputs, slice by slice; how many instances. */
export function rebuildDerived(db: Db, projectId: number): number {
  resetDerived(db, projectId);
  return drainAll(db, projectId);
}
