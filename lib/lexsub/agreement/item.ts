/**
 * What one gold item adds to the agreement report's sums (#39): pairwise and mode agreement over
 * T, multiword detection and identification, and each annotator's own figures and the overall
 * figures without them (leave-one-out). report.ts adds these item by item; a server that keeps
 * the figures as answers change (lib/server/derived) adds and takes away the same sums for one
 * item at a time. Every sum is a whole number — Jaccard values |A ∩ B| / |A ∪ B| are counted in
 * units of 1/PAIR_SCALE — so adding items in any order, and taking one away again, gives the
 * same figures to the last bit. Krippendorff's α (global by nature) is not here: see report.ts.
 */
import { type GoldEntry, type GoldItem, PN } from "../gold";
import { ratio } from "../ratio";
import { itemPairwise, pairsOf } from "./pairwise";

/**
 * Pair sums are kept in units of 1/PAIR_SCALE: the least common multiple of 1 … 12, so the
 * Jaccard value of any two sets whose union has at most 12 substitutes (an answer holds at
 * most three) is a whole number of units. A larger union (never met in lexgold's data) is
 * rounded to the nearest unit.
 */
export const PAIR_SCALE = 27720;

/** One pair's Jaccard value in units: k shared of sizes a and b. */
function pairUnits(k: number, a: number, b: number): number {
  const union = a + b - k;
  const exact = (k * PAIR_SCALE) / union;
  return Number.isInteger(exact) ? exact : Math.round(exact);
}

/** A mean pairwise agreement from a sum in units and its number of pairs (null when no pair). */
export function pairwiseOf(pairUnitsSum: number, pairs: number): number | null {
  return ratio(pairUnitsSum / PAIR_SCALE, pairs);
}

/** The item fields the agreement measures read (a GoldItem has them all). */
export type AgreementItem = Pick<GoldItem, "lexelt" | "instanceId" | "pos" | "excluded" | "responses" | "entries" | "size" | "inT" | "mode">;

/** The sums of one group of items (overall, a PoS, a lexelt), α's left out. */
export interface GroupSums {
  /** Items of the group that are not excluded (the group is listed when > 0). */
  present: number;
  /** |T|. */
  items: number;
  itemsWithMode: number;
  pairs: number;
  /** Σ of pairwise Jaccard values over T, in units of 1/PAIR_SCALE. */
  pairUnits: number;
  modeResponses: number;
  modeHits: number;
  mwInstances: number;
  mwDetectionPairs: number;
  mwDetectionAgree: number;
  mwIdentificationPairs: number;
  mwIdentificationAgree: number;
}

/** One annotator's sums: their own figures and what leaving them out changes in the overall sums. */
export interface AnnotatorSums {
  answered: number;
  names: number;
  nils: number;
  substituteAnswers: number;
  substitutesGiven: number;
  multiwords: number;
  items: number;
  pairs: number;
  pairUnits: number;
  modeResponses: number;
  modeHits: number;
  dItems: number;
  dItemsWithMode: number;
  dPairs: number;
  dPairUnits: number;
  dModeResponses: number;
  dModeHits: number;
}

export const GROUP_FIELDS = [
  "present",
  "items",
  "itemsWithMode",
  "pairs",
  "pairUnits",
  "modeResponses",
  "modeHits",
  "mwInstances",
  "mwDetectionPairs",
  "mwDetectionAgree",
  "mwIdentificationPairs",
  "mwIdentificationAgree",
] as const satisfies readonly (keyof GroupSums)[];

export const ANNOTATOR_FIELDS = [
  "answered",
  "names",
  "nils",
  "substituteAnswers",
  "substitutesGiven",
  "multiwords",
  "items",
  "pairs",
  "pairUnits",
  "modeResponses",
  "modeHits",
  "dItems",
  "dItemsWithMode",
  "dPairs",
  "dPairUnits",
  "dModeResponses",
  "dModeHits",
] as const satisfies readonly (keyof AnnotatorSums)[];

// Written out, not built from the field lists: a save makes one of these per annotator of its
// instance, and Object.fromEntries was a tenth of the save's derivation at 20 annotators an instance.
// Every field, in the lists' order (the test of item.ts checks it).
export function emptyGroupSums(): GroupSums {
  return {
    present: 0,
    items: 0,
    itemsWithMode: 0,
    pairs: 0,
    pairUnits: 0,
    modeResponses: 0,
    modeHits: 0,
    mwInstances: 0,
    mwDetectionPairs: 0,
    mwDetectionAgree: 0,
    mwIdentificationPairs: 0,
    mwIdentificationAgree: 0,
  };
}

export function emptyAnnotatorSums(): AnnotatorSums {
  return {
    answered: 0,
    names: 0,
    nils: 0,
    substituteAnswers: 0,
    substitutesGiven: 0,
    multiwords: 0,
    items: 0,
    pairs: 0,
    pairUnits: 0,
    modeResponses: 0,
    modeHits: 0,
    dItems: 0,
    dItemsWithMode: 0,
    dPairs: 0,
    dPairUnits: 0,
    dModeResponses: 0,
    dModeHits: 0,
  };
}

/** Add `from` (times `sign`, ±1) into `into`, field by field. */
export function addSums<T extends object>(into: T, from: T, sign = 1): T {
  const a = into as Record<string, number>;
  const b = from as Record<string, number>;
  for (const k of Object.keys(b)) a[k] = (a[k] ?? 0) + sign * b[k];
  return into;
}

