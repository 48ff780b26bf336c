/**
 * A stored run scored item by item (#39): what each id of a system file adds to the run's figures,
 * by the same key, reader and rule as a whole run (run.ts), so that a run can be kept as one
 * outcome per id and an id scored again alone when its gold line changes. Summing the outcomes in
 * the order of the ids' first lines gives a whole run's figures to the last bit: a run counts
 * exactly the first line of each id (rules.ts `lineVerdict`), in file order.
 *
 * - `readItems` reads a system file's lines and says, for each, the id it answers and whether it
 *   is that id's first line (the caller keeps the first line's text and counts the others);
 * - `scoreItems` scores first lines against some gold lines (a whole gold, or the gold lines of a
 *   few ids: a gold line is read on its own, so a key of some lines scores their ids as the whole
 *   key does), giving each id's outcome;
 * - `sumOutcomes` adds outcomes up, in first-line order, into the run's statistics.
 * Pure.
 */
import { posOf } from "./analysis";
import { KeyBuilder, type ScoringKey } from "./key";
import { type MwKey, MwKeyBuilder, MwScorer, type MwStats } from "./mw";
import { type Reading } from "./rules";
import { bestScorer } from "./best";
import { ootScorer } from "./oot";
import { type SubstitutionStats, addOutcome, emptyStats } from "./substitution";
import { type SystemKind, type SystemLine, SystemReader } from "./system";

/** One id's outcome. */
export interface ItemOutcome {
  /** best/oot: the id is in T of the gold (as score.pl counts it). */
  inT: boolean;
  /** Attempted: counted in `attempted` (best/oot), or an answer counted in |MWsys| (mw). */
  attempted: boolean;
  /** best/oot: the credit the item adds (its score). */
  score: number;
  /** best/oot: the item has a mode; then whether the system hit it. */
  hasMode: boolean;
  modeHit: boolean;
  /** best/oot: in T with no readable gold entry (never attempted). */
  unscorable: boolean;
  /** oot: more than ten guesses (counted when attempted); guesses repeated that earned credit again. */
  truncated: boolean;
  repeated: boolean;
  /** mw: the id is in MW; its answer is the multiword. */
  genuine: boolean;
  matched: boolean;
  /** best/oot: the group (PoS) of its gold lexelt, "" when not in T. */
  group: string;
}

const NOT_IN_GOLD: ItemOutcome = Object.freeze({
  inT: false,
  attempted: false,
  score: 0,
  hasMode: false,
  modeHit: false,
  unscorable: false,
  truncated: false,
  repeated: false,
  genuine: false,
  matched: false,
  group: "",
});

/** A first line kept for an id: its text as read (a CRLF line keeps its "\r") and its number. */
export interface FirstLine {
  text: string;
  line: number;
}

/** The key of some gold lines (best/oot) or mwgold lines (mw), read as a whole gold file's lines are. */
export function keyOfLines(type: SystemKind, lines: Iterable<string>, reading: Reading): ScoringKey | MwKey {
  if (type === "mw") {
    const b = new MwKeyBuilder("mwgold", reading);
    for (const l of lines) b.push(l);
    return b.finish().key;
  }
  const b = new KeyBuilder("gold", { reading });
  for (const l of lines) b.push(l);
  return b.finish().key;
}

/**
 * Score the first lines of some ids against a key (their gold lines, or a whole gold): one outcome
 * per line, in order. The ids are distinct (first lines).
 */
export function scoreItems(type: SystemKind, key: ScoringKey | MwKey, lines: readonly FirstLine[], reading: Reading): ItemOutcome[] {
  const reader = new SystemReader("system", type, { reading });
  const parse = (l: FirstLine): SystemLine | null => {
    reader.seek(l.line);
    return reader.push(l.text);
  };
  if (type === "mw") {
    const scorer = new MwScorer(key as MwKey);
    return lines.map((l) => {
      const s = parse(l);
      const item = s ? scorer.add(s) : null;
      return item ? { ...NOT_IN_GOLD, attempted: true, genuine: item.genuine, matched: item.matched } : NOT_IN_GOLD;
    });
  }
  const k = key as ScoringKey;
  let last: { score: number; modeHit: boolean | null } | null = null;
  let flags = { truncated: false, repeated: false };
  const opts = {
    onOutcome: (_o: number, _line: number, score: number, modeHit: boolean | null) => (last = { score, modeHit }),
    onItem: (i: { truncated: boolean; repeated: readonly string[] }) => (flags = { truncated: i.truncated, repeated: i.repeated.length > 0 }),
  };
  const scorer = type === "best" ? bestScorer(k, opts) : ootScorer(k, opts);
  return lines.map((l) => {
    const s = parse(l);
    if (!s) return NOT_IN_GOLD;
    const o = k.find(s.id);
    if (o < 0) return NOT_IN_GOLD;
    last = null;
    flags = { truncated: false, repeated: false };
    const unscorableBefore = scorer.ignored.unscorable;
    scorer.add(s);
    const hasMode = k.hasMode(o);
    const outcome = last as { score: number; modeHit: boolean | null } | null;
    return {
      ...NOT_IN_GOLD,
      inT: true,
      attempted: outcome !== null,
      score: outcome?.score ?? 0,
      hasMode,
      modeHit: outcome?.modeHit === true,
      unscorable: scorer.ignored.unscorable > unscorableBefore,
      truncated: outcome !== null && flags.truncated,
      repeated: outcome !== null && flags.repeated,
      group: posOf(k.lexelt(o)),
    };
  });
}

