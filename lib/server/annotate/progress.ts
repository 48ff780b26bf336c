/**
 * The coordinator's view of how the annotation is going: per annotator done /
 * assigned, last activity and median time per item; per lexelt × annotator done /
 * total; and how many instances have collected the responses they need.
 * Coordinators of the project only.
 *
 * Crowd participants (users with role "participant", issue #32) are annotators of
 * their study's project too, but they are not listed one by one: a study of
 * hundreds would drown the team's rows. They are summed per study (joined,
 * finished, answers, last activity) from the same grouped reads, with no query
 * per participant; the Crowd tab lists them. Their answers count in the totals,
 * the lexelts' responses and the instances complete as everyone's do.
 */
import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { annotatorLexeltCounts, annotatorTotals, assignments, lexeltAnswerCounts, lexelts, memberships, participants, projects, responses, studies, users } from "../../../db/schema";
import { type Actor, requireProject } from "../kernel/actor";
import { named } from "../../../db/sql-names";
import { catchUpNow } from "../derived/actor-free";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const LX = named(lexelts);
const ALC = named(annotatorLexeltCounts);
const AT = named(annotatorTotals);
const AC = named(annotatorLexeltCounts, "c");
const AS = named(assignments, "a");
const LA = named(lexeltAnswerCounts);
const RESPONSES = named(responses);
const PA = named(participants, "pa");
const S = named(studies, "s");

/** The median of a list of numbers (mean of the middle two for an even count), null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * How many of the annotator's responses carry a time, and the median of those
 * times (ms), from the index on (project, user, active_ms): a count over the
 * range, then the middle one or two rows at an OFFSET — no response is read
 * into JavaScript.
 */
export function timedMedian(db: Pick<Db, "$client">, projectId: number, userId: number): { timed: number; medianMs: number | null } {
  const { n } = db.$client
    .prepare(`select count(*) as n from ${RESPONSES.$} where ${RESPONSES.projectId} = ? and ${RESPONSES.userId} = ? and ${RESPONSES.activeMs} is not null`)
    .get(projectId, userId) as { n: number };
  if (n === 0) return { timed: 0, medianMs: null };
  const middle = (
    db.$client
      .prepare(
        `select ${RESPONSES.activeMs} as ms from ${RESPONSES.$} indexed by responses_project_user_active where ${RESPONSES.projectId} = ? and ${RESPONSES.userId} = ? and ${RESPONSES.activeMs} is not null order by ${RESPONSES.activeMs} limit ? offset ?`,
      )
      .all(projectId, userId, n % 2 === 1 ? 1 : 2, (n - 1) >> 1) as { ms: number }[]
  ).map((r) => r.ms);
  return { timed: n, medianMs: middle.length === 1 ? middle[0] : (middle[0] + middle[1]) / 2 };
}

interface AnnotatorProgress {
  userId: number;
  name: string;
  /** Whether the user is an annotator member (others appear only because they have responses). */
  member: boolean;
  /** Instances in the lexelts the annotator is assigned. */
  assigned: number;
  /** Responses to instances in those lexelts. */
  done: number;
  /** Responses to instances outside the assigned lexelts (given before an assignment changed). */
  outside: number;
  /** Whether the annotator is restricted to some lexelts (false = every lexelt). */
  restricted: boolean;
  lastActivity: Date | null;
  /** Median of the seconds spent per item, over responses saved with a time (imports have none). */
  medianSeconds: number | null;
  /** How many responses carry a time. */
  timed: number;
  /** Median under the project's speed threshold (projects.speedThresholdMs): answering too fast to have read. */
  tooFast: boolean;
}

interface LexeltCell {
  userId: number;
  /** Whether this annotator is assigned the lexelt. */
  assigned: boolean;
  done: number;
}

interface LexeltProgress {
  id: number;
  item: string;
  instances: number;
  /** Instances of this lexelt with at least the required number of responses. */
  complete: number;
  /** Annotator members assigned this lexelt (crowd participants included: they answer whatever their batch holds). */
  assignedAnnotators: number;
  /** Responses to its instances, everyone's (crowd participants' included). */
  responses: number;
  /** One cell per annotator of `annotators` (the team: crowd participants have none). */
  cells: LexeltCell[];
}

