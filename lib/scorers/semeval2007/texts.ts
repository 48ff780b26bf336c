/**
 * Score a system file against a gold file given as texts (an upload, a test):
 * the same run as the CLI's (run.ts), in one call. By default the figures are
 * score.pl's; when a documented repair would change them, `repairs` holds the
 * repaired figures and the rules behind the difference; when the files hold
 * characters outside ASCII and reading them as UTF-8 text (`perl -CSD
 * score.pl`, `reading: "utf8"`) would change a figure, `utf8` holds those
 * figures. Pure.
 */
import { type Diagnostic } from "../../lexsub/diagnostics";
import { type GroupBy } from "./analysis";
import { type KeyOptions } from "./key";
import { type MwItem, type MwResult } from "./mw";
import { type RepairReport, ScoreRun, type ScoreRunOptions, type ScoreRunResult, type Utf8Report, repairReport, utf8Report } from "./run";
import { type Reading } from "./rules";
import { readingsAgreeOn } from "../../lexsub/formats/perl-classes";
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
  /** How the files' characters are read: "bytes" (default, score.pl as it runs) or "utf8" (`perl -CSD score.pl`; rules.ts `readingFor`). */
  reading?: Reading;
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
  /** Read as bytes (the default) and not repaired: what the UTF-8 reading gives, when the files could read differently (else null). */
  utf8: Utf8Report | null;
}

/**
 * A file given in pieces (a stored run's, read a piece at a time; a gold's lines), read again for
 * each pass: a function that gives the pieces from the start each time it is called.
 */
type TextPieces = () => Iterable<string>;

/** Each line of the pieces, as `splitLines` finds them in the whole text (a CRLF line keeps its "\r"), without joining them. */
function feed(add: (line: string) => void, pieces: TextPieces): void {
  let carry = "";
  for (const piece of pieces()) {
    const parts = (carry + piece).split("\n");
    carry = parts.pop()!;
    for (const l of parts) add(l);
  }
  // A final newline does not start another line.
  if (carry !== "") add(carry);
}

/** Whether the pieces read the same as bytes and as UTF-8 (perl-classes.ts readingsAgreeOn, piece by piece). */
function agreeOn(pieces: TextPieces): boolean {
  for (const piece of pieces()) if (!readingsAgreeOn(piece)) return false;
  return true;
}

/** One run over the texts, without the notices. */
function runOnce(options: ScoreRunOptions, input: Omit<ScorePiecesInput, "onItem">): ScoreRunResult {
  const run = new ScoreRun(options);
  feed((l) => run.pushGold(l), input.gold);
  run.goldDone();
  feed((l) => run.pushSystem(l), input.system);
  return run.finish();
}

export function scoreTexts(input: ScoreTextsInput): ScoreTextsOutput {
  const items: (ItemScore | MwItem)[] = [];
  const out = scorePieces({ ...input, system: () => [input.system], gold: () => [input.gold], onItem: (i) => items.push(i) });
  return { ...out, items };
}

/** What `scorePieces` reads: the files in pieces, and who is shown each attempted item (none are kept). */
export interface ScorePiecesInput extends Omit<ScoreTextsInput, "system" | "gold"> {
  system: TextPieces;
  gold: TextPieces;
  onItem?: (item: ItemScore | MwItem) => void;
}

/**
 * `scoreTexts` over files given in pieces, each attempted item shown to `onItem` instead of kept:
 * a stored run of a million lines is never one string, nor its lines or items one list.
 */
export function scorePieces(input: ScorePiecesInput): Omit<ScoreTextsOutput, "items"> {
  const { onItem, ...plain } = input;
  const run = new ScoreRun({ ...plain, onItem });
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
  let utf8: Utf8Report | null = null;
  if ((input.reading ?? "bytes") === "bytes" && !input.repaired && !(agreeOn(input.gold) && agreeOn(input.system))) {
    utf8 = utf8Report(out, runOnce({ ...plain, reading: "utf8" }, plain));
  }
  return { ...out, repairs, utf8 };
}
