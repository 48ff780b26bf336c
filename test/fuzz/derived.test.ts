/**
 * #39: the figures kept as answers change equal a derivation of the whole project, after every
 * step of random sequences of saves, edits, responses imports, lemma decisions, adjudications
 * (and their undoing), exclusions, PoS corrections, attention checks, crowd participants left out
 * of the gold and taken back, answers given after the training showed the known answers, a
 * dataset's imported counts, answers imported as written with odd spacing (spacing twins, kept apart
 * until the lemma review), and a model's answers (its pseudo-annotators) counted as an annotator,
 * uncounted, discarded or the model removed — with stored best, oot and mw runs scored with the project's gold. After
 * each step the queue is worked through (as the server's applier does) and compared with:
 *   - the full derivation lib/server/gold/gold.ts makes from every response (the oracle): the gold
 *     and mwgold files, the summaries, the problems in order, the lemma review, the agreement
 *     report (α and the intervals computed over the kept items as the background does), the Scoring
 *     board (every stored run scored whole);
 *   - the same tables derived again from nothing (`rebuildDerived`): nothing has drifted.
 * Runs: FUZZ_RUNS / 10 (default 30): each case runs a few dozen steps, each checked twice.
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { models } from "../../db/schema";
import { saveResponse } from "../../lib/server/annotate/responses";
import { importResponses } from "../../lib/server/annotate/response-import";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { adjudicate, undoAdjudication } from "../../lib/server/gold/adjudication";
import { decideLemma, projectAgreement, projectGold, setCorrectedPos, setExclusion } from "../../lib/server/gold/gold";
import { removeKnownAnswer, setKnownAnswer } from "../../lib/server/quality/training";
import { addMember } from "../../lib/server/people/users";
import { discardModelAnswers, setModelCounted } from "../../lib/server/models/decisions";
import { removeModel } from "../../lib/server/models/connections";
import { ensureSamples, storeAnswers } from "../../lib/server/models/samples";
import { keptReport, alphaOf } from "../../lib/server/derived/agreement";
import { drainAll } from "../../lib/server/derived/queue";
import { countsOf, goldFileText, goldSummaryOf, problemCount, problemsInOrder } from "../../lib/server/derived/read";
import { lemmaReviewCounts, lemmaReviewOf, lemmaReviewSlice, openProposalsOf } from "../../lib/server/derived/lemma-review";
import { proposalOrder, proposalsOfRow } from "../../lib/lexsub/gold";
import { rebuildDerived } from "../../lib/server/derived/rebuild";
import { sumRunOutcomes } from "../../lib/server/derived/run-items";
import { computeBoardOthers, keptScoreBoard } from "../../lib/server/scoring/board";
import { scoreBoard } from "../../lib/server/scoring/scores";
import { uploadRun } from "../../lib/server/scoring/runs";
import type { UserActor } from "../../lib/server/kernel/actor";
import { actorFor, projectFixture } from "../support/db";
import { derivedTables, filterLemmaReview, fullLemmaReview } from "../support/full-derivation";
import { RUNS } from "./mutate";

const CORPUS = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a">
<instance id="c1"><context>a <head>calm</head> sea</context></instance>
<instance id="c2"><context>keep <head>calm</head> now</context></instance>
<instance id="c3"><context>the <head>Calm</head> Hotel</context></instance>
</lexelt>
<lexelt item="hop.v">
<instance id="h1"><context>birds <head>hop</head> about</context></instance>
<instance id="h2"><context>they <head>hop</head> on a bus</context></instance>
</lexelt>
<lexelt item="leaf.n">
<instance id="l1"><context>a <head>leaf</head> fell</context></instance>
<instance id="l2"><context>the <head>leaves</head> turn</context></instance>
</lexelt>
</corpus>
`;
const INSTANCES = ["c1", "c2", "c3", "h1", "h2", "l1", "l2"];
const LEXELT: Record<string, string> = { c: "calm.a", h: "hop.v", l: "leaf.n" };
const ANNOTATORS = ["ann", "bea", "cat", "dan"];
const WORDS = ["still", "Still", "serene", "quiet", "jumps", "jump", "skip", "leaves", "page", "sheet", "open-air", "open air", "board", "glad"];
/** Spellings an import keeps as written: twins of WORDS by their spacing. */
const SPACED = ["still ", " quiet", "open  air", "serene  ", "Still "];
const PHRASES: Record<string, string[]> = { c: ["calm down", "calm sea"], h: ["hop about", "hop on"], l: ["leaf through", "leaf fall"] };

