/**
 * Server actions × actor. Each action in app/**\/actions.ts takes the actor from
 * the session (lib/auth/session's getActor, mocked here to return each actor in
 * turn) and passes it to lib/server, which checks it. The arguments the browser
 * sends (project ids, instance refs, form fields) are untrusted: a refused call
 * returns { ok: false } with a message that reveals nothing, and writes nothing.
 *
 * A new action is one line in ACTIONS; the last test fails when an exported
 * function of an actions.ts (or NAME-actions.ts) file under app/ has no line here.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import type { Actor } from "../../lib/server/kernel/actor";
import { ACTORS, type ActorKey, addJudge, dump, type Outcome, parseExpect, trackedFiles, type World, world } from "./world";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));

class RedirectSignal extends Error {
  constructor(public url: string) {
    super(`redirect to ${url}`);
  }
}

vi.mock("@/lib/auth/session", () => ({
  getActor: async () => session.actor,
  requireUserPage: async () => {
    throw new Error("pages are not tested here");
  },
  requireCoordinatorPage: async () => {
    throw new Error("pages are not tested here");
  },
}));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {}, refresh: () => {} }));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new RedirectSignal(url);
  },
  notFound: () => {
    throw new Error("NEXT_NOT_FOUND");
  },
}));

const { createProjectAction } = await import("../../app/projects/actions");
const project = await import("../../app/projects/[projectId]/actions");
const members = await import("../../app/projects/[projectId]/members/actions");
const { workspaceStepAction, workspaceTargetsAction } = await import("../../app/annotate/actions");
const gold = await import("../../app/projects/[projectId]/gold/actions");
const { saveFlagAction } = await import("../../app/annotate/flags/actions");
const { returnInstanceAction, withdrawReturnAction } = await import("../../app/projects/[projectId]/flags/actions");
const { returnInstance } = await import("../../lib/server/annotate/flags");
const { SYSTEM: SYSTEM_ACTOR } = await import("../../lib/server/kernel/actor");
const { saveResponse } = await import("../../lib/server/annotate/responses");

/** ann's answer to p1 with a multiword phrase ("bright morning"), to adjudicate. */
const withPhrase = (w: World) => {
  saveResponse(w.db, w.ann, w.p.id, w.ref.p1, { kind: "substitutes", substitutes: ["shining", "sunny"], multiword: true, phrase: "bright morning" }, { expectedRevision: 1 });
};
const accounts = await import("../../app/accounts/actions");
const trainingSetup = await import("../../app/projects/[projectId]/training/actions");
const trainingWork = await import("../../app/annotate/[projectId]/training/actions");
const { setKnownAnswer } = await import("../../lib/server/quality/training");
const { addMember, createUser } = await import("../../lib/server/people/users");
const judgement = await import("../../app/projects/[projectId]/judgement/actions");
const agreement = await import("../../app/projects/[projectId]/agreement/actions");
const scoring = await import("../../app/projects/[projectId]/scoring/actions");
const { saveLabelAction } = await import("../../app/judge/actions");
const crowd = await import("../../app/projects/[projectId]/crowd/study-actions");
const { createStudy } = await import("../../lib/server/crowd/studies");
const crowdReview = await import("../../app/projects/[projectId]/crowd/actions");
const releases = await import("../../app/projects/[projectId]/releases/actions");
const { excludeRejected, reviewParticipant } = await import("../../lib/server/crowd/participants");
const { answer, makeParticipant, makeStudy, seedParticipant, seedStudy } = await import("../support/crowd");
const models = await import("../../app/projects/[projectId]/models/actions");
const { withAnswers, withModel } = await import("./model-matrix");
/** A run of p's model "m", queued (as the Models tab leaves it while the lane is busy). */
const withQueuedRun = (w: World) => {
  withModel(w);
  const m = (w.db.$client.prepare("select id from models where name = 'm'").get() as { id: number }).id;
  w.db.$client.prepare("insert into jobs (project_id, kind, state, input) values (?, 'model-run', 'queued', ?)").run(w.p.id, JSON.stringify({ modelId: m, purpose: "annotate" }));
};
const runOf = (w: World) => (w.db.$client.prepare("select id from jobs where kind = 'model-run' order by id desc").get() as { id: number }).id;

// Outcomes per actor: signedOut annotatorOfOther annotator coordinatorOfOther coordinator (system: not a session, always "-").
const COORDINATOR = "401 403 403 404 ok -";
const ANY_COORDINATOR = "401 403 403 ok ok -";
const OWN_WORK = "401 404 ok 404 ok -";

