/**
 * The statements a call runs: better-sqlite3's Statement methods (get, all, run, iterate) wrapped on
 * the prototype for the call, each statement's SQL text recorded in the order run (prepared now or
 * earlier and kept), with how many rows `get` and `all` returned in all. Transaction control (BEGIN,
 * COMMIT, ROLLBACK, SAVEPOINT, RELEASE) reads no row and is left out. For tests that count a call's
 * work or check the plans of the statements it runs.
 */
import type { Db } from "../../db/client";

const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

export function recordStatements(db: Pick<Db, "$client">, fn: () => void): { sql: string[]; rows: number } {
  const proto = Object.getPrototypeOf(db.$client.prepare("select 1")) as Record<string, (...a: unknown[]) => unknown>;
  const out = { sql: [] as string[], rows: 0 };
  const saved: Record<string, (...a: unknown[]) => unknown> = {};
  for (const name of ["get", "all", "run", "iterate"]) {
    const original = (saved[name] = proto[name]);
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      if (CONTROL.test(this.source)) return original.apply(this, args);
      out.sql.push(this.source);
      const r = original.apply(this, args);
      if (name === "all") out.rows += (r as unknown[]).length;
      else if (name === "get" && r !== undefined) out.rows++;
      return r;
    };
  }
  try {
    fn();
  } finally {
    Object.assign(proto, saved);
  }
  return out;
}
