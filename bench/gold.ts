/**
 * Benchmark (not a test): gold, mwgold and agreement for 100,000 instances × 5
 * annotators of synthetic responses, generated with a seeded PRNG; the
 * responses reach deriveGold as a stream (generated as it reads them, inside
 * the timed step), as the server's rows come from SQLite.
 * Reports seconds per step and the process's peak resident memory.
 *
 *   npm run bench:gold [-- --instances N --annotators K --iterations B]
 *
 * Target on the project's 2-core machines: under 3 s and 500 MB for
 * deriveGold + formatGold + formatMwGold + computeAgreement.
 */
import { writeFileSync } from "node:fs";
import { computeAgreement, mulberry32 } from "../lib/lexsub/agreement";
import { deriveGold, formatGold, formatMwGold, type GoldInstance } from "../lib/lexsub/gold";
import type { AnnotatorResponse } from "../lib/lexsub/types";
import { wordnet, wordnetLemmaProposer } from "../lib/wordnet/load";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) {
    process.stderr.write(`bench:gold: --${name} needs a positive integer\n`);
    process.exit(2);
  }
  return v;
}

const INSTANCES = arg("instances", 100_000);
const ANNOTATORS = arg("annotators", 5);
const ITERATIONS = arg("iterations", 1000);
const PER_LEXELT = 10;

// Real inflected forms so that the lemmatiser has work to do; the rest are made up.
const INFLECTED = ["glad", "happier", "merry", "took place", "bus stops", "leaves", "ran", "children", "running", "better"];
const POS = ["n", "v", "a", "r"];

/**
 * The synthetic project, walked in corpus order with one seeded PRNG: each
 * instance, then its annotators' responses. The same walk always gives the same
 * rows, so the responses can be replayed lazily: the derivation reads them as
 * a stream, as the server reads rows from SQLite with .iterate(), and the
 * 500,000 raw responses are never held at once.
 */
function* walk(): Generator<{ instance: GoldInstance } | { response: AnnotatorResponse }> {
  const rand = mulberry32(2007);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  let lexelt = "";
  let vocab: string[] = [];
  let phrases: string[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    if (i % PER_LEXELT === 0) {
      const l = i / PER_LEXELT;
      lexelt = `target${l}.${POS[l % 4]}`;
      // A per-lexelt vocabulary with a few shared, inflected words; skewed choice below.
      vocab = Array.from({ length: 12 }, (_, k) => (k < 2 ? pick(INFLECTED) : `sub${(l * 7 + k * 13) % 40_000}`));
      phrases = [`target${l} up`, `target${l} off`, `take target${l}`];
    }
    const instanceId = String(i + 1);
    yield { instance: { lexelt, instanceId } };
    for (let a = 0; a < ANNOTATORS; a++) {
      const r = rand();
      const kind = r < 0.04 ? "NAME" : r < 0.1 ? "NIL" : "substitutes";
      const substitutes: string[] = [];
      if (kind === "substitutes") {
        // Annotator 5 gives 2-3 substitutes, as in the paper; the others 1-3.
        const n = a === 4 ? 2 + Math.floor(rand() * 2) : 1 + Math.floor(rand() * rand() * 3);
        for (let k = 0; k < n; k++) {
          const w = vocab[Math.floor(rand() * rand() * vocab.length)];
          substitutes.push(rand() < 0.05 ? ` ${w.toUpperCase()} ` : w);
        }
      }
      const multiword = rand() < 0.08 ? phrases[Math.floor(rand() * rand() * phrases.length)] : null;
      yield { response: { annotator: `annotator${a + 1}`, lexelt, instanceId, kind, substitutes, multiword } };
    }
  }
}

/** The instances (kept: the derivation reads them first), and the responses as a stream replaying the walk. */
function generate(): { instances: GoldInstance[]; responses: Iterable<AnnotatorResponse>; count: () => number } {
  const instances: GoldInstance[] = [];
  for (const row of walk()) if ("instance" in row) instances.push(row.instance);
  let count = 0;
  const responses = {
    *[Symbol.iterator]() {
      count = 0;
      for (const row of walk())
        if ("response" in row) {
          count++;
          yield row.response;
        }
    },
  };
  return { instances, responses, count: () => count };
}

function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}

const t0 = performance.now();
const { instances, responses, count } = generate();
// WordNet's data is read once per process (as in the app), before the timed derivation.
wordnet();
const t1 = performance.now();
const rssBefore = process.memoryUsage().rss;

const gold = deriveGold(instances, responses, { propose: wordnetLemmaProposer() });
const t2 = performance.now();
const goldText = formatGold(gold.items);
const mwText = formatMwGold(gold.items);
const t3 = performance.now();
const report = computeAgreement(gold.items, { bootstrapIterations: ITERATIONS, seed: 1 });
const t4 = performance.now();

const peakKb = process.resourceUsage().maxRSS;
const s = (a: number, b: number) => ((b - a) / 1000).toFixed(2);
const pct = (x: number | null) => (x === null ? "-" : (100 * x).toFixed(2) + "%");
const lines = [
  `bench:gold  ${INSTANCES} instances × ${ANNOTATORS} annotators (${count()} responses, streamed), bootstrap ${ITERATIONS}`,
  `  generate, WordNet load (not timed) ${s(t0, t1)} s  rss ${mb(rssBefore)} MB`,
  `  deriveGold               ${s(t1, t2)} s  (${gold.summary.goldLines} gold lines, T ${gold.summary.inT}, modes ${gold.summary.withMode})`,
  `  formatGold + formatMwGold ${s(t2, t3)} s  (${goldText.length} + ${mwText.length} chars, ${gold.summary.mwLines} mw lines)`,
  `  computeAgreement         ${s(t3, t4)} s  (pairwise ${pct(report.pairwise)}, mode ${pct(report.modeAgreement)}, α ${report.alphaMasi?.toFixed(4)}, ${report.byLexelt.length} lexelts)`,
  `  total                    ${s(t1, t4)} s`,
  `  peak RSS                 ${mb(peakKb * 1024)} MB`,
];
process.stdout.write(lines.join("\n") + "\n");

// --json FILE: the figures for `npm run bench` (bench/run-all.ts).
const jsonAt = process.argv.indexOf("--json");
if (jsonAt >= 0) {
  const sec = (a: number, b: number) => (b - a) / 1000;
  writeFileSync(
    process.argv[jsonAt + 1],
    JSON.stringify({
      instances: INSTANCES,
      annotators: ANNOTATORS,
      bootstrap: ITERATIONS,
      deriveSeconds: sec(t1, t2),
      formatSeconds: sec(t2, t3),
      agreementSeconds: sec(t3, t4),
      totalSeconds: sec(t1, t4),
      peakMb: (peakKb * 1024) / 2 ** 20,
    }),
  );
}
