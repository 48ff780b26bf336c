/**
 * The load benchmark's baseline (bench/load.ts): what one request costs with nothing of lexgold's
 * in it — no session, no checks, no queue — only Next's routing, a JSON body read and one SQLite
 * write transaction on the app's own connection. Saves per second are reported as a share of this
 * route's requests per second on the same machine in the same run, a figure that carries across
 * machines where saves per second alone do not.
 *
 * Off unless the server was started with LEXGOLD_BENCH_BARE=1 (the benchmark's server only): the
 * route answers 404 and writes nothing otherwise. Its rows go to a table of their own, made on first
 * use in the benchmark's throw-away database.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { setting } from "../../config";

export function benchBareEnabled(): boolean {
  return setting("LEXGOLD_BENCH_BARE");
}

const prepared = new WeakMap<Db, (body: string) => number>();

/** One write transaction: the request's body stored as a row; its id. */
export function benchBareTransaction(db: Db, body: string): number {
  let insert = prepared.get(db);
  if (!insert) {
    db.$client.exec("create table if not exists bench_bare (id integer primary key, body text not null, at integer not null)");
    const stmt = db.$client.prepare("insert into bench_bare (body, at) values (?, ?)");
    insert = db.$client.transaction((b: string) => Number(stmt.run(b, Date.now()).lastInsertRowid));
    prepared.set(db, insert);
  }
  return insert(body);
}
