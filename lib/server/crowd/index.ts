/**
 * lib/server/crowd: Crowdsourced studies (issue #32). This index holds the coordinator's
 * view: the studies and their participants, the review (approve, reject, bonus), leaving
 * rejected participants out of the gold, and the payment downloads.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { excludeRejected, listStudies, type ParticipantRow, type ParticipantsPage, participantsPage, reviewParticipant, setBonus, type StudySummary, undoExclusion } from "./participants";
// Without an actor: the limits the forms show.
export { MAX_REASON } from "./participants";
export { paymentFile } from "./payments";
