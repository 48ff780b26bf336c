/**
 * #39: what the maintenance writes for one instance. Each page a save dirties is written to the WAL
 * at its COMMIT (`npm run bench:save` counts them by table and index): a kept row is updated only in
 * the columns that moved, so the indexes of its place are not rewritten by a save, an instance whose
 * figures did not move writes nothing, and only the forms that came, went or changed count are written.
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { maintainInstances } from "../../../lib/server/derived/maintain";
import { drainAll } from "../../../lib/server/derived/queue";
import { bigProject } from "../../support/big-project";

const answer = (subs: string[]) => ({ kind: "substitutes", substitutes: subs, multiword: false });

/** The writing statements `fn` runs on gold_items and gold_forms, with the rows each changed. */
function writes(db: Db, fn: () => void): { sql: string; changes: number }[] {
  const proto = Object.getPrototypeOf(db.$client.prepare("select 1")) as Record<string, (...a: unknown[]) => unknown>;
  const original = proto.run;
  const out: { sql: string; changes: number }[] = [];
  proto.run = function (this: { source: string }, ...args: unknown[]) {
    const r = original.apply(this, args) as { changes: number };
    if (/"gold_(items|forms)"/.test(this.source)) out.push({ sql: this.source.replace(/\s+/g, " "), changes: r.changes });
    return r;
  };
  try {
    fn();
  } finally {
    proto.run = original;
  }
  return out;
}

const rowOf = (db: Db, ref: number) => db.$client.prepare("select * from gold_items where instance_ref = ?").get(ref) as Record<string, unknown>;
type FormRow = { form: string; pos: string; count: number };
const formsOf = (db: Db, ref: number) => db.$client.prepare("select form, pos, count from gold_forms where instance_ref = ? order by form, pos").all(ref) as FormRow[];
const byForm = (x: FormRow, y: FormRow) => (x.form < y.form ? -1 : x.form > y.form ? 1 : 0);

describe("the maintenance of one instance", () => {
  it("updates only the columns that moved, writes nothing when nothing moved, and writes only the forms that changed", () => {
    const b = bigProject({ instances: 40, answered: 20 });
    drainAll(b.db, b.projectId);
    const ref = b.refs[5];
    const maintain = () => writes(b.db, () => b.db.$client.transaction(() => maintainInstances(b.db, b.projectId, [ref]))());

    // Nothing moved since the last maintenance: no statement on the row or the forms.
    expect(maintain()).toEqual([]);

    // A second annotator's answer: the row's figures move, its place (lexelt, position, instance id) does not.
    const place = rowOf(b.db, ref);
    const formsBefore = formsOf(b.db, ref);
    const saved = writes(b.db, () => saveResponse(b.db, b.fresh, b.projectId, ref, answer(["brandnew"]), { expectedRevision: 0 }));
    const update = saved.find((w) => w.sql.startsWith('update "gold_items"'));
    expect(update, JSON.stringify(saved)).toBeDefined();
    expect(update!.changes).toBe(1);
    for (const column of ["project_id", "lexelt_position", "position", "instance_id", "lexelt"]) expect(update!.sql).not.toContain(`"${column}" =`);
    expect(saved.some((w) => w.sql.startsWith('insert into "gold_items"'))).toBe(false);
    const after = rowOf(b.db, ref);
    for (const column of ["project_id", "lexelt_position", "position", "instance_id", "lexelt"]) expect(after[column]).toEqual(place[column]);
    expect(after.sums).not.toEqual(place.sums);

    // The forms: the one new form is the one row written (the others kept as they were).
    const formWrites = saved.filter((w) => w.sql.includes('"gold_forms"'));
    expect(formWrites.map((w) => w.changes)).toEqual([1]);
    expect(formsOf(b.db, ref)).toEqual([...formsBefore, { form: "brandnew", pos: expect.any(String), count: 1 }].sort(byForm));

    // The answer revised to another word: the old form's row goes, the new one comes, the rest stay.
    const revised = writes(b.db, () => saveResponse(b.db, b.fresh, b.projectId, ref, answer(["otherword"]), { expectedRevision: 1 }));
    expect(revised.filter((w) => w.sql.includes('"gold_forms"')).map((w) => [w.sql.split(" ")[0], w.changes])).toEqual([
      ["delete", 1],
      ["insert", 1],
    ]);
    expect(formsOf(b.db, ref)).toEqual([...formsBefore, { form: "otherword", pos: expect.any(String), count: 1 }].sort(byForm));

    // And maintained again with nothing moved: nothing written.
    expect(maintain()).toEqual([]);
  });
});