/** A fresh copy of the fixture: the corpus, four annotators, a participant record for dan (its exclusions toggled by steps). */
function fixture(): { db: Db; coord: UserActor; annotators: Record<string, UserActor>; projectId: number } {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(CORPUS) });
  const annotators: Record<string, UserActor> = { ann: f.ann };
  for (const n of ANNOTATORS.slice(1)) {
    annotators[n] = actorFor(f.db, n, "annotator");
    addMember(f.db, f.coord, f.project.id, n);
  }
  // dan stands for a crowd participant the coordinator may leave out of the gold.
  const c = f.db.$client;
  const study = c.prepare("insert into studies (project_id, token, platform, batch_size, overlap, minutes) values (?, 'tok', 'link', 5, 2, 60) returning id").get(f.project.id) as { id: number };
  c.prepare("insert into participants (study_id, project_id, user_id, platform_id, joined_at) values (?, ?, ?, 'dan', 0)").run(study.id, f.project.id, annotators.dan.userId);
  // Stored runs scored with the project's gold, kept item by item as its gold changes: an id not in the
  // project, a second line for an id, a CRLF line, an empty answer, more than ten guesses, a guess repeated.
  const runs: Record<string, string> = {
    best: ["calm.a c1 :: still;quiet", "calm.a c2 :: Still", "hop.v h1 :: jump;skip\r", "hop.v h2 :: board", "leaf.n l1 :: page;sheet;leaves", "leaf.n l2 :: ", "x.n zz9 :: still", "calm.a c1 :: serene", "calm.a c3 :: glad"].join("\n"),
    oot: ["calm.a c1 ::: still;quiet;serene;still", "hop.v h1 ::: jump;skip;jumps;board;glad;page;sheet;leaves;quiet;serene;still", "leaf.n l1 ::: page;sheet", "leaf.n l2 ::: leaves;open air"].join("\n") + "\n",
    mw: ["calm.a c1 :: calm down", "hop.v h1 :: hop about", "hop.v h2 :: hop on", "leaf.n l1 :: leaf through", "calm.a c1 :: calm sea"].join("\n") + "\n",
  };
  for (const [type, text] of Object.entries(runs)) uploadRun(f.db, f.coord, f.project.id, { fileName: `sys.${type}`, text, confirm: true });
  addModel(f.db, f.project.id);
  return { db: f.db, coord: f.coord, annotators, projectId: f.project.id };
}

/** A model registered for the project (no connection is ever made: its answers are written as a run would write them). */
function addModel(db: Db, projectId: number): void {
  db.$client.prepare("insert into models (project_id, name, kind, base_url, model, registered_from) values (?, 'm', 'ollama', 'http://127.0.0.1:9', 'test-model', 'cli')").run(projectId);
}

