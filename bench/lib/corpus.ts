/**
 * Synthetic lexelt XML for the load runs: sentences assembled from a small
 * vocabulary written for lexgold, in the task's format (a DOCTYPE naming a DTD,
 * one <head> per context). Deterministic for a given seed. Pure.
 */
import { mulberry32 } from "../../lib/lexsub/agreement/bootstrap";

const TARGETS: Array<{ lemma: string; pos: "n" | "v" | "a" | "r"; forms: string[] }> = [
  { lemma: "bright", pos: "a", forms: ["bright", "brighter"] },
  { lemma: "launch", pos: "v", forms: ["launch", "launched", "launches"] },
  { lemma: "quiet", pos: "a", forms: ["quiet", "quieter"] },
  { lemma: "charge", pos: "n", forms: ["charge", "charges"] },
  { lemma: "settle", pos: "v", forms: ["settle", "settled"] },
  { lemma: "rough", pos: "a", forms: ["rough", "rougher"] },
  { lemma: "quickly", pos: "r", forms: ["quickly"] },
  { lemma: "draw", pos: "v", forms: ["draw", "drew", "drawn"] },
  { lemma: "plain", pos: "a", forms: ["plain"] },
  { lemma: "stretch", pos: "n", forms: ["stretch", "stretches"] },
];

const SUBJECTS = ["The committee", "My neighbour", "A small crew", "The new manager", "Her brother", "The village", "Our team", "The old ferry"];
const VERBS = ["noticed", "remembered", "described", "mentioned", "discussed", "questioned", "welcomed", "ignored"];
const OBJECTS = ["the long report", "a sudden change", "the morning train", "a quiet harbour", "the final plan", "an open field", "the winter market"];
const ENDINGS = ["before noon", "after the storm", "without a word", "during the meeting", "at the weekend", "on the far shore"];

/** A small deterministic PRNG: lib's mulberry32 (the agreement bootstrap's). */
const prng = mulberry32;

export interface CorpusSpec {
  lexelts: number;
  instancesPerLexelt: number;
  /** Prefixes every instance id and lexelt lemma, so several corpora can live in one project. */
  idPrefix: string;
  seed: number;
}

/** A lexelt XML file of lexelts × instancesPerLexelt instances. */
export function lexeltXml(spec: CorpusSpec): string {
  const rand = prng(spec.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const out: string[] = ['<?xml version="1.0" ?>', '<!DOCTYPE corpus SYSTEM "lexsub.dtd">', '<corpus lang="english">'];
  let n = 0;
  for (let l = 0; l < spec.lexelts; l++) {
    const t = TARGETS[l % TARGETS.length];
    // Distinct lexelts: the target lemma with a numeric suffix (the item is lemma.pos).
    const lemma = `${t.lemma}${spec.idPrefix}${l}`;
    out.push(`<lexelt item="${lemma}.${t.pos}">`);
    for (let k = 0; k < spec.instancesPerLexelt; k++) {
      n++;
      const head = pick(t.forms);
      const before = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} and said it was`;
      const after = `${pick(ENDINGS)} .`;
      out.push(`<instance id="${spec.idPrefix}${n}">`, `<context>${before} <head>${head}</head> ${after}</context>`, "</instance>");
    }
    out.push("</lexelt>");
  }
  out.push("</corpus>", "");
  return out.join("\n");
}