/** The crowd participants of one study of the project, summed. */
export interface StudyProgress {
  id: number;
  name: string;
  platform: (typeof studies.$inferSelect)["platform"];
  state: (typeof studies.$inferSelect)["state"];
  joined: number;
  finished: number;
  /** Their responses in this project. */
  answers: number;
  lastActivity: Date | null;
}

/** The project's crowd, summed: one row per study, and the participants of other projects' studies whose answers were imported here. */
interface CrowdProgress {
  studies: StudyProgress[];
  /** Participant accounts of another project's study with responses here (a responses import), or null when none. */
  imported: { participants: number; answers: number; lastActivity: Date | null } | null;
}

export interface ProjectProgress {
  project: { id: number; name: string; requiredAnnotators: number | null };
  /** The project's speed threshold: annotators whose median is under it are flagged tooFast. */
  speedThresholdSeconds: number;
  /** Instances in the annotators' queue: what done / total count (responses and complete count those instances' too). */
  instances: number;
  /** Training items left out of the queue (projects.training_in_queue off), not counted in the figures above or below. */
  trainingOut: number;
  responses: number;
  /** Instances with at least the required number of responses. */
  complete: number;
  /** The team: annotator members and anyone else with responses here, crowd participants left out (they are in `crowd`). */
  annotators: AnnotatorProgress[];
  crowd: CrowdProgress;
  lexelts: LexeltProgress[];
}

export function projectProgress(db: Db, actor: Actor, projectId: number): ProjectProgress {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, p.id);
  // Every figure is read from counters kept as answers change (#39): the lexelts' instance counts, and, kept with the
  // derived figures, the responses and last save per annotator and lexelt (annotator_lexelt_counts) and the instances
  // per number of answers that count (lexelt_answer_counts) — nothing here reads the responses or instances one by one.
  const { cellOf: _cellOf, ...progress } = db.$client.transaction(() => progressFromCounters(db, p, true))();
  return progress;
}

