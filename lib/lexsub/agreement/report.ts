/**
 * The agreement report: one pass over the derived gold items feeding each measure's
 * sums — per group (group.ts: pairwise, mode, multiword, α's observed disagreement),
 * per annotator with leave-one-out (annotator.ts), α's pairable values for the
 * expected disagreement (masi.ts), per-item sums for the bootstrap (bootstrap.ts) —
 * then the figures overall, per PoS and per lexelt, the per-item list, the lowest
 * items and the histogram. See index.ts for the definitions.
 */
import { ratio } from "../ratio";
import { cmp } from "../normalize";
import { annotatorAgreement } from "./annotator";
import { BootstrapStats } from "./bootstrap";
import { GroupAcc } from "./group";
import { type AgreementItem, type AnnotatorSums, type ItemSums, PAIR_SCALE, addSums, itemSums } from "./item";
import { lexeltAgreementSums, masiAgreementSums, masiM } from "./masi";
import { intersectionSize, setKey } from "./sets";
import type { AgreementOptions, AgreementReport, AnnotatorAgreement, HistogramBin, ItemAgreement } from "./types";

const POS_ORDER: Record<string, number> = { n: 0, v: 1, a: 2, r: 3 };
const posRank = (p: string) => POS_ORDER[p] ?? 4;

/** The report's order of PoS groups: n, v, a, r, then the others in code-point order. */
export function comparePos(a: string, b: string): number {
  return posRank(a) - posRank(b) || cmp(a, b);
}

/** Agreement over derived gold items (excluded items are skipped). */
export function computeAgreement(items: Iterable<AgreementItem>, options: AgreementOptions = {}): AgreementReport {
  const iterations = Math.max(0, Math.floor(options.bootstrapIterations ?? 1000));
  const seed = options.seed ?? 1;
  const level = options.level ?? 0.95;
  const lowestCount = options.lowestCount ?? 20;
  const rounded = options.masiWeights === "rounded";

  const overall = new GroupAcc();
  const posIndex = new Map<string, number>();
  const posAccs: GroupAcc[] = [];
  const lexIndex = new Map<string, number>();
  const lexAccs: GroupAcc[] = [];
  const lexPos: string[] = [];
  const annotators = new Map<string, AnnotatorSums>();
  const ids = new Map<string, number>();
  const perItem: ItemAgreement[] = [];

  // α's pairable values: the distinct sets (flat), and per value given its set, PoS and lexelt.
  const valueOf = new Map<number | string, number>();
  const flat: number[] = [];
  const start: number[] = [0];
  const tokValue: number[] = [];
  const tokPos: number[] = [];
  const tokLex: number[] = [];
  // Per item in T, for the bootstrap.
  const boot = new BootstrapStats();

  // Scratch per item: the givers' sets, flat.
  const f: number[] = [];
  const fStart: number[] = [];
  const coders: string[] = [];
  // The value of each one-substitute set, by substitute id (most sets have one).
  let singleValue = new Int32Array(1024).fill(-1);

  for (const item of items) {
    if (item.excluded !== null) continue;
    let pi = posIndex.get(item.pos);
    if (pi === undefined) {
      pi = posAccs.length;
      posIndex.set(item.pos, pi);
      posAccs.push(new GroupAcc());
    }
    let li = lexIndex.get(item.lexelt);
    if (li === undefined) {
      li = lexAccs.length;
      lexIndex.set(item.lexelt, li);
      lexAccs.push(new GroupAcc());
      lexPos.push(item.pos);
    }
    const posAcc = posAccs[pi];
    const lexAcc = lexAccs[li];

    // The whole-number sums (item.ts): the groups' and each annotator's.
    const sums = itemSums(item);
    overall.add(sums.group);
    posAcc.add(sums.group);
    lexAcc.add(sums.group);
    for (const [name, a] of sums.annotators) {
      const acc = annotators.get(name);
      if (acc === undefined) annotators.set(name, a);
      else addSums(acc, a);
    }
    if (!item.inT) continue;

    // α: the substitute sets of the annotators who gave substitutes, as sorted ids.
    const rs = item.responses;
    let n = 0;
    let fl = 0;
    fStart[0] = 0;
    for (let u = 0; u < rs.length; u++) {
      const subs = rs[u].substitutes;
      if (subs.length === 0) continue;
      const s0 = fl;
      for (const s of subs) {
        let id = ids.get(s);
        if (id === undefined) {
          id = ids.size;
          ids.set(s, id);
        }
        // Insertion sort: a handful of ids.
        let p = fl++;
        while (p > s0 && f[p - 1] > id) {
          f[p] = f[p - 1];
          p--;
        }
        f[p] = id;
      }
      coders[n] = rs[u].annotator;
      n++;
      fStart[n] = fl;
    }
    let masiSum = 0;
    for (let u = 0; u < n; u++) {
      const u0 = fStart[u];
      const u1 = fStart[u + 1];
      for (let v = u + 1; v < n; v++) {
        const v0 = fStart[v];
        const v1 = fStart[v + 1];
        const k = intersectionSize(f, u0, u1, v0, v1);
        if (k === 0) {
          masiSum += 1;
          continue;
        }
        const j = k / (u1 - u0 + (v1 - v0) - k);
        masiSum += 1 - j * masiM(u1 - u0, v1 - v0, k, rounded);
      }
    }
    overall.addValues(n, coders, f, fStart, 2 * masiSum);
    posAcc.addValues(n, coders, f, fStart, 2 * masiSum);
    lexAcc.addValues(n, coders, f, fStart, 2 * masiSum);
    if (n >= 2) {
      for (let u = 0; u < n; u++) {
        const s0 = fStart[u];
        const s1 = fStart[u + 1];
        let v: number | undefined;
        if (s1 - s0 === 1) {
          const id = f[s0];
          if (id >= singleValue.length) {
            const grown = new Int32Array(Math.max(2 * singleValue.length, id + 1)).fill(-1);
            grown.set(singleValue);
            singleValue = grown;
          }
          v = singleValue[id];
          if (v < 0) {
            v = start.length - 1;
            singleValue[id] = v;
            flat.push(f[s0]);
            start.push(flat.length);
          }
        } else {
          const key = setKey(f, s0, s1);
          v = valueOf.get(key);
          if (v === undefined) {
            v = start.length - 1;
            valueOf.set(key, v);
            for (let o = s0; o < s1; o++) flat.push(f[o]);
            start.push(flat.length);
          }
        }
        tokValue.push(v);
        tokPos.push(pi);
        tokLex.push(li);
      }
    }
    const g = sums.group;
    boot.add(g.pairUnits / PAIR_SCALE, n, n >= 2 ? (2 * masiSum) / (n - 1) : 0);
    perItem.push(itemAgreement(item, sums));
  }

  // α's expected disagreement: overall and per PoS in one pass, then per lexelt.
  const G = posAccs.length;
  const weights = new Float64Array((start.length - 1) * G);
  for (let t = 0; t < tokValue.length; t++) weights[tokValue[t] * G + tokPos[t]]++;
  const byPosSums = masiAgreementSums(flat, start, null, weights, G, rounded);
  for (let g = 0; g < G; g++) posAccs[g].agreementSum = byPosSums[g];
  overall.agreementSum = byPosSums[G];
  lexeltAgreementSums(flat, start, tokValue, tokLex, lexAccs, rounded);

  const perAnnotator: AnnotatorAgreement[] = [...annotators]
    .sort((x, y) => cmp(x[0], y[0]))
    .map(([name, a]) => annotatorAgreement(name, a, overall.sums));

  const figures = overall.figures();
  return {
    ...figures,
    perAnnotator,
    byPos: [...posIndex]
      .sort((x, y) => comparePos(x[0], y[0]))
      .map(([pos, g]) => ({ pos, ...posAccs[g].figures() })),
    byLexelt: [...lexIndex]
      .sort((x, y) => cmp(x[0], y[0]))
      .map(([lexelt, g]) => ({ lexelt, pos: lexPos[g], ...lexAccs[g].figures() })),
    intervals: boot.intervals(overall, figures.alphaMasi, iterations, seed, level),
    perItem,
    lowest: lowestItems(perItem, lowestCount),
    histogram: histogram(perItem),
  };
}

