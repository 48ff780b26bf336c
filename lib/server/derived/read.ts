/**
 * Reading the derived figures (#39): the project's counts, the gold and mwgold lines in corpus
 * order, the problems in the order a derivation of the whole project lists them, the agreement
 * sums (the lemma review: lemma-review.ts). Reads only: a caller catches up with the queue first (queue.ts).
 * The callers that take the actor (gold/, scoring/, annotate/progress.ts) check it.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { agreementSums, annotatorSums, derivedCounts, goldItems } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { ANNOTATOR_FIELDS, type AnnotatorSums, GROUP_FIELDS, type GroupSums, emptyGroupSums } from "../../lexsub/agreement";
import type { GoldProblem, GoldSummary } from "../../lexsub/gold";
import { all, prepared } from "../kernel/statements";
import type { StoredItem } from "./instance";

const GI = named(goldItems);
const DC = named(derivedCounts);
const AS = named(agreementSums);
const AN = named(annotatorSums);

/** The project's derived counts by name (a name not there is 0). */
export function countsOf(db: Db, projectId: number): Map<string, number> {
  return new Map(all<{ name: string; value: number }>(db, `select ${DC.name} as name, ${DC.value} as value from ${DC.$} where ${DC.projectId} = ?`, projectId).map((r) => [r.name, r.value]));
}

/** The gold's summary from the counts: the project's gold (with imported dataset counts), or the responses' alone (what agreement is over). */
export function goldSummaryOf(counts: ReadonlyMap<string, number>, gold: "project" | "responses" = "project"): GoldSummary {
  const n = (name: string) => counts.get(name) ?? 0;
  const r = gold === "responses" ? "response" : "";
  const name = (s: string) => (r ? r + s[0].toUpperCase() + s.slice(1) : s);
  return {
    instances: n("instances"),
    excluded: n("excluded"),
    goldLines: n(name("goldLines")),
    inT: n(name("inT")),
    withMode: n(name("withMode")),
    mwLines: n("mwLines"),
    mwItems: n("mwItems"),
  };
}

/** How many problems the project's gold derivation has (each form that breaks a save rule once). */
export function problemCount(counts: ReadonlyMap<string, number>): number {
  let n = counts.get("problems") ?? 0;
  for (const [name, v] of counts) if (v > 0 && name.startsWith("once:")) n++;
  return n;
}

/** The gold (or mwgold) lines in corpus order, excluded instances left out: the file's lines. */
export function* goldFileLines(db: Db, projectId: number, file: "gold" | "mwgold"): Generator<string> {
  const col = file === "gold" ? GI.line : GI.mwLine;
  const rows = db.$client
    .prepare(
      `select ${col} as line from ${GI.$} indexed by gold_items_order where ${GI.projectId} = ? and ${GI.excluded} = 0 and ${col} is not null order by ${GI.lexeltPosition}, ${GI.position}`,
    )
    .pluck()
    .iterate(projectId) as IterableIterator<string>;
  yield* rows;
}

/** The whole file as lib/lexsub/gold.ts formatGold / formatMwGold writes it (a blank line, then every line). */
export function goldFileText(db: Db, projectId: number, file: "gold" | "mwgold"): string {
  const parts = ["\n"];
  for (const l of goldFileLines(db, projectId, file)) parts.push(l, "\n");
  return parts.join("");
}

/**
 * The problems, in the order a derivation of the whole project lists them (lib/lexsub/gold.ts):
 * the instances' own first, then the answers', in corpus order, a form that breaks a save rule
 * only where it first occurs. At most `limit` of them.
 */
export function* problemsInOrder(db: Db, projectId: number): Generator<GoldProblem> {
  const read = (instancesOwn: boolean) =>
    prepared(
      db,
      instancesOwn
        ? `select ${GI.problems} as problems from ${GI.$} indexed by gold_items_instance_problems
             where ${GI.projectId} = ? and ${GI.problems} is not null and instr(${GI.problems}, '"annotator":null') > 0 order by ${GI.lexeltPosition}, ${GI.position}`
        : `select ${GI.problems} as problems from ${GI.$} indexed by gold_items_problems
             where ${GI.projectId} = ? and ${GI.problems} is not null order by ${GI.lexeltPosition}, ${GI.position}`,
    )
      .pluck()
      .iterate(projectId) as IterableIterator<string>;
  // The instances' own problems are JSON.stringify's `"annotator":null` (a message's quotes are escaped): their rows
  // have an index of their own (migration 0031), so the first few problems never read every item (18,752 rows with
  // problems at 100,000 instances of the bench, 370 ms).
  for (const json of read(true)) for (const p of JSON.parse(json) as GoldProblem[]) if (p.annotator === null) yield p;
  const once = new Set<string>();
  for (const json of read(false)) {
    for (const p of JSON.parse(json) as GoldProblem[]) {
      if (p.annotator === null) continue;
      if (p.once !== undefined) {
        if (once.has(p.once)) continue;
        once.add(p.once);
      }
      yield p;
    }
  }
}