/** Compare the kept figures with the full derivation and with a rebuild from nothing. */
function check(db: Db, coord: UserActor, projectId: number): void {
  drainAll(db, projectId);
  const g = projectGold(db, coord, projectId);
  expect(goldFileText(db, projectId, "gold")).toBe(g.gold);
  expect(goldFileText(db, projectId, "mwgold")).toBe(g.mwgold);
  const counts = countsOf(db, projectId);
  expect(goldSummaryOf(counts)).toEqual(g.result.summary);
  // Each person's totals, kept by triggers, sum their (person, lexelt) counts (the Progress page reads them).
  expect(db.$client.prepare("select user_id, responses, last_at from annotator_totals where project_id = ? order by user_id").all(projectId)).toEqual(
    db.$client.prepare("select user_id, sum(responses) as responses, max(last_at) as last_at from annotator_lexelt_counts where project_id = ? group by user_id order by user_id").all(projectId),
  );
  // The Gold page's instance pages take the number of every instance from the counts: a gold_items row adds 1.
  expect(counts.get("instances") ?? 0).toBe(db.$client.prepare("select count(*) from gold_items where project_id = ?").pluck().get(projectId));
  expect([...problemsInOrder(db, projectId)]).toEqual(g.result.problems);
  expect(problemCount(counts)).toBe(g.result.problems.length);
  const review = fullLemmaReview(db, coord, projectId);
  expect(lemmaReviewOf(db, projectId, "en")).toEqual(review);
  // The Gold page's reads of it: counted, and cut a page at a time under each filter, by SQLite.
  expect(lemmaReviewCounts(db, projectId)).toEqual({
    forms: review.length,
    changed: review.filter((r) => r.changed).length,
    open: review.filter((r) => r.decision === null).length,
    openChanged: review.filter((r) => r.changed && r.decision === null).length,
  });
  for (const filter of [{}, { open: true }, { changed: true }, { open: true, changed: true }, { contains: "s" }]) {
    const want = filterLemmaReview(review, filter);
    for (let start = 0; start < want.length + 3; start += 3) {
      expect(lemmaReviewSlice(db, projectId, "en", filter, () => ({ start, size: 3 }))).toEqual({ rows: want.slice(start, start + 3), total: want.length });
    }
  }
  // The Gold page's open proposals: summed and their first ones read from the kept forms' figures.
  const proposals = review.filter((r) => r.decision === null).flatMap(proposalsOfRow).sort(proposalOrder);
  for (const first of [1, 4]) {
    expect(openProposalsOf(db, projectId, "en", first)).toEqual({
      count: proposals.length,
      uses: proposals.reduce((n, p) => n + p.count, 0),
      first: proposals.slice(0, first),
      // The open forms' spellings with other spacing, which the "with proposals applied" download writes tidied.
      spacing: review.filter((r) => r.decision === null).reduce((n, r) => n + (r.spacing?.length ?? 0), 0),
    });
  }
  const options = { bootstrapIterations: 25, seed: 3 };
  const full = projectAgreement(db, coord, projectId, options);
  expect(goldSummaryOf(counts, "responses")).toEqual(full.gold.summary);
  expect(keptReport(db, projectId, alphaOf(db, projectId, options), options, true)).toEqual(full.agreement);
  // The stored runs: the board added up from the outcomes kept per id equals every run scored whole (score.pl's
  // figures, the project's reading), with the repaired and UTF-8 figures beside them from a whole scoring.
  computeBoardOthers(db, coord, projectId, { kind: "project" });
  const { others: _others, ...kept } = keptScoreBoard(db, coord, projectId, { kind: "project" })!;
  expect(kept).toEqual(scoreBoard(db, coord, projectId, { kind: "project" }));
  // Nothing drifted: the tables equal the same figures derived again from nothing.
  const before = derivedTables(db, projectId);
  const runsBefore = runSums(db, projectId);
  rebuildDerived(db, projectId);
  expect(derivedTables(db, projectId)).toEqual(before);
  expect(runSums(db, projectId)).toEqual(runsBefore);
}

/** Every stored run's outcomes added up (what the board reads), by run. */
function runSums(db: Db, projectId: number) {
  const runs = db.$client.prepare("select id, type from system_runs where project_id = ? order by id").all(projectId) as { id: number; type: "best" | "oot" | "mw" }[];
  const totals = { total: 0, totalWithMode: 0, groups: [], multiwords: 0 };
  return runs.map((r) => sumRunOutcomes(db, r.id, r.type, totals));
}

type Step =
  | { op: "save"; who: string; at: string; answer: { kind: "substitutes" | "NAME" | "NIL"; substitutes: string[]; multiword: number } }
  | { op: "import"; lines: { who: string; at: string; answer: string; mw: number }[] }
  | { op: "lemma"; form: string; decision: "accepted" | "kept" | "overridden" | "reset"; lemma: string }
  | { op: "adjudicate"; who: string; at: string; action: "strike" | "correct" | "strike-response" | "multiword"; pick: number; value: string | null }
  | { op: "undo"; pick: number }
  | { op: "exclude"; at: string; on: boolean }
  | { op: "pos"; at: string; pos: string | null }
  | { op: "check"; at: string; on: boolean }
  | { op: "participant"; on: boolean }
  | { op: "shown"; who: string; at: string; before: boolean }
  | { op: "dataset"; at: string; entries: [string, number][] }
  | { op: "model"; at: string; sample: number; substitutes: string[] }
  | { op: "count-model"; counted: boolean }
  | { op: "discard-model" }
  | { op: "remove-model" };

