/**
 * Score a system file against a gold file given as texts (an upload, a test):
 * the same run as the CLI's (run.ts), in one call. By default the figures are
 * score.pl's; when a documented repair would change them, `repairs` holds the
 * repaired figures and the rules behind the difference. Pure.
 */
import { type Diagnostic, splitLines } from "../../lexsub/diagnostics";
import { type GroupBy } from "./analysis";
import { type KeyOptions } from "./key";
import { type MwItem, type MwResult } from "./mw";
import { type RepairReport, ScoreRun, repairReport } from "./run";
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
  /** Apply the documented repairs instead of reading as score.pl does (see repairs.ts). */
  repaired?: boolean;
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
  /** In the default mode, when a repair would read the files differently: what it would change (else null). */
  repairs: RepairReport | null;
}

function feed(add: (line: string) => void, text: string): void {
  for (const l of splitLines(text)) add(l.crlf ? l.text + "\r" : l.text);
}

export function scoreTexts(input: ScoreTextsInput): ScoreTextsOutput {
  const items: (ItemScore | MwItem)[] = [];
  const options = { ...input, onItem: (i: ItemScore | MwItem) => items.push(i) };
  const run = new ScoreRun(options);
  feed((l) => run.pushGold(l), input.gold);
  run.goldDone();
  feed((l) => run.pushSystem(l), input.system);
  const out = run.finish();
  let repairs: RepairReport | null = null;
  if (run.needsRepairedPass) {
    repairs = run.inlineRepairs(out);
    if (!repairs) {
      const again = run.repairedRun();
      feed((l) => again.pushGold(l), input.gold);
      again.goldDone();
      feed((l) => again.pushSystem(l), input.system);
      repairs = repairReport(run, out, again, again.finish());
    }
  }
  return { ...out, items, repairs };
}
