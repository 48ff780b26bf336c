/**
 * The one maintenance function of the derived figures (#39): bring some instances' figures in
 * line with their inputs. For each instance it derives the figures now (instance.ts, through
 * lib/lexsub), takes what the instance added before (gold_items.sums) away from the project's
 * sums and adds what it adds now, rewrites its row and its forms, and takes it off the queue
 * (derive_queue, filled by triggers in the transaction of every change). An instance that is
 * gone takes its part with it. Every path that changes an instance's gold ends here: a save in
 * its own transaction, everything else through the queue (queue.ts). The work is the instance's:
 * a handful of indexed reads and one write per table, whatever the project's size.
 *
 * Runs inside the caller's write transaction (synchronous, as every better-sqlite3 transaction).
 */
import "server-only";
import type { Db } from "../../../db/client";
import { agreementSums, annotatorLexeltCounts, annotatorSums, deriveQueue, derivedCounts, goldForms, goldItems, instances, lemmaForms, lexeltAnswerCounts, responses } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { ANNOTATOR_FIELDS, GROUP_FIELDS, emptyAnnotatorSums, emptyGroupSums } from "../../lexsub/agreement";
import { proposalsOfRow } from "../../lexsub/gold";
import { lemmaReviewRow } from "../../lexsub/normalize";
import { all, run } from "../kernel/statements";
import { deferToBatchEnd } from "../kernel/write-lock";
import { instanceInputs, projectLanguage } from "./inputs";
import { type FormCount, type InstanceFigures, type ItemContribution, formsOf, instanceFigures } from "./instance";
import { lemmaProposer } from "./lemmas";
import { type GoldChange, rescoreRunItems } from "./run-items";
import { readingFor } from "../../scorers/semeval2007/rules";

const GI = named(goldItems);
const GF = named(goldForms);
const LF = named(lemmaForms);
const AS = named(agreementSums);
const AN = named(annotatorSums);
const DC = named(derivedCounts);
const LA = named(lexeltAnswerCounts);
const Q = named(deriveQueue);
const ALC = named(annotatorLexeltCounts);
const R = named(responses, "r");
const I = named(instances, "i");

/** A delta per key, with the key's parts kept beside it. */
class Deltas<K, V> {
  readonly map = new Map<string, { key: K; value: V }>();
  constructor(private readonly empty: () => V) {}
  at(id: string, key: K): V {
    let e = this.map.get(id);
    if (!e) this.map.set(id, (e = { key, value: this.empty() }));
    return e.value;
  }
}

type Sums = Record<string, number>;
const zeroGroup = (): Sums => emptyGroupSums() as unknown as Sums;
const zeroAnnotator = (): Sums => emptyAnnotatorSums() as unknown as Sums;

// Loops over the keys, not Object.entries: a save adds and takes away the sums of every annotator of its
// instance (20 and more in a small project's busy instances), and the arrays were a part of its time.
function addInto(into: Sums, from: Readonly<Record<string, number | undefined>>, sign: number): void {
  for (const k in from) {
    const v = from[k];
    if (v) into[k] = (into[k] ?? 0) + sign * v;
  }
}

function isZero(s: Sums): boolean {
  for (const k in s) if (s[k] !== 0) return false;
  return true;
}

/** The project-wide changes a batch of instances makes, summed before anything is written. */
class Batch {
  readonly groups = new Deltas<{ scope: string; key: string; pos: string }, Sums>(zeroGroup);
  readonly annotators = new Deltas<string, Sums>(zeroAnnotator);
  readonly counts = new Map<string, number>();
  readonly forms = new Deltas<{ form: string; pos: string }, { n: number }>(() => ({ n: 0 }));
  readonly spacing = new Deltas<{ form: string; spelling: string }, { n: number }>(() => ({ n: 0 }));
  readonly answers = new Deltas<{ lexeltId: number; answers: number }, { n: number }>(() => ({ n: 0 }));
  readonly saves = new Deltas<{ userId: number; lexeltId: number }, { n: number; added: number; removed: number }>(() => ({ n: 0, added: -Infinity, removed: -Infinity }));

