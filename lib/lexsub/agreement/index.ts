/** Inter-annotator agreement: see report.ts. */
export * from "./report";
