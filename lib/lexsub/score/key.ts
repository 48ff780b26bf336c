/**
 * The scoring key: what the best and oot scorers need from a gold file, for
 * the items in T only, held compactly so a million-item gold fits in little
 * memory (the official scorer needs about 1.1 GB for one).
 *
 * Rules (official key-release scorer, reference §2):
 * - `pn` entries are dropped (the official drops every entry *containing* "pn",
 *   e.g. "sharpness"; here only the entry `pn` itself — none of the SemEval
 *   golds has another);
 * - the first apostrophe of each gold substitute is removed;
 * - an item is in T when it then has ≥ 2 entries or its first entry's count is ≥ 2;
 * - |H_i| is the sum of the counts (a substitute repeated in one line keeps its
 *   last count, as the official's hash does — with a warning);
 * - the mode is the first entry unless another entry has the same count (gold
 *   lines are sorted by count; an unsorted line gets a warning);
 * - a gold substitute also matches its spaced form (`open-air` ~ `open air`)
 *   and its form normalised as answers are (`non-domestic` ~ `nondomestic`);
 *   the mode too (the official never matches a hyphenated mode: reference Q6).
 *
 * Further analysis (paper Tables 3 and 6) is applied while the key is built:
 * leaving out ids (NMWT), keeping only single-word substitutes (NMWS), keeping
 * or leaving out lexelts from a word list (MAN / RAND). Pure.
 */
import { type Diagnostic, DiagnosticLog, diag } from "../../scoring/diagnostics";
import { type GoldEntry, type GoldLine, GoldReader } from "../formats/gold";
import { normalizeGuess } from "../formats/system";
import { isMultiword, lexeltKey } from "./analysis";

export interface KeyOptions {
  /** NMWT: leave these ids out of T (the multiword items). */
  excludeIds?: ReadonlySet<string>;
  /** NMWS: score only single-word substitutes, in the gold and in the answers. */
  singleWordOnly?: boolean;
  /** Keep only items whose lexelt (`lemma.pos`, see `lexeltKey`) is in this set. */
  includeLexelts?: ReadonlySet<string>;
  /** Leave out items whose lexelt (`lemma.pos`) is in this set. */
  excludeLexelts?: ReadonlySet<string>;
}

/** One item of T, decoded. */
export interface KeyItem {
  id: string;
  /** The lexelt as written in the gold. */
  lexelt: string;
  /** The entries scored (pn dropped, first apostrophe removed, a repeated substitute once). */
  entries: GoldEntry[];
  /** |H_i|: the sum of the entries' counts. */
  humanResponses: number;
  /** The unique most frequent substitute, or null (a tie). */
  mode: string | null;
}

const SEP = "\u0000";
const PN = "pn";

/**
 * Build a key line by line (from a stream) or from parsed gold lines. The key
 * keeps its own id index; lines for an id seen before are refused as errors.
 */
export class KeyBuilder {
  private readonly reader: GoldReader;
  private readonly log = new DiagnosticLog(10);
  private readonly key: ScoringKey;
  /** id → 1-based line, for ids not in T (so repeats are still caught). */
  private readonly lineOf = new Map<string, number>();

  constructor(
    readonly file: string,
    options: KeyOptions = {},
  ) {
    this.reader = new GoldReader(file, "gold", { checkRepeats: false });
    this.key = new ScoringKey(options);
  }

  /** Feed one raw line (without `\n`). */
  push(raw: string): void {
    const g = this.reader.push(raw);
    if (g) this.add(g);
  }