  add(c: ItemContribution, sign: 1 | -1): void {
    const g = c.g as Record<string, number>;
    if (Object.keys(g).length > 0) {
      addInto(this.groups.at("all", { scope: "all", key: "", pos: "" }), g, sign);
      addInto(this.groups.at(`pos\u0000${c.pos}`, { scope: "pos", key: c.pos, pos: "" }), g, sign);
      addInto(this.groups.at(`lexelt\u0000${c.lexelt}`, { scope: "lexelt", key: c.lexelt, pos: c.pos }), g, sign);
    }
    for (const name in c.a) addInto(this.annotators.at(name, name), c.a[name] as Record<string, number>, sign);
    for (const [name, n] of Object.entries(c.c)) this.counts.set(name, (this.counts.get(name) ?? 0) + sign * n);
    for (const [form, pos, n] of c.f) this.forms.at(`${form}\u0000${pos}`, { form, pos }).n += sign * n;
    for (const [form, spelling, n] of c.s ?? []) this.spacing.at(`${form}\u0000${spelling}`, { form, spelling }).n += sign * n;
    if (c.q) this.answers.at(`${c.q[0]}:${c.q[1]}`, { lexeltId: c.q[0], answers: c.q[1] }).n += sign;
    if (c.q && c.u) {
      for (const [userId, at] of c.u) {
        const e = this.saves.at(`${userId}:${c.q[0]}`, { userId, lexeltId: c.q[0] });
        e.n += sign;
        if (sign > 0) e.added = Math.max(e.added, at);
        else e.removed = Math.max(e.removed, at);
      }
    }
  }
}

/**
 * The columns of a gold_items row, in groups by the indexes they are in: an update sets only the
 * groups whose values moved, so that SQLite rewrites only those indexes' entries (each index an
 * update names is a page more in the save's WAL). Nine indexes, and a save moves few of them.
 */
const ROW_GROUPS = [
  // In no index.
  ["lexeltId", "inQueue", "inT", "hasMode", "annotators", "keyMode", "item", "sums"],
  // The gold and mwgold files in order (gold_items_order covers the downloads: their lines are in it).
  ["excluded", "line", "mwLine"],
  // The agreement order (gold_items_rank, gold_items_lowest, gold_items_review_queue).
  ["rank", "pairs"],
  ["reviewed"],
  ["keyInT", "keyGroup"],
  // The partial indexes of the problems.
  ["problems"],
  // The row's place: in every index.
  ["projectId", "lexeltPosition", "position", "instanceId", "lexelt"],
] as const;
type RowColumn = (typeof ROW_GROUPS)[number][number];
const ROW_COLUMNS: readonly RowColumn[] = ROW_GROUPS.flat();

type RowValues = Record<RowColumn, string | number | null>;

/** The row's values as SQLite keeps them (booleans 0 and 1, JSON text). */
function rowValues(projectId: number, f: InstanceFigures): RowValues {
  return {
    projectId,
    lexeltId: f.lexeltId,
    lexeltPosition: f.lexeltPosition,
    position: f.position,
    instanceId: f.instanceId,
    lexelt: f.lexelt,
    inQueue: f.inQueue ? 1 : 0,
    excluded: f.excluded ? 1 : 0,
    reviewed: f.reviewed ? 1 : 0,
    line: f.line,
    mwLine: f.mwLine,
    inT: f.inT ? 1 : 0,
    hasMode: f.hasMode ? 1 : 0,
    rank: f.rank,
    pairs: f.pairs,
    annotators: f.annotators,
    keyInT: f.keyInT ? 1 : 0,
    keyMode: f.keyMode ? 1 : 0,
    keyGroup: f.keyGroup,
    problems: f.problems.length > 0 ? JSON.stringify(f.problems) : null,
    item: f.item ? JSON.stringify(f.item) : null,
    sums: JSON.stringify(f.sums),
  };
}