function form(fields: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) f.append(k, x);
  return f;
}

interface ActionCase {
  name: string;
  expect: string;
  run: (w: World) => Promise<unknown>;
  /** A read: allowed or not, it writes nothing. */
  reads?: true;
  /** Set-up before the call (not part of what a refused call may not write). */
  prep?: (w: World) => void;
}

/** The Training tab's actions answer with a redirect to ?ok=… or ?error=…: read the outcome from it. */
async function viaRedirect(run: () => Promise<unknown>): Promise<{ ok: boolean; message?: string }> {
  try {
    await run();
    return { ok: false, message: "no redirect" };
  } catch (e) {
    if (!(e instanceof RedirectSignal)) throw e;
    const q = new URL(e.url, "http://x").searchParams;
    return q.has("error") ? { ok: false, message: q.get("error")! } : { ok: true };
  }
}

/** p2 as a training item of p. */
const withTraining = (w: World) => {
  setKnownAnswer(w.db as Db, w.actor("system") as Actor, w.p.id, { instanceId: "p2", role: "training", accepted: "clever;smart" });
};

/** A crowd study in p: one participant answered p1 and was rejected. */
const withCrowd = (w: World) => {
  const study = seedStudy(w.db as Db, w.p.id, { name: "pilot" });
  const who = seedParticipant(w.db as Db, study, "5f0a00000000000000000001", { refs: [w.ref.p1] });
  answer(w.db as Db, w.p.id, who, w.ref.p1, ["radiant"]);
  reviewParticipant(w.db as Db, SYSTEM_ACTOR, w.p.id, { participantId: who.id, review: "rejected", reason: "random" });
};
/** The study withCrowd made (the project's latest) and its participant. */
const crowdIds = (w: World) =>
  w.db.$client.prepare("select study_id as studyId, id as participantId from participants where study_id = (select max(id) from studies where project_id = ?)").get(w.p.id) as { studyId: number; participantId: number };