/** The progress, with the grid of lexelts × annotators (`withCells`), or only a way to read one cell of it (`cellOf`). */
function progressFromCounters(db: Db, p: ReturnType<typeof requireProject>, withCells: boolean): ProjectProgress & { cellOf: (lexeltId: number, userId: number) => LexeltCell } {
  const projectId = p.id;
  const lx = db.$client
    .prepare(`select ${LX.id} as id, ${LX.item} as item, ${LX.instanceCount} - ${LX.outOfQueue} as instances, ${LX.outOfQueue} as out from ${LX.$} where ${LX.projectId} = ? order by ${LX.position}`)
    .all(projectId) as { id: number; item: string; instances: number; out: number }[];
  const allLexeltIds = lx.map((l) => l.id);
  const team = teamOf(db, p.id);
  const { annotatorMembers, others, totalOf, lastActivityOf, speedThresholdMs } = team;

  const responsesIn = new Map(
    (
      db.$client
        .prepare(`select ${ALC.lexeltId} as lexeltId, sum(${ALC.responses}) as n from ${ALC.$} where ${ALC.projectId} = ? group by ${ALC.lexeltId}`)
        .all(projectId) as { lexeltId: number; n: number }[]
    ).map((r) => [r.lexeltId, r.n]),
  );
  // Every assignment of the project in one read; a member without rows annotates every lexelt (assignments.ts).
  const rowsOf = new Map<number, Set<number>>();
  for (const a of db.select({ userId: assignments.userId, lexeltId: assignments.lexeltId }).from(assignments).where(eq(assignments.projectId, projectId)).all()) {
    let set = rowsOf.get(a.userId);
    if (!set) rowsOf.set(a.userId, (set = new Set()));
    set.add(a.lexeltId);
  }
  // Of the responses of a person with assignment rows, those in the lexelts assigned (the rest were given outside them).
  const inAssigned = new Map(
    (
      db.$client
        .prepare(
          `select ${AC.userId} as userId, sum(${AC.responses}) as n from ${AC.$}
            join ${AS.$} on ${AS.projectId} = ${AC.projectId} and ${AS.userId} = ${AC.userId} and ${AS.lexeltId} = ${AC.lexeltId}
            where ${AC.projectId} = ? group by ${AC.userId}`,
        )
        .all(projectId) as { userId: number; n: number }[]
    ).map((r) => [r.userId, r.n]),
  );
  // One (person, lexelt) pair's responses: read for the cells shown, or all at once for every cell.
  const doneIn = withCells
    ? new Map(
        (db.$client.prepare(`select ${ALC.userId} as userId, ${ALC.lexeltId} as lexeltId, ${ALC.responses} as n from ${ALC.$} where ${ALC.projectId} = ?`).all(projectId) as {
          userId: number;
          lexeltId: number;
          n: number;
        }[]).map((r) => [`${r.userId}:${r.lexeltId}`, r.n]),
      )
    : null;
  const oneCell = withCells
    ? null
    : db.$client.prepare(`select ${ALC.responses} as n from ${ALC.$} where ${ALC.projectId} = ? and ${ALC.userId} = ? and ${ALC.lexeltId} = ?`).pluck();
  const doneOf = (userId: number, lexeltId: number): number => (doneIn ? doneIn.get(`${userId}:${lexeltId}`) : (oneCell!.get(projectId, userId, lexeltId) as number | undefined)) ?? 0;
  const everyLexelt = new Set(allLexeltIds);
  const instancesOf = new Map(lx.map((l) => [l.id, l.instances]));
  let everyInstance = 0;
  for (const l of lx) everyInstance += l.instances;
  const assignedTo = new Map<number, Set<number>>();
  const annotators = annotatorRows(db, team, allLexeltIds.length, (person) => {
    const rows = person.member ? rowsOf.get(person.userId) : undefined;
    const set = !person.member ? new Set<number>() : rows ? new Set([...rows].filter((id) => everyLexelt.has(id))) : everyLexelt;
    assignedTo.set(person.userId, set);
    let assigned = 0;
    if (set === everyLexelt) assigned = everyInstance;
    else for (const id of set) assigned += instancesOf.get(id) ?? 0;
    return { lexelts: set.size, assigned, inAssigned: rows ? (inAssigned.get(person.userId) ?? 0) : null };
  });
  // Annotator members assigned each lexelt, counted once per lexelt; those without assignment rows count everywhere.
  const assignedIn = new Map<number, number>();
  let everywhere = 0;
  for (const m of annotatorMembers) {
    const rows = rowsOf.get(m.userId);
    if (!rows) everywhere++;
    else for (const id of rows) assignedIn.set(id, (assignedIn.get(id) ?? 0) + 1);
  }
  const assignedCount = (lexeltId: number) => everywhere + (assignedIn.get(lexeltId) ?? 0);
  const cellOf = (lexeltId: number, userId: number): LexeltCell => ({ userId, assigned: assignedTo.get(userId)?.has(lexeltId) ?? false, done: doneOf(userId, lexeltId) });

  const crowd = crowdProgress(db, projectId, totalOf, lastActivityOf, [...annotatorMembers, ...others].filter((u) => u.role === "participant").map((u) => u.userId));

  // How many instances of each lexelt have each number of answers that count toward complete (those of participants
  // left out of the gold are counted as responses, not towards it): kept with the derived figures.
  const answerCounts = db.$client
    .prepare(`select ${LA.lexeltId} as lexeltId, ${LA.answers} as answers, ${LA.instances} as instances from ${LA.$} where ${LA.projectId} = ? and ${LA.instances} > 0`)
    .all(projectId) as { lexeltId: number; answers: number; instances: number }[];
  const needed = (lexeltId: number) => p.requiredAnnotators ?? assignedCount(lexeltId);
  const completeIn = new Map<number, number>();
  for (const c of answerCounts) {
    const need = needed(c.lexeltId);
    if (need > 0 && c.answers >= need) completeIn.set(c.lexeltId, (completeIn.get(c.lexeltId) ?? 0) + c.instances);
  }
  let totalResponses = 0;
  for (const n of responsesIn.values()) totalResponses += n;

  const lexeltRows: LexeltProgress[] = lx.map((l) => ({
    id: l.id,
    item: l.item,
    instances: l.instances,
    complete: completeIn.get(l.id) ?? 0,
    assignedAnnotators: assignedCount(l.id),
    responses: responsesIn.get(l.id) ?? 0,
    cells: withCells ? annotators.map((a) => cellOf(l.id, a.userId)) : [],
  }));

  return {
    project: { id: p.id, name: p.name, requiredAnnotators: p.requiredAnnotators },
    speedThresholdSeconds: speedThresholdMs / 1000,
    instances: lx.reduce((s, l) => s + l.instances, 0),
    trainingOut: lx.reduce((s, l) => s + l.out, 0),
    responses: totalResponses,
    complete: lexeltRows.reduce((s, l) => s + l.complete, 0),
    annotators,
    crowd,
    lexelts: lexeltRows,
    cellOf,
  };
}