/** Write the instance's gold_items row: a new one whole, a kept one by the groups of columns that moved (none: no statement). */
function writeRow(db: Db, ref: number, now: RowValues, kept: RowValues | null): void {
  if (!kept) {
    run(
      db,
      `insert into ${GI.$} (${GI.instanceRef}, ${ROW_COLUMNS.map((c) => GI[c]).join(", ")}) values (?, ${ROW_COLUMNS.map(() => "?").join(", ")})`,
      ref,
      ...ROW_COLUMNS.map((c) => now[c]),
    );
    return;
  }
  const moved: RowColumn[] = ROW_GROUPS.filter((g) => g.some((c) => now[c] !== kept[c])).flat();
  if (moved.length === 0) return;
  run(db, `update ${GI.$} set ${moved.map((c) => `${GI[c]} = ?`).join(", ")} where ${GI.instanceRef} = ?`, ...moved.map((c) => now[c]), ref);
}

/**
 * The instance's rows of gold_forms from the forms it held to those it holds: only the forms that
 * went, came or changed count are written (a save that adds one word writes one row, not all).
 */
function writeForms(db: Db, projectId: number, ref: number, was: readonly FormCount[], now: readonly FormCount[]): void {
  const key = (f: FormCount) => `${f[0]}\u0000${f[1]}`;
  const before = new Map(was.map((f) => [key(f), f[2]]));
  const after = new Set(now.map(key));
  const gone = was.filter((f) => !after.has(key(f)));
  const set = now.filter((f) => before.get(key(f)) !== f[2]);
  if (gone.length > 0) {
    run(
      db,
      `delete from ${GF.$} where ${GF.instanceRef} = ? and (${GF.form}, ${GF.pos}) in (select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?))`,
      ref,
      JSON.stringify(gone),
    );
  }
  if (set.length > 0) {
    run(
      db,
      `insert into ${GF.$} (${GF.instanceRef}, ${GF.projectId}, ${GF.form}, ${GF.pos}, ${GF.count})
       select ?, ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') from json_each(?) where true
       on conflict (${GF.instanceRef}, ${GF.form}, ${GF.pos}) do update set ${GF.projectId} = excluded.${GF.projectId}, ${GF.count} = excluded.${GF.count}`,
      ref,
      projectId,
      JSON.stringify(set),
    );
  }
}

/**
 * Bring the figures of `refs` (instances of the project, or instances that are gone) in line with
 * their inputs now, and take them off the queue. Inside a write transaction.
 */