const ACTIONS: ActionCase[] = [
  // α and the intervals, and the runs scored whole, computed again (#39): back to the page with the outcome in the URL.
  { name: "recomputeAlphaAction", expect: COORDINATOR, run: (w) => viaRedirect(() => agreement.recomputeAlphaAction(w.p.id, form({}))) },
  { name: "recomputeOthersAction", expect: COORDINATOR, run: (w) => viaRedirect(() => scoring.recomputeOthersAction(w.p.id, "", form({}))) },
  { name: "createProjectAction", expect: ANY_COORDINATOR, run: () => createProjectAction(null, form({ name: "fresh" })) },
  { name: "renameProjectAction", expect: COORDINATOR, run: (w) => project.renameProjectAction(w.p.id, null, form({ name: "renamed" })) },
  { name: "setLanguageAction", expect: COORDINATOR, run: (w) => project.setLanguageAction(w.p.id, null, form({ language: "de" })) },
  { name: "setArchivedAction", expect: COORDINATOR, run: (w) => project.setArchivedAction(w.p.id, true, null, form({})) },
  // Deleting redirects to the projects list once done.
  { name: "deleteProjectAction", expect: COORDINATOR, run: (w) => project.deleteProjectAction(w.p.id, null, form({ confirm: "p" })) },
  { name: "createAnnotatorAction", expect: COORDINATOR, run: (w) => members.createAnnotatorAction(w.p.id, null, form({ name: "newbie", password: "" })) },
  // Another project's annotator is not offered to the coordinator, nor can be added by id (finding 6).
  { name: "addMemberAction", expect: "401 403 403 404 404 -", run: (w) => members.addMemberAction(w.p.id, null, form({ userId: String(w.annQ.userId) })) },
  { name: "removeMemberAction", expect: COORDINATOR, run: (w) => members.removeMemberAction(w.p.id, null, form({ userId: String(w.ann.userId) })) },
  {
    name: "setMemberRoleAction",
    expect: COORDINATOR,
    // A member with no answers yet (added by the CLI), made a judge.
    prep: (w) => {
      createUser(w.db as Db, SYSTEM_ACTOR, { name: "fresh", role: "annotator", password: "password-fresh" });
      addMember(w.db as Db, SYSTEM_ACTOR, w.p.id, "fresh");
    },
    run: (w) => {
      const id = (w.db.$client.prepare("select id from users where name = 'fresh'").get() as { id: number }).id;
      return members.setMemberRoleAction(w.p.id, null, form({ userId: String(id), projectRole: "judge" }));
    },
  },
  { name: "resetPasswordAction", expect: COORDINATOR, run: (w) => accounts.resetPasswordAction(null, form({ userId: String(w.ann.userId) })) },
  { name: "setDisabledAction", expect: COORDINATOR, run: (w) => accounts.setDisabledAction(null, form({ userId: String(w.ann.userId), disabled: "true" })) },
  { name: "liftSignInLockAction", expect: COORDINATOR, run: (w) => accounts.liftSignInLockAction(null, form({ userId: String(w.ann.userId) })) },
  {
    name: "changePasswordAction",
    expect: "401 ok ok ok ok -",
    run: () => {
      const name = (session.actor as { name?: string } | null)?.name ?? "";
      return accounts.changePasswordAction(null, form({ current: `password-${name}`, next: "a-new-password-1", confirm: "a-new-password-1" }));
    },
  },
  {
    name: "setAssignmentAction",
    expect: COORDINATOR,
    run: (w) => members.setAssignmentAction(w.p.id, null, form({ userId: String(w.ann.userId), scope: "some", shown: String(w.lexeltP) })),
  },
  // The preview writes nothing; applying goes through the same check (applySplit in the matrix).
  { name: "splitAction", expect: COORDINATOR, reads: true, run: (w) => members.splitAction(w.p.id, null, form({ intent: "preview", annotator: String(w.ann.userId), k: "1" })) },
  { name: "setRequiredAction", expect: COORDINATOR, run: (w) => members.setRequiredAction(w.p.id, null, form({ requiredAnnotators: "2" })) },
  { name: "setGuidelinesAction", expect: COORDINATOR, run: (w) => members.setGuidelinesAction(w.p.id, null, form({ guidelines: "Be brief." })) },
  { name: "decideLemmaAction", expect: COORDINATOR, run: (w) => gold.decideLemmaAction(w.p.id, null, form({ form: "sunny", decision: "overridden", lemma: "sunlit" })) },
  { name: "acceptAllAction", expect: COORDINATOR, run: (w) => gold.acceptAllAction(w.p.id, null, form({})) },
  { name: "keepAllAction", expect: COORDINATOR, run: (w) => gold.keepAllAction(w.p.id, null, form({})) },
  { name: "exclusionAction", expect: COORDINATOR, run: (w) => gold.exclusionAction(w.p.id, null, form({ instanceId: "p1", op: "exclude", reason: "a test" })) },
  { name: "correctPosAction", expect: COORDINATOR, run: (w) => gold.correctPosAction(w.p.id, null, form({ instanceId: "p1", op: "correct", pos: "n" })) },
  {
    name: "adjudicateAction",
    expect: COORDINATOR,
    run: (w) => gold.adjudicateAction(w.p.id, null, form({ action: "correct", instanceId: "p1", annotator: "ann", substitute: "sunny", value: "sunlit", reason: "a test" })),
  },
  {
    name: "adjudicateAction (multiword: not a multiword, and adopted for all)",
    expect: COORDINATOR,
    prep: withPhrase,
    run: async (w) => {
      const r = (await gold.adjudicateAction(w.p.id, null, form({ action: "not-multiword", instanceId: "p1", annotator: "ann", substitute: "bright morning" }))) as { ok?: boolean };
      if (!r?.ok) return r;
      const undo = (w.db.$client.prepare("select id from adjudications where action = 'multiword'").get() as { id: number }).id;
      await gold.undoAdjudicationAction(w.p.id, null, form({ id: String(undo) }));
      return gold.adjudicateAction(w.p.id, null, form({ action: "adopt-multiword", instanceId: "p1", value: "a bright morning" }));
    },
  },
  {
    name: "undoAdjudicationAction",
    expect: COORDINATOR,
    run: async (w) => {
      // A decision recorded by the CLI, removed again when the undo is refused (so the refusal is seen to write nothing).
      const { adjudicate } = await import("../../lib/server/gold/adjudication");
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const version = (w.db.$client.prepare("select version from data_versions where project_id = ?").get(w.p.id) as { version: number } | undefined)?.version;
      const restoreDataVersion = (_w: typeof w, v: number | undefined) =>
        v === undefined
          ? w.db.$client.prepare("delete from data_versions where project_id = ?").run(w.p.id)
          : w.db.$client.prepare("update data_versions set version = ? where project_id = ?").run(v, w.p.id);
      // The instances queued for their derived figures (#39) by the decision's triggers, put back too.
      const queued = w.db.$client.prepare("select instance_ref, project_id from derive_queue order by rowid").all() as { instance_ref: number; project_id: number }[];
      const id = adjudicate(w.db, SYSTEM, w.p.id, { action: "strike", instanceId: "p1", annotator: "ann", substitute: "sunny" }).id;
      const r = (await gold.undoAdjudicationAction(w.p.id, null, form({ id: String(id) }))) as { ok?: boolean };
      if (!r?.ok) {
        w.db.$client.prepare("delete from gold_review_log where project_id = ?").run(w.p.id);
        w.db.$client.prepare("delete from adjudications where id = ?").run(id);
        restoreDataVersion(w, version);
        w.db.$client.prepare("delete from derive_queue").run();
        for (const q of queued) w.db.$client.prepare("insert into derive_queue (instance_ref, project_id) values (?, ?)").run(q.instance_ref, q.project_id);
      }
      return r;
    },
  },
  { name: "reviewedAction", expect: COORDINATOR, run: (w) => gold.reviewedAction(w.p.id, null, form({ instanceId: "p1", op: "mark" })) },
  // The crowd tab (issue #32).
  {
    name: "reviewParticipantAction",
    expect: COORDINATOR,
    prep: withCrowd,
    run: (w) => crowdReview.reviewParticipantAction(w.p.id, null, form({ participantId: String(crowdIds(w).participantId), review: "approved" })),
  },
  { name: "setBonusAction", expect: COORDINATOR, prep: withCrowd, run: (w) => crowdReview.setBonusAction(w.p.id, null, form({ participantId: String(crowdIds(w).participantId), bonus: "1.50" })) },
  { name: "excludeRejectedAction", expect: COORDINATOR, prep: withCrowd, run: (w) => crowdReview.excludeRejectedAction(w.p.id, null, form({ studyId: String(crowdIds(w).studyId) })) },
  {
    name: "undoExclusionAction",
    expect: COORDINATOR,
    prep: (w) => {
      withCrowd(w);
      excludeRejected(w.db as Db, SYSTEM_ACTOR, w.p.id, crowdIds(w).studyId);
    },
    run: (w) => crowdReview.undoExclusionAction(w.p.id, null, form({ studyId: String(crowdIds(w).studyId) })),
  },
  // The save is a route handler: test/security/save-route.test.ts.
  { name: "workspaceStepAction", expect: OWN_WORK, reads: true, run: (w) => workspaceStepAction(w.p.id, w.ref.p1) },
  { name: "workspaceTargetsAction", expect: OWN_WORK, reads: true, run: (w) => workspaceTargetsAction(w.p.id) },
  // Training and checks.
  {
    name: "saveSettingsAction",
    expect: COORDINATOR,
    run: (w) => viaRedirect(() => trainingSetup.saveSettingsAction(w.p.id, form({ trainingRequired: "on", trainingThreshold: "70", speedThresholdSeconds: "3" }))),
  },
  {
    name: "setKnownAnswerAction",
    expect: COORDINATOR,
    run: (w) => viaRedirect(() => trainingSetup.setKnownAnswerAction(w.p.id, form({ instanceId: "p2", role: "check", accepted: "clever" }))),
  },
  {
    name: "importKnownAnswersAction",
    expect: COORDINATOR,
    run: (w) => {
      const f = form({ role: "training" });
      f.append("file", new File(["p2\tclever;smart\n"], "t.tsv"));
      return viaRedirect(() => trainingSetup.importKnownAnswersAction(w.p.id, f));
    },
  },
  // The Releases tab: a release is checked here and made by a job (in this process for a database in memory).
  { name: "makeReleaseAction", expect: COORDINATOR, run: (w) => viaRedirect(() => releases.makeReleaseAction(w.p.id, form({ version: "1.0.0" }))) },
  { name: "saveDatasheetAction", expect: COORDINATOR, run: (w) => viaRedirect(() => releases.saveDatasheetAction(w.p.id, form({ motivation: "A test.", licence: "CC-BY-4.0" }))) },
  { name: "fromGoldAction", expect: COORDINATOR, run: (w) => viaRedirect(() => trainingSetup.fromGoldAction(w.p.id, form({ role: "check", instanceIds: "p1" }))) },
  { name: "removeKnownAnswerAction", expect: COORDINATOR, prep: withTraining, run: (w) => viaRedirect(() => trainingSetup.removeKnownAnswerAction(w.p.id, form({ instanceId: "p2" }))) },
  { name: "saveNoteAction", expect: COORDINATOR, run: (w) => viaRedirect(() => trainingSetup.saveNoteAction(w.p.id, form({ lexeltId: String(w.lexeltP), note: "*Weather*" }))) },
  { name: "saveGuidelinesAction", expect: COORDINATOR, run: (w) => viaRedirect(() => trainingSetup.saveGuidelinesAction(w.p.id, form({ guidelines: "# Be brief" }))) },
  { name: "answerTrainingAction", expect: OWN_WORK, prep: withTraining, run: (w) => trainingWork.answerTrainingAction(w.p.id, w.ref.p2, { kind: "substitutes", substitutes: ["clever"], multiword: null }) },
  { name: "retryTrainingAction", expect: OWN_WORK, prep: withTraining, run: (w) => trainingWork.retryTrainingAction(w.p.id, "fresh") },
  { name: "saveFlagAction", expect: OWN_WORK, run: (w) => saveFlagAction(w.p.id, w.ref.p2, { flag: "unsure", note: "a test" }) },
  {
    name: "returnInstanceAction",
    expect: COORDINATOR,
    run: (w) => returnInstanceAction(w.p.id, null, form({ instanceId: "p1", annotator: "ann", comment: "look again" })),
  },
  {
    name: "withdrawReturnAction",
    expect: COORDINATOR,
    prep: (w) => void returnInstance(w.db, SYSTEM_ACTOR, w.p.id, { instanceId: "p1", annotator: "ann", comment: "look again" }),
    run: (w) => withdrawReturnAction(w.p.id, null, form({ instanceId: "p1", annotator: "ann" })),
  },
  { name: "createStudyAction", expect: COORDINATOR, run: (w) => crowd.createStudyAction(w.p.id, null, form({ platform: "link", batchSize: "2", overlap: "2", minutes: "30", name: "pilot" })) },
  {
    name: "setStudyStateAction",
    expect: COORDINATOR,
    // A study of p opened by the CLI (the set-up, not what a refusal may not write).
    prep: (w) => void createStudy(w.db, SYSTEM_ACTOR, w.p.id, { platform: "link", batchSize: 2, overlap: 2, minutes: 30 }),
    run: (w) => crowd.setStudyStateAction(w.p.id, studyIdOf(w, "p"), null, form({ state: "paused" })),
  },
  { name: "createRoundAction", expect: COORDINATOR, run: (w) => judgement.createRoundAction(w.p.id, null, form({ selection: "any", sampleSize: "2", seed: "1", source: "annotators" })) },
  ...(["setRoundStateAction", "setJudgesAction"] as const).map((name) => ({
    name,
    expect: COORDINATOR,
    run: async (w: World) => {
      // A round in p made by the CLI, removed again when the change is refused.
      const { createRound } = await import("../../lib/server/judgement/judgement");
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const round = createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], allowOwnItems: true });
      const r = (await (name === "setRoundStateAction"
        ? judgement.setRoundStateAction(w.p.id, round.id, null, form({ state: "closed" }))
        : judgement.setJudgesAction(w.p.id, round.id, null, form({ judge: String(w.ann.userId) })))) as { ok?: boolean };
      if (!r?.ok) {
        for (const t of ["judgement_labels", "judgement_judges", "judgement_candidates", "judgement_items", "judgement_rounds"]) w.db.$client.prepare(`delete from ${t}`).run();
        w.db.$client.prepare("delete from sqlite_sequence where name like 'judgement_%'").run();
      }
      return r;
    },
  })),
  {
    name: "saveLabelAction",
    expect: "401 404 ok 404 403 -",
    run: async (w) => {
      // A round made by the CLI with the annotator as judge, removed again when the label is refused.
      const { createRound } = await import("../../lib/server/judgement/judgement");
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const round = createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], allowOwnItems: true, judges: [w.ann.userId] });
      const cand = w.db.$client.prepare("select c.id from judgement_candidates c join judgement_items i on i.id = c.item_id where i.round_id = ? limit 1").get(round.id) as { id: number };
      const r = (await saveLabelAction(round.id, cand.id, "good")) as { ok?: boolean };
      if (!r?.ok) {
        for (const t of ["judgement_labels", "judgement_judges", "judgement_candidates", "judgement_items", "judgement_rounds"]) w.db.$client.prepare(`delete from ${t}`).run();
        w.db.$client.prepare("delete from sqlite_sequence where name like 'judgement_%'").run();
      }
      return r;
    },
  },
  // The Models tab (issue #41): a public address given as an IP is registered without resolving anything; the runs' model listens nowhere.
  { name: "registerModelAction", expect: COORDINATOR, run: (w) => models.registerModelAction(w.p.id, null, form({ name: "gpt", kind: "openai", baseUrl: "http://8.8.8.8:9/v1", model: "x", maxConcurrency: "2", timeoutS: "5" })) },
  { name: "removeModelAction", expect: COORDINATOR, prep: withModel, run: (w) => models.removeModelAction(w.p.id, "m", null, form({ confirm: "on" })) },
  { name: "startRunAction", expect: COORDINATOR, prep: withModel, run: (w) => models.startRunAction(w.p.id, "m", null, form({ samples: "1", instances: "1", purpose: "candidates" })) },
  { name: "cancelRunAction", expect: COORDINATOR, prep: withQueuedRun, run: (w) => models.cancelRunAction(w.p.id, runOf(w), null) },
  { name: "countModelAction", expect: COORDINATOR, prep: withAnswers, run: (w) => models.countModelAction(w.p.id, "m", true, null, form({ reason: "pilot" })) },
  { name: "discardAnswersAction", expect: COORDINATOR, prep: withAnswers, run: (w) => models.discardAnswersAction(w.p.id, "m", null, form({ confirm: "on" })) },
  { name: "addRunsAction", expect: COORDINATOR, prep: withAnswers, run: (w) => models.addRunsAction(w.p.id, null, form({ model: "m" })) },
  { name: "templateAction", expect: COORDINATOR, run: (w) => models.templateAction(w.p.id, "annotate", null, form({ text: "Substitutes for {{target}}: {{sentence}}" })) },
  { name: "suggestionsAction", expect: COORDINATOR, prep: withModel, run: (w) => models.suggestionsAction(w.p.id, null, form({ mode: "assist", model: "m" })) },
  {
    name: "studySuggestionsAction",
    expect: COORDINATOR,
    prep: (w) => {
      withModel(w);
      createStudy(w.db as Db, SYSTEM_ACTOR, w.p.id, { platform: "link", batchSize: 2, overlap: 2, minutes: 30, name: "pilot" });
    },
    run: (w) => models.studySuggestionsAction(w.p.id, (w.db.$client.prepare("select max(id) as id from studies").get() as { id: number }).id, true, null),
  },
];

