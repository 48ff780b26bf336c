/**
 * What the Progress tab's charts draw (lib/charts/progress.ts), and a release's the same way under
 * pseudonyms: new answers per day (UTC) for each team annotator, a study's participants counted
 * together; and each annotator's and participant's seconds per item (the server's own measure,
 * responses.active_ms), as quantiles. Sizes stay bounded: days × people for the first, one row
 * per person for the second. Coordinators of the project only.
 */
import "server-only";
import { READ } from "../../../db/immediate";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { participants, projects, responses, studies, users } from "../../../db/schema";
import type { DayCount, TaskTimes } from "../../charts/progress";
import { type Actor, requireProject } from "../kernel/actor";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const R = named(responses);

export interface ProgressChartData {
  days: DayCount[];
  times: TaskTimes[];
  thresholdSeconds: number;
  /** When the charts' figures were read (ms): drawn again at most once a minute while people save. */
  computedAt: number;
}

/** Who answered: a team annotator, or a participant of a study. */
export interface Answerer {
  userId: number;
  name: string;
  study: { id: number; name: string | null } | null;
}

/** The value at quantile q of sorted values (linear between neighbours). */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * The raw counts and times of a project (the caller checked the actor), each person named by
 * `name`, participants grouped per study for the days by `group`.
 */
export function progressChartRows(db: Db, projectId: number, name: (a: Answerer) => string, group: (a: Answerer) => string): Omit<ProgressChartData, "thresholdSeconds" | "computedAt"> {
  const who = new Map<number, Answerer>();
  for (const u of db
    .select({ userId: users.id, name: users.name, studyId: participants.studyId, studyName: studies.name })
    .from(users)
    .leftJoin(participants, eq(participants.userId, users.id))
    .leftJoin(studies, eq(studies.id, participants.studyId))
    .where(sql`${users.id} in (select ${responses.userId} from ${responses} where ${responses.projectId} = ${projectId})`)
    .all()) {
    who.set(u.userId, { userId: u.userId, name: u.name, study: u.studyId === null ? null : { id: u.studyId, name: u.studyName } });
  }
  const day = sql<string>`strftime('%Y-%m-%d', ${responses.createdAt} / 1000, 'unixepoch')`;
  const perDay = new Map<string, DayCount>();
  for (const r of db
    .select({ day, userId: responses.userId, n: sql<number>`count(*)` })
    .from(responses)
    .where(eq(responses.projectId, projectId))
    .groupBy(day, responses.userId)
    .all()) {
    const a = who.get(r.userId);
    if (!a) continue;
    const g = group(a);
    const key = `${r.day}\u0000${g}`;
    const row = perDay.get(key) ?? { day: r.day, who: g, answers: 0 };
    row.answers += r.n;
    perDay.set(key, row);
  }
  const times: TaskTimes[] = [];
  let current: number | null = null;
  let values: number[] = [];
  const flush = () => {
    const a = current === null ? undefined : who.get(current);
    if (a && values.length > 0) {
      times.push({ who: name(a), timed: values.length, p10: quantile(values, 0.1), q1: quantile(values, 0.25), median: quantile(values, 0.5), q3: quantile(values, 0.75), p90: quantile(values, 0.9) });
    }
    values = [];
  };
  // In the order of the index on (project, user, active_ms): each person's times come sorted.
  const rows = db.$client
    .prepare(`select ${R.userId} as userId, ${R.activeMs} as ms from ${R.$} where ${R.projectId} = ? and ${R.activeMs} is not null order by ${R.userId}, ${R.activeMs}`)
    .iterate(projectId) as Iterable<{ userId: number; ms: number }>;
  for (const r of rows) {
    if (r.userId !== current) {
      flush();
      current = r.userId;
    }
    values.push(r.ms / 1000);
  }
  flush();
  return { days: [...perDay.values()], times };
}

/** A participant as the page names them: their platform id, shortened. */
function participantName(a: Answerer): string {
  const m = /^[a-z]+:[0-9]+:(.+)$/s.exec(a.name);
  const id = m ? m[1] : a.name;
  return `participant ${[...id].length > 14 ? `${[...id].slice(0, 6).join("")}…${[...id].slice(-4).join("")}` : id}`;
}

/** The Progress tab's charts' data (coordinator of the project). */
export function progressChartData(db: Db, actor: Actor, projectId: number): ProgressChartData {
  requireProject(db, actor, projectId, { coordinator: true });
  const threshold = db.select({ ms: projects.speedThresholdMs }).from(projects).where(eq(projects.id, projectId)).get()?.ms ?? 4000;
  const rows = db.transaction(() =>
    progressChartRows(
      db,
      projectId,
      (a) => (a.study ? participantName(a) : a.name),
      (a) => (a.study ? `${a.study.name ?? `study ${a.study.id}`} (participants)` : a.name),
    ),
    READ,
  );
  return { ...rows, thresholdSeconds: threshold / 1000, computedAt: Date.now() };
}