export function maintainInstances(db: Db, projectId: number, refs: readonly number[]): void {
  if (refs.length === 0) return;
  const ids = JSON.stringify(refs);
  const language = projectLanguage(db, projectId);
  if (language === null) {
    run(db, `delete from ${Q.$} where ${Q.instanceRef} in (select value from json_each(?))`, ids);
    return;
  }
  // One instance (a save) by its key; a slice through the list.
  const cols = `${GI.instanceRef} as ref, ${ROW_COLUMNS.map((c) => `${GI[c]} as ${c}`).join(", ")}`;
  type OldRow = RowValues & { ref: number; projectId: number; instanceId: string; line: string | null; mwLine: string | null; excluded: number; sums: string };
  const oldRows =
    refs.length === 1
      ? all<OldRow>(db, `select ${cols} from ${GI.$} where ${GI.instanceRef} = ?`, refs[0])
      : all<OldRow>(db, `select ${cols} from ${GI.$} where ${GI.instanceRef} in (select value from json_each(?))`, ids);
  const old = new Map(oldRows.map((r) => [r.ref, { row: r, ...r, sums: JSON.parse(r.sums) as ItemContribution }]));
  // The instances whose lines in the gold and mwgold files changed: their ids are scored again in the stored runs.
  const changes: GoldChange[] = [];
  const batch = new Batch();
  for (const ref of refs) {
    const before = old.get(ref);
    // A row of another project (an instance moved by a publish) is that project's to maintain.
    const mine = before && before.projectId === projectId ? before.sums : null;
    const inputs = instanceInputs(db, projectId, ref, (b) => formsOf(b, language));
    if (inputs === null && before && before.projectId !== projectId) continue;
    const f = inputs ? instanceFigures(inputs, language) : null;
    if (mine) batch.add(mine, -1);
    if (f) batch.add(f.sums, 1);
    if (f) writeRow(db, ref, rowValues(projectId, f), before?.row ?? null);
    else if (before) run(db, `delete from ${GI.$} where ${GI.instanceRef} = ?`, ref);
    const fileLine = (line: string | null, excluded: boolean) => (excluded ? null : line);
    const was = before && before.projectId === projectId ? { line: fileLine(before.line, before.excluded === 1), mwLine: fileLine(before.mwLine, before.excluded === 1) } : null;
    const now = f ? { line: fileLine(f.line, f.excluded), mwLine: fileLine(f.mwLine, f.excluded) } : null;
    if ((was?.line ?? null) !== (now?.line ?? null) || (was?.mwLine ?? null) !== (now?.mwLine ?? null)) {
      changes.push({ instanceId: f?.instanceId ?? before!.instanceId, line: now?.line ?? null, mwLine: now?.mwLine ?? null });
    }
    writeForms(db, projectId, ref, mine?.f ?? [], f?.sums.f ?? []);
  }
  writeBatch(db, projectId, batch, language);
  rescoreRunItems(db, projectId, changes, readingFor(language));

  if (refs.length === 1) run(db, `delete from ${Q.$} where ${Q.instanceRef} = ?`, refs[0]);
  else run(db, `delete from ${Q.$} where ${Q.instanceRef} in (select value from json_each(?))`, ids);
}

/**
 * A save's instance brought up to date in the save's transaction: at the end of the batch of saves
 * the write lock runs together (kernel/write-lock.ts), all of the batch's instances of the project
 * in one pass — the project's sums, lemma forms and run outcomes written once for all of them, not
 * once a save — or now, when the save runs in a transaction of its own.
 */
export function maintainInstanceAtCommit(db: Db, projectId: number, ref: number): void {
  if (!deferToBatchEnd(db, `maintain:${projectId}`, ref, (refs) => maintainInstances(db, projectId, [...new Set(refs)]))) maintainInstances(db, projectId, [ref]);
}

/**
 * The statement that adds `n` rows of sums at once, made when missing: a row's columns bound, the rows in one
 * VALUES list. A save moves three groups and every annotator of its instance (20 and more in a small project's
 * busy instances); one statement a row was a call into SQLite each, and reading the fields back out of JSON
 * (json_each) a tenth of the save's time in the write lock. The texts are kept by row count, up to ROWS_AT_ONCE.
 */
function upsertByRows(table: string, keyColumns: readonly string[], conflict: readonly string[], sumColumns: readonly string[]): (n: number) => string {
  const texts: string[] = [];
  const row = `(${[...keyColumns, ...sumColumns].map(() => "?").join(", ")})`;
  return (n) =>
    (texts[n] ??= `insert into ${table} (${[...keyColumns, ...sumColumns].join(", ")}) values ${Array.from({ length: n }, () => row).join(", ")}
      on conflict (${conflict.join(", ")}) do update set ${sumColumns.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")}`);
}
const ROWS_AT_ONCE = 64;

/** Add groups' sums (project, scope, key, PoS, then GROUP_FIELDS in order) to their rows, made when missing. */
const ADD_GROUPS = upsertByRows(AS.$, [AS.projectId, AS.scope, AS.key, AS.pos], [AS.projectId, AS.scope, AS.key], GROUP_FIELDS.map((k) => AS[k]));

/** Add annotators' sums (project, name, then ANNOTATOR_FIELDS in order) to their rows, made when missing. */
const ADD_ANNOTATORS = upsertByRows(AN.$, [AN.projectId, AN.annotator], [AN.projectId, AN.annotator], ANNOTATOR_FIELDS.map((k) => AN[k]));

