/**
 * TSAR-2022 / MLSP's measures, as tsar_eval.py computes them (docs/ranking.md).
 */
export * from "./score";