/** The refusals' messages: the same for a project that exists and one that does not. */
const REFUSALS: Record<string, Outcome> = {
  "Sign in first.": "401",
  "Only a coordinator can do that.": "403",
  "No such project.": "404",
  "No such account.": "404",
  "No such study.": "404",
  "No such instance in this project.": "404",
  "You are not a judge of this round.": "403",
  "Only a judge of the round can label.": "403",
  // A judge of project p, at its workspace.
  "You are a judge in “p”: you label its judgement rounds (listed on your Annotate page); its annotation workspace is for its annotators.": "403",
};

async function outcome(run: () => Promise<unknown>): Promise<{ outcome: Outcome; message?: string }> {
  try {
    const r = (await run()) as { ok?: boolean; message?: string } | null;
    if (r && r.ok === true) return { outcome: "ok" };
    const message = r?.message ?? "";
    return { outcome: REFUSALS[message] ?? "400", message };
  } catch (e) {
    // createProjectAction redirects to the new project once it exists.
    if (e instanceof RedirectSignal) return { outcome: "ok" };
    throw e;
  }
}

function as(w: World, k: ActorKey) {
  session.db = w.db as Db;
  session.actor = w.actor(k) as Actor;
}

beforeEach(() => {
  session.actor = null;
  session.db = null;
});

