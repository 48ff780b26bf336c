/**
 * SENSEVAL's scorer2 and the SENSEVAL-1 report (docs/sister-scorers.md).
 */
export * from "./score";
export * from "./report";
