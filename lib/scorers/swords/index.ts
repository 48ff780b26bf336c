/**
 * SWORDS's measures, as its eval.py computes them, and NLTK's lemmatiser they need (docs/ranking.md).
 */
export * from "./score";
export * from "./nltk";
