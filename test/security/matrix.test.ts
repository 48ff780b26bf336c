/**
 * The authorization matrix of the data access layer: every function in
 * lib/server (every feature folder) that takes (db, actor, …) is called as each actor — signed out, an
 * annotator of another project, the project's annotator, a coordinator of another
 * project, the project's coordinator, and the CLI — and the outcome asserted.
 * Non-members get 404 (the project's existence does not leak), the wrong role
 * 403, nobody signed in 401. A refused call writes nothing: every table is
 * compared before and after.
 *
 * A new function is one line in CALLS; the last test fails when a function in
 * lib/server takes an actor and has no line here.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountAuditLog, changeOwnPassword, failedSignIns, listAccounts, removeMember, resetPassword, setAccountDisabled } from "../../lib/server/people/accounts";
import { type Actor, findProjectByName, requireProject, SYSTEM } from "../../lib/server/kernel/actor";
import { agreementDownload, agreementPageData, agreementPageView, agreementReport } from "../../lib/server/gold/agreement";
import { keptRunDetailText, refreshAgreementAlpha, refreshScoringOthers, scoringBoardView } from "../../lib/server/jobs/derive-pool";
import { derive } from "../../lib/server/jobs/derive-pool";
import { runDeriveJob } from "../../lib/server/jobs/derive-jobs";
import { applySplit, changeAssignments, listAssignments, previewSplit, setAssignments } from "../../lib/server/annotate/assignments";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { datasetExportItems, datasetImportRecords, datasetSummary, exportDataset, importDataset, importDatasetAsNewProject } from "../../lib/server/datasets/datasets";
import { answerWithJob, cancelJob, getJob, listJobs, startJob, waitForJob } from "../../lib/server/jobs/jobs";
import {
  acceptAllProposals,
  decideLemma,
  decideLemmasWhere,
  goldInputs,
  importLemmaDecisions,
  goldReviewHistory,
  lemmaReview,
  projectAgreement,
  projectGold,
  setCorrectedPos,
  setExclusion,
} from "../../lib/server/gold/gold";
import { exportAdjudicatedResponses, goldPageData, goldReviewCsv, goldReviewTsv, instanceTexts, reviewLogPage } from "../../lib/server/gold/gold-review";
import { adjudicate, adoptMultiword, instanceAdjudications, setReviewed, undoAdjudication } from "../../lib/server/gold/adjudication";
import { bringFiguresUpToDate, catchUpFigures, rebuildProjectFigures } from "../../lib/server/derived";
import { goldFileSlices, goldProblems } from "../../lib/server/gold/gold-files";
import { flaggedInstanceIds, flagsByResponse, flagsTsv, instanceNotes, listFlags, returnInstance, returnLog, saveFlag, withdrawReturn } from "../../lib/server/annotate/flags";
import { progressPageView, projectProgress } from "../../lib/server/annotate/progress";
import { createProject, listProjects, projectAccessRequest, projectOverview } from "../../lib/server/corpus/projects";
import { deleteProject, projectContents, renameProject, setProjectArchived, setProjectLanguage } from "../../lib/server/corpus/project-lifecycle";
import { exportResponses, importResponses, listProjectResponses, previewResponses } from "../../lib/server/annotate/response-import";
import { annotatorProjects, saveResponse, saveResponseAsync, workspace, workspaceTargets } from "../../lib/server/annotate/responses";
import { participantView } from "../../lib/server/annotate/participant";
import { importUsers } from "../../lib/server/people/user-import";
import { addWordNetBaselineRuns, baselineInstances, storeWordNetBaselineRuns, wordNetBaselineFiles } from "../../lib/server/scoring/baselines";
import { createRound, extendedGold, listRounds, myRounds, nextJudgeItem, roundInfo, roundResults, saveLabel, setJudges, setRoundState, swordsExport } from "../../lib/server/judgement/judgement";
import { deleteGold, listGolds, resolveGold, storeGold } from "../../lib/server/scoring/golds";
import { deleteRun, deleteRunInSlices, listRuns, runFile, runFileDownload, uploadRun } from "../../lib/server/scoring/runs";
import { runDetail, runReport, scoreBoard, scoresFile, scoresJson } from "../../lib/server/scoring/scores";
import { computeBoardOthers, keptScoreBoard } from "../../lib/server/scoring/board";
import { keptRunDetail } from "../../lib/server/scoring/run-page";
import { scoreSensevalUpload } from "../../lib/server/scoring/senseval";
import {
  answerTraining,
  checkReport,
  importKnownAnswers,
  knownAnswerItems,
  knownAnswersFromGold,
  lexeltNotes,
  qualitySettings,
  removeKnownAnswer,
  retryTraining,
  setKnownAnswer,
  setLexeltNote,
  setQualitySettings,
  trainingPendingFor,
  trainingView,
} from "../../lib/server/quality/training";
import { scoreRankingUpload } from "../../lib/server/scoring/ranking";
import { liftSignInLock, signInLocks } from "../../lib/server/people/signin";
import { checkDeclaredUpload, checkUploadRoom, holdUploadBytes } from "../../lib/server/runtime/upload-quota";
import { addExistingMember, createAnnotatorForProject, setGuidelines, setRequiredAnnotators, teamOverview } from "../../lib/server/people/team";
import { addMember, createUser, listMembers, listUsers, setMemberRole } from "../../lib/server/people/users";
import { createStudy, listStudies, setStudyState } from "../../lib/server/crowd/studies";
import { joinStudy } from "../../lib/server/crowd/join";
import { resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { participantMatrix } from "./participant-matrix";
import { excludeRejected, studyOverviews, participantsPage, reviewParticipant, setBonus, studyParticipants, undoExclusion } from "../../lib/server/crowd/participants";
import { paymentFile } from "../../lib/server/crowd/payments";
import { startedView } from "../../lib/server/crowd/started";
import { answer, seedParticipant, seedStudy } from "../support/crowd";
import { readReleaseSnapshot } from "../../lib/server/releases/snapshot";
import { progressChartData } from "../../lib/server/annotate/progress-charts";
import { releaseFile, releasePlots } from "../../lib/server/releases/release-files";
import { checkReleaseInput, createRelease, datasheetAnswers, listReleases, releaseArchive, releaseByVersion, releaseDetail, saveDatasheet } from "../../lib/server/releases/releases";
import { MODEL_CALLS } from "./model-matrix";
import { ACTORS, type ActorKey, addJudge, dump, type Outcome, outcomeOf, NIL, parseExpect, trackedFiles, type World, world } from "./world";

// Expected outcomes, one per actor in this order:
//   signedOut  annotatorOfOther  annotator  coordinatorOfOther  coordinator  system(CLI)
/** Members of the project (either role). */
const MEMBER = "401 404 ok 404 ok ok";
/** The project's coordinator only: annotators are refused on their role, other coordinators see no project. */
const COORDINATOR = "401 403 403 404 ok ok";
/** Any coordinator (accounts and projects are not per project). */
const ANY_COORDINATOR = "401 403 403 ok ok ok";
/** One's own annotation in a project one belongs to; the CLI has no responses of its own. */
const OWN_WORK = "401 404 ok 404 ok 403";
/** A judge of the round (here the project's annotator) only: not the coordinator, not the CLI. */
const JUDGE = "401 404 ok 404 403 403";

const enc = (s: string) => new TextEncoder().encode(s);
const EXTRA_XML = `<?xml version="1.0"?>
<corpus lang="english"><lexelt item="swift.a"><instance id="p9"><context>a <head>swift</head> reply</context></instance></lexelt></corpus>
`;
const TSV = "annotator\tlexelt\tinstance\tanswer\tmultiword\nann\tbright.a\tp2\tclever\t\n";

interface Call {
  name: string;
  expect: string;
  call: (w: World, k: ActorKey) => unknown;
  /** Set-up before the call (not part of what a refused call may not write). */
  prep?: (w: World) => void | Promise<void>;
  /** For allowed calls: what the caller may see (nothing of the other project). */
  check?: (result: unknown, w: World, k: ActorKey) => void;
}

/** Nothing of project q (its name, lexelt, instance ids, words, people) in a result about p. */
function noOtherProject(result: unknown) {
  const text = JSON.stringify(result);
  for (const marker of ["murky", "quayside", "gloomy", "annq", "coordq", '"q1"', '"q2"']) expect(text).not.toContain(marker);
}

/** p2 as a training item, q2 as one in project q. */
const withTraining = (w: World) => {
  setKnownAnswer(w.db, SYSTEM, w.p.id, { instanceId: "p2", role: "training", accepted: "clever;smart" });
  setKnownAnswer(w.db, SYSTEM, w.q.id, { instanceId: "q2", role: "training", accepted: "shady" });
  setQualitySettings(w.db, SYSTEM, w.p.id, { trainingRequired: true, trainingThreshold: 60, speedThresholdSeconds: 4 });
};

/** ann's answer to p1 with a multiword phrase ("bright morning"), to adjudicate. */
const withPhrase = (w: World) => {
  saveResponse(w.db, w.ann, w.p.id, w.ref.p1, { kind: "substitutes", substitutes: ["shining", "sunny"], multiword: true, phrase: "bright morning" }, { expectedRevision: 1 });
};

