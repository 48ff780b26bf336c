/**
 * Judgement rounds (issue #17; task paper §5.1): the coordinator of the project sets a round up
 * and reads its results; the judges assigned to it label candidates, each seeing only their own
 * labels and never a candidate's source.
 */
import "server-only";
import { createHash } from "node:crypto";
import { codePoints, swordsContextId, swordsSubstituteId, swordsTargetId } from "../../lexsub/formats/swords-ids";
import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  instances,
  judgementCandidates,
  judgementItems,
  judgementJudges,
  judgementLabels,
  judgementRounds,
  lexelts,
  memberships,
  projects,
  responses,
  users,
} from "../../../db/schema";
import { formatGoldLine } from "../../lexsub/formats/gold";
import { parseSystem } from "../../scorers/semeval2007";
import {
  type CandidateSource,
  type JudgementLabel,
  type JudgementScheme,
  type PooledCandidate,
  type Table8Row,
  type Verdict,
  addControls,
  candidateKey,
  isLabel,
  isPostHocEligible,
  judgeOrder,
  judgesNeeded,
  krippendorffAlpha,
  poolCandidates,
  sampleItems,
  SCHEME_LABELS,
  seedOf,
  singleWordSubstitutes,
  table8,
  verdict,
} from "../../lexsub/judgement";
import { type Actor, actorUserId, requireProject, requireSignedIn } from "../kernel/actor";
import { baselineInstances, listGolds, listRuns, runFile, wordnetBaseline } from "../scoring";
import { InputError, NotFoundError, AuthError } from "../kernel/errors";
import { projectGold } from "../gold";
import { modelSourceCandidates } from "../models";

export interface CreateRoundInput {
  name?: unknown;
  /** "posthoc" (§5.1 preset) or "any". */
  selection?: unknown;
  sampleSize?: unknown;
  seed?: unknown;
  /** Source tags: "annotators", "wordnet", "run:<run id>", "model:<model name>" (lib/server/models). */
  sources?: unknown;
  controls?: unknown;
  scheme?: unknown;
  judgesPerCandidate?: unknown;
  escalationCap?: unknown;
  allowOwnItems?: unknown;
  /** User ids of the judges (members of the project); more can be set later with setJudges. */
  judges?: unknown;
}

function intField(v: unknown, field: string, def: number, min: number): number {
  if (v === undefined || v === null || v === "") return def;
  const n = typeof v === "number" ? v : Number(String(v).trim());
  if (!Number.isInteger(n) || n < min) throw new InputError(`${field}: expected a whole number of at least ${min}, got "${String(v)}".`, { [field]: `at least ${min}` });
  return n;
}

const boolField = (v: unknown) => v === true || v === "on" || v === "true" || v === "1";

export interface RoundInfo {
  id: number;
  projectId: number;
  name: string;
  scheme: JudgementScheme;
  selection: "posthoc" | "any";
  judgesPerCandidate: number;
  escalationCap: number;
  seed: number;
  allowOwnItems: boolean;
  controls: boolean;
  state: "open" | "closed";
  items: number;
  candidates: number;
  labels: number;
  judges: { userId: number; name: string; labels: number }[];
}

/**
 * Create a round: sample instances (the §5.1 filter or any instance with a substitute), pool the
 * candidates of the asked sources per instance (controls if asked), store it all in one transaction.
 */