/** The team as the Progress page lists it, and each person's responses to instances in the queue. */
interface Team {
  projectId: number;
  /** Annotator members (never the project's judges). */
  annotatorMembers: { userId: number; name: string; role: string }[];
  /** Anyone else who has responses here (a coordinator who annotated, a former member). */
  others: { userId: number; name: string; role: string }[];
  /** The team listed, by name: crowd participants are summed per study, not listed. */
  people: { userId: number; name: string; member: boolean }[];
  totalOf: Map<number, { userId: number; n: number; last: number }>;
  lastActivityOf: (userId: number) => number | null;
  speedThresholdMs: number;
}

function teamOf(db: Db, projectId: number): Team {
  const speedThresholdMs = db.select({ ms: projects.speedThresholdMs }).from(projects).where(eq(projects.id, projectId)).get()?.ms ?? 4000;
  const annotatorMembers = db
    .select({ userId: users.id, name: users.name, role: users.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(memberships.role, "annotator")))
    .all();
  // Responses to instances in the queue and the latest save among them, per person: kept with the derived figures
  // (annotator_lexelt_counts per person and lexelt, summed per person by triggers into annotator_totals) — a row per
  // person read, not one per (person, lexelt) pair: 50 annotators over 4,000 lexelts are 200,000 pairs (#39).
  const totals = db.$client
    .prepare(`select ${AT.userId} as userId, ${AT.responses} as n, ${AT.lastAt} as last from ${AT.$} where ${AT.projectId} = ? order by ${AT.userId}`)
    .all(projectId) as { userId: number; n: number; last: number }[];
  const memberIds = new Set(annotatorMembers.map((m) => m.userId));
  const othersIds = totals.map((r) => r.userId).filter((id) => !memberIds.has(id));
  const others: { userId: number; name: string; role: string }[] = [];
  for (let k = 0; k < othersIds.length; k += 500) {
    others.push(...db.select({ userId: users.id, name: users.name, role: users.role }).from(users).where(inArray(users.id, othersIds.slice(k, k + 500))).all());
  }
  const totalOf = new Map(totals.map((r) => [r.userId, r]));
  const people = [
    ...annotatorMembers.filter((m) => m.role !== "participant").map((m) => ({ userId: m.userId, name: m.name, member: true })),
    ...others.filter((o) => o.role !== "participant").map((o) => ({ userId: o.userId, name: o.name, member: false })),
  ].sort((a, b) => a.name.localeCompare(b.name));
  // Each person's last save to an instance in the queue.
  return { projectId, annotatorMembers, others, people, totalOf, lastActivityOf: (userId) => totalOf.get(userId)?.last ?? null, speedThresholdMs };
}

