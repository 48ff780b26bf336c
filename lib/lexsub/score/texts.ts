/**
 * Score a system file against a gold file given as texts (an upload, a test):
 * the same readers, key and scorers as the CLI, in one call. Pure.
 */
import { type Diagnostic, splitLines } from "../../scoring/diagnostics";
import { SystemReader } from "../formats/system";
import { type GroupBy, groupOf } from "./analysis";
import { bestScorer } from "./best";
import { KeyBuilder, type KeyOptions, sortDiagnostics } from "./key";
import { type MwItem, MwKeyBuilder, type MwResult, MwScorer } from "./mw";
import { ootScorer } from "./oot";
import { type ItemScore, type SubstitutionResult } from "./substitution";

export interface ScoreTextsInput {
  type: "best" | "oot" | "mw";
  system: string;
  gold: string;
  /** Names for diagnostics (default "system", "gold"). */
  systemName?: string;
  goldName?: string;
  /** Further analysis (best and oot). */
  analysis?: KeyOptions;
  /** A breakdown per PoS or lexelt (best and oot). */
  by?: GroupBy;
}

export interface ScoreTextsOutput {
  result: SubstitutionResult | MwResult;
  /** The attempted items in system-file order (ItemScore for best/oot, MwItem for mw). */
  items: (ItemScore | MwItem)[];
  /** The gold's diagnostics; when they hold an error, nothing was scored (`result` is of an empty key). */
  goldDiagnostics: Diagnostic[];
  systemDiagnostics: Diagnostic[];
  /** Lines read from the system file, in the format, refused. */
  lines: { read: number; matched: number; refused: number };
}

export function scoreTexts(input: ScoreTextsInput): ScoreTextsOutput {
  const systemName = input.systemName ?? "system";
  const goldName = input.goldName ?? "gold";
  const reader = new SystemReader(systemName, input.type);
  const items: (ItemScore | MwItem)[] = [];
  const feed = (add: (text: string) => void, text: string) => {
    for (const l of splitLines(text)) add(l.crlf ? l.text + "\r" : l.text);
  };
  let result: SubstitutionResult | MwResult;
  let goldDiagnostics: Diagnostic[];
  if (input.type === "mw") {
    const b = new MwKeyBuilder(goldName);
    feed((l) => b.push(l), input.gold);
    const { key, diagnostics } = b.finish();
    goldDiagnostics = diagnostics;
    const scorer = new MwScorer(key, { file: systemName, onItem: (i) => items.push(i) });
    feed((l) => {
      const s = reader.push(l);
      if (s) scorer.add(s);
    }, input.system);
    result = scorer.finish();
  } else {
    const b = new KeyBuilder(goldName, input.analysis ?? {});
    feed((l) => b.push(l), input.gold);
    const { key, diagnostics } = b.finish();
    goldDiagnostics = diagnostics;
    const options = { file: systemName, onItem: (i: ItemScore) => items.push(i), groupBy: input.by ? groupOf(input.by) : undefined };
    const scorer = input.type === "best" ? bestScorer(key, options) : ootScorer(key, options);
    feed((l) => {
      const s = reader.push(l);
      if (s) scorer.add(s);
    }, input.system);
    result = scorer.finish();
  }
  return {
    result,
    items,
    goldDiagnostics,
    systemDiagnostics: sortDiagnostics([...reader.finish(), ...result.diagnostics]),
    lines: { read: reader.lines, matched: reader.matched, refused: reader.refused },
  };
}
