/**
 * lib/server/quality: Training, known answers, attention checks and lexelt notes (issue #15). The workspace's gate
 * (pass the training first) is lib/server/annotate/training-gate.ts.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { answerTraining, checkReport, importKnownAnswers, knownAnswerItems, knownAnswersFromGold, lexeltNotes, qualitySettings, removeKnownAnswer, retryTraining, setKnownAnswer, setLexeltNote, setQualitySettings, type TrainingFeedback, trainingPendingFor, trainingView, type TrainingView } from "./training";