/**
 * One row per person of the team, of a project of `lexelts` lexelts. `scope` says, per person, how many lexelts and instances they are assigned and,
 * for a member with assignment rows, how many of their responses fall in them (null: assigned every lexelt, or not a member).
 */
function annotatorRows(
  db: Db,
  team: Team,
  lexelts: number,
  scope: (person: Team["people"][number]) => { lexelts: number; assigned: number; inAssigned: number | null },
): AnnotatorProgress[] {
  const projectId = team.projectId;
  return team.people.map((person) => {
    const own = scope(person);
    const total = team.totalOf.get(person.userId)?.n ?? 0;
    const done = !person.member ? 0 : own.inAssigned !== null ? own.inAssigned : total;
    const outside = total - done;
    const lastMs = done + outside > 0 ? team.lastActivityOf(person.userId) : null;
    const { timed, medianMs: med } = timedMedian(db, projectId, person.userId);
    return {
      userId: person.userId,
      name: person.name,
      member: person.member,
      assigned: own.assigned,
      done,
      outside,
      restricted: person.member && own.lexelts < lexelts,
      lastActivity: lastMs === null ? null : new Date(lastMs),
      medianSeconds: med === null ? null : med / 1000,
      timed,
      tooFast: med !== null && med < team.speedThresholdMs,
    };
  });
}

/**
 * The crowd summed per study from reads that do not grow with the crowd's size in
 * statements: the project's studies, its participants' (study, state) and the
 * per-user response counts projectProgress already grouped. `participantIds` are the
 * users with role participant among the members and those with responses here.
 */
function crowdProgress(
  db: Db,
  projectId: number,
  totalOf: ReadonlyMap<number, { n: number }>,
  lastActivityOf: (userId: number) => number | null,
  participantIds: readonly number[],
): CrowdProgress {
  const rows = db.$client
    .prepare(`select ${S.id} as id, ${S.name} as name, ${S.platform} as platform, ${S.state} as state from ${S.$} where ${S.projectId} = ? order by ${S.createdAt} desc, ${S.id} desc`)
    .all(projectId) as Pick<StudyProgress, "id" | "name" | "platform" | "state">[];
  const byStudy = new Map<number, StudyProgress>(rows.map((r) => [r.id, { ...r, joined: 0, finished: 0, answers: 0, lastActivity: null }]));
  const answered = (userId: number) => {
    const n = totalOf.get(userId)?.n ?? 0;
    return { n, last: n > 0 ? lastActivityOf(userId) : null };
  };
  const later = (a: Date | null, ms: number | null) => (ms === null ? a : a === null || ms > a.getTime() ? new Date(ms) : a);
  const own = new Set<number>();
  const joined = db.$client.prepare(`select ${PA.userId} as userId, ${PA.studyId} as studyId, ${PA.state} as state from ${PA.$} where ${PA.projectId} = ?`).all(projectId) as {
    userId: number;
    studyId: number;
    state: string;
  }[];
  for (const p of joined) {
    const study = byStudy.get(p.studyId);
    if (!study) continue;
    own.add(p.userId);
    const { n, last } = answered(p.userId);
    study.joined++;
    if (p.state === "finished") study.finished++;
    study.answers += n;
    study.lastActivity = later(study.lastActivity, last);
  }
  let imported: CrowdProgress["imported"] = null;
  for (const id of participantIds) {
    if (own.has(id)) continue;
    const { n, last } = answered(id);
    imported ??= { participants: 0, answers: 0, lastActivity: null };
    imported.participants++;
    imported.answers += n;
    imported.lastActivity = later(imported.lastActivity, last);
  }
  return { studies: [...byStudy.values()], imported };
}

/** One page of a list: the rows, the 1-based page number (clamped to the pages there are) and the page count. */
export interface Paged<T> {
  rows: T[];
  page: number;
  pages: number;
  total: number;
}

/** The rows on 1-based page `page` of `size` rows each; a page out of range gives the nearest page. */
export function pageOf<T>(items: readonly T[], page: number, size: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const at = Number.isInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
  return { rows: items.slice((at - 1) * size, at * size), page: at, pages, total: items.length };
}

