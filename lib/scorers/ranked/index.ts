/**
 * Ranked runs and the count golds the ranking benchmarks read (TSAR/MLSP, SWORDS, GAP), with the
 * SemEval gold and oot files read as rankings.
 */
export * from "./input";