describe("server actions × actor (the actor comes from the session only)", () => {
  for (const a of ACTIONS) {
    const want = parseExpect(a.expect);
    describe(a.name, () => {
      for (const k of ACTORS.filter((k) => k !== "system")) {
        it(`${k}: ${want[k]}`, async () => {
          const w = world();
          a.prep?.(w);
          as(w, k);
          const before = dump(w.db);
          const got = await outcome(() => a.run(w));
          expect(got.outcome, got.message).toBe(want[k]);
          if (got.outcome !== "ok" || a.reads) expect(dump(w.db)).toEqual(before);
          else expect(dump(w.db)).not.toEqual(before);
        });
      }
    });
  }
});

/**
 * A study participant's session (issue #32): every action again as a participant of p (a study in p,
 * their batch p1 and p2) and of q, with the outcome of the annotator in their place (resp. the
 * annotator of q), except where a participant is refused more, listed with why. A refused call
 * writes nothing.
 */
const PARTICIPANT_REFUSED_MORE: Record<string, { p: Outcome; q: Outcome; why: string }> = {
  // They joined by a link and have no password (lib/server/people/accounts.ts).
  changePasswordAction: { p: "400", q: "400", why: "a participant has no password" },
  // Screening: a participant's one training attempt decides (lib/server/annotate/participant.ts).
  retryTrainingAction: { p: "400", q: "404", why: "a participant takes the training once" },
  // The round names the annotator its judge; a participant is never a round's judge.
  saveLabelAction: { p: "403", q: "404", why: "not the round's judge" },
};