/** The per-group statistics and the run's, summed from outcomes in first-line order. */
export interface OutcomeSums {
  stats: SubstitutionStats;
  groups: Map<string, SubstitutionStats>;
  mw: MwStats;
  /** Ignored lines and the scorer's warnings' counts. */
  outsideT: number;
  repeats: number;
  unscorable: number;
  truncated: number;
  repeatedGuesses: number;
}

/** Totals of T (and TM) overall and per group, of MW, for the sums. */
export interface KeyTotals {
  total: number;
  totalWithMode: number;
  /** Per group, in the key's order (its first item in T). */
  groups: [string, { total: number; totalWithMode: number }][];
  multiwords: number;
}

/** Start summing: the key's totals in place. */
export function startSums(totals: KeyTotals): OutcomeSums {
  return {
    stats: emptyStats(totals.total, totals.totalWithMode),
    groups: new Map(totals.groups.map(([g, t]) => [g, emptyStats(t.total, t.totalWithMode)])),
    mw: { totalMultiwords: totals.multiwords, systemFound: 0, genuine: 0, matched: 0 },
    outsideT: 0,
    repeats: 0,
    unscorable: 0,
    truncated: 0,
    repeatedGuesses: 0,
  };
}

/** Add one id's outcome (and how many lines answered it) — in first-line order. */
export function addItemOutcome(sums: OutcomeSums, type: SystemKind, o: ItemOutcome, lines: number): void {
  if (type === "mw") {
    // mw: the first line per id counts; later ones are repeats.
    sums.repeats += lines - 1;
    if (o.attempted) {
      sums.mw.systemFound++;
      if (o.genuine) sums.mw.genuine++;
      if (o.matched) sums.mw.matched++;
    }
    return;
  }
  if (!o.inT) {
    sums.outsideT += lines;
    return;
  }
  sums.repeats += lines - 1;
  if (o.unscorable) sums.unscorable++;
  if (!o.attempted) return;
  const modeHit = o.hasMode ? o.modeHit : null;
  addOutcome(sums.stats, o.score, modeHit);
  const g = sums.groups.get(o.group);
  if (g) addOutcome(g, o.score, modeHit);
  if (o.truncated) sums.truncated++;
  if (o.repeated) sums.repeatedGuesses++;
}

/** What one gold line is to the scorer read on its own: in T, with a mode, its group; and its diagnostics' counts. */
export interface GoldLineFacts {
  inT: boolean;
  hasMode: boolean;
  group: string;
  errors: number;
  warnings: number;
}

/** One gold (best/oot) line as the key reads it (the project's gold lines are kept one by one). */
export function goldLineFacts(line: string, reading: Reading): GoldLineFacts {
  const b = new KeyBuilder("gold", { reading });
  b.push(line);
  const { key, diagnostics } = b.finish();
  const inT = key.total === 1;
  return {
    inT,
    hasMode: inT && key.hasMode(0),
    group: inT ? posOf(key.lexelt(0)) : "",
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity !== "error").length,
  };
}

/** One mwgold line as the mw key reads it: whether its item is in MW; its diagnostics' counts. */
export function mwLineFacts(line: string, reading: Reading): { multiword: boolean; errors: number; warnings: number } {
  const b = new MwKeyBuilder("mwgold", reading);
  b.push(line);
  const { key, diagnostics } = b.finish();
  return { multiword: key.total === 1, errors: diagnostics.filter((d) => d.severity === "error").length, warnings: diagnostics.filter((d) => d.severity !== "error").length };
}