/** A study on p and one on q (by the CLI). */
const STUDY_INPUT = { platform: "link", batchSize: 2, overlap: 2, minutes: 30, name: "pilot" };
const withStudies = (w: World) => {
  createStudy(w.db, SYSTEM, w.p.id, STUDY_INPUT);
  createStudy(w.db, SYSTEM, w.q.id, { ...STUDY_INPUT, name: "quayside study" });
};
/** The project's latest study (the participants' matrix puts a study of its own in each project first). */
const studyOf = (w: World, project: "p" | "q") => (w.db.$client.prepare("select id from studies where project_id = ? order by id desc").get(w[project].id) as { id: number }).id;
/** A crowd study in p (one participant answered p1 and was rejected, one pending) and one in q. */
const withCrowd = (w: World) => {
  const sp = seedStudy(w.db, w.p.id, { name: "pilot" });
  const rejected = seedParticipant(w.db, sp, "5f0a00000000000000000001", { refs: [w.ref.p1], session: "sess-1" });
  answer(w.db, w.p.id, rejected, w.ref.p1, ["radiant"]);
  seedParticipant(w.db, sp, "5f0a00000000000000000002", { refs: [w.ref.p2] });
  reviewParticipant(w.db, SYSTEM, w.p.id, { participantId: rejected.id, review: "rejected", reason: "random" });
  const sq = seedStudy(w.db, w.q.id, { name: "murky study" });
  seedParticipant(w.db, sq, "annq-worker-murky", { refs: [w.ref.q1] });
};
/** withCrowd, with the rejected participant left out of the gold. */
const withCrowdExcluded = (w: World) => {
  withCrowd(w);
  excludeRejected(w.db, SYSTEM, w.p.id, studyOf(w, "p"));
};
const tokenOf = (w: World, project: "p" | "q") => (w.db.$client.prepare("select token from studies where id = ?").get(studyOf(w, project)) as { token: string }).token;
/** A release of p and one of q (by the CLI). */
const withReleases = async (w: World) => {
  await createRelease(w.db, SYSTEM, w.p.id, { version: "1.0.0" });
  await createRelease(w.db, SYSTEM, w.q.id, { version: "1.0.0" });
};
const releaseOf = (w: World, project: "p" | "q") => (w.db.$client.prepare("select id from releases where project_id = ?").get(w[project].id) as { id: number }).id;
function participantOf(w: World, project: "p" | "q"): number {
  return (w.db.$client.prepare("select id from participants where study_id = ? order by id").get(studyOf(w, project)) as { id: number }).id;
}

