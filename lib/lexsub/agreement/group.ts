/**
 * The sums behind one group's AgreementFigures (overall, a PoS, a lexelt): pairwise
 * agreement, agreement with the mode, multiword detection and identification (whole
 * numbers, item.ts), and Krippendorff's α with MASI (observed disagreement summed per
 * item; NLTK's degenerate cases). report.ts feeds them item by item.
 */
import { ratio } from "../ratio";
import { type GroupSums, addSums, emptyGroupSums, pairwiseOf } from "./item";
import { sameSet } from "./sets";
import type { AgreementFigures } from "./types";

export class GroupAcc {
  /** The group's whole-number sums (item.ts), added item by item. */
  readonly sums: GroupSums = emptyGroupSums();
  // α: Σ_i (Σ over ordered pairs of item i's values of d) / (n_i - 1) over items
  // with n_i >= 2; N, their number of values; NLTK's degenerate cases.
  doTotal = 0;
  pairable = 0;
  itemsWithValues = 0;
  firstCoder: string | null = null;
  manyCoders = false;
  firstValue: number[] | null = null;
  manyValues = false;
  firstPairable: number[] | null = null;
  manyPairable = false;
  /** Σ over ordered pairs of pairable values of MASI similarity (filled in at the end). */
  agreementSum = 0;

  /** An item's sums (itemSums(item).group). */
  add(sums: GroupSums): void {
    addSums(this.sums, sums);
  }

  /** An item in T's values for α: its givers, their sets (f, fStart) and its ordered disagreement. */
  addValues(
    n: number,
    coders: readonly string[],
    f: readonly number[],
    fStart: readonly number[],
    orderedDisagreement: number,
  ): void {
    if (n === 0) return;
    this.itemsWithValues++;
    for (let u = 0; u < n; u++) {
      const c = coders[u];
      if (this.firstCoder === null) this.firstCoder = c;
      else if (!this.manyCoders && c !== this.firstCoder) this.manyCoders = true;
      const s0 = fStart[u];
      const s1 = fStart[u + 1];
      if (this.firstValue === null) this.firstValue = f.slice(s0, s1);
      else if (!this.manyValues && !sameSet(this.firstValue, f, s0, s1)) this.manyValues = true;
      if (n >= 2) {
        if (this.firstPairable === null) this.firstPairable = f.slice(s0, s1);
        else if (!this.manyPairable && !sameSet(this.firstPairable, f, s0, s1)) this.manyPairable = true;
      }
    }
    if (n < 2) return;
    this.doTotal += orderedDisagreement / (n - 1);
    this.pairable += n;
  }

  /** α is 1 by NLTK's rules "only one (valid) annotation value". */
  unanimous(): boolean {
    return this.itemsWithValues > 0 && (!this.manyValues || (this.pairable > 0 && !this.manyPairable));
  }

  /** The expected disagreement D_e, null when NLTK would divide by zero. */
  expected(): number | null {
    const N = this.pairable;
    if (N < 2) return null;
    const de = (N * N - this.agreementSum) / (N * (N - 1));
    return de === 0 ? null : de;
  }

  /**
   * AnnotationTask(distance=masi_distance).alpha() of NLTK 3.10.3: no values →
   * undefined (NLTK raises); one distinct value → 1; one coder and one item →
   * undefined; items with fewer than two values are ignored; one distinct value
   * among the rest → 1; else 1 - D_o / D_e with D_o = Σ_i n_i·Disagreement(i) / N
   * and D_e = Disagreement(all those values); undefined where NLTK divides by zero.
   */
  alpha(): number | null {
    if (this.itemsWithValues === 0) return null;
    if (!this.manyValues) return 1;
    if (!this.manyCoders && this.itemsWithValues === 1) return null;
    if (this.pairable === 0) return null;
    if (!this.manyPairable) return 1;
    const de = this.expected();
    if (de === null) return null;
    return 1 - this.doTotal / this.pairable / de;
  }

  figures(): AgreementFigures {
    return groupFigures(this.sums, this.alpha());
  }
}

/** A group's figures from its sums and its α (computed apart: report.ts, or a background computation). */
export function groupFigures(s: GroupSums, alphaMasi: number | null): AgreementFigures {
  return {
    items: s.items,
    itemsWithMode: s.itemsWithMode,
    pairs: s.pairs,
    pairwise: pairwiseOf(s.pairUnits, s.pairs),
    modeResponses: s.modeResponses,
    modeAgreement: ratio(s.modeHits, s.modeResponses),
    mwInstances: s.mwInstances,
    mwDetectionPairs: s.mwDetectionPairs,
    mwDetection: ratio(s.mwDetectionAgree, s.mwDetectionPairs),
    mwIdentificationPairs: s.mwIdentificationPairs,
    mwIdentification: ratio(s.mwIdentificationAgree, s.mwIdentificationPairs),
    alphaMasi,
  };
}
