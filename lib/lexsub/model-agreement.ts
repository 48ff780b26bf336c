/**
 * A model measured against people with the task's own measures (paper §2.2; issue #41), over the gold
 * derived twice: from the people's responses alone (`people`), and with the model's sample added
 * (`withModel`, the same instances in the same order). T and the mode are the people's: an item is in T
 * when the people gave at least two substitutes, its mode is the people's unique most frequent one.
 *
 * - with each person: over items in T where both gave substitutes, the mean of |A ∩ B| / |A ∪ B|;
 * - with the pool: the same over every (model, person) pair, the figure a person's own pairwise
 *   agreement (agreement report, per annotator) is to be set beside;
 * - with the people's mode: over items in T with a mode where the model gave substitutes, the share
 *   of its answers holding the mode (the paper's agreement with the mode);
 * - between its own samples: the pairwise agreement of samples 1…k over every item two of them gave
 *   substitutes for (in T or not: the samples' consistency, whatever the people did);
 * - split by whether the person saw the model's answers before answering (`shown`): anchoring.
 * Substitutes are compared as the gold compares them (normalised and lemmatised by deriveGold). Everything
 * also per PoS and per lexelt. Proportions unrounded; null when there is nothing to average.
 *
 * Pure (no fs, db or next).
 */
import type { GoldItem, ItemResponse } from "./gold";

/** A mean and how many comparisons it is over. */
export interface Figure {
  n: number;
  value: number | null;
}

interface ModelGroupFigures {
  withPool: Figure;
  withMode: Figure;
}

export interface ModelAgreement extends ModelGroupFigures {
  /** Per person: pairs over T and the mean. */
  withPeople: { annotator: string; pairs: number; agreement: number | null }[];
  /** The people's answers given after seeing the model's (shown) and blind: their agreement with the model. */
  anchoring: { shown: Figure; blind: Figure };
  byPos: ({ pos: string } & ModelGroupFigures)[];
  byLexelt: ({ lexelt: string; pos: string } & ModelGroupFigures)[];
}

class Acc {
  sum = 0;
  n = 0;
  add(x: number) {
    this.sum += x;
    this.n++;
  }
  get figure(): Figure {
    return { n: this.n, value: this.n === 0 ? null : this.sum / this.n };
  }
}

class GroupAcc {
  pool = new Acc();
  mode = new Acc();
  get figures(): ModelGroupFigures {
    return { withPool: this.pool.figure, withMode: this.mode.figure };
  }
}

/** |A ∩ B| / |A ∪ B| of two non-empty substitute lists (distinct within each). */
function jaccard(a: readonly string[], b: readonly string[]): number {
  let k = 0;
  for (const x of a) if (b.includes(x)) k++;
  return k / (a.length + b.length - k);
}

/** The people's mode of an item: their unique most frequent substitute, or null. */
function peopleMode(item: GoldItem): string | null {
  const counts = new Map<string, number>();
  for (const r of item.responses) for (const s of r.substitutes) counts.set(s, (counts.get(s) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  let tie = false;
  for (const [s, c] of counts) {
    if (c > bestCount) [best, bestCount, tie] = [s, c, false];
    else if (c === bestCount) tie = true;
  }
  return tie ? null : best;
}

const gives = (r: ItemResponse | undefined): r is ItemResponse => !!r && r.kind === "substitutes" && r.substitutes.length > 0;

/**
 * The figures of one model sample (`model`, its annotator name in `withModel`) against the people of
 * `people`. `shown` holds `annotator\tinstanceId` of people's answers saved after the model's answers were
 * shown to them (lib/server/models/suggestions.ts); the rest are blind.
 */
export function modelAgreement(people: readonly GoldItem[], withModel: readonly GoldItem[], model: string, shown: ReadonlySet<string> = new Set()): ModelAgreement {
  const overall = new GroupAcc();
  const byPos = new Map<string, GroupAcc>();
  const byLexelt = new Map<string, { pos: string; acc: GroupAcc }>();
  const perPerson = new Map<string, Acc>();
  const anchoring = { shown: new Acc(), blind: new Acc() };
  for (let i = 0; i < people.length; i++) {
    const p = people[i];
    if (p.excluded !== null) continue;
    const m = withModel[i].responses.find((r) => r.annotator === model);
    if (!gives(m)) continue;
    let size = 0;
    for (const r of p.responses) size += r.substitutes.length;
    if (size < 2) continue;
    let pos = byPos.get(p.pos);
    if (!pos) byPos.set(p.pos, (pos = new GroupAcc()));
    let lex = byLexelt.get(p.lexelt);
    if (!lex) byLexelt.set(p.lexelt, (lex = { pos: p.pos, acc: new GroupAcc() }));
    for (const r of p.responses) {
      if (!gives(r)) continue;
      const j = jaccard(m.substitutes, r.substitutes);
      for (const g of [overall, pos, lex.acc]) g.pool.add(j);
      let a = perPerson.get(r.annotator);
      if (!a) perPerson.set(r.annotator, (a = new Acc()));
      a.add(j);
      (shown.has(`${r.annotator}\t${p.instanceId}`) ? anchoring.shown : anchoring.blind).add(j);
    }
    const mode = peopleMode(p);
    if (mode !== null) {
      const hit = m.substitutes.includes(mode) ? 1 : 0;
      for (const g of [overall, pos, lex.acc]) g.mode.add(hit);
    }
  }
  return {
    ...overall.figures,
    withPeople: [...perPerson].map(([annotator, a]) => ({ annotator, pairs: a.n, agreement: a.figure.value })).sort((x, y) => x.annotator.localeCompare(y.annotator)),
    anchoring: { shown: anchoring.shown.figure, blind: anchoring.blind.figure },
    byPos: [...byPos].map(([pos, g]) => ({ pos, ...g.figures })),
    byLexelt: [...byLexelt].map(([lexelt, l]) => ({ lexelt, pos: l.pos, ...l.acc.figures })),
  };
}

/** The pairwise agreement of a model's samples with each other: every item where at least two gave substitutes. */
export function samplesAgreement(withSamples: readonly (readonly GoldItem[])[], names: readonly string[]): Figure {
  const acc = new Acc();
  if (withSamples.length < 2) return acc.figure;
  for (let i = 0; i < withSamples[0].length; i++) {
    if (withSamples[0][i].excluded !== null) continue;
    const sets = names.map((n, k) => withSamples[k][i].responses.find((r) => r.annotator === n)).filter(gives);
    for (let u = 0; u < sets.length; u++) for (let v = u + 1; v < sets.length; v++) acc.add(jaccard(sets[u].substitutes, sets[v].substitutes));
  }
  return acc.figure;
}
