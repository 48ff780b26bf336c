/**
 * lib/server/gold: The gold standard of a project: derived from the responses and the coordinator's decisions
 * (gold.ts: deriveProjectGold; an imported dataset's counts through deriveResponseGold), reviewed
 * (gold-review.ts), adjudicated (adjudication.ts), and the agreement over it (agreement.ts).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { adjudicate, adoptMultiword, setReviewed, undoAdjudication } from "./adjudication";
export { type AgreementPageView, agreementPageView, type LowItem } from "./agreement";
export { acceptAllProposals, decideLemma, decideLemmasWhere, setCorrectedPos, setExclusion } from "./gold";
export { type GoldPageData, goldPageData, goldReviewCsv, goldReviewTsv, type InstanceOrder, type Paged, type ReviewInstance, reviewLogPage, type ReviewLogRow, type TypedAnswer } from "./gold-review";
export { goldFileSlices } from "./gold-files";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { AGREEMENT_OPTIONS } from "./agreement";
export { deriveProjectGold, deriveResponseGold, type GoldInputs, goldInputs, lemmaProposer, projectGold, scopedGoldInputs } from "./gold";
export { excludedParticipantNames, responseRecords } from "./gold-responses";
// For the derivation process (lib/server/jobs/derive-worker.ts): it keeps the last project's inputs and gold.
export { keepDerivationInputs } from "./gold";
// Without an actor: this feature's derivation kinds, for the derivations (lib/server/jobs/derive-jobs.ts); each job
// carries the actor, which the derivation checks before it runs.
export { GOLD_DERIVE_KINDS } from "./derive-kinds";