export function createRound(db: Db, actor: Actor, projectId: number, input: CreateRoundInput): RoundInfo {
  requireProject(db, actor, projectId, { coordinator: true });
  const a = requireSignedIn(actor);
  const name = String(input.name ?? "").trim() || "Judgement round";
  const selection = input.selection === "any" ? "any" : "posthoc";
  const scheme: JudgementScheme = input.scheme === "good-bad-abstain" ? "good-bad-abstain" : "good-reasonable-bad";
  const sampleSize = intField(input.sampleSize, "sampleSize", 100, 1);
  const seed = intField(input.seed, "seed", 1, 0);
  const judgesPerCandidate = intField(input.judgesPerCandidate, "judgesPerCandidate", 3, 1);
  const escalationCap = intField(input.escalationCap, "escalationCap", judgesPerCandidate, 1);
  if (escalationCap < judgesPerCandidate) throw new InputError(`escalationCap: must be at least judgesPerCandidate (${judgesPerCandidate}).`, { escalationCap: "below judges per candidate" });
  const rawSources = Array.isArray(input.sources) ? input.sources.map(String) : typeof input.sources === "string" ? input.sources.split(",") : ["annotators"];
  const sources = [...new Set(rawSources.map((s) => s.trim()).filter(Boolean))];
  if (sources.length === 0) throw new InputError("sources: choose at least one candidate source.", { sources: "none chosen" });
  for (const s of sources) if (s !== "annotators" && s !== "wordnet" && !/^run:\d+$/.test(s) && !s.startsWith("model:")) throw new InputError(`sources: unknown source "${s}".`, { sources: s });

  const judgeIds = [...new Set((Array.isArray(input.judges) ? input.judges : input.judges == null ? [] : [input.judges]).map(Number))];
  checkMembers(db, projectId, judgeIds);
  const gold = projectGold(db, actor, projectId).result.items.filter((i) => i.excluded === null);
  const eligible = gold.filter((i) => (selection === "posthoc" ? isPostHocEligible(i) : i.responses.some((r) => r.kind === "substitutes" && r.substitutes.length > 0)));
  if (eligible.length === 0) throw new InputError(selection === "posthoc" ? "No instance passes the §5.1 filter (more than two single-word substitutes, no NAME, no majority multiword)." : "No instance has a substitute yet.");
  const sample = sampleItems(eligible, sampleSize, seed);
  const sampledIds = new Set(sample.map((i) => i.instanceId));

  // System answers per instance id, from stored runs and the WordNet baseline.
  const systemAnswers = new Map<string, Map<string, string[]>>();
  const runs = listRuns(db, actor, projectId);
  // A run's tag is its name; runs chosen together under one name (the same file scored against two golds)
  // are told apart by their type and gold, rather than one's candidates taking the other's place.
  const chosen = runs.filter((r) => sources.includes(`run:${r.id}`));
  const goldNames = new Map<number | null, string>(chosen.some((r) => chosen.some((o) => o !== r && o.name === r.name)) ? listGolds(db, actor, projectId).map((g) => [g.id, g.name]) : []);
  const runTag = (run: (typeof runs)[number]) =>
    chosen.filter((o) => o.name === run.name).length > 1 ? `run:${run.name} (${run.type}, gold ${goldNames.get(run.goldId) ?? "?"}, run ${run.id})` : `run:${run.name}`;
  for (const s of sources) {
    if (s.startsWith("run:")) {
      const run = runs.find((r) => r.id === Number(s.slice(4)));
      if (!run) throw new InputError(`sources: no run ${s.slice(4)} in this project.`, { sources: s });
      if (run.type === "mw") throw new InputError(`sources: run "${run.name}" is an mw run; choose a best or oot run.`, { sources: s });
      const file = runFile(db, actor, projectId, run.id);
      const byId = new Map<string, string[]>();
      for (const line of parseSystem(file.content, file.fileName, run.type).lines) if (sampledIds.has(line.id)) byId.set(line.id, line.guesses);
      systemAnswers.set(runTag(run), byId);
    } else if (s === "wordnet") {
      const list = baselineInstances(db, actor, projectId).filter((i) => sampledIds.has(i.id));
      const out = wordnetBaseline(list, "oot");
      const byId = new Map<string, string[]>();
      for (const line of parseSystem(out.lines.join("\n") + "\n", "wordnet-baseline.oot", "oot").lines) byId.set(line.id, line.guesses);
      systemAnswers.set("wordnet", byId);
    } else if (s.startsWith("model:")) {
      // A model's cached candidates now; a candidates run adds the rest to the round (lib/server/models/round-candidates.ts).
      systemAnswers.set(s, modelSourceCandidates(db, projectId, s.slice(6), sampledIds));
    }
  }

  const refs = new Map(
    db
      .select({ id: instances.id, instanceId: instances.instanceId, head: instances.head })
      .from(instances)
      .where(eq(instances.projectId, projectId))
      .all()
      .map((r) => [r.instanceId, r]),
  );
  const pools: PooledCandidate[][] = sample.map((item) => {
    const src: CandidateSource[] = [];
    if (sources.includes("annotators")) {
      const words = selection === "posthoc" ? singleWordSubstitutes(item) : item.responses.flatMap((r) => (r.kind === "substitutes" ? [...r.substitutes] : []));
      src.push({ source: "annotators", candidates: words });
    }
    for (const [tag, byId] of systemAnswers) src.push({ source: tag, candidates: byId.get(item.instanceId) ?? [] });
    return poolCandidates(src);
  });
  const withControls = input.controls !== undefined && boolField(input.controls)
    ? pools.map((p, k) => addControls(p, refs.get(sample[k].instanceId)!.head, pools.filter((_, j) => j !== k), seedOf(seed, sample[k].instanceId)))
    : pools;

  const roundId = db.transaction((tx) => {
    const r = tx
      .insert(judgementRounds)
      .values({
        projectId,
        name,
        scheme,
        selection,
        judgesPerCandidate,
        escalationCap,
        seed,
        allowOwnItems: boolField(input.allowOwnItems),
        controls: withControls !== pools,
        sourcesAsked: JSON.stringify(sources),
        createdBy: actorUserId(a),
      })
      .returning({ id: judgementRounds.id })
      .get();
    sample.forEach((item, position) => {
      const it = tx.insert(judgementItems).values({ roundId: r.id, instanceId: refs.get(item.instanceId)!.id, position }).returning({ id: judgementItems.id }).get();
      const cands = withControls[position];
      if (cands.length > 0) tx.insert(judgementCandidates).values(cands.map((c) => ({ itemId: it.id, text: c.text, sources: JSON.stringify(c.sources) }))).run();
    });
    if (judgeIds.length) tx.insert(judgementJudges).values(judgeIds.map((userId) => ({ roundId: r.id, userId }))).run();
    return r.id;
  });
  return roundInfo(db, actor, roundId);
}

