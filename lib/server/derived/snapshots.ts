/**
 * Figures global by nature, computed over every kept item at once in the background and kept
 * with their age (#39; derived_snapshots): Krippendorff's α and the bootstrap intervals, the
 * other readings of stored runs. A snapshot is current while the project's data version is the
 * one it was computed at; older, it is still shown, with its time.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { derivedSnapshots } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { dataVersion } from "../kernel/data-version";
import { get, run } from "../kernel/statements";

const S = named(derivedSnapshots);

export interface Snapshot<T> {
  /** The data version it was computed at. */
  version: number;
  computedAt: Date;
  computeMs: number;
  body: T;
  /** Something it was computed from has changed since. */
  stale: boolean;
}

/** The project's snapshot of this kind, or null when none was computed yet. */
export function readSnapshot<T>(db: Db, projectId: number, kind: string): Snapshot<T> | null {
  const r = get<{ version: number; computedAt: number; computeMs: number; body: string }>(
    db,
    `select ${S.version} as version, ${S.computedAt} as computedAt, ${S.computeMs} as computeMs, ${S.body} as body from ${S.$} where ${S.projectId} = ? and ${S.kind} = ?`,
    projectId,
    kind,
  );
  if (!r) return null;
  return { version: r.version, computedAt: new Date(r.computedAt), computeMs: r.computeMs, body: JSON.parse(r.body) as T, stale: r.version !== dataVersion(db, projectId) };
}

/**
 * Compute a snapshot now and keep it: `compute` runs in one read transaction with the data
 * version it is filed under (so the figures are exactly that version's), then the row is written
 * in a short write transaction of its own.
 */
export function computeSnapshot<T>(db: Db, projectId: number, kind: string, compute: () => T): Snapshot<T> {
  const t0 = performance.now();
  const { version, body } = db.$client.transaction(() => ({ version: dataVersion(db, projectId), body: compute() }))();
  const computeMs = Math.round(performance.now() - t0);
  const computedAt = Date.now();
  db.$client
    .transaction(() =>
      run(
        db,
        `insert into ${S.$} (${S.projectId}, ${S.kind}, ${S.version}, ${S.computedAt}, ${S.computeMs}, ${S.body}) values (?, ?, ?, ?, ?, ?)
         on conflict (${S.projectId}, ${S.kind}) do update set ${S.version} = excluded.${S.version}, ${S.computedAt} = excluded.${S.computedAt},
           ${S.computeMs} = excluded.${S.computeMs}, ${S.body} = excluded.${S.body}`,
        projectId,
        kind,
        version,
        computedAt,
        computeMs,
        JSON.stringify(body),
      ),
    )
    .immediate();
  return { version, computedAt: new Date(computedAt), computeMs, body, stale: false };
}