/** What the Progress page shows of one request (its searches, pages and drill-downs). */
export interface ProgressQuery {
  /** Lexelt search and page. */
  q?: string;
  page?: number;
  /** Annotator search and page. */
  who?: string;
  apage?: number;
  /** Drill-downs: one lexelt's annotators (page dpage), one annotator's lexelts (page lpage). */
  lexelt?: number;
  annotator?: number;
  lpage?: number;
  dpage?: number;
}

/** A lexelt row as the page lists it: without its per-annotator cells, with its responses counted. */
type LexeltRow = Omit<LexeltProgress, "cells">;

/**
 * The Progress page's data for one request, pages only (issue #14: the page is built in
 * the derivation process, lib/server/jobs/derive-jobs.ts, and only what it shows crosses over):
 * the totals, every annotator row (one per person), one page of lexelts, the lexelts
 * short of annotators, and the drill-down asked for.
 */
export interface ProgressPageView {
  project: ProjectProgress["project"];
  speedThresholdSeconds: number;
  /** Instances in the annotators' queue: what done / total count (responses and complete count those instances' too). */
  instances: number;
  /** Training items left out of the queue (projects.training_in_queue off), not counted in the figures above or below. */
  trainingOut: number;
  responses: number;
  complete: number;
  annotators: AnnotatorProgress[];
  annotatorPage: Paged<AnnotatorProgress>;
  crowd: CrowdProgress;
  lexeltCount: number;
  lexeltPage: Paged<LexeltRow>;
  /** Lexelts with instances and fewer annotators assigned than required (the first six, and how many). */
  short: { rows: LexeltRow[]; total: number };
  focusLexelt: { lexelt: LexeltRow; cells: Paged<LexeltCell> } | null;
  focusAnnotator: { userId: number; name: string; lexelts: Paged<{ lexelt: LexeltRow; cell: LexeltCell }> } | null;
}

/** Rows per page in every table of the Progress page. */
const PROGRESS_PAGE_SIZE = 50;

export function progressPageView(db: Db, actor: Actor, projectId: number, query: ProgressQuery): ProgressPageView {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, project.id);
  // A page at a time when every member annotates every lexelt and no lexelt is searched for; else every lexelt is read.
  const paged = db.$client.transaction(() => pagedProgress(db, project, query))();
  if (paged) return paged;
  // Counters only, and of the lexelts × annotators grid only the cells shown.
  const p = db.$client.transaction(() => progressFromCounters(db, project, false))();
  const row = ({ id, item, instances, complete, assignedAnnotators, responses }: LexeltProgress): LexeltRow => ({ id, item, instances, complete, assignedAnnotators, responses });
  const who = (query.who ?? "").trim().toLowerCase();
  const q = (query.q ?? "").trim().toLowerCase();
  const required = p.project.requiredAnnotators;
  const short = required === null ? [] : p.lexelts.filter((l) => l.instances > 0 && l.assignedAnnotators < required);
  const lexeltPage = pageOf(q ? p.lexelts.filter((l) => l.item.toLowerCase().includes(q)) : p.lexelts, query.page ?? 1, PROGRESS_PAGE_SIZE);
  const focus = query.lexelt !== undefined ? p.lexelts.find((l) => l.id === query.lexelt) : undefined;
  const column = query.annotator !== undefined ? p.annotators.findIndex((a) => a.userId === query.annotator) : -1;
  const byAnnotator = column >= 0 ? pageOf(p.lexelts, query.lpage ?? 1, PROGRESS_PAGE_SIZE) : null;
  return {
    project: p.project,
    speedThresholdSeconds: p.speedThresholdSeconds,
    instances: p.instances,
    trainingOut: p.trainingOut,
    responses: p.responses,
    complete: p.complete,
    annotators: p.annotators,
    crowd: p.crowd,
    annotatorPage: pageOf(who ? p.annotators.filter((a) => a.name.toLowerCase().includes(who)) : p.annotators, query.apage ?? 1, PROGRESS_PAGE_SIZE),
    lexeltCount: p.lexelts.length,
    lexeltPage: { ...lexeltPage, rows: lexeltPage.rows.map(row) },
    short: { rows: short.slice(0, 6).map(row), total: short.length },
    focusLexelt: focus ? { lexelt: row(focus), cells: pageOf(p.annotators.map((a) => p.cellOf(focus.id, a.userId)), query.dpage ?? 1, PROGRESS_PAGE_SIZE) } : null,
    focusAnnotator:
      byAnnotator && column >= 0
        ? {
            userId: p.annotators[column].userId,
            name: p.annotators[column].name,
            lexelts: { ...byAnnotator, rows: byAnnotator.rows.map((l) => ({ lexelt: row(l), cell: p.cellOf(l.id, p.annotators[column].userId) })) },
          }
        : null,
  };
}

