/**
 * lib/server/judgement: Judgement rounds: judges label candidate substitutes; the extended gold and the SWORDS export.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { createRound, extendedGold, listRounds, myRounds, nextJudgeItem, roundResults, saveLabel, setJudges, setRoundState, swordsExport } from "./judgement";