/**
 * Judges are the project's judges or annotators (the task's judges were not its annotators:
 * a judge member labels without ever annotating; an annotator may judge too). Not its coordinators.
 */
function checkMembers(db: Db, projectId: number, ids: readonly number[]) {
  const members = new Set(
    db
      .select({ userId: memberships.userId })
      .from(memberships)
      // A study participant (issue #32) answers their batch only: never a judge.
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.projectId, projectId), inArray(memberships.role, ["judge", "annotator"]), ne(users.role, "participant")))
      .all()
      .map((m) => m.userId),
  );
  const bad = ids.filter((id) => !members.has(id));
  if (bad.length) throw new InputError(`judges: user ${bad.join(", ")} is not a judge or annotator of the project.`, { judges: "not a judge or annotator" });
}

/** The open rounds the signed-in user judges, with how many items they have left. */
export function myRounds(db: Db, actor: Actor): { id: number; name: string; project: string; remaining: number }[] {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("Only a judge of the round can label.");
  const rows = db
    .select({ id: judgementRounds.id, name: judgementRounds.name, project: projects.name })
    .from(judgementJudges)
    .innerJoin(judgementRounds, eq(judgementRounds.id, judgementJudges.roundId))
    .innerJoin(projects, eq(projects.id, judgementRounds.projectId))
    .innerJoin(memberships, and(eq(memberships.projectId, judgementRounds.projectId), eq(memberships.userId, a.userId)))
    .where(and(eq(judgementJudges.userId, a.userId), eq(judgementRounds.state, "open")))
    .orderBy(asc(judgementRounds.id))
    .all();
  return rows.map((r) => ({ ...r, remaining: nextJudgeItem(db, actor, r.id)?.remaining ?? 0 }));
}

function roundRow(db: Db, roundId: number) {
  const r = db.select().from(judgementRounds).where(eq(judgementRounds.id, roundId)).get();
  if (!r) throw new NotFoundError("No such judgement round.");
  return r;
}

