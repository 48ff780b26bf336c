/**
 * GAP with P@1 / P@3 / R@10, as the reference scripts compute them, and the golds they read (docs/ranking.md).
 */
export * from "./gold";
export * from "./score";