/** The database without the participants' own rows, whose time on task a participant's reading request keeps. */
const withoutParticipants = (d: ReturnType<typeof dump>) => Object.fromEntries(Object.entries(d).filter(([t]) => t !== "participants"));

describe("server actions × a study participant (as the annotator in their place)", () => {
  it("PARTICIPANT_REFUSED_MORE names only lines of ACTIONS", () => {
    const names = new Set(ACTIONS.map((a) => a.name));
    expect(Object.keys(PARTICIPANT_REFUSED_MORE).filter((n) => !names.has(n))).toEqual([]);
  });
  for (const a of ACTIONS) {
    const want = parseExpect(a.expect);
    for (const [of, key] of [
      ["p", "annotator"],
      ["q", "annotatorOfOther"],
    ] as const) {
      const more = PARTICIPANT_REFUSED_MORE[a.name];
      const expected: Outcome = more ? more[of] : want[key];
      it(`${a.name}, a participant of ${of}: ${expected}`, async () => {
        const w = world();
        const pp = makeParticipant(w.db as Db, makeStudy(w.db as Db, w.p.id), "pp", [w.ref.p1, w.ref.p2]).actor;
        const pq = makeParticipant(w.db as Db, makeStudy(w.db as Db, w.q.id), "pq", [w.ref.q1, w.ref.q2]).actor;
        const stand: World = { ...w, actor: (k) => (k === key ? (of === "p" ? pp : pq) : w.actor(k)) };
        a.prep?.(stand);
        session.db = w.db as Db;
        session.actor = of === "p" ? pp : pq;
        const before = dump(w.db);
        const got = await outcome(() => a.run(stand));
        expect(got.outcome, got.message).toBe(expected);
        if (got.outcome !== "ok") expect(dump(w.db)).toEqual(before);
        else if (a.reads) expect(withoutParticipants(dump(w.db))).toEqual(withoutParticipants(before));
      });
    }
  }
});