/** The round for its project's coordinator (404 to non-members, as projects; 404 when not in `inProject`, the URL's project). */
function coordinatorRound(db: Db, actor: Actor, roundId: number, inProject?: number) {
  const a = requireSignedIn(actor);
  const r = db.select().from(judgementRounds).where(eq(judgementRounds.id, roundId)).get();
  if (!r) {
    if (a.kind === "user" && a.role !== "coordinator") throw new AuthError("Only a coordinator can do that.");
    throw new NotFoundError("No such judgement round.");
  }
  requireProject(db, actor, r.projectId, { coordinator: true });
  if (inProject !== undefined && r.projectId !== inProject) throw new NotFoundError("No such judgement round in this project.");
  return r;
}

/** The round for one of its judges: a member of the project assigned to it. */
function judgeRound(db: Db, actor: Actor, roundId: number) {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("Only a judge of the round can label.");
  const r = roundRow(db, roundId);
  requireProject(db, actor, r.projectId);
  const j = db.select().from(judgementJudges).where(and(eq(judgementJudges.roundId, roundId), eq(judgementJudges.userId, a.userId))).get();
  if (!j) throw new AuthError("You are not a judge of this round.");
  return { round: r, userId: a.userId, name: a.name };
}

export function roundInfo(db: Db, actor: Actor, roundId: number, inProject?: number): RoundInfo {
  const r = coordinatorRound(db, actor, roundId, inProject);
  const items = db.select({ id: judgementItems.id }).from(judgementItems).where(eq(judgementItems.roundId, roundId)).all();
  const cands = items.length
    ? db.select({ id: judgementCandidates.id }).from(judgementCandidates).where(inArray(judgementCandidates.itemId, items.map((i) => i.id))).all()
    : [];
  const labels = cands.length
    ? db.select({ userId: judgementLabels.userId }).from(judgementLabels).where(inArray(judgementLabels.candidateId, cands.map((c) => c.id))).all()
    : [];
  const judges = db
    .select({ userId: users.id, name: users.name })
    .from(judgementJudges)
    .innerJoin(users, eq(users.id, judgementJudges.userId))
    .where(eq(judgementJudges.roundId, roundId))
    .orderBy(asc(users.name))
    .all()
    .map((j) => ({ ...j, labels: labels.filter((l) => l.userId === j.userId).length }));
  return {
    id: r.id,
    projectId: r.projectId,
    name: r.name,
    scheme: r.scheme,
    selection: r.selection,
    judgesPerCandidate: r.judgesPerCandidate,
    escalationCap: r.escalationCap,
    seed: r.seed,
    allowOwnItems: r.allowOwnItems,
    controls: r.controls,
    state: r.state,
    items: items.length,
    candidates: cands.length,
    labels: labels.length,
    judges,
  };
}

export function listRounds(db: Db, actor: Actor, projectId: number): RoundInfo[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select({ id: judgementRounds.id })
    .from(judgementRounds)
    .where(eq(judgementRounds.projectId, projectId))
    .orderBy(asc(judgementRounds.id))
    .all()
    .map((r) => roundInfo(db, actor, r.id));
}

/** Replace the round's judges (members of the project, by user id), in one transaction. Labels already given stay. */
export function setJudges(db: Db, actor: Actor, roundId: number, userIds: readonly number[], inProject?: number): RoundInfo {
  const r = coordinatorRound(db, actor, roundId, inProject);
  const ids = [...new Set(userIds.map(Number))];
  checkMembers(db, r.projectId, ids);
  db.transaction((tx) => {
    tx.delete(judgementJudges).where(eq(judgementJudges.roundId, roundId)).run();
    if (ids.length) tx.insert(judgementJudges).values(ids.map((userId) => ({ roundId, userId }))).run();
  });
  return roundInfo(db, actor, roundId);
}

/**
 * Close a round (its judges can no longer label; its figures and downloads stay) or open it
 * again. Coordinators of the round's project.
 */
