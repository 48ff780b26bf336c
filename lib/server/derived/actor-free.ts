/**
 * lib/server/derived, actor-free: what the other features of lib/server (annotate's save and
 * progress read, gold/, scoring/) and the derivations of lib/server/jobs (derive-pool.ts and the
 * derivation process, derive-worker.ts) use of the kept figures. Every function here takes the
 * database and no actor: each caller has checked who asks (the save, a page's read) or is the
 * server's own work (the applier, the derivation process).
 *
 * A feature reaches another only through its index.ts or its actor-free.ts (.dependency-cruiser.cjs,
 * feature-to-feature-through-index). index.ts is the face app/ and bin/ may import (the functions that
 * take the actor); this entry is not: app/ cannot import it (app-to-server-through-feature-index), so
 * nothing that skips the actor's check is within reach of a page or route.
 */
// The save (annotate/responses.ts): its instance's figures brought up to date inside its transaction.
export { maintainInstanceAtCommit } from "./maintain";
// The queue (queue.ts): a reader's catching up, the applier's and the derivation process's draining.
export { catchUp, catchUpNow, drainSlice, isServed, markServed, queuedCount, queuedProjects } from "./queue";
// The kept reads (read.ts).
export { countsOf, firstProblems, goldFileLines, goldFileText, goldSummaryOf, lexeltKeysOf, problemCount, problemsInOrder } from "./read";
// The lemma review from the kept forms: whole, one form, or counted and a page at a time (lemma-review.ts).
export {
  type LemmaReviewEntry,
  type LemmaReviewFilter,
  type OpenProposals,
  lemmaReviewCounts,
  lemmaReviewEntry,
  lemmaReviewOf,
  lemmaReviewSlice,
  openProposalsOf,
} from "./lemma-review";
// One instance derived from its inputs (gold's review of one instance).
export { instanceInputs } from "./inputs";
export { deriveInstance, formsOf } from "./instance";
export { lemmaProposer } from "./lemmas";
// α and the intervals over the kept items, and the snapshots that keep such figures.
export { AGREEMENT_OPTIONS, type AlphaFigures, alphaOf, alphaSnapshot, computeAlphaSnapshot, keptLexeltRows, keptReport, lowestOf } from "./agreement";
export { computeSnapshot, readSnapshot, type Snapshot } from "./snapshots";
// Each stored run's outcomes per id (scoring's board, a run's page, the storing of a run).
export { BLOCK, OutcomeBlocks, projectGoldLines, scanRunOutcomes, sumRunOutcomes } from "./run-items";
