/**
 * The agreement report: one pass over the derived gold items feeding each measure's
 * sums — per group (group.ts: pairwise, mode, multiword, α's observed disagreement),
 * per annotator with leave-one-out (annotator.ts), α's pairable values for the
 * expected disagreement (masi.ts), per-item sums for the bootstrap (bootstrap.ts) —
 * then the figures overall, per PoS and per lexelt, the per-item list, the lowest
 * items and the histogram. See index.ts for the definitions.
 */
import { ratio } from "../ratio";
import type { GoldItem } from "../gold";
import { cmp } from "../normalize";
import { AnnotatorAcc, annotatorAgreement, modeWithoutAnnotator } from "./annotator";
import { BootstrapStats } from "./bootstrap";
import { GroupAcc } from "./group";
import { lexeltAgreementSums, masiAgreementSums, masiM } from "./masi";
import { pairsOf } from "./pairwise";
import { intersectionSize, setKey } from "./sets";
import type { AgreementOptions, AgreementReport, AnnotatorAgreement, HistogramBin, ItemAgreement } from "./types";

const POS_ORDER: Record<string, number> = { n: 0, v: 1, a: 2, r: 3 };
const posRank = (p: string) => POS_ORDER[p] ?? 4;

/** Agreement over derived gold items (excluded items are skipped). */
export function computeAgreement(items: readonly GoldItem[], options: AgreementOptions = {}): AgreementReport {
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
  const annotators = new Map<string, AnnotatorAcc>();
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
  const giverIdx: number[] = [];
  const f: number[] = [];
  const fStart: number[] = [];
  const coders: string[] = [];
  const jSum: number[] = [];
  const hit: boolean[] = [];
  const accs: AnnotatorAcc[] = [];
  const lastAt: AnnotatorAcc[] = [];
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

    // Every answer: the annotators' own counts and multiword agreement (all instances).
    const rs = item.responses;
    let flagged = 0;
    let idAgree = 0;
    for (let u = 0; u < rs.length; u++) {
      const r = rs[u];
      // Annotators tend to keep their place from item to item: try it before the map.
      let a: AnnotatorAcc | undefined = lastAt[u];
      if (a === undefined || a.annotator !== r.annotator) {
        a = annotators.get(r.annotator);
        if (a === undefined) {
          a = new AnnotatorAcc(r.annotator);
          annotators.set(r.annotator, a);
        }
        lastAt[u] = a;
      }
      accs[u] = a;
      a.answered++;
      if (r.kind === "NAME") a.names++;
      else if (r.kind === "NIL") a.nils++;
      if (r.substitutes.length > 0) {
        a.substituteAnswers++;
        a.substitutesGiven += r.substitutes.length;
      }
      if (r.multiword !== null) {
        a.multiwords++;
        flagged++;
        // Pairs with earlier flaggers of the same phrase.
        for (let v = 0; v < u; v++) if (rs[v].multiword === r.multiword) idAgree++;
      }
    }
    if (rs.length >= 2) {
      overall.addMw(rs.length, flagged, idAgree);
      posAcc.addMw(rs.length, flagged, idAgree);
      lexAcc.addMw(rs.length, flagged, idAgree);
    }

    if (!item.inT) continue;

    // The substitute sets of the annotators who gave substitutes, as sorted ids.
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
      giverIdx[n] = u;
      coders[n] = rs[u].annotator;
      jSum[n] = 0;
      n++;
      fStart[n] = fl;
    }
    let pairSum = 0;
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
        pairSum += j;
        jSum[u] += j;
        jSum[v] += j;
        masiSum += 1 - j * masiM(u1 - u0, v1 - v0, k, rounded);
      }
    }
    const pairs = pairsOf(n);
    const mode = item.mode;
    let modeHits = 0;
    for (let u = 0; u < n; u++) {
      const h = mode !== null && rs[giverIdx[u]].substitutes.includes(mode);
      hit[u] = h;
      if (h) modeHits++;
    }
    const modeResponses = mode !== null ? n : 0;

    overall.addItem(mode !== null, pairs, pairSum, modeResponses, modeHits, n, coders, f, fStart, 2 * masiSum);
    posAcc.addItem(mode !== null, pairs, pairSum, modeResponses, modeHits, n, coders, f, fStart, 2 * masiSum);
    lexAcc.addItem(mode !== null, pairs, pairSum, modeResponses, modeHits, n, coders, f, fStart, 2 * masiSum);
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
    boot.add(pairSum, n, n >= 2 ? (2 * masiSum) / (n - 1) : 0);

    perItem.push({
      lexelt: item.lexelt,
      instanceId: item.instanceId,
      pos: item.pos,
      annotators: n,
      pairs,
      pairwise: ratio(pairSum, pairs),
      mode,
      modeResponses,
      modeAgreement: ratio(modeHits, modeResponses),
    });

    // Each giver's own figures, and the item recomputed without them.
    for (let u = 0; u < n; u++) {
      const a = accs[giverIdx[u]];
      a.items++;
      a.pairs += n - 1;
      a.pairSum += jSum[u];
      if (mode !== null) {
        a.modeResponses++;
        if (hit[u]) a.modeHits++;
      }
      const removed = rs[giverIdx[u]].substitutes;
      const inT = item.size - removed.length >= 2;
      let modeWithout: string | null = null;
      let hitsWithout = 0;
      if (!inT) {
        // Out of T without them.
      } else if (mode !== null && !hit[u]) {
        // They did not give the mode: only other counts drop, the mode stays.
        modeWithout = mode;
        hitsWithout = modeHits;
      } else {
        modeWithout = modeWithoutAnnotator(item.entries, removed);
        if (modeWithout === mode) hitsWithout = modeHits - 1;
        else if (modeWithout !== null) {
          for (let v = 0; v < n; v++) if (v !== u && rs[giverIdx[v]].substitutes.includes(modeWithout)) hitsWithout++;
        }
      }
      if (!inT) a.dItems--;
      a.dItemsWithMode += (modeWithout !== null ? 1 : 0) - (mode !== null ? 1 : 0);
      a.dPairs += (inT ? pairsOf(n - 1) : 0) - pairs;
      a.dPairSum += (inT ? pairSum - jSum[u] : 0) - pairSum;
      a.dModeResponses += (modeWithout !== null ? n - 1 : 0) - modeResponses;
      a.dModeHits += hitsWithout - modeHits;
    }
  }

  // α's expected disagreement: overall and per PoS in one pass, then per lexelt.
  const G = posAccs.length;
  const weights = new Float64Array((start.length - 1) * G);
  for (let t = 0; t < tokValue.length; t++) weights[tokValue[t] * G + tokPos[t]]++;
  const byPosSums = masiAgreementSums(flat, start, null, weights, G, rounded);
  for (let g = 0; g < G; g++) posAccs[g].agreementSum = byPosSums[g];
  overall.agreementSum = byPosSums[G];
  lexeltAgreementSums(flat, start, tokValue, tokLex, lexAccs, rounded);

  const perAnnotator: AnnotatorAgreement[] = [...annotators.values()]
    .sort((x, y) => cmp(x.annotator, y.annotator))
    .map((a) => annotatorAgreement(a, overall));

  const figures = overall.figures();
  return {
    ...figures,
    perAnnotator,
    byPos: [...posIndex]
      .sort((x, y) => posRank(x[0]) - posRank(y[0]) || cmp(x[0], y[0]))
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
    bins[Math.min(9, Math.floor(it.pairwise * 10))].count++;
  }
  return bins;
}