/** The Progress view's parts read a page at a time (pagedProgress). */
type LexeltRowAt = { id: number; item: string; instances: number };

/**
 * The Progress page's view read a page at a time (#39), when no member has assignment rows (each annotates every
 * lexelt, so every lexelt has the same annotators and needs as many answers) and no lexelt is searched for: the
 * totals summed by SQLite, and only the lexelts the page shows read — its page, the drill-downs', the first six short
 * of annotators. At 100,000 instances the whole reading took 4,167 lexelts three times over into JavaScript on each
 * load. The same view as progressFromCounters gives (test/server/annotate/progress.test.ts compares them); null
 * when it does not apply.
 */
function pagedProgress(db: Db, p: ReturnType<typeof requireProject>, query: ProgressQuery): ProgressPageView | null {
  const projectId = p.id;
  if ((query.q ?? "").trim() !== "") return null;
  if (db.$client.prepare(`select 1 from ${AS.$} where ${AS.projectId} = ? limit 1`).get(projectId) !== undefined) return null;
  const team = teamOf(db, projectId);
  const sums = db.$client
    .prepare(`select count(*) as lexelts, total(${LX.instanceCount} - ${LX.outOfQueue}) as instances, total(${LX.outOfQueue}) as out from ${LX.$} where ${LX.projectId} = ?`)
    .get(projectId) as { lexelts: number; instances: number; out: number };
  // Every annotator member annotates every lexelt: as many are assigned each, and each instance needs as many answers.
  const everywhere = team.annotatorMembers.length;
  const need = p.requiredAnnotators ?? everywhere;
  const annotators = annotatorRows(db, team, sums.lexelts, (person) =>
    person.member ? { lexelts: sums.lexelts, assigned: sums.instances, inAssigned: null } : { lexelts: 0, assigned: 0, inAssigned: null },
  );
  const crowd = crowdProgress(db, projectId, team.totalOf, team.lastActivityOf, [...team.annotatorMembers, ...team.others].filter((u) => u.role === "participant").map((u) => u.userId));
  let responses = 0;
  for (const t of team.totalOf.values()) responses += t.n;
  const complete =
    need > 0
      ? (db.$client
          .prepare(
            `select total(${LA.instances}) from ${LA.$} where ${LA.projectId} = ? and ${LA.answers} >= ? and ${LA.instances} > 0
              and ${LA.lexeltId} in (select ${LX.id} from ${LX.$} where ${LX.projectId} = ?)`,
          )
          .pluck()
          .get(projectId, need, projectId) as number)
      : 0;

  // The rows of some lexelts with their responses and instances complete: read for those lexelts alone.
  const responsesOf = db.$client.prepare(`select total(${ALC.responses}) from ${ALC.$} where ${ALC.projectId} = ? and ${ALC.lexeltId} = ?`).pluck();
  const completeOf = db.$client.prepare(`select total(${LA.instances}) from ${LA.$} where ${LA.lexeltId} = ? and ${LA.answers} >= ? and ${LA.instances} > 0`).pluck();
  const row = (l: LexeltRowAt): LexeltRow => ({
    ...l,
    complete: need > 0 ? (completeOf.get(l.id, need) as number) : 0,
    assignedAnnotators: everywhere,
    responses: responsesOf.get(projectId, l.id) as number,
  });
  const LEXELT_COLUMNS = `${LX.id} as id, ${LX.item} as item, ${LX.instanceCount} - ${LX.outOfQueue} as instances`;
  const lexeltsAt = (page: unknown): Paged<LexeltRow> => {
    const pages = Math.max(1, Math.ceil(sums.lexelts / PROGRESS_PAGE_SIZE));
    const at = typeof page === "number" && Number.isInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
    const rows = db.$client
      .prepare(`select ${LEXELT_COLUMNS} from ${LX.$} where ${LX.projectId} = ? order by ${LX.position} limit ? offset ?`)
      .all(projectId, PROGRESS_PAGE_SIZE, (at - 1) * PROGRESS_PAGE_SIZE) as LexeltRowAt[];
    return { rows: rows.map(row), page: at, pages, total: sums.lexelts };
  };
  // Fewer annotators assigned than required: every lexelt with instances, or none.
  const shortOnes = p.requiredAnnotators !== null && everywhere < p.requiredAnnotators;
  const short = shortOnes
    ? {
        rows: (
          db.$client
            .prepare(`select ${LEXELT_COLUMNS} from ${LX.$} where ${LX.projectId} = ? and ${LX.instanceCount} - ${LX.outOfQueue} > 0 order by ${LX.position} limit 6`)
            .all(projectId) as LexeltRowAt[]
        ).map(row),
        total: db.$client.prepare(`select count(*) from ${LX.$} where ${LX.projectId} = ? and ${LX.instanceCount} - ${LX.outOfQueue} > 0`).pluck().get(projectId) as number,
      }
    : { rows: [], total: 0 };
  // A team member's cell: assigned when a member (every lexelt is theirs), with their responses there.
  const oneCell = db.$client.prepare(`select ${ALC.responses} from ${ALC.$} where ${ALC.projectId} = ? and ${ALC.userId} = ? and ${ALC.lexeltId} = ?`).pluck();
  const cellOf = (lexeltId: number, a: AnnotatorProgress): LexeltCell => ({ userId: a.userId, assigned: a.member, done: (oneCell.get(projectId, a.userId, lexeltId) as number | undefined) ?? 0 });
  const focus =
    query.lexelt !== undefined
      ? (db.$client.prepare(`select ${LEXELT_COLUMNS} from ${LX.$} where ${LX.projectId} = ? and ${LX.id} = ?`).get(projectId, query.lexelt) as LexeltRowAt | undefined)
      : undefined;
  const column = query.annotator !== undefined ? annotators.findIndex((a) => a.userId === query.annotator) : -1;
  const who = (query.who ?? "").trim().toLowerCase();
  let byAnnotator: ProgressPageView["focusAnnotator"] = null;
  if (column >= 0) {
    const a = annotators[column];
    const page = lexeltsAt(query.lpage ?? 1);
    byAnnotator = { userId: a.userId, name: a.name, lexelts: { ...page, rows: page.rows.map((lexelt) => ({ lexelt, cell: cellOf(lexelt.id, a) })) } };
  }
  return {
    project: { id: p.id, name: p.name, requiredAnnotators: p.requiredAnnotators },
    speedThresholdSeconds: team.speedThresholdMs / 1000,
    instances: sums.instances,
    trainingOut: sums.out,
    responses,
    complete,
    annotators,
    crowd,
    annotatorPage: pageOf(who ? annotators.filter((a) => a.name.toLowerCase().includes(who)) : annotators, query.apage ?? 1, PROGRESS_PAGE_SIZE),
    lexeltCount: sums.lexelts,
    lexeltPage: lexeltsAt(query.page ?? 1),
    short,
    focusLexelt: focus ? { lexelt: row(focus), cells: pageOf(annotators.map((a) => cellOf(focus.id, a)), query.dpage ?? 1, PROGRESS_PAGE_SIZE) } : null,
    focusAnnotator: byAnnotator,
  };
}