/** What one item adds: to its groups' sums (the same for overall, its PoS and its lexelt) and to each annotator's. */
export interface ItemSums {
  group: GroupSums;
  /** By annotator name, in the order of the item's responses. */
  annotators: Map<string, AnnotatorSums>;
  /** The item's own pairwise agreement (itemPairwise), null when it has none. */
  pairwise: number | null;
  /** Annotators who gave substitutes (for items in T). */
  givers: number;
}

/** The mode of H_i without one annotator's substitutes (pn excluded), or null. */
function modeWithoutAnnotator(entries: readonly GoldEntry[], removed: readonly string[]): string | null {
  let best: string | null = null;
  let bestCount = 0;
  let tie = false;
  for (const e of entries) {
    if (e.substitute === PN) continue;
    const count = removed.includes(e.substitute) ? e.count - 1 : e.count;
    if (count <= 0) continue;
    if (count > bestCount) {
      best = e.substitute;
      bestCount = count;
      tie = false;
    } else if (count === bestCount) tie = true;
  }
  return tie ? null : best;
}

/** The sums one item adds to the report (an excluded item adds nothing; see report.ts). */
export function itemSums(item: AgreementItem): ItemSums {
  const group = emptyGroupSums();
  const annotators = new Map<string, AnnotatorSums>();
  if (item.excluded !== null) return { group, annotators, pairwise: null, givers: 0 };
  group.present = 1;
  const rs = item.responses;
  // Every answer: the annotators' own counts and multiword agreement (all instances).
  const accs: AnnotatorSums[] = [];
  let flagged = 0;
  let idAgree = 0;
  for (let u = 0; u < rs.length; u++) {
    const r = rs[u];
    let a = annotators.get(r.annotator);
    if (a === undefined) annotators.set(r.annotator, (a = emptyAnnotatorSums()));
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
      for (let v = 0; v < u; v++) if (rs[v].multiword === r.multiword) idAgree++;
    }
  }
  if (rs.length >= 2) {
    group.mwInstances = 1;
    group.mwDetectionPairs = pairsOf(rs.length);
    group.mwDetectionAgree = pairsOf(flagged) + pairsOf(rs.length - flagged);
    group.mwIdentificationPairs = pairsOf(flagged);
    group.mwIdentificationAgree = idAgree;
  }
  if (!item.inT) return { group, annotators, pairwise: null, givers: 0 };

  // The givers (annotators who gave substitutes) and their pairs.
  const giver: number[] = [];
  for (let u = 0; u < rs.length; u++) if (rs[u].substitutes.length > 0) giver.push(u);
  const n = giver.length;
  const own = new Array<number>(n).fill(0);
  let pairUnitsSum = 0;
  for (let x = 0; x < n; x++) {
    const a = rs[giver[x]].substitutes;
    for (let y = x + 1; y < n; y++) {
      const b = rs[giver[y]].substitutes;
      let k = 0;
      for (const s of a) if (b.includes(s)) k++;
      if (k === 0) continue;
      const j = pairUnits(k, a.length, b.length);
      pairUnitsSum += j;
      own[x] += j;
      own[y] += j;
    }
  }
  const pairs = pairsOf(n);
  const mode = item.mode;
  const hit = giver.map((u) => mode !== null && rs[u].substitutes.includes(mode));
  const modeHits = hit.filter(Boolean).length;
  const modeResponses = mode !== null ? n : 0;
  group.items = 1;
  group.itemsWithMode = mode !== null ? 1 : 0;
  group.pairs = pairs;
  group.pairUnits = pairUnitsSum;
  group.modeResponses = modeResponses;
  group.modeHits = modeHits;

  // Each giver's own figures, and the item recomputed without them.
  for (let x = 0; x < n; x++) {
    const a = accs[giver[x]];
    a.items++;
    a.pairs += n - 1;
    a.pairUnits += own[x];
    if (mode !== null) {
      a.modeResponses++;
      if (hit[x]) a.modeHits++;
    }
    const removed = rs[giver[x]].substitutes;
    const inT = item.size - removed.length >= 2;
    let modeWithout: string | null = null;
    let hitsWithout = 0;
    if (!inT) {
      // Out of T without them.
    } else if (mode !== null && !hit[x]) {
      // They did not give the mode: only other counts drop, the mode stays.
      modeWithout = mode;
      hitsWithout = modeHits;
    } else {
      modeWithout = modeWithoutAnnotator(item.entries, removed);
      if (modeWithout === mode) hitsWithout = modeHits - 1;
      else if (modeWithout !== null) {
        for (let y = 0; y < n; y++) if (y !== x && rs[giver[y]].substitutes.includes(modeWithout)) hitsWithout++;
      }
    }
    if (!inT) a.dItems--;
    a.dItemsWithMode += (modeWithout !== null ? 1 : 0) - (mode !== null ? 1 : 0);
    a.dPairs += (inT ? pairsOf(n - 1) : 0) - pairs;
    a.dPairUnits += (inT ? pairUnitsSum - own[x] : 0) - pairUnitsSum;
    a.dModeResponses += (modeWithout !== null ? n - 1 : 0) - modeResponses;
    a.dModeHits += hitsWithout - modeHits;
  }
  return { group, annotators, pairwise: itemPairwise(item), givers: n };
}