/** One item of T's row of the report, from its sums. */
export function itemAgreement(item: AgreementItem, sums: ItemSums): ItemAgreement {
  const g = sums.group;
  return {
    lexelt: item.lexelt,
    instanceId: item.instanceId,
    pos: item.pos,
    annotators: sums.givers,
    pairs: g.pairs,
    pairwise: sums.pairwise,
    mode: item.mode,
    modeResponses: g.modeResponses,
    modeAgreement: ratio(g.modeHits, g.modeResponses),
  };
}

/** The histogram bin (0 … 9) of an item's pairwise agreement. */
export function histogramBin(pairwise: number): number {
  return Math.min(9, Math.floor(pairwise * 10));
}

/** The k items with the lowest pairwise agreement (ties: more pairs first, then gold order). */
function lowestItems(perItem: readonly ItemAgreement[], k: number): ItemAgreement[] {
  const out: ItemAgreement[] = [];
  if (k <= 0) return out;
  const before = (x: ItemAgreement, y: ItemAgreement) =>
    x.pairwise! < y.pairwise! || (x.pairwise === y.pairwise && x.pairs > y.pairs);
  for (const it of perItem) {
    if (it.pairwise === null) continue;
    if (out.length === k && !before(it, out[k - 1])) continue;
    let i = out.length === k ? k - 1 : out.length;
    if (out.length < k) out.push(it);
    while (i > 0 && before(it, out[i - 1])) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = it;
  }
  return out;
}

function histogram(perItem: readonly ItemAgreement[]): HistogramBin[] {
  const bins: HistogramBin[] = [];
  for (let b = 0; b < 10; b++) bins.push({ from: b / 10, to: (b + 1) / 10, count: 0 });
  for (const it of perItem) {
    if (it.pairwise === null) continue;
    bins[histogramBin(it.pairwise)].count++;
  }
  return bins;
}