/** Run `text(n)` over the rows, ROWS_AT_ONCE at a time, each row's values in order (bound as one array: better-sqlite3 takes it whole). */
function upsertRows(db: Db, text: (n: number) => string, rows: readonly (readonly unknown[])[]): void {
  for (let i = 0; i < rows.length; i += ROWS_AT_ONCE) {
    const end = Math.min(rows.length, i + ROWS_AT_ONCE);
    const values: unknown[] = [];
    for (let k = i; k < end; k++) for (const v of rows[k]) values.push(v);
    run(db, text(end - i), values);
  }
}

/** Write a batch's net changes: every sum that moved, and rows that went to nothing taken away. */
function writeBatch(db: Db, projectId: number, b: Batch, language: string): void {
  const groups = [...b.groups.map.values()].filter((e) => !isZero(e.value));
  if (groups.length > 0) {
    upsertRows(db, ADD_GROUPS, groups.map((e) => [projectId, e.key.scope, e.key.key, e.key.pos, ...GROUP_FIELDS.map((k) => e.value[k])]));
    if (groups.some((e) => e.value.present < 0)) {
      run(
        db,
        `delete from ${AS.$} where ${AS.projectId} = ? and ${AS.present} <= 0 and (${AS.scope}, ${AS.key}) in (select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?))`,
        projectId,
        JSON.stringify(groups.filter((e) => e.value.present < 0).map((e) => [e.key.scope, e.key.key])),
      );
    }
  }
  const annotators = [...b.annotators.map.values()].filter((e) => !isZero(e.value));
  if (annotators.length > 0) {
    upsertRows(db, ADD_ANNOTATORS, annotators.map((e) => [projectId, e.key, ...ANNOTATOR_FIELDS.map((k) => e.value[k])]));
    if (annotators.some((e) => e.value.answered < 0)) {
      run(db, `delete from ${AN.$} where ${AN.projectId} = ? and ${AN.answered} <= 0 and ${AN.annotator} in (select value from json_each(?))`, projectId, JSON.stringify(annotators.filter((e) => e.value.answered < 0).map((e) => e.key)));
    }
  }
  const counts = [...b.counts].filter(([, v]) => v !== 0);
  if (counts.length > 0) {
    run(
      db,
      `insert into ${DC.$} (${DC.projectId}, ${DC.name}, ${DC.value}) select ?, json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?) where true
       on conflict (${DC.projectId}, ${DC.name}) do update set ${DC.value} = ${DC.value} + excluded.${DC.value}`,
      projectId,
      JSON.stringify(counts),
    );
    if (counts.some(([, v]) => v < 0)) {
      run(db, `delete from ${DC.$} where ${DC.projectId} = ? and ${DC.value} = 0 and ${DC.name} in (select value from json_each(?))`, projectId, JSON.stringify(counts.filter(([, v]) => v < 0).map(([k]) => k)));
    }
  }
  const answers = [...b.answers.map.values()].filter((e) => e.value.n !== 0);
  if (answers.length > 0) {
    run(
      db,
      `insert into ${LA.$} (${LA.lexeltId}, ${LA.projectId}, ${LA.answers}, ${LA.instances}) select json_extract(value, '$[0]'), ?, json_extract(value, '$[1]'), json_extract(value, '$[2]') from json_each(?) where true
       on conflict (${LA.lexeltId}, ${LA.answers}) do update set ${LA.instances} = ${LA.instances} + excluded.${LA.instances}`,
      projectId,
      JSON.stringify(answers.map((e) => [e.key.lexeltId, e.key.answers, e.value.n])),
    );
    if (answers.some((e) => e.value.n < 0)) {
      run(
        db,
        `delete from ${LA.$} where ${LA.instances} <= 0 and (${LA.lexeltId}, ${LA.answers}) in (select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?))`,
        JSON.stringify(answers.filter((e) => e.value.n < 0).map((e) => [e.key.lexeltId, e.key.answers])),
      );
    }
  }
  writeLemmaForms(db, projectId, [...b.forms.map.values()].filter((e) => e.value.n !== 0), [...b.spacing.map.values()].filter((e) => e.value.n !== 0), language);
  // A save revised (one time out, a later one in) moves the latest; the same times out and in move nothing.
  writeSaves(db, projectId, [...b.saves.map.values()].filter((e) => e.value.n !== 0 || e.value.added !== e.value.removed));
}