export function setRoundState(db: Db, actor: Actor, roundId: number, state: unknown, inProject?: number): RoundInfo {
  const r = coordinatorRound(db, actor, roundId, inProject);
  if (state !== "open" && state !== "closed") throw new InputError(`state: expected "open" or "closed", got "${String(state)}".`, { state: "open or closed" });
  db.update(judgementRounds).set({ state }).where(eq(judgementRounds.id, r.id)).run();
  return roundInfo(db, actor, roundId);
}

interface JudgeCandidate {
  id: number;
  text: string;
  /** This judge's own label, null when not given yet. */
  label: JudgementLabel | null;
}

export interface JudgeItem {
  roundId: number;
  roundName: string;
  /** The project's language (BCP 47): the sentence's and the candidates' `lang`. */
  language: string;
  scheme: JudgementScheme;
  labels: readonly JudgementLabel[];
  itemId: number;
  lexelt: string;
  instanceId: string;
  before: string;
  head: string;
  after: string;
  /** In this judge's order; never with a source. */
  candidates: JudgeCandidate[];
  /** Items this judge still has work on (this one included). */
  remaining: number;
  done: number;
}

/**
 * The judge's next item in their own order: the first with a candidate that still needs a label
 * and that this judge has not labelled (items the judge annotated are left out unless the round
 * allows them). null when nothing is left.
 */
export function nextJudgeItem(db: Db, actor: Actor, roundId: number): JudgeItem | null {
  const { round, userId, name } = judgeRound(db, actor, roundId);
  if (round.state !== "open") throw new InputError("The round is closed.");
  const items = db
    .select({ id: judgementItems.id, instanceRef: judgementItems.instanceId, lexelt: lexelts.item, instanceId: instances.instanceId, before: instances.before, head: instances.head, after: instances.after })
    .from(judgementItems)
    .innerJoin(instances, eq(instances.id, judgementItems.instanceId))
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(eq(judgementItems.roundId, roundId))
    .all();
  const own = round.allowOwnItems
    ? new Set<number>()
    : new Set(db.select({ ref: responses.instanceRef }).from(responses).where(and(eq(responses.projectId, round.projectId), eq(responses.userId, userId))).all().map((r) => r.ref));
  const open = items.filter((i) => !own.has(i.instanceRef));
  if (open.length === 0) return null;
  const cands = db.select().from(judgementCandidates).where(inArray(judgementCandidates.itemId, open.map((i) => i.id))).all();
  const labels = cands.length
    ? db.select().from(judgementLabels).where(inArray(judgementLabels.candidateId, cands.map((c) => c.id))).all()
    : [];
  const byCand = new Map<number, { userId: number; label: JudgementLabel }[]>();
  for (const l of labels) (byCand.get(l.candidateId) ?? byCand.set(l.candidateId, []).get(l.candidateId)!).push(l);
  const policy = { judges: round.judgesPerCandidate, cap: round.escalationCap };
  const wanted = (c: { id: number }) => {
    const ls = byCand.get(c.id) ?? [];
    if (ls.some((l) => l.userId === userId)) return false;
    return ls.length < judgesNeeded(ls.map((l) => l.label), policy);
  };
  const ordered = judgeOrder(open, round.seed, name, String(roundId));
  const pending = ordered.filter((i) => cands.some((c) => c.itemId === i.id && wanted(c)));
  const done = ordered.filter((i) => cands.some((c) => c.itemId === i.id && (byCand.get(c.id) ?? []).some((l) => l.userId === userId))).length;
  if (pending.length === 0) return null;
  const item = pending[0];
  const mine = cands.filter((c) => c.itemId === item.id && (wanted(c) || (byCand.get(c.id) ?? []).some((l) => l.userId === userId)));
  const language = db.select({ language: projects.language }).from(projects).where(eq(projects.id, round.projectId)).get()?.language ?? "en";
  return {
    roundId,
    roundName: round.name,
    language,
    scheme: round.scheme,
    labels: SCHEME_LABELS[round.scheme],
    itemId: item.id,
    lexelt: item.lexelt,
    instanceId: item.instanceId,
    before: item.before,
    head: item.head,
    after: item.after,
    candidates: judgeOrder(mine, round.seed, name, `${item.id}`).map((c) => ({
      id: c.id,
      text: c.text,
      label: (byCand.get(c.id) ?? []).find((l) => l.userId === userId)?.label ?? null,
    })),
    remaining: pending.length,
    done,
  };
}