const who = fc.constantFrom(...ANNOTATORS);
const at = fc.constantFrom(...INSTANCES);
const word = fc.constantFrom(...WORDS);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("save" as const),
      who,
      at,
      answer: fc.record({ kind: fc.constantFrom("substitutes" as const, "substitutes" as const, "substitutes" as const, "NAME" as const, "NIL" as const), substitutes: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }), multiword: fc.integer({ min: 0, max: 3 }) }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("import" as const), lines: fc.array(fc.record({ who, at, answer: fc.oneof(fc.uniqueArray(fc.oneof(word, fc.constantFrom(...SPACED)), { minLength: 1, maxLength: 3 }).map((w) => w.join(";")), fc.constantFrom("NAME", "NIL")), mw: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("lemma" as const), form: word, decision: fc.constantFrom("accepted" as const, "kept" as const, "overridden" as const, "reset" as const), lemma: word }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("adjudicate" as const), who, at, action: fc.constantFrom("strike" as const, "correct" as const, "strike-response" as const, "multiword" as const), pick: fc.nat(5), value: fc.option(word, { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("undo" as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("exclude" as const), at, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("pos" as const), at, pos: fc.constantFrom(null, "n", "v", "a", "r") }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("check" as const), at, on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("participant" as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("shown" as const), who, at, before: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("dataset" as const), at, entries: fc.array(fc.tuple(word, fc.integer({ min: 0, max: 3 })), { maxLength: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("model" as const), at, sample: fc.integer({ min: 1, max: 2 }), substitutes: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("count-model" as const), counted: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: "discard-model" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "remove-model" as const }) },
);

/** Run one step as a user (or the tests' stand-in for a path without a page) would; refusals are part of the game. */
function apply(f: ReturnType<typeof fixture>, s: Step): void {
  const { db, coord, annotators, projectId } = f;
  const ref = (id: string) => (db.$client.prepare("select id from instances where project_id = ? and instance_id = ?").get(projectId, id) as { id: number }).id;
  const phrase = (id: string, n: number) => (n === 0 || n === 3 ? null : PHRASES[id[0]][n - 1]);
  try {
    switch (s.op) {
      case "save": {
        const row = db.$client.prepare("select revision from responses where instance_ref = ? and user_id = ?").get(ref(s.at), annotators[s.who].userId) as { revision: number } | undefined;
        const mw = phrase(s.at, s.answer.multiword);
        saveResponse(db, annotators[s.who], projectId, ref(s.at), { kind: s.answer.kind, substitutes: s.answer.kind === "substitutes" ? s.answer.substitutes : [], multiword: mw !== null, phrase: mw ?? undefined }, { expectedRevision: row?.revision ?? 0 });
        break;
      }
      case "import": {
        const text = ["annotator\tlexelt\tinstance\tanswer\tmultiword", ...s.lines.map((l) => `${l.who}\t${LEXELT[l.at[0]]}\t${l.at}\t${l.answer}\t${phrase(l.at, l.mw) ?? ""}`)].join("\n");
        importResponses(db, coord, projectId, { fileName: "r.tsv", text });
        break;
      }
      case "lemma":
        decideLemma(db, coord, projectId, s.decision === "overridden" ? { form: s.form, decision: s.decision, lemma: s.lemma } : { form: s.form, decision: s.decision });
        break;
      case "adjudicate": {
        const r = db.$client.prepare("select substitutes, multiword from responses where instance_ref = ? and user_id = ?").get(ref(s.at), annotators[s.who].userId) as { substitutes: string; multiword: string | null } | undefined;
        if (!r) break;
        const subs = JSON.parse(r.substitutes) as string[];
        const base = { instanceId: s.at, annotator: s.who, reason: "" };
        if (s.action === "strike-response") adjudicate(db, coord, projectId, { ...base, action: s.action });
        else if (s.action === "multiword") adjudicate(db, coord, projectId, { ...base, action: s.action, substitute: r.multiword ?? "x", value: s.value === null ? null : phrase(s.at, 1 + (s.pick % 2)) });
        else if (subs.length > 0) adjudicate(db, coord, projectId, { ...base, action: s.action, substitute: subs[s.pick % subs.length], ...(s.action === "correct" ? { value: s.value ?? "quiet" } : {}) });
        break;
      }
      case "undo": {
        const ids = (db.$client.prepare("select id from adjudications where project_id = ? and undone_at is null order by id").all(projectId) as { id: number }[]).map((r) => r.id);
        if (ids.length > 0) undoAdjudication(db, coord, projectId, ids[s.pick % ids.length]);
        break;
      }
      case "exclude":
        setExclusion(db, coord, projectId, s.at, s.on ? "off-topic" : null);
        break;
      case "pos":
        setCorrectedPos(db, coord, projectId, s.at, s.pos);
        break;
      case "check":
        if (s.on) setKnownAnswer(db, coord, projectId, { instanceId: s.at, role: "check", accepted: ["still"] });
        else removeKnownAnswer(db, coord, projectId, s.at);
        break;
      case "participant": {
        const c = db.$client;
        const p = c.prepare("select id from participants where project_id = ?").get(projectId) as { id: number };
        if (s.on) c.prepare("insert into participant_exclusions (project_id, participant_id, decided_at) values (?, ?, 0)").run(projectId, p.id);
        else c.prepare("update participant_exclusions set undone_at = 1 where participant_id = ? and undone_at is null").run(p.id);
        break;
      }
      case "shown": {
        // The training showed this instance's known answers to the annotator: before or after their response was saved.
        const r = db.$client.prepare("select updated_at as t from responses where instance_ref = ? and user_id = ?").get(ref(s.at), annotators[s.who].userId) as { t: number } | undefined;
        const when = r ? r.t + (s.before ? -1 : 1) : 0;
        db.$client.prepare("insert or ignore into training_answers (project_id, user_id, attempt, instance_ref, substitutes, matched, at) values (?, ?, ?, ?, '[]', 0, ?)").run(projectId, annotators[s.who].userId, when, ref(s.at), when);
        break;
      }
      case "dataset": {
        const c = db.$client;
        c.prepare("delete from dataset_gold where instance_ref = ?").run(ref(s.at));
        s.entries.forEach(([sub, n], i) => c.prepare("insert into dataset_gold (project_id, instance_ref, position, substitute, count) values (?, ?, ?, ?, ?)").run(projectId, ref(s.at), i, sub, n));
        break;
      }
      case "model": {
        // The model answers an instance as its run writes answers (a sample's pseudo-annotator); registered again if removed.
        if (!db.$client.prepare("select 1 from models where project_id = ?").get(projectId)) addModel(db, projectId);
        const users = ensureSamples(db, db.select().from(models).where(eq(models.projectId, projectId)).get()!, 2);
        db.transaction(() => storeAnswers(db, projectId, [{ ref: ref(s.at), userId: users.get(s.sample)!, answer: { kind: "substitutes", substitutes: s.substitutes, multiword: null } }]));
        break;
      }
      case "count-model":
        setModelCounted(db, coord, projectId, "m", s.counted);
        break;
      case "discard-model":
        discardModelAnswers(db, coord, projectId, "m");
        break;
      case "remove-model":
        removeModel(db, coord, projectId, "m");
        break;
    }
  } catch (e) {
    // A refused step changes nothing: refusals are what a user meets too.
    const name = (e as Error).constructor?.name ?? "";
    if (!/InputError|NotFoundError|ConflictError|AuthError/.test(name)) throw e;
  }
}

describe("figures kept as answers change", () => {
  it("equal the whole project's derivation, and a rebuild, after every step", { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 24 }), (steps) => {
        const f = fixture();
        for (const s of steps) {
          apply(f, s);
          check(f.db, f.coord, f.projectId);
        }
      }),
      { numRuns: Math.max(1, Math.round(RUNS / 10)) },
    );
  });
});