/** The first `limit` problems (problemsInOrder). */
export function firstProblems(db: Db, projectId: number, limit: number): GoldProblem[] {
  const out: GoldProblem[] = [];
  if (limit <= 0) return out;
  for (const p of problemsInOrder(db, projectId)) {
    out.push(p);
    if (out.length >= limit) break;
  }
  return out;
}

/** The agreement sums: overall, per PoS, per lexelt (with its PoS), per annotator. */
export interface AgreementSumsView {
  overall: GroupSums;
  byPos: { pos: string; sums: GroupSums }[];
  byLexelt: { lexelt: string; pos: string; sums: GroupSums }[];
  annotators: { annotator: string; sums: AnnotatorSums }[];
}

/** A group's sums from a row read as an array, its fields from `at` on in GROUP_FIELDS' order. */
function groupSumsAt(r: readonly (string | number)[], at: number): GroupSums {
  const out = {} as Record<string, number>;
  for (let k = 0; k < GROUP_FIELDS.length; k++) out[GROUP_FIELDS[k]] = r[k + at] as number;
  return out as unknown as GroupSums;
}

/**
 * `lexelts: false` leaves the lexelts' rows unread (byLexelt empty): a lexelt's row each, 4,167 at
 * 100,000 instances, which the Agreement page reads only for the page it shows (lexeltKeysOf, lexeltSumsOf).
 */
export function agreementSumsOf(db: Db, projectId: number, { lexelts = true }: { lexelts?: boolean } = {}): AgreementSumsView {
  // Rows as arrays, each group's sums built field by field.
  const rows = prepared(
    db,
    `select ${AS.scope}, ${AS.key}, ${AS.pos}, ${GROUP_FIELDS.map((k) => AS[k]).join(", ")} from ${AS.$} where ${AS.projectId} = ? and ${AS.present} > 0${lexelts ? "" : ` and ${AS.scope} in ('all', 'pos')`}`,
  )
    .raw(true)
    .all(projectId) as (string | number)[][];
  const view: AgreementSumsView = { overall: emptyGroupSums(), byPos: [], byLexelt: [], annotators: [] };
  for (const r of rows) {
    if (r[0] === "all") view.overall = groupSumsAt(r, 3);
    else if (r[0] === "pos") view.byPos.push({ pos: r[1] as string, sums: groupSumsAt(r, 3) });
    else view.byLexelt.push({ lexelt: r[1] as string, pos: r[2] as string, sums: groupSumsAt(r, 3) });
  }
  view.annotators = all<Record<string, number | string>>(
    db,
    `select ${AN.annotator} as annotator, ${ANNOTATOR_FIELDS.map((k) => `${AN[k]} as ${k}`).join(", ")} from ${AN.$} where ${AN.projectId} = ? and ${AN.answered} > 0`,
    projectId,
  ).map((r) => ({ annotator: r.annotator as string, sums: Object.fromEntries(ANNOTATOR_FIELDS.map((k) => [k, r[k] as number])) as unknown as AnnotatorSums }));
  return view;
}

/** The lexelts with agreement sums (an answer counted), as [lexelt, PoS], by lexelt: two short columns a row. */
export function lexeltKeysOf(db: Db, projectId: number): [string, string][] {
  return prepared(db, `select ${AS.key}, ${AS.pos} from ${AS.$} where ${AS.projectId} = ? and ${AS.scope} = 'lexelt' and ${AS.present} > 0`)
    .raw(true)
    .all(projectId) as [string, string][];
}

/** The sums of some lexelts (those with none left out), by lexelt. */
export function lexeltSumsOf(db: Db, projectId: number, lexelts: readonly string[]): Map<string, { pos: string; sums: GroupSums }> {
  const out = new Map<string, { pos: string; sums: GroupSums }>();
  if (lexelts.length === 0) return out;
  const rows = prepared(
    db,
    `select ${AS.key}, ${AS.pos}, ${GROUP_FIELDS.map((k) => AS[k]).join(", ")} from ${AS.$}
      where ${AS.projectId} = ? and ${AS.scope} = 'lexelt' and ${AS.key} in (select value from json_each(?)) and ${AS.present} > 0`,
  )
    .raw(true)
    .all(projectId, JSON.stringify(lexelts)) as (string | number)[][];
  for (const r of rows) out.set(r[0] as string, { pos: r[1] as string, sums: groupSumsAt(r, 2) });
  return out;
}

/** The stored agreement items of the project in corpus order (excluded instances have none): what α and its intervals are computed over. */
export function* agreementItems(db: Db, projectId: number): Generator<StoredItem> {
  const rows = db.$client
    .prepare(`select ${GI.item} as item from ${GI.$} where ${GI.projectId} = ? and ${GI.item} is not null order by ${GI.lexeltPosition}, ${GI.position}`)
    .pluck()
    .iterate(projectId) as IterableIterator<string>;
  for (const json of rows) yield JSON.parse(json) as StoredItem;
}
