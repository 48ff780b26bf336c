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
 * To stream a large system file, feed `SystemReader` and `bestScorer(key)` /
 * `ootScorer(key)` / `MwScorer` one line at a time (bin/commands/score-files.ts).
 */
export { type GoldEntry, type GoldKind, type GoldLine, GoldReader, formatGoldLine, parseGold, parseMwGold } from "../../lexsub/formats/gold";
export { type SystemKind, type SystemLine, SystemReader, parseSystem } from "./system";
export { OOT_LIMIT, type Reading, normalizeGuess, readingFor } from "./rules";
export { type KeyItem, type KeyOptions, KeyBuilder, ScoringKey } from "./key";
export {
  type GoldView,
  type ItemOutcome,
  type ItemScore,
  type ScorerOptions,
  type SubstitutionResult,
  type SubstitutionScores,
  type SubstitutionStats,
  type SubstitutionType,
  SubstitutionScorer,
  addItem,
  emptyStats,
  itemStats,
  substitutionScores,
} from "./substitution";
export { bestItem, bestScorer, scoreBest } from "./best";
export { ootItem, ootScorer, scoreOot } from "./oot";
export { type MwItem, type MwResult, type MwScores, type MwStats, MwKey, MwKeyBuilder, MwScorer, mwScores, scoreMw } from "./mw";
export {
  type GroupBy,
  groupOf,
  isMultiword,
  lexeltKey,
  multiwordIds,
  multiwordMode,
  parseIdList,
  parseWordList,
  posOf,
} from "./analysis";
export { type ScoreTextsInput, type ScoreTextsOutput, scoreTexts } from "./texts";
export { type RepairReport, type ScoreRunOptions, type ScoreRunResult, type ScoreType, type Utf8Report, ScoreRun, repairReport, utf8Report } from "./run";
export { type RepairChange, type RepairRule, REPAIR_RULES, RepairTracker, repairInfo } from "./repairs";
export {
  formatBestItem,
  formatGroups,
  formatMwItem,
  formatMwTotals,
  formatOotItem,
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
