/**
 * lib/server/crowd: Crowdsourced studies (issue #32): study links, joining by the platform's ids,
 * batches with balanced overlap (studies.ts, join.ts, allocation.ts); the coordinator's view of a
 * study's participants, their review (approve, reject, bonus), leaving rejected participants out
 * of the gold, and the payment downloads (participants.ts, payments.ts).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { createStudy, listStudies, MAX_BATCH, MAX_MINUTES, MAX_OVERLAP, platformLink, setStudyState } from "./studies";
// Without an actor: where the server is reached (for the links shown to a coordinator).
export { publicOrigin } from "./studies";
// Without an actor: the study link is the credential. The link's page reads the study by its token
// (nothing a coordinator alone may see), and lib/auth's "study" sign-in joins by it.
export { closedSentence, joinStudy, type LinkParams, readParams, studyByToken } from "./join";
// The study page's panel after the first join: the signed-in participant's own resume code.
export { startedView } from "./started";
export { excludeRejected, type ParticipantRow, type ParticipantsPage, participantsPage, reviewParticipant, setBonus, studyOverviews, type StudyOverview, undoExclusion } from "./participants";
// Without an actor: the limits the forms show.
export { MAX_REASON } from "./participants";
export { paymentFile } from "./payments";