  /** Add one parsed gold line. */
  add(g: GoldLine): void {
    const k = this.key;
    const ord = k.ids.get(g.id);
    const seen = ord !== undefined ? k.lines[ord] : this.lineOf.get(g.id);
    if (seen !== undefined) {
      this.reader.repeated(g.id, g.line, seen);
      return;
    }
    const o = k.options;
    if (o.excludeIds?.has(g.id) || excludedLexelt(g.lexelt, o)) {
      this.lineOf.set(g.id, g.line);
      return;
    }
    // pn, apostrophe, NMWS.
    const entries: GoldEntry[] = [];
    for (const e of g.entries) {
      if (e.substitute === PN) continue;
      const substitute = e.substitute.includes("'") ? e.substitute.replace("'", "") : e.substitute;
      if (o.singleWordOnly && isMultiword(substitute)) continue;
      entries.push(substitute === e.substitute ? e : { substitute, count: e.count });
    }
    if (!(entries.length >= 2 || (entries.length === 1 && entries[0].count >= 2))) {
      this.lineOf.set(g.id, g.line);
      return;
    }
    // The mode: the first entry, unless another has the same count.
    const first = entries[0].count;
    let mode = true;
    let unsorted = false;
    for (let i = 1; i < entries.length; i++) {
      if (entries[i].count === first) mode = false;
      if (entries[i].count > entries[i - 1].count) unsorted = true;
    }
    if (unsorted) {
      this.log.add(
        "unsorted",
        diag("warning", this.file, g.line, `entries of id ${g.id} are not sorted by count; the mode is taken to be the first entry, as the official scorer does`),
        "lines not sorted by count",
      );
    }
    // A substitute repeated in the line keeps its first place and its last count.
    const subs: string[] = [];
    const counts: number[] = [];
    for (const e of entries) {
      const at = subs.indexOf(e.substitute);
      if (at >= 0) {
        this.log.add(
          "repeated-substitute",
          diag("warning", this.file, g.line, `substitute "${e.substitute}" is repeated for id ${g.id}; its last count (${e.count}) is used, as the official scorer does`),
          "repeated substitutes",
        );
        counts[at] = e.count;
      } else {
        subs.push(e.substitute);
        counts.push(e.count);
      }
    }
    k.append(g.id, g.lexelt, g.line, subs, counts, mode);
  }

  /** The key, and every diagnostic of the gold file (sorted by line). */
  finish(): { key: ScoringKey; diagnostics: Diagnostic[] } {
    const diagnostics = [...this.reader.finish(), ...this.log.finish()];
    return { key: this.key, diagnostics: sortDiagnostics(diagnostics) };
  }
}

/** Diagnostics in line order; whole-file ones (line 0) last. Stable. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  const at = (d: Diagnostic) => (d.line === 0 ? Number.MAX_SAFE_INTEGER : d.line);
  return ds.map((d, i) => ({ d, i })).sort((a, b) => at(a.d) - at(b.d) || a.i - b.i).map(({ d }) => d);
}

function excludedLexelt(lexelt: string, o: KeyOptions): boolean {
  if (!o.includeLexelts && !o.excludeLexelts) return false;
  const k = lexeltKey(lexelt);
  if (o.includeLexelts && !o.includeLexelts.has(k)) return true;
  return o.excludeLexelts?.has(k) ?? false;
}

/**
 * T, compactly: for item number `o` (0-based, in gold order), its id, lexelt,
 * |H_i|, whether it has a mode, and a table `key\0freq\0key\0freq…` of every
 * form an answer can match (the mode, when there is one, comes first).
 */
export class ScoringKey {
  /** id → item number, for items in T. */
  readonly ids = new Map<string, number>();
  readonly idOf: string[] = [];
  readonly lines: number[] = [];
  private readonly lexeltIndex = new Map<string, number>();
  private readonly lexelts: string[] = [];
  private readonly lexeltOf: number[] = [];
  private readonly hu: number[] = [];
  private readonly hasMode: boolean[] = [];
  private readonly tables: string[] = [];
  private modes = 0;

  constructor(readonly options: Readonly<KeyOptions> = {}) {}

  /** Build from parsed gold lines (see `KeyBuilder` to stream). */
  static fromGold(lines: readonly GoldLine[], file: string, options: KeyOptions = {}): { key: ScoringKey; diagnostics: Diagnostic[] } {
    const b = new KeyBuilder(file, options);
    for (const g of lines) b.add(g);
    return b.finish();
  }

  /** |T|. */
  get total(): number {
    return this.idOf.length;
  }

  /** |TM|: items in T with a mode. */
  get totalWithMode(): number {
    return this.modes;
  }

  /** The item number of `id`, or -1 when the id is not in T. */
  find(id: string): number {
    return this.ids.get(id) ?? -1;
  }