const studyIdOf = (w: World, project: "p" | "q") => (w.db.$client.prepare("select id from studies where project_id = ?").get(w[project].id) as { id: number }).id;

describe("server actions with another project's ids", () => {
  it("a coordinator cannot pause another project's study through their own project's page", async () => {
    const w = world();
    createStudy(w.db, SYSTEM_ACTOR, w.q.id, { platform: "link", batchSize: 2, overlap: 2, minutes: 30 });
    as(w, "coordinator");
    const before = dump(w.db);
    expect(await outcome(() => crowd.setStudyStateAction(w.p.id, studyIdOf(w, "q"), null, form({ state: "closed" })))).toEqual({ outcome: "404", message: "No such project." });
    expect(await outcome(() => crowd.setStudyStateAction(w.q.id, studyIdOf(w, "q"), null, form({ state: "closed" })))).toEqual({ outcome: "404", message: "No such project." });
    expect(dump(w.db)).toEqual(before);
  });


  it("a coordinator cannot reach project q's settings by passing q's id", async () => {
    const w = world();
    as(w, "coordinator");
    const before = dump(w.db);
    for (const run of [
      () => members.setGuidelinesAction(w.q.id, null, form({ guidelines: "mine now" })),
      () => members.addMemberAction(w.q.id, null, form({ userId: String(w.ann.userId) })),
      () => members.createAnnotatorAction(w.q.id, null, form({ name: "mole", password: "" })),
    ]) {
      expect(await outcome(run)).toEqual({ outcome: "404", message: "No such project." });
    }
    expect(dump(w.db)).toEqual(before);
  });

  it("an annotator cannot read q's instance through p, nor q's targets", async () => {
    const w = world();
    as(w, "annotator");
    const before = dump(w.db);
    // (saving into q: test/security/save-route.test.ts)
    expect((await outcome(() => workspaceStepAction(w.p.id, w.ref.q2))).outcome).toBe("404");
    expect((await outcome(() => workspaceTargetsAction(w.q.id))).outcome).toBe("404");
    expect(dump(w.db)).toEqual(before);
  });

  it("the initial password goes only to the project's coordinator who created the account, and is stored hashed", async () => {
    const w = world();
    as(w, "coordinator");
    const r = (await members.createAnnotatorAction(w.p.id, null, form({ name: "nova", password: "" }))) as { created?: { password: string } };
    const password = r.created!.password;
    const stored = JSON.stringify(dump(w.db));
    expect(stored).not.toContain(password);
    expect(stored).toMatch(/\$2[aby]\$/);
  });
});