/**
 * The Progress tab's counts per annotator and lexelt: how many responses, and the latest save among them. A
 * latest save taken away with nothing as late in its place is looked for again among the lexelt's instances.
 */
function writeSaves(db: Db, projectId: number, moved: { key: { userId: number; lexeltId: number }; value: { n: number; added: number; removed: number } }[]): void {
  if (moved.length === 0) return;
  const keys = JSON.stringify(moved.map((e) => [e.key.userId, e.key.lexeltId]));
  const rows = new Map(
    all<{ userId: number; lexeltId: number; responses: number; lastAt: number }>(
      db,
      `select ${ALC.userId} as userId, ${ALC.lexeltId} as lexeltId, ${ALC.responses} as responses, ${ALC.lastAt} as lastAt from ${ALC.$}
        where ${ALC.projectId} = ? and (${ALC.userId}, ${ALC.lexeltId}) in (select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?))`,
      projectId,
      keys,
    ).map((r) => [`${r.userId}:${r.lexeltId}`, r]),
  );
  const upserts: [number, number, number, number][] = [];
  const gone: [number, number][] = [];
  for (const { key, value } of moved) {
    const old = rows.get(`${key.userId}:${key.lexeltId}`);
    const n = (old?.responses ?? 0) + value.n;
    if (n <= 0) {
      if (old) gone.push([key.userId, key.lexeltId]);
      continue;
    }
    let last = Math.max(old?.lastAt ?? -Infinity, value.added);
    if (old && value.removed >= old.lastAt && value.added < old.lastAt) {
      last = all<{ last: number }>(
        db,
        `select max(${R.updatedAt}) as last from ${I.$} join ${R.$} on ${R.instanceRef} = ${I.id} and ${R.userId} = ? where ${I.lexeltId} = ? and ${I.inQueue} = 1`,
        key.userId,
        key.lexeltId,
      )[0].last;
    }
    upserts.push([key.userId, key.lexeltId, n, last]);
  }
  if (upserts.length > 0) {
    run(
      db,
      `insert into ${ALC.$} (${ALC.projectId}, ${ALC.userId}, ${ALC.lexeltId}, ${ALC.responses}, ${ALC.lastAt})
       select ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') from json_each(?) where true
       on conflict (${ALC.projectId}, ${ALC.userId}, ${ALC.lexeltId}) do update set ${ALC.responses} = excluded.${ALC.responses}, ${ALC.lastAt} = excluded.${ALC.lastAt}`,
      projectId,
      JSON.stringify(upserts),
    );
  }
  if (gone.length > 0) {
    run(
      db,
      `delete from ${ALC.$} where ${ALC.projectId} = ? and (${ALC.userId}, ${ALC.lexeltId}) in (select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?))`,
      projectId,
      JSON.stringify(gone),
    );
  }
}

/**
 * The lemma review's rows of the forms whose counts moved: counts per PoS, proposals and choices for a PoS
 * met for the first time, the spellings with other spacing; "changed" as the review says it (lemmaReviewRow).
 */