const CALLS: Call[] = [
  // actor.ts
  { name: "requireProject", expect: MEMBER, call: (w, k) => requireProject(w.db, w.actor(k), w.p.id) },
  { name: "requireProject {coordinator}", expect: COORDINATOR, call: (w, k) => requireProject(w.db, w.actor(k), w.p.id, { coordinator: true }) },
  { name: "findProjectByName", expect: MEMBER, call: (w, k) => findProjectByName(w.db, w.actor(k), "p") },
  // projects.ts
  { name: "createProject", expect: ANY_COORDINATOR, call: (w, k) => createProject(w.db, w.actor(k), { name: "new one" }) },
  {
    name: "projectAccessRequest",
    expect: "ok ok ok ok ok ok",
    call: (w, k) => projectAccessRequest(w.db, w.actor(k), w.p.id),
    // Only a coordinator account outside the project learns anything: whom to ask, and none of p's contents.
    check: (r, _w, k) => {
      if (k === "coordinatorOfOther") {
        expect(r).toEqual({ coordinators: [expect.any(String)] });
        for (const marker of ["bright", "p1", "p2", '"p"', "ann"]) expect(JSON.stringify(r)).not.toContain(marker);
      } else expect(r).toBeNull();
    },
  },
  // project-lifecycle.ts
  { name: "renameProject", expect: COORDINATOR, call: (w, k) => renameProject(w.db, w.actor(k), w.p.id, { name: "renamed" }) },
  { name: "setProjectLanguage", expect: COORDINATOR, call: (w, k) => setProjectLanguage(w.db, w.actor(k), w.p.id, { language: "de" }) },
  { name: "setProjectArchived", expect: COORDINATOR, call: (w, k) => setProjectArchived(w.db, w.actor(k), w.p.id, true) },
  { name: "projectContents", expect: COORDINATOR, call: (w, k) => projectContents(w.db, w.actor(k), w.p.id), check: noOtherProject },
  {
    name: "deleteProject",
    expect: COORDINATOR,
    call: (w, k) => deleteProject(w.db, w.actor(k), w.p.id, "p"),
    // Everything of p gone, q whole.
    check: (_r, w) => {
      expect(listProjects(w.db, SYSTEM).map((p) => p.name)).toEqual(["q"]);
      expect(w.db.$client.prepare("select count(*) as n from instances i join lexelts l on l.id = i.lexelt_id where l.project_id = ?").get(w.q.id)).toEqual({ n: 2 });
    },
  },
  {
    name: "listProjects",
    expect: "401 ok ok ok ok ok",
    call: (w, k) => listProjects(w.db, w.actor(k)),
    check: (r, w, k) => {
      const names = (r as { name: string }[]).map((p) => p.name);
      expect(names).toEqual({ annotatorOfOther: ["q"], annotator: ["p"], coordinatorOfOther: ["q"], coordinator: ["p"], system: ["p", "q"] }[k as Exclude<ActorKey, "signedOut">]);
    },
  },
  { name: "projectOverview", expect: COORDINATOR, call: (w, k) => projectOverview(w.db, w.actor(k), w.p.id), check: noOtherProject },
  // datasets.ts
  { name: "importDataset", expect: COORDINATOR, call: (w, k) => importDataset(w.db, w.actor(k), w.p.id, { format: "tsar", fileName: "t.tsv", bytes: enc("a swift reply\tswift\tquick\tquick\n") }) },
  { name: "importDatasetAsNewProject", expect: ANY_COORDINATOR, call: (w, k) => importDatasetAsNewProject(w.db, w.actor(k), "new dataset", { format: "tsar", fileName: "t.tsv", bytes: enc("a swift reply\tswift\tquick\n") }) },
  { name: "exportDataset", expect: COORDINATOR, call: (w, k) => exportDataset(w.db, w.actor(k), w.p.id, "swords"), check: noOtherProject },
  { name: "datasetExportItems", expect: COORDINATOR, call: (w, k) => datasetExportItems(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "datasetSummary", expect: COORDINATOR, call: (w, k) => datasetSummary(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "datasetImportRecords", expect: COORDINATOR, call: (w, k) => datasetImportRecords(w.db, w.actor(k), w.p.id), check: noOtherProject },
  // releases (a release of p and one of q, made by the CLI; nothing of q's may show through p)
  {
    name: "createRelease",
    expect: COORDINATOR,
    call: (w, k) => createRelease(w.db, w.actor(k), w.p.id, { version: "1.0.0" }),
    check: (r, w) => {
      expect(listReleases(w.db, SYSTEM, w.p.id).map((x) => x.version)).toEqual(["1.0.0"]);
      noOtherProject(r);
    },
  },
  { name: "readReleaseSnapshot", expect: COORDINATOR, prep: withReleases, call: (w, k) => readReleaseSnapshot(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "progressChartData", expect: COORDINATOR, call: (w, k) => progressChartData(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "checkReleaseInput", expect: COORDINATOR, call: (w, k) => checkReleaseInput(w.db, w.actor(k), w.p.id, { version: "2.0.0" }) },
  { name: "listReleases", expect: COORDINATOR, prep: withReleases, call: (w, k) => listReleases(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "releaseDetail", expect: COORDINATOR, prep: withReleases, call: (w, k) => releaseDetail(w.db, w.actor(k), w.p.id, releaseOf(w, "p")), check: noOtherProject },
  { name: "releaseByVersion", expect: COORDINATOR, prep: withReleases, call: (w, k) => releaseByVersion(w.db, w.actor(k), w.p.id, "1.0.0"), check: noOtherProject },
  {
    name: "releaseArchive",
    expect: COORDINATOR,
    prep: withReleases,
    call: (w, k) => releaseArchive(w.db, w.actor(k), w.p.id, releaseOf(w, "p")),
    check: (r) => expect((r as { fileName: string }).fileName).toBe("p-1.0.0.tar.gz"),
  },
  {
    name: "releasePlots",
    expect: COORDINATOR,
    prep: withReleases,
    call: (w, k) => releasePlots(w.db, w.actor(k), w.p.id, releaseOf(w, "p")),
    check: (r) => expect((r as Array<{ path: string }>).map((x) => x.path)).toContain("agreement/item-agreement.svg"),
  },
  {
    name: "releaseFile",
    expect: COORDINATOR,
    prep: withReleases,
    call: (w, k) => releaseFile(w.db, w.actor(k), w.p.id, releaseOf(w, "p"), "formats/p.gold"),
    check: (r) => expect((r as { path: string; bytes: Buffer }).bytes.toString("utf8")).not.toContain("q.gold"),
  },
  { name: "datasheetAnswers", expect: COORDINATOR, call: (w, k) => datasheetAnswers(w.db, w.actor(k), w.p.id) },
  { name: "saveDatasheet", expect: COORDINATOR, call: (w, k) => saveDatasheet(w.db, w.actor(k), w.p.id, { motivation: "why" }) },
  // jobs.ts (a job of p, seeded by the CLI; a coordinator of another project can neither see nor cancel it)
  { name: "startJob", expect: COORDINATOR, call: (w, k) => startJob(w.db, w.actor(k), w.p.id, "no-such-kind", { fileName: "x.xml" }) },
  { name: "getJob", expect: COORDINATOR, call: (w, k) => withJob(w, (id) => getJob(w.db, w.actor(k), id)) },
  { name: "listJobs", expect: COORDINATOR, call: (w, k) => withJob(w, () => listJobs(w.db, w.actor(k), w.p.id)) },
  { name: "cancelJob", expect: COORDINATOR, call: (w, k) => withJob(w, (id) => cancelJob(w.db, w.actor(k), id)) },
  { name: "answerWithJob", expect: COORDINATOR, call: (w, k) => answerWithJob(w.db, w.actor(k), w.p.id, { kind: "no-such-kind", input: { fileName: "x.xml" }, wait: false }) },
  {
    name: "waitForJob",
    expect: COORDINATOR,
    call: (w, k) =>
      withJob(w, (id) => {
        // An ended job: the answer comes at once (a queued one here would never run).
        w.db.$client.prepare("update jobs set state = 'done' where id = ?").run(id);
        return waitForJob(w.db, w.actor(k), id);
      }),
  },
  // corpus.ts
  { name: "importLexeltXml", expect: COORDINATOR, call: (w, k) => importLexeltXml(w.db, w.actor(k), w.p.id, { fileName: "x.xml", bytes: enc(EXTRA_XML) }) },
  // assignments.ts
  { name: "listAssignments", expect: COORDINATOR, call: (w, k) => listAssignments(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "setAssignments", expect: COORDINATOR, call: (w, k) => setAssignments(w.db, w.actor(k), w.p.id, w.ann.userId, [w.lexeltP]) },
  { name: "changeAssignments", expect: COORDINATOR, call: (w, k) => changeAssignments(w.db, w.actor(k), w.p.id, w.ann.userId, [w.lexeltP], [w.lexeltP]) },
  { name: "previewSplit", expect: COORDINATOR, call: (w, k) => previewSplit(w.db, w.actor(k), w.p.id, [w.ann.userId], 1), check: noOtherProject },
  { name: "applySplit", expect: COORDINATOR, call: (w, k) => applySplit(w.db, w.actor(k), w.p.id, [w.ann.userId], 1), check: noOtherProject },
  // team.ts
  { name: "teamOverview", expect: COORDINATOR, call: (w, k) => teamOverview(w.db, w.actor(k), w.p.id) },
  { name: "setRequiredAnnotators", expect: COORDINATOR, call: (w, k) => setRequiredAnnotators(w.db, w.actor(k), w.p.id, "2") },
  { name: "setGuidelines", expect: COORDINATOR, call: (w, k) => setGuidelines(w.db, w.actor(k), w.p.id, "Be brief.") },
  { name: "createAnnotatorForProject", expect: COORDINATOR, call: (w, k) => createAnnotatorForProject(w.db, w.actor(k), w.p.id, { name: "newbie", password: "" }) },
  // Finding 6: another project's annotator is "No such account." to the coordinator (the CLI may add anyone).
  { name: "addExistingMember", expect: "401 403 403 404 400 ok", call: (w, k) => addExistingMember(w.db, w.actor(k), w.p.id, String(w.annQ.userId)) },
  // crowd/studies.ts
  { name: "createStudy", expect: COORDINATOR, call: (w, k) => createStudy(w.db, w.actor(k), w.p.id, STUDY_INPUT), check: noOtherProject },
  { name: "listStudies", expect: COORDINATOR, prep: withStudies, call: (w, k) => listStudies(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "setStudyState", expect: COORDINATOR, prep: withStudies, call: (w, k) => setStudyState(w.db, w.actor(k), studyOf(w, "p"), "paused"), check: noOtherProject },
  // users.ts
  { name: "createUser", expect: ANY_COORDINATOR, call: (w, k) => createUser(w.db, w.actor(k), { name: "newbie", role: "annotator", password: "long enough" }) },
  {
    name: "listUsers",
    expect: ANY_COORDINATOR,
    call: (w, k) => listUsers(w.db, w.actor(k)),
    check: (r, _w, k) => {
      expect(JSON.stringify(r)).not.toMatch(/password|hash|\$2[aby]\$/i);
      // Finding 6: a coordinator sees the accounts of their own projects, not the server's.
      if (k === "coordinator") noOtherProject(r);
    },
  },
  { name: "addMember", expect: COORDINATOR, call: (w, k) => addMember(w.db, w.actor(k), w.p.id, "annq") },
  { name: "listMembers", expect: COORDINATOR, call: (w, k) => listMembers(w.db, w.actor(k), w.p.id), check: noOtherProject },
  // ann's role as it is (annotator): allowed, nothing changes; the judge's cases are below.
  { name: "setMemberRole", expect: COORDINATOR, call: (w, k) => setMemberRole(w.db, w.actor(k), w.p.id, w.ann.userId, "annotator") },
  // accounts.ts
  {
    name: "listAccounts",
    expect: ANY_COORDINATOR,
    call: (w, k) => listAccounts(w.db, w.actor(k)),
    check: (r, _w, k) => {
      const names = (r as { name: string }[]).map((u) => u.name);
      if (k === "coordinator") expect(names).toEqual(["ann", "coord"]);
      if (k === "coordinatorOfOther") expect(names).toEqual(["annq", "coordq"]);
      expect(JSON.stringify(r)).not.toMatch(/password|hash|\$2[aby]\$/i);
    },
  },
  {
    name: "changeOwnPassword",
    expect: "401 ok ok ok ok 403",
    call: (w, k) => {
      const a = w.actor(k);
      return changeOwnPassword(w.db, a, { current: `password-${a && a.kind === "user" ? a.name : ""}`, next: "a-new-password-1" });
    },
  },
  { name: "resetPassword", expect: COORDINATOR, call: (w, k) => resetPassword(w.db, w.actor(k), w.ann.userId) },
  { name: "setAccountDisabled", expect: COORDINATOR, call: (w, k) => setAccountDisabled(w.db, w.actor(k), w.ann.userId, true) },
  // signin.ts: lifting a sign-in lock (finding 5 of #27): the annotator's coordinator, not another project's.
  { name: "liftSignInLock", expect: COORDINATOR, call: (w, k) => liftSignInLock(w.db, w.actor(k), w.ann.userId) },
  { name: "removeMember", expect: COORDINATOR, call: (w, k) => removeMember(w.db, w.actor(k), w.p.id, w.ann.userId) },
  // runtime/upload-quota.ts: a per-person quota of waiting uploads, not an authorization check (the
  // route checks who asks first); every actor passes with room left, the CLI and a signed-out caller are never counted.
  { name: "checkUploadRoom", expect: "ok ok ok ok ok ok", call: (w, k) => checkUploadRoom(w.db, w.actor(k), 1) },
  { name: "holdUploadBytes", expect: "ok ok ok ok ok ok", call: (w, k) => holdUploadBytes(w.db, w.actor(k), 1)() },
  { name: "checkDeclaredUpload", expect: "ok ok ok ok ok ok", call: (w, k) => checkDeclaredUpload(w.db, w.actor(k), new Request("http://localhost/", { method: "POST", headers: { "content-length": "1" } })) },
  { name: "signInLocks", expect: ANY_COORDINATOR, call: (w, k) => signInLocks(w.db, w.actor(k), [{ id: w.ann.userId, name: "ann" }]) },
  { name: "failedSignIns", expect: ANY_COORDINATOR, call: (w, k) => failedSignIns(w.db, w.actor(k)) },
  { name: "accountAuditLog", expect: ANY_COORDINATOR, call: (w, k) => accountAuditLog(w.db, w.actor(k)), check: (r, _w, k) => k === "coordinator" && noOtherProject(r) },
  // user-import.ts: the command line only.
  { name: "importUsers", expect: "401 403 403 403 403 ok", call: (w, k) => importUsers(w.db, w.actor(k), { fileName: "u.tsv", text: "newbie\tannotator\tp\t\n" }) },
  // progress.ts
  { name: "projectProgress", expect: COORDINATOR, call: (w, k) => projectProgress(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "progressPageView", expect: COORDINATOR, call: (w, k) => progressPageView(w.db, w.actor(k), w.p.id, {}), check: noOtherProject },
  // response-import.ts
  { name: "previewResponses", expect: COORDINATOR, call: (w, k) => previewResponses(w.db, w.actor(k), w.p.id, { fileName: "r.tsv", text: TSV }), check: noOtherProject },
  { name: "importResponses", expect: COORDINATOR, call: (w, k) => importResponses(w.db, w.actor(k), w.p.id, { fileName: "r.tsv", text: TSV }) },
  { name: "listProjectResponses", expect: COORDINATOR, call: (w, k) => listProjectResponses(w.db, w.actor(k), w.p.id), check: noOtherProject },
  {
    name: "exportResponses",
    expect: COORDINATOR,
    call: (w, k) => exportResponses(w.db, w.actor(k), w.p.id),
    check: (r) => {
      noOtherProject(r);
      expect(r).toContain("ann\tbright.a\tp1\tshining;sunny\t");
      expect(r).not.toContain("password");
    },
  },
  // responses.ts
  {
    name: "annotatorProjects",
    expect: "401 ok ok ok ok 403",
    call: (w, k) => annotatorProjects(w.db, w.actor(k)),
    check: (r, _w, k) => expect((r as { name: string }[]).map((p) => p.name)).toEqual(k.endsWith("Other") ? ["q"] : ["p"]),
  },
  {
    name: "workspace (resume)",
    expect: OWN_WORK,
    call: (w, k) => workspace(w.db, w.actor(k), w.p.id),
    check: noOtherProject,
  },
  {
    name: "workspace (instance)",
    expect: OWN_WORK,
    call: (w, k) => workspace(w.db, w.actor(k), w.p.id, w.ref.p1),
    // The coordinator sees their own (empty) response, never the annotator's.
    check: (r, _w, k) => expect((r as { response: unknown }).response).toEqual(k === "annotator" ? expect.objectContaining({ substitutes: ["shining", "sunny"] }) : null),
  },
  {
    name: "workspace (lexelt)",
    expect: OWN_WORK,
    call: (w, k) => workspace(w.db, w.actor(k), w.p.id, undefined, { lexeltId: w.lexeltP }),
    check: noOtherProject,
  },
  // participant.ts: a participant's own end screens; null for anyone else.
  { name: "participantView", expect: "401 ok ok ok ok ok", call: (w, k) => participantView(w.db, w.actor(k)) },
  { name: "workspaceTargets", expect: OWN_WORK, call: (w, k) => workspaceTargets(w.db, w.actor(k), w.p.id), check: noOtherProject },
  {
    name: "saveResponse",
    expect: OWN_WORK,
    call: (w, k) => saveResponse(w.db, w.actor(k), w.p.id, w.ref.p2, NIL, { expectedRevision: 0 }),
  },
  {
    name: "saveResponseAsync (the save route's)",
    expect: OWN_WORK,
    call: (w, k) => saveResponseAsync(w.db, w.actor(k), w.p.id, w.ref.p2, NIL, { expectedRevision: 0 }),
  },
  // training.ts
  { name: "qualitySettings", expect: COORDINATOR, call: (w, k) => qualitySettings(w.db, w.actor(k), w.p.id) },
  {
    name: "setQualitySettings",
    expect: COORDINATOR,
    call: (w, k) => setQualitySettings(w.db, w.actor(k), w.p.id, { trainingRequired: true, trainingThreshold: 50, speedThresholdSeconds: 3 }),
  },
  { name: "knownAnswerItems", expect: COORDINATOR, prep: withTraining, call: (w, k) => knownAnswerItems(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "setKnownAnswer", expect: COORDINATOR, call: (w, k) => setKnownAnswer(w.db, w.actor(k), w.p.id, { instanceId: "p2", role: "check", accepted: "clever" }) },
  { name: "removeKnownAnswer", expect: COORDINATOR, prep: withTraining, call: (w, k) => removeKnownAnswer(w.db, w.actor(k), w.p.id, "p2") },
  { name: "importKnownAnswers", expect: COORDINATOR, call: (w, k) => importKnownAnswers(w.db, w.actor(k), w.p.id, { role: "training", fileName: "t.tsv", text: "p2\tclever\n" }) },
  { name: "knownAnswersFromGold", expect: COORDINATOR, call: (w, k) => knownAnswersFromGold(w.db, w.actor(k), w.p.id, { role: "check", instanceIds: "p1" }) },
  { name: "checkReport", expect: COORDINATOR, prep: withTraining, call: (w, k) => checkReport(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "setLexeltNote", expect: COORDINATOR, call: (w, k) => setLexeltNote(w.db, w.actor(k), w.p.id, w.lexeltP, "Think of *weather*.") },
  { name: "lexeltNotes", expect: COORDINATOR, call: (w, k) => lexeltNotes(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "trainingView", expect: OWN_WORK, prep: withTraining, call: (w, k) => trainingView(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "answerTraining", expect: OWN_WORK, prep: withTraining, call: (w, k) => answerTraining(w.db, w.actor(k), w.p.id, w.ref.p2, ["clever"]), check: noOtherProject },
  { name: "retryTraining", expect: OWN_WORK, prep: withTraining, call: (w, k) => retryTraining(w.db, w.actor(k), w.p.id, "fresh") },
  { name: "trainingPendingFor", expect: OWN_WORK, prep: withTraining, call: (w, k) => trainingPendingFor(w.db, w.actor(k), w.p.id) },
  // flags.ts
  { name: "saveFlag", expect: OWN_WORK, call: (w, k) => saveFlag(w.db, w.actor(k), w.p.id, w.ref.p2, { flag: "typo", note: "a test" }) },
  { name: "listFlags", expect: COORDINATOR, call: (w, k) => listFlags(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "flaggedInstanceIds", expect: COORDINATOR, call: (w, k) => flaggedInstanceIds(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "instanceNotes", expect: COORDINATOR, call: (w, k) => instanceNotes(w.db, w.actor(k), w.p.id, ["p1", "q1"]), check: noOtherProject },
  { name: "flagsByResponse", expect: COORDINATOR, call: (w, k) => flagsByResponse(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "flagsTsv", expect: COORDINATOR, call: (w, k) => flagsTsv(w.db, w.actor(k), w.p.id), check: noOtherProject },
  {
    name: "returnInstance",
    expect: COORDINATOR,
    call: (w, k) => returnInstance(w.db, w.actor(k), w.p.id, { instanceId: "p1", annotator: "ann", comment: "look again" }),
  },
  { name: "returnLog", expect: COORDINATOR, call: (w, k) => returnLog(w.db, w.actor(k), w.p.id), check: noOtherProject },
  {
    name: "withdrawReturn",
    expect: COORDINATOR,
    prep: (w) => void returnInstance(w.db, SYSTEM, w.p.id, { instanceId: "p1", annotator: "ann", comment: "look again" }),
    call: (w, k) => withdrawReturn(w.db, w.actor(k), w.p.id, { instanceId: "p1", annotator: "ann" }),
  },
  // gold.ts
  { name: "goldInputs", expect: COORDINATOR, call: (w, k) => goldInputs(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "projectGold", expect: COORDINATOR, call: (w, k) => projectGold(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "projectAgreement", expect: COORDINATOR, call: (w, k) => projectAgreement(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "lemmaReview", expect: COORDINATOR, call: (w, k) => lemmaReview(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "decideLemma", expect: COORDINATOR, call: (w, k) => decideLemma(w.db, w.actor(k), w.p.id, { form: "shining", decision: "kept" }) },
  { name: "acceptAllProposals", expect: COORDINATOR, call: (w, k) => acceptAllProposals(w.db, w.actor(k), w.p.id) },
  { name: "decideLemmasWhere", expect: COORDINATOR, call: (w, k) => decideLemmasWhere(w.db, w.actor(k), w.p.id, { decision: "kept", open: true }) },
  {
    name: "importLemmaDecisions",
    expect: COORDINATOR,
    call: (w, k) => importLemmaDecisions(w.db, w.actor(k), w.p.id, { fileName: "d.tsv", text: "form\tdecision\nshining\tkeep\n" }),
  },
  { name: "rebuildProjectFigures", expect: COORDINATOR, call: (w, k) => rebuildProjectFigures(w.db, w.actor(k), w.p.id) },
  { name: "bringFiguresUpToDate", expect: COORDINATOR, call: (w, k) => bringFiguresUpToDate(w.db, w.actor(k), w.p.id) },
  { name: "setExclusion", expect: COORDINATOR, call: (w, k) => setExclusion(w.db, w.actor(k), w.p.id, "p1", "garbled sentence") },
  { name: "setCorrectedPos", expect: COORDINATOR, call: (w, k) => setCorrectedPos(w.db, w.actor(k), w.p.id, "p1", "n") },
  { name: "goldReviewHistory", expect: COORDINATOR, call: (w, k) => goldReviewHistory(w.db, w.actor(k), w.p.id), check: noOtherProject },
  // gold-review.ts
  { name: "goldPageData", expect: COORDINATOR, call: (w, k) => goldPageData(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "instanceTexts", expect: COORDINATOR, call: (w, k) => Object.fromEntries(instanceTexts(w.db, w.actor(k), w.p.id, ["p1", "q1"])), check: noOtherProject },
  { name: "goldReviewCsv", expect: COORDINATOR, call: (w, k) => goldReviewCsv(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "goldReviewTsv", expect: COORDINATOR, call: (w, k) => goldReviewTsv(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "reviewLogPage", expect: COORDINATOR, call: (w, k) => reviewLogPage(w.db, w.actor(k), w.p.id, 1), check: noOtherProject },
  { name: "exportAdjudicatedResponses", expect: COORDINATOR, call: (w, k) => exportAdjudicatedResponses(w.db, w.actor(k), w.p.id), check: noOtherProject },
  // adjudication.ts (issue #15)
  {
    name: "adjudicate",
    expect: COORDINATOR,
    call: (w, k) => adjudicate(w.db, w.actor(k), w.p.id, { action: "strike", instanceId: "p1", annotator: "ann", substitute: "sunny", reason: "a test" }),
  },
  { name: "adjudicate correct", expect: COORDINATOR, call: (w, k) => adjudicate(w.db, w.actor(k), w.p.id, { action: "correct", instanceId: "p1", annotator: "ann", substitute: "sunny", value: "sunlit" }) },
  { name: "adjudicate strike-response", expect: COORDINATOR, call: (w, k) => adjudicate(w.db, w.actor(k), w.p.id, { action: "strike-response", instanceId: "p1", annotator: "ann" }) },
  {
    name: "adjudicate multiword",
    expect: COORDINATOR,
    prep: withPhrase,
    call: (w, k) => adjudicate(w.db, w.actor(k), w.p.id, { action: "multiword", instanceId: "p1", annotator: "ann", substitute: "bright morning", value: null }),
  },
  { name: "adoptMultiword", expect: COORDINATOR, prep: withPhrase, call: (w, k) => adoptMultiword(w.db, w.actor(k), w.p.id, { instanceId: "p1", phrase: "a bright morning" }) },
  { name: "undoAdjudication", expect: COORDINATOR, call: (w, k) => withDecision(w, (id) => undoAdjudication(w.db, w.actor(k), w.p.id, id)) },
  { name: "instanceAdjudications", expect: COORDINATOR, call: (w, k) => withDecision(w, () => instanceAdjudications(w.db, w.actor(k), w.p.id, "p1")), check: noOtherProject },
  { name: "setReviewed", expect: COORDINATOR, call: (w, k) => setReviewed(w.db, w.actor(k), w.p.id, "p1", true) },
  // crowd/participants.ts, crowd/payments.ts (issue #32: the coordinator's view of a study)
  { name: "studyOverviews", expect: COORDINATOR, prep: withCrowd, call: (w, k) => studyOverviews(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "participantsPage", expect: COORDINATOR, prep: withCrowd, call: (w, k) => participantsPage(w.db, w.actor(k), w.p.id, studyOf(w, "p")), check: noOtherProject },
  { name: "studyParticipants", expect: COORDINATOR, prep: withCrowd, call: (w, k) => studyParticipants(w.db, w.actor(k), w.p.id, studyOf(w, "p")), check: noOtherProject },
  {
    name: "reviewParticipant",
    expect: COORDINATOR,
    prep: withCrowd,
    call: (w, k) => reviewParticipant(w.db, w.actor(k), w.p.id, { participantId: participantOf(w, "p"), review: "approved" }),
  },
  { name: "setBonus", expect: COORDINATOR, prep: withCrowd, call: (w, k) => setBonus(w.db, w.actor(k), w.p.id, { participantId: participantOf(w, "p"), bonus: "1.50" }) },
  { name: "excludeRejected", expect: COORDINATOR, prep: withCrowd, call: (w, k) => excludeRejected(w.db, w.actor(k), w.p.id, studyOf(w, "p")) },
  { name: "undoExclusion", expect: COORDINATOR, prep: withCrowdExcluded, call: (w, k) => undoExclusion(w.db, w.actor(k), w.p.id, studyOf(w, "p")) },
  ...(["prolific-approve", "prolific-bonus", "mturk", "tsv"] as const).map(
    (file): Call => ({ name: `paymentFile ${file}`, expect: COORDINATOR, prep: withCrowd, call: (w, k) => paymentFile(w.db, w.actor(k), w.p.id, studyOf(w, "p"), file), check: noOtherProject }),
  ),
  // crowd/started.ts (issue #38): the study page's resume code, only for the signed-in participant of that study (nobody here).
  {
    name: "startedView",
    expect: "ok ok ok ok ok ok",
    prep: withCrowd,
    call: (w, k) => startedView(w.db, w.actor(k), tokenOf(w, "p"), "0000-0000-0000"),
    check: (result) => expect(result).toBeNull(),
  },
  // agreement.ts
  { name: "agreementPageData", expect: COORDINATOR, call: (w, k) => agreementPageData(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "agreementDownload", expect: COORDINATOR, call: (w, k) => agreementDownload(w.db, w.actor(k), w.p.id, { format: "csv", table: "items" }), check: noOtherProject },
  { name: "agreementPageView", expect: COORDINATOR, call: (w, k) => agreementPageView(w.db, w.actor(k), w.p.id, { sort: "pairwise" }), check: noOtherProject },
  // derive-pool.ts / derive-jobs.ts (the app's way to the above, on a worker thread for a file database)
  { name: "refreshAgreementAlpha", expect: COORDINATOR, call: (w, k) => refreshAgreementAlpha(w.db, w.actor(k), w.p.id) },
  { name: "catchUpFigures", expect: COORDINATOR, call: (w, k) => catchUpFigures(w.db, w.actor(k), w.p.id) },
  { name: "goldProblems", expect: COORDINATOR, call: (w, k) => [...goldProblems(w.db, w.actor(k), w.p.id)], check: noOtherProject },
  { name: "agreementReport", expect: COORDINATOR, call: (w, k) => agreementReport(w.db, w.actor(k), w.p.id, { bootstrapIterations: 10 }), check: noOtherProject },
  { name: "goldFileSlices", expect: COORDINATOR, call: (w, k) => [...goldFileSlices(w.db, w.actor(k), w.p.id, "gold")].join(""), check: noOtherProject },
  {
    name: "derive goldFile",
    expect: COORDINATOR,
    call: (w, k) => derive(w.db, { op: "goldFile", actor: w.actor(k), projectId: w.p.id, file: "gold", foldCase: false }),
    check: noOtherProject,
  },
  {
    name: "derive datasetFile",
    expect: COORDINATOR,
    call: (w, k) => derive(w.db, { op: "datasetFile", actor: w.actor(k), projectId: w.p.id, format: "tsar", goldOnly: false }),
    check: noOtherProject,
  },
  {
    name: "runDeriveJob datasetReport",
    expect: COORDINATOR,
    call: (w, k) => runDeriveJob(w.db, { op: "datasetReport", actor: w.actor(k), projectId: w.p.id, format: "swords", goldOnly: false }),
    check: noOtherProject,
  },
  {
    name: "runDeriveJob agreementDownload",
    expect: COORDINATOR,
    call: (w, k) => runDeriveJob(w.db, { op: "agreementDownload", actor: w.actor(k), projectId: w.p.id, query: { format: "json" } }),
    check: noOtherProject,
  },
  { name: "listRuns", expect: COORDINATOR, call: (w, k) => listRuns(w.db, w.actor(k), w.p.id) },
  { name: "uploadRun", expect: COORDINATOR, call: (w, k) => uploadRun(w.db, w.actor(k), w.p.id, { fileName: "s.best", bytes: enc(RUN) }) },
  { name: "deleteRun", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => deleteRun(w.db, w.actor(k), w.p.id, id)) },
  { name: "runFile", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => runFile(w.db, w.actor(k), w.p.id, id)) },
  { name: "runFileDownload", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => [...runFileDownload(w.db, w.actor(k), w.p.id, id).pieces].join("")) },
  { name: "deleteRunInSlices", expect: COORDINATOR, call: (w, k) => withRunAsync(w, (id) => deleteRunInSlices(w.db, w.actor(k), w.p.id, id)) },
  { name: "refreshScoringOthers", expect: COORDINATOR, call: (w, k) => withRunAsync(w, () => refreshScoringOthers(w.db, w.actor(k), w.p.id, { kind: "project" })) },
  { name: "scoringBoardView", expect: COORDINATOR, call: (w, k) => withRunAsync(w, () => scoringBoardView(w.db, w.actor(k), w.p.id, { kind: "project" }, {})), check: noOtherProject },
  { name: "runDetail", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => runDetail(w.db, w.actor(k), w.p.id, id)) },
  { name: "keptRunDetail", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => keptRunDetail(w.db, w.actor(k), w.p.id, id)) },
  { name: "keptRunDetailText", expect: COORDINATOR, call: (w, k) => withRunAsync(w, (id) => keptRunDetailText(w.db, w.actor(k), w.p.id, id, {}, {})) },
  { name: "runReport", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => runReport(w.db, w.actor(k), w.p.id, id)) },
  { name: "scoreBoard", expect: COORDINATOR, call: (w, k) => withRun(w, () => scoreBoard(w.db, w.actor(k), w.p.id, { kind: "project" })), check: noOtherProject },
  { name: "keptScoreBoard", expect: COORDINATOR, call: (w, k) => withRun(w, () => keptScoreBoard(w.db, w.actor(k), w.p.id, { kind: "project" })), check: noOtherProject },
  { name: "computeBoardOthers", expect: COORDINATOR, call: (w, k) => withRun(w, () => computeBoardOthers(w.db, w.actor(k), w.p.id, { kind: "project" })) },
  // baselines.ts
  { name: "baselineInstances", expect: COORDINATOR, call: (w, k) => baselineInstances(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "addWordNetBaselineRuns", expect: COORDINATOR, call: (w, k) => addWordNetBaselineRuns(w.db, w.actor(k), w.p.id) },
  { name: "wordNetBaselineFiles", expect: COORDINATOR, call: (w, k) => wordNetBaselineFiles(w.db, w.actor(k), w.p.id), check: noOtherProject },
  {
    name: "storeWordNetBaselineRuns",
    expect: COORDINATOR,
    call: (w, k) => storeWordNetBaselineRuns(w.db, w.actor(k), w.p.id, wordNetBaselineFiles(w.db, w.actor("coordinator"), w.p.id)),
  },
  {
    name: "resolveGold",
    expect: COORDINATOR,
    call: (w, k) => withGold(w, (id) => resolveGold(w.db, w.actor(k), requireProject(w.db, SYSTEM, w.p.id), { kind: "stored", id })),
  },
  { name: "listGolds", expect: COORDINATOR, call: (w, k) => listGolds(w.db, w.actor(k), w.p.id), check: noOtherProject },
  { name: "storeGold", expect: COORDINATOR, call: (w, k) => storeGold(w.db, w.actor(k), w.p.id, { name: `g${Math.random()}`, gold: { name: "g.gold", text: "bright.a 1 :: clever 2;smart 1;\n" }, mwgold: null }) },
  {
    name: "deleteGold",
    expect: COORDINATOR,
    call: (w, k) => withGold(w, (id) => deleteGold(w.db, w.actor(k), w.p.id, id)),
  },
  { name: "scoresJson", expect: COORDINATOR, call: (w, k) => withRun(w, () => scoresJson(w.db, w.actor(k), w.p.id, { kind: "project" })), check: noOtherProject },
  { name: "scoresFile", expect: COORDINATOR, call: (w, k) => withRun(w, () => scoresFile(w.db, w.actor(k), w.p.id, { kind: "project" })), check: noOtherProject },
  // The repaired figures (issue #12): the same coordinator check as score.pl's.
  { name: "runDetail repaired", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => runDetail(w.db, w.actor(k), w.p.id, id, { repaired: true })) },
  { name: "runReport repaired", expect: COORDINATOR, call: (w, k) => withRun(w, (id) => runReport(w.db, w.actor(k), w.p.id, id, true, { repaired: true })) },
  {
    name: "scoreBoard repaired",
    expect: COORDINATOR,
    call: (w, k) => withRun(w, () => scoreBoard(w.db, w.actor(k), w.p.id, { kind: "project" }, { repaired: true })),
    check: noOtherProject,
  },
  {
    name: "scoresJson repaired",
    expect: COORDINATOR,
    call: (w, k) => withRun(w, () => scoresJson(w.db, w.actor(k), w.p.id, { kind: "project" }, { repaired: true })),
    check: noOtherProject,
  },
  {
    name: "scoreSensevalUpload",
    expect: COORDINATOR,
    call: (w, k) => scoreSensevalUpload(w.db, w.actor(k), w.p.id, { answers: { name: "a", text: "art.n 1 art-1\n" }, key: { name: "k", text: "art.n 1 art-1\n" }, sensemap: null }),
  },
  {
    name: "scoreRankingUpload",
    expect: COORDINATOR,
    call: (w, k) =>
      scoreRankingUpload(w.db, w.actor(k), w.p.id, {
        benchmark: "tsar",
        gold: { name: "g.tsv", bytes: new TextEncoder().encode("A cat sat.\tsat\trested\n") },
        runs: [{ name: "r.tsv", bytes: new TextEncoder().encode("A cat sat.\tsat\trested\n") }],
      }),
  },
  // judgement.ts
  { name: "createRound", expect: COORDINATOR, call: (w, k) => createRound(w.db, w.actor(k), w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"] }), check: noOtherProject },
  {
    name: "myRounds",
    expect: "401 ok ok ok ok 403",
    call: (w, k) => withRound(w, () => myRounds(w.db, w.actor(k))),
    check: (r, _w, k) => expect((r as { project: string }[]).map((x) => x.project)).toEqual(k === "annotator" ? ["p"] : []),
  },
  { name: "listRounds", expect: COORDINATOR, call: (w, k) => withRound(w, () => listRounds(w.db, w.actor(k), w.p.id)), check: noOtherProject },
  { name: "roundInfo", expect: COORDINATOR, call: (w, k) => withRound(w, (id) => roundInfo(w.db, w.actor(k), id)) },
  { name: "setJudges", expect: COORDINATOR, call: (w, k) => withRound(w, (id) => setJudges(w.db, w.actor(k), id, [w.ann.userId])) },
  { name: "setRoundState", expect: COORDINATOR, call: (w, k) => withRound(w, (id) => setRoundState(w.db, w.actor(k), id, "closed")) },
  { name: "roundResults", expect: COORDINATOR, call: (w, k) => withRound(w, (id) => roundResults(w.db, w.actor(k), id)), check: noOtherProject },
  { name: "extendedGold", expect: COORDINATOR, call: (w, k) => withRound(w, (id) => extendedGold(w.db, w.actor(k), id)), check: noOtherProject },
  { name: "swordsExport", expect: COORDINATOR, call: (w, k) => withRound(w, (id) => swordsExport(w.db, w.actor(k), id)), check: noOtherProject },
  {
    name: "nextJudgeItem",
    expect: JUDGE,
    call: (w, k) => withRound(w, (id) => nextJudgeItem(w.db, w.actor(k), id)),
    check: (r) => {
      noOtherProject(r);
      expect(JSON.stringify(r)).not.toContain("annotators");
    },
  },
  {
    name: "saveLabel",
    expect: JUDGE,
    call: (w, k) =>
      withRound(w, (id) => {
        const cand = w.db.$client.prepare("select c.id from judgement_candidates c join judgement_items i on i.id = c.item_id where i.round_id = ? limit 1").get(id) as { id: number };
        return saveLabel(w.db, w.actor(k), id, cand.id, "good");
      }),
  },
  // lib/server/models (test/security/model-matrix.ts)
  ...MODEL_CALLS,
];

/**
 * Call `fn` with a judgement round in p (made by the CLI, the annotator its judge, own items
 * allowed). When the call is refused the round is removed again.
 */
function withRound<T>(w: World, fn: (roundId: number) => T): T {
  const id = createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], allowOwnItems: true }).id;
  setJudges(w.db, SYSTEM, id, [w.ann.userId]);
  try {
    return fn(id);
  } catch (e) {
    w.db.$client.prepare("delete from judgement_labels").run();
    w.db.$client.prepare("delete from judgement_judges").run();
    w.db.$client.prepare("delete from judgement_candidates").run();
    w.db.$client.prepare("delete from judgement_items").run();
    w.db.$client.prepare("delete from judgement_rounds").run();
    w.db.$client.prepare("delete from sqlite_sequence where name like 'judgement_%'").run();
    throw e;
  }
}

describe("data access layer × actor", () => {
  for (const c of CALLS) {
    const want = parseExpect(c.expect);
    describe(c.name, () => {
      for (const k of ACTORS) {
        it(`${k}: ${want[k]}`, async () => {
          const w = world();
          await c.prep?.(w);
          const before = dump(w.db);
          let got: Outcome;
          let result: unknown;
          try {
            result = await c.call(w, k);
            got = "ok";
          } catch (e) {
            got = outcomeOf(e);
          }
          expect(got).toBe(want[k]);
          if (got === "ok") c.check?.(result, w, k);
          else expect(dump(w.db)).toEqual(before);
        });
      }
    });
  }
});

/**
 * Ids from another project handed to a project one may act in: refused, and
 * nothing written. (Object references are checked against the project, not
 * only the project against the actor.)
 */
const CROSSING: Array<{ name: string; outcome: Outcome; call: (w: World) => unknown }> = [
  { name: "jumping to q's lexelt through p", outcome: "404", call: (w) => workspace(w.db, w.ann, w.p.id, undefined, { lexeltId: lexeltOf(w, "q") }) },
  { name: "saving a response to q's instance through p", outcome: "404", call: (w) => saveResponse(w.db, w.ann, w.p.id, w.ref.q2, NIL, { expectedRevision: 0 }) },
  { name: "saving a response to q's instance through p (the save route's way)", outcome: "404", call: (w) => saveResponseAsync(w.db, w.ann, w.p.id, w.ref.q2, NIL, { expectedRevision: 0 }) },
  { name: "opening q's instance through p", outcome: "404", call: (w) => workspace(w.db, w.ann, w.p.id, w.ref.q1) },
  { name: "flagging q's instance through p", outcome: "404", call: (w) => saveFlag(w.db, w.ann, w.p.id, w.ref.q1, { flag: "unsure", note: "" }) },
  {
    name: "returning q's instance (or q's annotator) through p",
    outcome: "404",
    call: (w) => returnInstance(w.db, w.coord, w.p.id, { instanceId: "q1", annotator: "annq", comment: "x" }),
  },
  { name: "assigning p's lexelts to q's annotator", outcome: "404", call: (w) => setAssignments(w.db, w.coord, w.p.id, w.annQ.userId, [w.lexeltP]) },
  { name: "assigning q's lexelt in p", outcome: "400", call: (w) => setAssignments(w.db, w.coord, w.p.id, w.ann.userId, [lexeltOf(w, "q")]) },
  { name: "changing q's lexelt in p", outcome: "400", call: (w) => changeAssignments(w.db, w.coord, w.p.id, w.ann.userId, [lexeltOf(w, "q")], [lexeltOf(w, "q")]) },
  { name: "splitting p's lexelts over q's annotator", outcome: "404", call: (w) => applySplit(w.db, w.coord, w.p.id, [w.annQ.userId], 1) },
  { name: "excluding q's instance through p", outcome: "404", call: (w) => setExclusion(w.db, w.coord, w.p.id, "q1", "spam") },
  { name: "correcting q's instance's PoS through p", outcome: "404", call: (w) => setCorrectedPos(w.db, w.coord, w.p.id, "q1", "n") },
  { name: "striking q's answer through p", outcome: "404", call: (w) => adjudicate(w.db, w.coord, w.p.id, { action: "strike", instanceId: "q1", annotator: "annq", substitute: "gloomy" }) },
  { name: "adopting a phrase on q's instance through p", outcome: "404", call: (w) => adoptMultiword(w.db, w.coord, w.p.id, { instanceId: "q1", phrase: "murky water" }) },
  { name: "striking q's annotator's answer to p's instance", outcome: "404", call: (w) => adjudicate(w.db, w.coord, w.p.id, { action: "strike-response", instanceId: "p1", annotator: "annq" }) },
  {
    name: "undoing q's decision through p",
    outcome: "404",
    call: (w) => {
      const versions = w.db.$client.prepare("select project_id, version from data_versions").all() as { project_id: number; version: number }[];
      const queued = queueRows(w);
      const id = adjudicate(w.db, SYSTEM, w.q.id, { action: "strike", instanceId: "q1", annotator: "annq", substitute: "gloomy" }).id;
      const before = dump(w.db);
      try {
        return undoAdjudication(w.db, w.coord, w.p.id, id);
      } finally {
        expect(dump(w.db)).toEqual(before);
        undoAdjudication(w.db, SYSTEM, w.q.id, id);
        w.db.$client.prepare("delete from gold_review_log").run();
        w.db.$client.prepare("delete from adjudications").run();
        w.db.$client.prepare("delete from data_versions").run();
        for (const v of versions) w.db.$client.prepare("insert into data_versions (project_id, version) values (?, ?)").run(v.project_id, v.version);
        restoreQueue(w, queued);
      }
    },
  },
  { name: "marking q's instance reviewed through p", outcome: "404", call: (w) => setReviewed(w.db, w.coord, w.p.id, "q1", true) },
  {
    name: "importing responses for q's annotator into p",
    outcome: "400",
    call: (w) => importResponses(w.db, w.coord, w.p.id, { fileName: "r.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nannq\tbright.a\tp2\tclever\t\n" }),
  },
  {
    name: "importing responses to q's instance into p",
    outcome: "400",
    call: (w) => importResponses(w.db, w.coord, w.p.id, { fileName: "r.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nann\tmurky.a\tq2\tshady\t\n" }),
  },
  { name: "marking q's instance as a training item through p", outcome: "400", call: (w) => setKnownAnswer(w.db, w.coord, w.p.id, { instanceId: "q1", role: "training", accepted: "dim" }) },
  { name: "noting q's lexelt through p", outcome: "404", call: (w) => setLexeltNote(w.db, w.coord, w.p.id, lexeltOf(w, "q"), "x") },
  { name: "a project id that does not exist (coordinator)", outcome: "404", call: (w) => projectOverview(w.db, w.coord, 9999) },
  { name: "a project id that does not exist (annotator)", outcome: "404", call: (w) => workspace(w.db, w.ann, 9999) },
];

const RUN = "bright.a p1 :: shining\n";

/**
 * Call `fn` with a run stored in p (by the CLI). When the call is refused the
 * run is removed again, so a refusal is still seen to write nothing.
 */
function withRun<T>(w: World, fn: (runId: number) => T): T {
  const id = uploadRun(w.db, SYSTEM, w.p.id, { fileName: "seeded.best", bytes: enc(RUN) }).run.id;
  try {
    return fn(id);
  } catch (e) {
    w.db.$client.prepare("delete from system_runs where id = ?").run(id);
    throw e;
  }
}

/** withRun for a call that answers later (its refusal comes as a rejected promise). */
async function withRunAsync<T>(w: World, fn: (runId: number) => Promise<T>): Promise<T> {
  const id = uploadRun(w.db, SYSTEM, w.p.id, { fileName: "seeded.best", bytes: enc(RUN) }).run.id;
  try {
    return await fn(id);
  } catch (e) {
    w.db.$client.prepare("delete from system_runs where id = ?").run(id);
    throw e;
  }
}

/** Call `fn` with a gold stored in p (by the CLI), removed again when the call is refused. */
function withGold<T>(w: World, fn: (goldId: number) => T): T {
  const id = storeGold(w.db, SYSTEM, w.p.id, { name: `seeded ${Math.random()}`, gold: { name: "d.gold", text: "bright.a 1 :: clever 2;\n" }, mwgold: null }).id!;
  try {
    return fn(id);
  } catch (e) {
    w.db.$client.prepare("delete from scoring_golds where id = ?").run(id);
    throw e;
  }
}

/** Call `fn` with a queued job of p (inserted directly); removed again when the call is refused. */
function withJob<T>(w: World, fn: (jobId: number) => T): T {
  const { id } = w.db.$client.prepare("insert into jobs (project_id, kind, state) values (?, 'lexelt-xml', 'queued') returning id").get(w.p.id) as { id: number };
  try {
    return fn(id);
  } catch (e) {
    w.db.$client.prepare("delete from jobs where id = ?").run(id);
    throw e;
  }
}

/**
 * Call `fn` with a decision recorded in p (by the CLI): ann's "sunny" on p1
 * struck. When the call is refused the decision is removed again, so a refusal
 * is still seen to write nothing.
 */
function withDecision<T>(w: World, fn: (id: number) => T): T {
  const version = dataVersionRow(w);
  const queued = queueRows(w);
  const id = adjudicate(w.db, SYSTEM, w.p.id, { action: "strike", instanceId: "p1", annotator: "ann", substitute: "sunny" }).id;
  try {
    return fn(id);
  } catch (e) {
    w.db.$client.prepare("delete from gold_review_log where project_id = ?").run(w.p.id);
    w.db.$client.prepare("delete from adjudications where id = ?").run(id);
    restoreDataVersion(w, version);
    restoreQueue(w, queued);
    throw e;
  }
}

/** The instances queued for their derived figures (derive_queue, filled by triggers), to put back after a refused call's set-up is removed. */
function queueRows(w: World): { instance_ref: number; project_id: number }[] {
  return w.db.$client.prepare("select instance_ref, project_id from derive_queue order by rowid").all() as { instance_ref: number; project_id: number }[];
}

function restoreQueue(w: World, rows: { instance_ref: number; project_id: number }[]): void {
  w.db.$client.prepare("delete from derive_queue").run();
  for (const r of rows) w.db.$client.prepare("insert into derive_queue (instance_ref, project_id) values (?, ?)").run(r.instance_ref, r.project_id);
}

/** The project's row in data_versions (raised by triggers on every change the gold reads), to put back after a refused call's set-up is removed. */
function dataVersionRow(w: World): number | undefined {
  return (w.db.$client.prepare("select version from data_versions where project_id = ?").get(w.p.id) as { version: number } | undefined)?.version;
}

function restoreDataVersion(w: World, version: number | undefined): void {
  if (version === undefined) w.db.$client.prepare("delete from data_versions where project_id = ?").run(w.p.id);
  else w.db.$client.prepare("update data_versions set version = ? where project_id = ?").run(version, w.p.id);
}

function lexeltOf(w: World, project: "p" | "q"): number {
  return (w.db.$client.prepare("select id from lexelts where project_id = ?").get(w[project].id) as { id: number }).id;
}

describe("ids of another project are refused", () => {
  for (const c of CROSSING) {
    it(`${c.name}: ${c.outcome}`, async () => {
      const w = world();
      const before = dump(w.db);
      let got: Outcome = "ok";
      try {
        await c.call(w);
      } catch (e) {
        got = outcomeOf(e);
      }
      expect(got).toBe(c.outcome);
      expect(dump(w.db)).toEqual(before);
    });
  }
});

describe("studies of another project are refused", () => {
  it.each([
    ["through p's page", (w: World) => setStudyState(w.db, w.coord, studyOf(w, "q"), "paused", w.p.id)],
    ["as p's coordinator", (w: World) => setStudyState(w.db, w.coord, studyOf(w, "q"), "paused")],
    ["p's study through q's page", (w: World) => setStudyState(w.db, w.coordQ, studyOf(w, "p"), "paused", w.q.id)],
  ])("pausing q's study %s: 404, nothing written", (_name, call) => {
    const w = world();
    withStudies(w);
    const before = dump(w.db);
    expect(outcomeOf(catching(() => call(w)))).toBe("404");
    expect(dump(w.db)).toEqual(before);
  });
});

describe("refusals do not reveal whether a project exists", () => {
  it("a non-member gets the same error for another project as for no project at all", () => {
    const w = world();
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return `${outcomeOf(e)} ${(e as Error).message}`;
      }
      return "ok";
    };
    for (const actor of [w.coordQ, w.annQ]) {
      expect(message(() => requireProject(w.db, actor, w.p.id))).toBe(message(() => requireProject(w.db, actor, 9999)));
      expect(message(() => workspace(w.db, actor, w.p.id))).toBe(message(() => workspace(w.db, actor, 9999)));
    }
    expect(message(() => projectOverview(w.db, w.coordQ, w.p.id))).toBe(message(() => projectOverview(w.db, w.coordQ, 9999)));
    expect(message(() => findProjectByName(w.db, w.coordQ, "p"))).toBe("404 No such project.");
  });
});

/**
 * The judge: "jud" judges in p and annotates in q (world.ts addJudge). In p they reach only the
 * judgement rounds they judge: never the workspace, saves, flags, training, the queue, the
 * coordinator's pages (Progress, gold, assignments); they never count as an annotator. In q
 * they annotate as anyone.
 */
describe("a judge of the project (and annotator of another)", () => {
  const judgeWorld = () => {
    const w = world();
    const jud = addJudge(w);
    return { w, jud };
  };
  const refusals: Array<{ name: string; outcome: Outcome; call: (w: World, jud: Actor) => unknown }> = [
    { name: "requireProject {annotate}", outcome: "403", call: (w, j) => requireProject(w.db, j, w.p.id, { annotate: true }) },
    { name: "workspace", outcome: "403", call: (w, j) => workspace(w.db, j, w.p.id) },
    { name: "workspace of an instance", outcome: "403", call: (w, j) => workspace(w.db, j, w.p.id, w.ref.p1) },
    { name: "workspaceTargets", outcome: "403", call: (w, j) => workspaceTargets(w.db, j, w.p.id) },
    { name: "saveResponse", outcome: "403", call: (w, j) => saveResponse(w.db, j, w.p.id, w.ref.p2, NIL, { expectedRevision: 0 }) },
    { name: "saveResponseAsync", outcome: "403", call: (w, j) => saveResponseAsync(w.db, j, w.p.id, w.ref.p2, NIL, { expectedRevision: 0 }) },
    { name: "saveFlag", outcome: "403", call: (w, j) => saveFlag(w.db, j, w.p.id, w.ref.p1, { flag: "unsure", note: "" }) },
    { name: "trainingView", outcome: "403", call: (w, j) => trainingView(w.db, j, w.p.id) },
    { name: "trainingPendingFor", outcome: "403", call: (w, j) => trainingPendingFor(w.db, j, w.p.id) },
    { name: "answerTraining", outcome: "403", call: (w, j) => answerTraining(w.db, j, w.p.id, w.ref.p2, ["clever"]) },
    { name: "retryTraining", outcome: "403", call: (w, j) => retryTraining(w.db, j, w.p.id, 1) },
    { name: "projectProgress", outcome: "403", call: (w, j) => projectProgress(w.db, j, w.p.id) },
    { name: "projectGold", outcome: "403", call: (w, j) => projectGold(w.db, j, w.p.id) },
    { name: "goldInputs", outcome: "403", call: (w, j) => goldInputs(w.db, j, w.p.id) },
    { name: "listFlags", outcome: "403", call: (w, j) => listFlags(w.db, j, w.p.id) },
    { name: "listAssignments", outcome: "403", call: (w, j) => listAssignments(w.db, j, w.p.id) },
    { name: "teamOverview", outcome: "403", call: (w, j) => teamOverview(w.db, j, w.p.id) },
    { name: "listRounds", outcome: "403", call: (w, j) => listRounds(w.db, j, w.p.id) },
    { name: "setMemberRole (their own)", outcome: "403", call: (w, j) => setMemberRole(w.db, j, w.p.id, (j as { userId: number }).userId, "annotator") },
  ];
  for (const r of refusals) {
    it(`${r.name} in p: ${r.outcome}, nothing written`, async () => {
      const { w, jud } = judgeWorld();
      const before = dump(w.db);
      let got: Outcome = "ok";
      try {
        await r.call(w, jud);
      } catch (e) {
        got = outcomeOf(e);
      }
      expect(got).toBe(r.outcome);
      expect(dump(w.db)).toEqual(before);
    });
  }

  it("the refusal of the workspace says why in plain words", () => {
    const { w, jud } = judgeWorld();
    expect(() => workspace(w.db, jud, w.p.id)).toThrow("You are a judge in “p”: you label its judgement rounds (listed on your Annotate page); its annotation workspace is for its annotators.");
  });

  it("labels in the rounds of p they judge, and sees only those", () => {
    const { w, jud } = judgeWorld();
    const mine = createRound(w.db, SYSTEM, w.p.id, { name: "mine", selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], judges: [jud.userId] });
    createRound(w.db, SYSTEM, w.p.id, { name: "theirs", selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], judges: [w.ann.userId] });
    expect(myRounds(w.db, jud).map((r) => r.name)).toEqual(["mine"]);
    const item = nextJudgeItem(w.db, jud, mine.id)!;
    expect(item.candidates.length).toBeGreaterThan(0);
    expect(saveLabel(w.db, jud, mine.id, item.candidates[0].id, "good")).toBe("good");
    const other = myRounds(w.db, w.ann).find((r) => r.name === "theirs")!;
    expect(outcomeOf(catching(() => nextJudgeItem(w.db, jud, other.id)))).toBe("403");
  });

  it("the annotate page lists q (where they annotate) and not p; in q they annotate as anyone", () => {
    const { w, jud } = judgeWorld();
    expect(annotatorProjects(w.db, jud).map((p) => p.name)).toEqual(["q"]);
    expect(workspace(w.db, jud, w.q.id).instance).not.toBeNull();
    expect(saveResponse(w.db, jud, w.q.id, w.ref.q2, NIL, { expectedRevision: 0 }).revision).toBe(1);
  });

  it("Progress, assignments and the gold of p leave the judge out; with the default rule an instance is complete with every annotator's answer", () => {
    const { w, jud } = judgeWorld();
    const pr = projectProgress(w.db, w.coord, w.p.id);
    expect(pr.annotators.map((a) => a.name)).toEqual(["ann"]);
    // requiredAnnotators blank: everyone assigned, i.e. ann alone; ann answered p1 (world.ts).
    expect(pr.project.requiredAnnotators).toBeNull();
    expect(pr.complete).toBe(1);
    expect(pr.lexelts.map((l) => l.assignedAnnotators)).toEqual([1, 1]);
    expect(listAssignments(w.db, w.coord, w.p.id).map((a) => a.name)).toEqual(["ann"]);
    expect(outcomeOf(catching(() => previewSplit(w.db, w.coord, w.p.id, [w.ann.userId, jud.userId], 1)))).toBe("404");
    expect(outcomeOf(catching(() => changeAssignments(w.db, w.coord, w.p.id, jud.userId, [w.lexeltP], [w.lexeltP])))).toBe("400");
    expect(JSON.stringify(goldInputs(w.db, w.coord, w.p.id))).not.toContain(`"jud"`);
    // Nor can answers be imported in their name.
    const imported = catching(() => importResponses(w.db, w.coord, w.p.id, { fileName: "r.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\njud\tbright.a\tp2\tclever\t\n" }));
    expect(outcomeOf(imported)).toBe("400");
    expect(JSON.stringify(imported)).toContain("not an annotator of this project");
    const team = teamOverview(w.db, w.coord, w.p.id);
    expect(team.members.find((m) => m.name === "jud")).toMatchObject({ projectRole: "judge", assigned: null });
  });

  it("the coordinator changes roles: a member with answers stays an annotator; a judge made annotator counts again", () => {
    const { w, jud } = judgeWorld();
    const before = dump(w.db);
    expect(outcomeOf(catching(() => setMemberRole(w.db, w.coord, w.p.id, w.ann.userId, "judge")))).toBe("400");
    expect(outcomeOf(catching(() => setMemberRole(w.db, w.coord, w.p.id, jud.userId, "coordinator")))).toBe("400");
    expect(dump(w.db)).toEqual(before);
    expect(setMemberRole(w.db, w.coord, w.p.id, jud.userId, "annotator")).toEqual({ name: "jud", role: "annotator" });
    expect(projectProgress(w.db, w.coord, w.p.id).annotators.map((a) => a.name)).toEqual(["ann", "jud"]);
    expect(workspace(w.db, jud, w.p.id).instance).not.toBeNull();
    // Back to judge (no answers yet in p): their lexelt restriction goes with it.
    changeAssignments(w.db, w.coord, w.p.id, jud.userId, [w.lexeltP], [w.lexeltP]);
    expect(setMemberRole(w.db, w.coord, w.p.id, jud.userId, "judge").role).toBe("judge");
    expect(w.db.$client.prepare("select count(*) as n from assignments where user_id = ?").get(jud.userId)).toEqual({ n: 0 });
  });

  it("round judges are judges or annotators of the project, never its coordinator", () => {
    const { w, jud } = judgeWorld();
    const round = createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], judges: [jud.userId, w.ann.userId] });
    expect(roundInfo(w.db, w.coord, round.id).judges.map((j) => j.name).sort()).toEqual(["ann", "jud"]);
    expect(outcomeOf(catching(() => setJudges(w.db, w.coord, round.id, [w.coord.userId])))).toBe("400");
  });

  it("a coordinator account that judges in a project does not coordinate it", () => {
    const { w } = judgeWorld();
    addMember(w.db, SYSTEM, w.p.id, "coordq", "judge");
    expect(outcomeOf(catching(() => projectProgress(w.db, w.coordQ, w.p.id)))).toBe("403");
    expect(outcomeOf(catching(() => workspace(w.db, w.coordQ, w.p.id)))).toBe("403");
    expect(listUsers(w.db, w.coordQ).map((u) => u.name)).not.toContain("ann");
  });
});

/**
 * A crowd participant of p (joined by a study link: role "participant", an annotator of p only).
 * In p they reach what an annotator reaches; nothing of the coordinator's, of the accounts, or of q.
 */
describe("a participant of the project", () => {
  const participantWorld = async () => {
    process.env.LEXGOLD_STUDY_JOIN_RATE = "off";
    process.env.LEXGOLD_ADDRESS_JOIN_RATE = "off";
    resetRateLimits();
    const w = world();
    withStudies(w);
    const token = (w.db.$client.prepare("select token from studies where id = ?").get(studyOf(w, "p")) as { token: string }).token;
    const j = await joinStudy(w.db, { token, params: { id: "crowd1" }, address: null, now: Date.now() });
    const actor: Actor = { kind: "user", userId: j.user.id, name: j.user.name, role: "participant" };
    return { w, actor };
  };
  const refusals: Array<{ name: string; outcome: Outcome; call: (w: World, a: Actor) => unknown }> = [
    { name: "requireProject q", outcome: "404", call: (w, a) => requireProject(w.db, a, w.q.id) },
    { name: "workspace of q", outcome: "404", call: (w, a) => workspace(w.db, a, w.q.id) },
    { name: "saveResponse in q", outcome: "404", call: (w, a) => saveResponse(w.db, a, w.q.id, w.ref.q2, NIL, { expectedRevision: 0 }) },
    { name: "createStudy", outcome: "403", call: (w, a) => createStudy(w.db, a, w.p.id, STUDY_INPUT) },
    { name: "listStudies", outcome: "403", call: (w, a) => listStudies(w.db, a, w.p.id) },
    { name: "setStudyState", outcome: "403", call: (w, a) => setStudyState(w.db, a, studyOf(w, "p"), "closed") },
    { name: "createProject", outcome: "403", call: (w, a) => createProject(w.db, a, { name: "mine" }) },
    { name: "projectOverview", outcome: "403", call: (w, a) => projectOverview(w.db, a, w.p.id) },
    { name: "projectProgress", outcome: "403", call: (w, a) => projectProgress(w.db, a, w.p.id) },
    { name: "projectGold", outcome: "403", call: (w, a) => projectGold(w.db, a, w.p.id) },
    { name: "teamOverview", outcome: "403", call: (w, a) => teamOverview(w.db, a, w.p.id) },
    { name: "listUsers", outcome: "403", call: (w, a) => listUsers(w.db, a) },
    { name: "listAccounts", outcome: "403", call: (w, a) => listAccounts(w.db, a) },
    { name: "createUser", outcome: "403", call: (w, a) => createUser(w.db, a, { name: "newbie", role: "annotator", password: "long enough" }) },
    { name: "resetPassword of ann", outcome: "403", call: (w, a) => resetPassword(w.db, a, w.ann.userId) },
    { name: "listFlags", outcome: "403", call: (w, a) => listFlags(w.db, a, w.p.id) },
  ];
  for (const r of refusals) {
    it(`${r.name}: ${r.outcome}, nothing written`, async () => {
      const { w, actor } = await participantWorld();
      const before = dump(w.db);
      let got: Outcome = "ok";
      try {
        await r.call(w, actor);
      } catch (e) {
        got = outcomeOf(e);
      }
      expect(got).toBe(r.outcome);
      expect(dump(w.db)).toEqual(before);
    });
  }

  it("lists p alone among the projects, and sees p's workspace as an annotator", async () => {
    const { w, actor } = await participantWorld();
    expect(listProjects(w.db, actor).map((p) => p.name)).toEqual(["p"]);
    expect(requireProject(w.db, actor, w.p.id, { annotate: true }).memberRole).toBe("annotator");
  });
});

function catching(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a refusal");
}

describe("the matrix covers lib/server", () => {
  it("every exported function taking (db, actor, …) has a line in CALLS", () => {
    const dir = path.resolve(import.meta.dirname, "../../lib/server");
    const covered = new Set(CALLS.map((c) => c.name.split(" ")[0]));
    const missing: string[] = [];
    const tracked = trackedFiles(path.resolve(dir, "../.."), "lib/server");
    for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && (!tracked || tracked.has(path.join(dir, f))))) {
      const src = fs.readFileSync(path.join(dir, file), "utf8");
      for (const m of src.matchAll(/export (?:async )?function (\w+)\s*\(\s*db\s*:\s*Db\s*,\s*actor\s*:\s*Actor\b/g)) {
        if (!covered.has(m[1])) missing.push(`lib/server/${file}: ${m[1]}`);
      }
    }
    expect(missing, "add one line per function to CALLS in test/security/matrix.test.ts").toEqual([]);
  });
});

// Every line of CALLS again as a study participant of p and of q (test/security/participant-matrix.ts).
participantMatrix(CALLS);