describe("a judge's session (judge in p, annotator in q)", () => {
  it("the workspace's, the flags' and the training's actions refuse p with the reason; q works", async () => {
    const w = world();
    const jud = addJudge(w);
    setKnownAnswer(w.db as Db, SYSTEM_ACTOR, w.p.id, { instanceId: "p2", role: "training", accepted: "clever;smart" });
    session.db = w.db as Db;
    session.actor = jud;
    const before = dump(w.db);
    const why = "You are a judge in “p”: you label its judgement rounds (listed on your Annotate page); its annotation workspace is for its annotators.";
    for (const run of [
      () => workspaceStepAction(w.p.id, w.ref.p1),
      () => workspaceTargetsAction(w.p.id),
      () => saveFlagAction(w.p.id, w.ref.p1, { flag: "unsure", note: "" }),
      () => trainingWork.answerTrainingAction(w.p.id, w.ref.p2, { kind: "substitutes", substitutes: ["clever"], multiword: null }),
      () => trainingWork.retryTrainingAction(w.p.id, "fresh"),
    ]) {
      expect(await outcome(run)).toEqual({ outcome: "403", message: why });
    }
    for (const run of [() => members.setMemberRoleAction(w.p.id, null, form({ userId: String(jud.userId), projectRole: "annotator" })), () => members.setGuidelinesAction(w.p.id, null, form({ guidelines: "x" }))]) {
      expect((await outcome(run)).outcome).toBe("403");
    }
    expect(dump(w.db)).toEqual(before);
    expect((await outcome(() => workspaceTargetsAction(w.q.id))).outcome).toBe("ok");
  });

  it("labels in a round they judge", async () => {
    const w = world();
    const jud = addJudge(w);
    const { createRound } = await import("../../lib/server/judgement/judgement");
    const round = createRound(w.db as Db, SYSTEM_ACTOR, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], judges: [jud.userId] });
    const cand = w.db.$client.prepare("select c.id from judgement_candidates c join judgement_items i on i.id = c.item_id where i.round_id = ? limit 1").get(round.id) as { id: number };
    session.db = w.db as Db;
    session.actor = jud;
    expect(await saveLabelAction(round.id, cand.id, "bad")).toEqual({ ok: true, label: "bad" });
  });
});

describe("the action list covers app/", () => {
  it("every exported function of an actions.ts under app/ has a line in ACTIONS", () => {
    const root = path.resolve(import.meta.dirname, "../../app");
    const covered = new Set(ACTIONS.map((a) => a.name));
    const missing: string[] = [];
    const tracked = trackedFiles(path.resolve(root, ".."), "app");
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        // actions.ts, and the named ones beside it (crowd/study-actions.ts).
        else if (/^(.+-)?actions\.ts$/.test(e.name) && (!tracked || tracked.has(p))) {
          for (const m of fs.readFileSync(p, "utf8").matchAll(/export async function (\w+)/g)) {
            if (!covered.has(m[1])) missing.push(`${path.relative(root, p)}: ${m[1]}`);
          }
        }
      }
    };
    walk(root);
    expect(missing, "add one line per action to ACTIONS in test/security/actions.test.ts").toEqual([]);
  });
});