function writeLemmaForms(
  db: Db,
  projectId: number,
  moved: { key: { form: string; pos: string }; value: { n: number } }[],
  spaced: { key: { form: string; spelling: string }; value: { n: number } }[],
  language: string,
): void {
  if (moved.length === 0 && spaced.length === 0) return;
  const forms = [...new Set([...moved.map((e) => e.key.form), ...spaced.map((e) => e.key.form)])];
  type Kept = { byPos: Record<string, number>; proposals: Record<string, string>; choices: Record<string, string | null>; spacing: Record<string, number> };
  const rows = new Map(
    all<{ form: string; byPos: string; proposals: string; choices: string; spacing: string }>(
      db,
      `select ${LF.form} as form, ${LF.byPos} as byPos, ${LF.proposals} as proposals, ${LF.choices} as choices, ${LF.spacing} as spacing
         from ${LF.$} where ${LF.projectId} = ? and ${LF.form} in (select value from json_each(?))`,
      projectId,
      JSON.stringify(forms),
    ).map((r): [string, Kept] => [r.form, { byPos: JSON.parse(r.byPos), proposals: JSON.parse(r.proposals), choices: JSON.parse(r.choices), spacing: JSON.parse(r.spacing) }]),
  );
  const rowOf = (form: string): Kept => {
    let row = rows.get(form);
    if (!row) rows.set(form, (row = { byPos: {}, proposals: {}, choices: {}, spacing: {} }));
    return row;
  };
  const bump = (into: Record<string, number>, key: string, n: number) => {
    const v = (into[key] ?? 0) + n;
    if (v > 0) into[key] = v;
    else delete into[key];
  };
  for (const e of moved) bump(rowOf(e.key.form).byPos, e.key.pos, e.value.n);
  for (const e of spaced) bump(rowOf(e.key.form).spacing, e.key.spelling, e.value.n);
  const propose = lemmaProposer(language);
  const upserts: [string, number, string, string, string, string, number, number, number, number, number][] = [];
  const gone: string[] = [];
  for (const form of forms) {
    const row = rows.get(form)!;
    const pos = Object.keys(row.byPos);
    if (pos.length === 0) {
      gone.push(form);
      continue;
    }
    const proposals: Record<string, string> = {};
    const choices: Record<string, string | null> = {};
    for (const p of pos) {
      proposals[p] = row.proposals[p] ?? propose(form, p);
      choices[p] = p in row.choices ? row.choices[p] : (propose.choice?.(form, p) ?? null);
    }
    const review = lemmaReviewRow(form, Object.entries(row.byPos), undefined, { language }, { proposals: new Map(Object.entries(proposals)), choices: new Map(Object.entries(choices)), spacing: Object.keys(row.spacing) });
    // What the row applies while nobody decides it: the Gold page sums these and reads its first ones in order.
    const applies = proposalsOfRow(review);
    upserts.push([
      form,
      review.count,
      JSON.stringify(row.byPos),
      JSON.stringify(proposals),
      JSON.stringify(choices),
      JSON.stringify(row.spacing),
      review.changed ? 1 : 0,
      applies.length,
      applies.reduce((n, p) => n + p.count, 0),
      applies.reduce((n, p) => Math.max(n, p.count), 0),
      Object.keys(row.spacing).length,
    ]);
  }
  if (upserts.length > 0) {
    run(
      db,
      `insert into ${LF.$} (${LF.projectId}, ${LF.form}, ${LF.count}, ${LF.byPos}, ${LF.proposals}, ${LF.choices}, ${LF.spacing}, ${LF.changed}, ${LF.proposalCount}, ${LF.proposalUses}, ${LF.proposalTop}, ${LF.spacingCount})
       select ?, ${Array.from({ length: 11 }, (_, i) => `json_extract(value, '$[${i}]')`).join(", ")} from json_each(?) where true
       on conflict (${LF.projectId}, ${LF.form}) do update set ${LF.count} = excluded.${LF.count}, ${LF.byPos} = excluded.${LF.byPos}, ${LF.proposals} = excluded.${LF.proposals},
         ${LF.choices} = excluded.${LF.choices}, ${LF.spacing} = excluded.${LF.spacing}, ${LF.changed} = excluded.${LF.changed},
         ${LF.proposalCount} = excluded.${LF.proposalCount}, ${LF.proposalUses} = excluded.${LF.proposalUses}, ${LF.proposalTop} = excluded.${LF.proposalTop}, ${LF.spacingCount} = excluded.${LF.spacingCount}`,
      projectId,
      JSON.stringify(upserts),
    );
  }
  if (gone.length > 0) run(db, `delete from ${LF.$} where ${LF.projectId} = ? and ${LF.form} in (select value from json_each(?))`, projectId, JSON.stringify(gone));
}
