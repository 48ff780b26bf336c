/**
 * The lexical-substitution scorer: best, oot and mw as the official SemEval-2007
 * scorer computes them, plus further analysis (NMWT, NMWS, word-list subsets,
 * per-PoS and per-lexelt breakdowns). Pure: strings and records in, records out.
 *
 *   const { key } = ScoringKey.fromGold(parseGold(goldText, "gold.test").lines, "gold.test");
 *   const result = scoreBest(key, parseSystem(text, "sys.best", "best").lines);
 *   formatReport(result)  // the official text output
 *
 * or, for texts in hand (an upload), `scoreTexts({ type, system, gold })`.
 *
 * A large system file streams through `FastScorer` (fast.ts, which bin/commands/score-files.ts
 * imports alone, so that the plain score path loads no more than it needs).
 */
export { parseGold, parseMwGold } from "../../lexsub/formats/gold";
export { parseSystem } from "./system";
export { type Reading, readingFor } from "./rules";
export { type KeyOptions, KeyBuilder, ScoringKey } from "./key";
export { type ItemScore, type SubstitutionResult, type SubstitutionStats, itemStats, substitutionScores } from "./substitution";
export { bestScorer, scoreBest } from "./best";
export { ootScorer, scoreOot } from "./oot";
export { type MwItem, type MwResult, type MwStats, MwKey, mwScores, scoreMw } from "./mw";
export { type GroupBy, groupOf, lexeltKey, multiwordIds, parseIdList, parseWordList, posOf } from "./analysis";
export { scoreTexts } from "./texts";
export { type RepairReport, type ScoreRunOptions, type ScoreRunResult, type Utf8Report, ScoreRun, repairReport, utf8Report } from "./run";
export {
  formatBestItem,
  formatGroups,
  formatMwItem,
  formatMwTotals,
  formatRepairNotice,
  formatReport,
  formatSubstitutionItem,
  formatSubstitutionTotals,
  formatUtf8Notice,
  mwJson,
  officialPercent,
  perlNumber,
  repairJson,
  substitutionJson,
  utf8Json,
} from "./report";