/** Save (or change) this judge's label of one candidate of the round. */
export function saveLabel(db: Db, actor: Actor, roundId: number, candidateId: number, label: unknown): JudgementLabel {
  const { round, userId } = judgeRound(db, actor, roundId);
  if (round.state !== "open") throw new InputError("The round is closed.");
  const l = String(label ?? "");
  if (!isLabel(round.scheme, l)) throw new InputError(`label: expected one of ${SCHEME_LABELS[round.scheme].join(", ")}, got "${l}".`, { label: "unknown label" });
  return db.transaction((tx) => {
    const c = tx
      .select({ id: judgementCandidates.id })
      .from(judgementCandidates)
      .innerJoin(judgementItems, eq(judgementItems.id, judgementCandidates.itemId))
      .where(and(eq(judgementCandidates.id, candidateId), eq(judgementItems.roundId, roundId)))
      .get();
    if (!c) throw new NotFoundError("No such candidate in this round.");
    tx.insert(judgementLabels)
      .values({ candidateId, userId, label: l, labelledAt: new Date() })
      .onConflictDoUpdate({ target: [judgementLabels.candidateId, judgementLabels.userId], set: { label: l, labelledAt: new Date() } })
      .run();
    return l;
  });
}

interface CandidateResult {
  id: number;
  lexelt: string;
  instanceId: string;
  head: string;
  context: { before: string; after: string };
  text: string;
  sources: string[];
  labels: { judge: string; label: JudgementLabel }[];
  verdict: Verdict | null;
}

export interface RoundResults {
  round: RoundInfo;
  candidates: CandidateResult[];
  table8: Table8Row[];
  alpha: { nominal: number | null; ordinal: number | null };
}

/** Verdicts, Table 8 per source and Krippendorff's α over every label of the round. */
export function roundResults(db: Db, actor: Actor, roundId: number, inProject?: number): RoundResults {
  const info = roundInfo(db, actor, roundId, inProject);
  const rows = db
    .select({
      id: judgementCandidates.id,
      text: judgementCandidates.text,
      sources: judgementCandidates.sources,
      lexelt: lexelts.item,
      instanceId: instances.instanceId,
      before: instances.before,
      head: instances.head,
      after: instances.after,
    })
    .from(judgementCandidates)
    .innerJoin(judgementItems, eq(judgementItems.id, judgementCandidates.itemId))
    .innerJoin(instances, eq(instances.id, judgementItems.instanceId))
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(eq(judgementItems.roundId, roundId))
    .orderBy(asc(judgementItems.position), asc(judgementCandidates.id))
    .all();
  const labels = rows.length
    ? db
        .select({ candidateId: judgementLabels.candidateId, judge: users.name, label: judgementLabels.label })
        .from(judgementLabels)
        .innerJoin(users, eq(users.id, judgementLabels.userId))
        .where(inArray(judgementLabels.candidateId, rows.map((r) => r.id)))
        .orderBy(asc(users.name))
        .all()
    : [];
  const candidates = rows.map((r) => {
    const ls = labels.filter((l) => l.candidateId === r.id).map((l) => ({ judge: l.judge, label: l.label }));
    return {
      id: r.id,
      lexelt: r.lexelt,
      instanceId: r.instanceId,
      head: r.head,
      context: { before: r.before, after: r.after },
      text: r.text,
      sources: JSON.parse(r.sources) as string[],
      labels: ls,
      verdict: verdict(ls.map((l) => l.label)),
    };
  });
  const units = candidates.map((c) => c.labels.map((l) => l.label));
  return {
    round: info,
    candidates,
    table8: table8(candidates),
    alpha: { nominal: krippendorffAlpha(units, "nominal"), ordinal: krippendorffAlpha(units, "ordinal") },
  };
}

