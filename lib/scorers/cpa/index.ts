/**
 * SemEval-2015 Task 15 (CPA): parsing, clustering and pattern acquisition (docs/sister-scorers.md).
 */
export * from "./score";
