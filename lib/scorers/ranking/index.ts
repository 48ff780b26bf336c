/**
 * The ranking benchmarks in one import: scoring and ranking several runs against one gold (rank.ts),
 * the figures' format, and each benchmark's own measures and readers.
 */
export * from "./rank";
export * from "./format";
export * from "../ranked";
export * from "../tsar";
export * from "../swords";
export * from "../gap";
