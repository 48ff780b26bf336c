/**
 * score.pl's figures by default, and the documented repairs as an option.
 *
 * lexgold scores exactly as score.pl (key release) does on every file it reads
 * (the default: reference behaviour). Where score.pl misreads real data, a
 * *repaired* mode applies a fix; each fix is a named rule below. In the
 * default mode a `RepairTracker` notes, while the files are read, the ids
 * where a rule applies; the caller then scores again with the repairs on and
 * `compareRepairs` says which rules changed which items and what the figures
 * would have been — so users keep parity and still see what it costs. Pure.
 */

export type RepairRule = "t-fields" | "pn" | "non" | "hyphen-mode" | "mw-apostrophe" | "crlf" | "spaces";

export interface RepairRuleInfo {
  rule: RepairRule;
  /** What score.pl does. */
  official: string;
  /** What the repaired mode does instead. */
  repaired: string;
}

/** Every repair, in the order reports list them. */
export const REPAIR_RULES: readonly RepairRuleInfo[] = [
  {
    rule: "t-fields",
    official: "an item is in T by its ';'-separated fields, readable or not",
    repaired: "an item is in T by its readable entries (two or more, or a first count of 2 or more)",
  },
  {
    rule: "pn",
    official: 'every gold entry holding the letters "pn" is dropped (e.g. "sharpness")',
    repaired: 'only the entry "pn" is dropped',
  },
  {
    rule: "non",
    official: 'gold "non x" / "non-x" never matches: answers "non x" and "non-x" become "nonx"',
    repaired: 'gold "non x" / "non-x" also matches "nonx"',
  },
  {
    rule: "hyphen-mode",
    official: "a hyphenated mode is never hit (answers' hyphens become spaces; the mode keeps its own)",
    repaired: "the mode also matches with spaces for its hyphens",
  },
  {
    rule: "mw-apostrophe",
    official: "the gold multiword loses its first apostrophe, the answer keeps it",
    repaired: "the answer loses its first apostrophe too",
  },
  {
    rule: "crlf",
    official: "a CRLF line keeps the \\r in its last guess, which then matches nothing",
    repaired: "CRLF lines are read as LF",
  },
  {
    rule: "spaces",
    official: "spaces around ';' or at the end of an answer stay in the guess, which then matches nothing",
    repaired: "a guess that matches nothing as written is matched without those spaces",
  },
];

export function repairInfo(rule: RepairRule): RepairRuleInfo {
  return REPAIR_RULES.find((r) => r.rule === rule)!;
}

/** The ids where each rule applies, noted while the files are read in the default mode. */
export class RepairTracker {
  private readonly byRule = new Map<RepairRule, Set<string>>();
  private readonly all = new Set<string>();

  note(rule: RepairRule, id: string): void {
    let s = this.byRule.get(rule);
    if (!s) this.byRule.set(rule, (s = new Set()));
    s.add(id);
    this.all.add(id);
  }

  /** Whether any rule applies anywhere (else the repaired figures are the official ones). */
  get any(): boolean {
    return this.all.size > 0;
  }

  /** Every id any rule applies to. */
  get ids(): ReadonlySet<string> {
    return this.all;
  }

  idsOf(rule: RepairRule): ReadonlySet<string> {
    return this.byRule.get(rule) ?? new Set();
  }
}

/** One rule that changed items: how many, and the first few ids. */
export interface RepairChange {
  rule: RepairRule;
  official: string;
  repaired: string;
  items: number;
  ids: string[];
}

/**
 * Per rule, the items it applies to whose outcome differs between the official
 * and the repaired pass (`outcomes` hold one string per watched id: whether it
 * is in T / MW, attempted, its score and mode hit), in id order of noting.
 */
export function changedByRule(
  tracker: RepairTracker,
  official: ReadonlyMap<string, string>,
  repaired: ReadonlyMap<string, string>,
  sample = 5,
): RepairChange[] {
  const out: RepairChange[] = [];
  for (const info of REPAIR_RULES) {
    const ids: string[] = [];
    let items = 0;
    for (const id of tracker.idsOf(info.rule)) {
      if ((official.get(id) ?? "") === (repaired.get(id) ?? "")) continue;
      items++;
      if (ids.length < sample) ids.push(id);
    }
    if (items > 0) out.push({ ...info, items, ids });
  }
  return out;
}
