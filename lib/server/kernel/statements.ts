/**
 * Prepared statements kept per connection, for the hot paths that ask SQLite a
 * dozen small questions per request (the annotator's queue, a save, the
 * membership check of every workspace request).
 */
import "server-only";
import type Database from "better-sqlite3";
import type { Db } from "../../../db/client";

type Client = Db["$client"];
type Statement = Database.Statement<unknown[], unknown>;

/**
 * Prepared statements, kept per connection: preparing was most of a save's
 * server time (each step runs a dozen small statements). The SQL texts are the
 * fixed texts of the callers, so the cache stays small.
 */
const statements = new WeakMap<Client, Map<string, Statement>>();

export function prepared(db: Pick<Db, "$client">, sql: string): Statement {
  let m = statements.get(db.$client);
  if (!m) statements.set(db.$client, (m = new Map()));
  let st = m.get(sql);
  if (!st) m.set(sql, (st = db.$client.prepare<unknown[]>(sql)));
  return st;
}

export function get<T>(db: Pick<Db, "$client">, sql: string, ...params: unknown[]): T | undefined {
  return prepared(db, sql).get(...params) as T | undefined;
}

/** Run a statement; the number of rows it changed. */
export function run(db: Pick<Db, "$client">, sql: string, ...params: unknown[]): number {
  return prepared(db, sql).run(...params).changes;
}

export function all<T>(db: Pick<Db, "$client">, sql: string, ...params: unknown[]): T[] {
  return prepared(db, sql).all(...params) as T[];
}