  lexelt(o: number): string {
    return this.lexelts[this.lexeltOf[o]];
  }

  humanResponses(o: number): number {
    return this.hu[o];
  }

  /** The mode of item `o`, or null. */
  mode(o: number): string | null {
    if (!this.hasMode[o]) return null;
    const t = this.tables[o];
    const end = t.indexOf(SEP);
    return t.slice(0, end);
  }

  /** The match table of item `o`: alternating form and count. */
  table(o: number): string[] {
    return this.tables[o].split(SEP);
  }

  item(o: number): KeyItem {
    const t = this.table(o);
    const entries: GoldEntry[] = [];
    // The entries, without the derived forms (whose counts start with "~").
    for (let i = 0; i < t.length; i += 2) if (t[i + 1][0] !== "~") entries.push({ substitute: t[i], count: Number(t[i + 1]) });
    return { id: this.idOf[o], lexelt: this.lexelt(o), entries, humanResponses: this.hu[o], mode: this.mode(o) };
  }

  /** |T| and |TM| of each group (e.g. per PoS), in first-seen order. */
  groupTotals(groupOf: (lexelt: string) => string): Map<string, { total: number; totalWithMode: number }> {
    const out = new Map<string, { total: number; totalWithMode: number }>();
    const ofLexelt = this.lexelts.map(groupOf);
    for (let o = 0; o < this.idOf.length; o++) {
      const g = ofLexelt[this.lexeltOf[o]];
      let t = out.get(g);
      if (!t) out.set(g, (t = { total: 0, totalWithMode: 0 }));
      t.total++;
      if (this.hasMode[o]) t.totalWithMode++;
    }
    return out;
  }

  /** Add an item of T (used by KeyBuilder). Derived forms carry their count prefixed by "~". */
  append(id: string, lexelt: string, line: number, subs: string[], counts: number[], hasMode: boolean): void {
    let li = this.lexeltIndex.get(lexelt);
    if (li === undefined) {
      li = this.lexelts.length;
      const own = copy(lexelt);
      this.lexelts.push(own);
      this.lexeltIndex.set(own, li);
    }
    // The entries first (so the mode, when there is one, is the first form),
    // then the forms derived from them, their counts marked with "~".
    const forms = subs.slice();
    const parts: string[] = [];
    let hu = 0;
    for (let i = 0; i < subs.length; i++) {
      parts.push(subs[i], String(counts[i]));
      hu += counts[i];
    }
    for (let i = 0; i < subs.length; i++) {
      for (const form of derivedForms(subs[i])) {
        if (forms.includes(form)) continue;
        forms.push(form);
        parts.push(form, "~" + counts[i]);
      }
    }
    const table = parts.join(SEP);
    const o = this.idOf.length;
    const ownId = copy(id);
    this.ids.set(ownId, o);
    this.idOf.push(ownId);
    this.lines.push(line);
    this.lexeltOf.push(li);
    this.hu.push(hu);
    this.hasMode.push(hasMode);
    this.tables.push(table);
    if (hasMode) this.modes++;
  }
}

/**
 * A copy of a string that does not keep alive the (possibly large) text it was
 * cut from: engines may represent a substring as a view of its parent, and a
 * key holding a million such views would hold the whole file.
 */
function copy(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

/** The other forms a gold substitute matches: hyphens as spaces; normalised as an answer is. */
export function derivedForms(s: string): string[] {
  const out: string[] = [];
  if (s.includes("-")) out.push(s.replace(/-/g, " "));
  const n = normalizeGuess(s);
  if (n !== s && !out.includes(n)) out.push(n);
  return out;
}

/** The count of `guess` in a match table (0 when absent). */
export function lookup(table: readonly string[], guess: string): number {
  for (let i = 0; i < table.length; i += 2) {
    if (table[i] === guess) {
      const c = table[i + 1];
      return Number(c.charCodeAt(0) === 126 ? c.slice(1) : c);
    }
  }
  return 0;
}

/** Whether `guess` is in a match table at all. */
export function has(table: readonly string[], guess: string): boolean {
  for (let i = 0; i < table.length; i += 2) if (table[i] === guess) return true;
  return false;
}