/**
 * The extended gold: the project's gold lines with every candidate of the round judged good
 * (not a control, not already in the line) added, its count the number of judges who said good.
 */
export function extendedGold(db: Db, actor: Actor, roundId: number, inProject?: number): string {
  const res = roundResults(db, actor, roundId, inProject);
  const gold = projectGold(db, actor, res.round.projectId).result.items;
  const good = new Map<string, { text: string; count: number }[]>();
  for (const c of res.candidates) {
    if (c.verdict !== "good" || c.sources.every((s) => s.startsWith("control:"))) continue;
    const list = good.get(c.instanceId) ?? good.set(c.instanceId, []).get(c.instanceId)!;
    list.push({ text: c.text, count: c.labels.filter((l) => l.label === "good").length });
  }
  const out: string[] = [];
  for (const item of gold) {
    if (item.excluded !== null) continue;
    const have = new Set(item.entries.map((e) => candidateKey(e.substitute)));
    const extra = (good.get(item.instanceId) ?? []).filter((g) => !have.has(candidateKey(g.text)) && g.count > 0);
    const entries = [...item.entries, ...extra.map((g) => ({ substitute: g.text, count: g.count }))];
    if (entries.length === 0) continue;
    out.push(formatGoldLine(item.lexelt, item.instanceId, entries));
  }
  return out.join("\n") + (out.length ? "\n" : "");
}

const sha1 = (s: string) => createHash("sha1").update(s, "utf8").digest("hex");
/** SWORDS v1.1 per-judge labels: good TRUE, bad FALSE, reasonable and abstain UNSURE. */
const SWORDS_LABEL: Record<JudgementLabel, string> = { good: "TRUE", bad: "FALSE", reasonable: "UNSURE", abstain: "UNSURE" };
const SWORDS_POS: Record<string, string> = { n: "NOUN", v: "VERB", a: "ADJ", r: "ADV" };

/**
 * The round's labels in the SWORDS v1.1 JSON layout: contexts, targets, substitutes (with their
 * sources in extra) and substitute_labels (one per judge). Ids are eval.py's recipe
 * (lib/lexsub/formats/swords-ids.ts: "c:", "t:", "s:" + SHA-1 of Python's json.dumps of what
 * they stand for; offsets in code points), so SWORDS's loader reads the file; two candidates
 * that differ only in case share an id, their labels written together.
 */
export function swordsExport(db: Db, actor: Actor, roundId: number, inProject?: number) {
  const res = roundResults(db, actor, roundId, inProject);
  const contexts: Record<string, { context: string; extra: Record<string, unknown> }> = {};
  const targets: Record<string, { context_id: string; target: string; offset: number; pos: string; extra: Record<string, unknown> }> = {};
  const substitutes: Record<string, { target_id: string; substitute: string; extra: Record<string, unknown> }> = {};
  const substitute_labels: Record<string, string[]> = {};
  for (const c of res.candidates) {
    const context = c.context.before + c.head + c.context.after;
    const cid = swordsContextId(sha1, context);
    contexts[cid] ??= { context, extra: { lexgold_ids: [`${c.lexelt} ${c.instanceId}`] } };
    const pos = SWORDS_POS[c.lexelt.slice(c.lexelt.lastIndexOf(".") + 1)] ?? "X";
    const offset = codePoints(c.context.before);
    const tid = swordsTargetId(sha1, { contextId: cid, target: c.head, offset, pos });
    targets[tid] ??= { context_id: cid, target: c.head, offset, pos, extra: { lexelt: c.lexelt, instance_id: c.instanceId } };
    const sid = swordsSubstituteId(sha1, { targetId: tid, substitute: c.text });
    const labels = c.labels.map((l) => SWORDS_LABEL[l.label]);
    if (substitutes[sid]) substitute_labels[sid].push(...labels);
    else {
      substitutes[sid] = { target_id: tid, substitute: c.text, extra: { sources: c.sources } };
      substitute_labels[sid] = labels;
    }
  }
  return { contexts, targets, substitutes, substitute_labels };
}
