/**
 * The Gold tab's instance pages from the kept figures (#39): the instances an InstanceQuery keeps,
 * in corpus order or lowest agreement first, counted and cut into a page by SQLite over gold_items
 * (lib/server/derived), never by deriving the project. Only the page's instances are then derived
 * again, one by one, through the same code the kept figures come from, for their cards.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { goldItems } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { all, get } from "../kernel/statements";

const GI = named(goldItems, "gi");

/** What the query asks for (gold-review.ts InstanceQuery), less the page. */
export interface ItemFilter {
  lexelt?: string;
  noMode?: boolean;
  notInT?: boolean;
  excluded?: boolean;
  multiword?: boolean;
  annotator?: string;
  reviewed?: "yes" | "no" | "";
  /** Only these instance ids (the flagged ones). */
  only?: readonly string[];
  order?: "corpus" | "agreement";
  /** Agreement order: instances ranked by the figure given for them (null: none, after every figure). */
  hold?: Readonly<Record<string, number | null>>;
}

/** The WHERE clause and its parameters. */
function where(projectId: number, f: ItemFilter): { sql: string; params: unknown[] } {
  const conds = [`${GI.projectId} = ?`];
  const params: unknown[] = [projectId];
  if (f.lexelt) {
    conds.push(`${GI.lexelt} = ?`);
    params.push(f.lexelt);
  }
  if (f.noMode) conds.push(`${GI.hasMode} = 0`);
  if (f.notInT) conds.push(`${GI.inT} = 0`);
  if (f.excluded) conds.push(`${GI.excluded} = 1`);
  if (f.multiword) conds.push(`${GI.mwLine} is not null`);
  if (f.annotator) {
    conds.push(`instr(${GI.annotators}, ?) > 0`);
    params.push(`\n${f.annotator}\n`);
  }
  if (f.reviewed === "yes" || f.reviewed === "no") conds.push(`${GI.reviewed} = ${f.reviewed === "yes" ? 1 : 0}`);
  if (f.only) {
    conds.push(`${GI.instanceId} in (select value from json_each(?))`);
    params.push(JSON.stringify(f.only));
  }
  return { sql: conds.join(" and "), params };
}

/** The ORDER BY key and the CTE of held ranks it reads, with its parameter. */
function orderOf(f: ItemFilter): { cte: string; key: string[]; params: unknown[] } {
  if (f.order !== "agreement") return { cte: "", key: [GI.lexeltPosition, GI.position], params: [] };
  const held = Object.entries(f.hold ?? {});
  if (held.length === 0) return { cte: "", key: [GI.rank, GI.lexeltPosition, GI.position], params: [] };
  return {
    cte: `with held(id, r) as (select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?)) `,
    key: [`coalesce((select r from held where id = ${GI.instanceId}), ${GI.rank})`, GI.lexeltPosition, GI.position],
    params: [JSON.stringify(held.map(([id, r]) => [id, r === null ? 2 : r]))],
  };
}

/** Whether the filter keeps every instance of the project (kept or excluded, in either order). */
export function keepsEvery(f: ItemFilter): boolean {
  return where(0, f).sql === `${GI.projectId} = ?`;
}

/** How many instances the filter keeps. */
export function countItems(db: Db, projectId: number, f: ItemFilter): number {
  const w = where(projectId, f);
  return get<{ n: number }>(db, `select count(*) as n from ${GI.$} where ${w.sql}`, ...w.params)!.n;
}

/** The 0-based place of an instance in the filter's order, or -1 when the filter does not keep it. */
export function placeOf(db: Db, projectId: number, f: ItemFilter, instanceId: string): number {
  const w = where(projectId, f);
  const o = orderOf(f);
  const at = get<{ k0: number; k1: number; k2: number | null }>(
    db,
    `${o.cte}select ${o.key.map((k, i) => `${k} as k${i}`).join(", ")}${o.key.length === 2 ? ", null as k2" : ""} from ${GI.$} where ${w.sql} and ${GI.instanceId} = ?`,
    ...o.params,
    ...w.params,
    instanceId,
  );
  if (!at) return -1;
  const key = o.key.length === 2 ? [at.k0, at.k1] : [at.k0, at.k1, at.k2];
  return get<{ n: number }>(db, `${o.cte}select count(*) as n from ${GI.$} where ${w.sql} and (${o.key.join(", ")}) < (${key.map(() => "?").join(", ")})`, ...o.params, ...w.params, ...key)!.n;
}

/** The instances of one page: `limit` from `offset` in the filter's order (the instance's ref and id). */
export function pageItems(db: Db, projectId: number, f: ItemFilter, offset: number, limit: number): { ref: number; instanceId: string }[] {
  const w = where(projectId, f);
  const o = orderOf(f);
  return all<{ ref: number; instanceId: string }>(
    db,
    `${o.cte}select ${GI.instanceRef} as ref, ${GI.instanceId} as instanceId from ${GI.$} where ${w.sql} order by ${o.key.join(", ")} limit ? offset ?`,
    ...o.params,
    ...w.params,
    limit,
    offset,
  );
}
