/**
 * Line-numbered diagnostics shared by every parser (lib/lexsub/formats) and
 * scorer (lib/scorers) in lexgold. Pure: no fs, no db. A parser returns
 * records plus diagnostics; the edge (CLI, page) decides how to print them.
 */
export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  /** The file the text came from, as the caller named it (e.g. "gold.trial"). */
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
}

export function diag(severity: Severity, file: string, line: number, message: string): Diagnostic {
  return { severity, file, line, message };
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}` : d.file;
  return `${where}: ${d.severity}: ${d.message}`;
}

export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some((d) => d.severity === "error");
}

/**
 * Split text into lines, remembering 1-based numbers and whether the line ended
 * in CRLF (the `\r` is removed from `text` and reported through `crlf`).
 */
export interface SourceLine {
  line: number;
  text: string;
  crlf: boolean;
}

export function splitLines(text: string): SourceLine[] {
  const out: SourceLine[] = [];
  const parts = text.split("\n");
  // A final newline does not start another line.
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  for (let i = 0; i < parts.length; i++) {
    let t = parts[i];
    let crlf = false;
    if (t.endsWith("\r")) {
      t = t.slice(0, -1);
      crlf = true;
    }
    out.push({ line: i + 1, text: t, crlf });
  }
  return out;
}

/**
 * A bounded collector for diagnostics that may repeat on many lines (a
 * million-line system file with CRLF endings must not print a million
 * warnings). Each diagnostic has a kind; the first `limit` of each kind are
 * kept, and `finish()` adds one summary per kind saying how many more there were.
 */
export class DiagnosticLog {
  readonly list: Diagnostic[] = [];
  private readonly kinds = new Map<string, { count: number; first: Diagnostic; plural: string }>();

  constructor(readonly limit = 10) {}

  /** Record a diagnostic of `kind`; `plural` names the kind in the summary (e.g. "lines with CRLF endings"). */
  add(kind: string, d: Diagnostic, plural = "more like this"): void {
    const k = this.kinds.get(kind);
    if (!k) this.kinds.set(kind, { count: 1, first: d, plural });
    else k.count++;
    if ((k?.count ?? 1) <= this.limit) this.list.push(d);
  }

  /**
   * Count one more diagnostic of `kind` without making it, when the listing
   * of its kind is full (true); false, counting nothing, when it would be
   * listed: then `add` it. (For hot loops: no message built past the limit.)
   */
  tally(kind: string): boolean {
    const k = this.kinds.get(kind);
    if (!k || k.count < this.limit) return false;
    k.count++;
    return true;
  }

  /** How many diagnostics of `kind` were recorded (listed or not). */
  count(kind: string): number {
    return this.kinds.get(kind)?.count ?? 0;
  }

  /** Append a summary for every kind that went over the limit; returns the whole list. */
  finish(): Diagnostic[] {
    for (const { count, first, plural } of this.kinds.values()) {
      if (count > this.limit) {
        this.list.push(diag(first.severity, first.file, 0, `${count - this.limit} more ${plural} not listed (${count} in all)`));
      }
    }
    this.kinds.clear();
    return this.list;
  }
}
