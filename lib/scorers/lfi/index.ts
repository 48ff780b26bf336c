/**
 * Senseval-3 logic-form identification (docs/sister-scorers.md).
 */
export * from "./score";
