/**
 * The scoring key: what the best and oot scorers need from a gold file, for
 * the items in T only, held compactly so a million-item gold fits in little
 * memory (the official scorer needs about 1.1 GB for one).
 *
 * By default the key is read exactly as score.pl (key release) reads the gold
 * (reference §2 and "Found on real data"); each rule below is decided in
 * rules.ts (`dropsEntry`, `inT`, `modeOf`, `humanResponses`, `spacedForm`),
 * which this builder and the fast lane (fast.ts) both call:
 * - every `;`-separated field holding the letters "pn" is dropped (so
 *   "sharpness 2" goes with "pn 2");
 * - an item is in T when ≥ 2 fields remain, readable or not, or the first
 *   remaining field's count (read loosely, see `looseCount`) is ≥ 2; an item
 *   in T with no readable entry can never be attempted;
 * - the first apostrophe of each gold substitute is removed;
 * - |H_i| is the sum of the readable entries' counts (a substitute repeated in
 *   one line keeps its last count, as the official's hash does — with a warning);
 * - the mode is the first readable entry unless another has the same count
 *   (gold lines are sorted by count; an unsorted line gets a warning);
 * - a hyphenated gold substitute also matches its spaced form (`open-air` ~
 *   `open air`), but the mode is matched only as written, so a hyphenated mode
 *   is never hit (reference Q6); a gold `non x` / `non-x` never matches, since
 *   answers become `nonx`.
 *
 * With `repaired` (see repairs.ts) the documented repairs apply instead: only
 * the entry `pn` is dropped; T counts readable entries; the mode matches in its
 * spaced form too; gold `non x` / `non-x` also match `nonx`. A `RepairTracker`
 * notes, while an official key is built, the ids where a repair would read the
 * gold differently.
 *
 * Further analysis (paper Tables 3 and 6) is applied while the key is built:
 * leaving out ids (NMWT), keeping only single-word substitutes (NMWS), keeping
 * or leaving out lexelts from a word list (MAN / RAND). Pure.
 *
 * Why one file over 600 lines: the key is one data structure with its builder and
 * readers; the rules it applies are in rules.ts, the diagnostics it writes in
 * lib/lexsub/diagnostics.ts.
 */
import { type Diagnostic, DiagnosticLog, diag } from "../../lexsub/diagnostics";
import { type FieldInfo, type GoldEntry, type GoldLine, GoldReader, PN, looseCount } from "../../lexsub/formats/gold";
import { HAS_MODE, type Reading, UNSORTED, classesOf, dropsEntry, humanResponses, inT, isNonEntry, modeOf, normalizeGuess, spacedForm, withoutFirstApostrophe } from "./rules";
import { BYTE_CLASSES, type PerlClasses } from "../../lexsub/formats/perl-classes";
import { isMultiword, lexeltKey } from "./analysis";
import { type RepairTracker } from "./repairs";

export interface KeyOptions {
  /** NMWT: leave these ids out of T (the multiword items). */
  excludeIds?: ReadonlySet<string>;
  /** NMWS: score only single-word substitutes, in the gold and in the answers. */
  singleWordOnly?: boolean;
  /** Keep only items whose lexelt (`lemma.pos`, see `lexeltKey`) is in this set. */
  includeLexelts?: ReadonlySet<string>;
  /** Leave out items whose lexelt (`lemma.pos`) is in this set. */
  excludeLexelts?: ReadonlySet<string>;
  /** Apply the documented repairs instead of reading the gold as score.pl does (see repairs.ts). */
  repaired?: boolean;
  /** While an official key is built: note the ids a repair would read differently. */
  repairs?: RepairTracker;
  /** Read only the gold lines of these ids (a repaired pass over the ids a repair touches; see run.ts). */
  only?: ReadonlySet<string>;
  /** How Perl reads the gold's characters (default "bytes", score.pl as it runs; "utf8": `perl -CSD`; rules.ts). */
  reading?: Reading;
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
/** Marks a stored table (as opposed to a gold line's entries kept as written). */
const TABLE = "\u0001";
/** Marks a gold line's entries kept as written that hold a hyphen (so they also match with spaces). */
const HYPHENS = "\u0002";

/**
 * A Map key for an id: canonical decimal ids ("1", "1234", not "007") become
 * numbers, which hash faster and need no string kept per item; others stay strings.
 */
export function idKey(id: string): string | number {
  const k = numericId(id, 0, id.length);
  return k < 0 ? id : k;
}

/** The value of a canonical decimal id in text[from, to) below 10^9, else -1. */
function numericId(text: string, from: number, to: number): number {
  const n = to - from;
  if (n <= 0 || n > 9) return -1;
  let c = text.charCodeAt(from);
  if (c < 49 || c > 57) return -1;
  let v = c - 48;
  for (let i = from + 1; i < to; i++) {
    c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/**
 * A growable column of 32-bit integers in fixed blocks of 2^16 (no copying as it grows past one).
 * The first block starts at 16 slots and doubles as it fills: a key of one gold line (a save's,
 * lib/server/derived) holds one item, and three zeroed blocks of 256 KiB apiece per key were most
 * of its cost.
 */
class IntColumn {
  private readonly blocks: Int32Array[] = [];
  length = 0;
  push(v: number): void {
    const b = this.length >>> 16;
    const at = this.length & 0xffff;
    if (b === this.blocks.length) this.blocks.push(new Int32Array(b === 0 ? 16 : 1 << 16));
    else if (at === this.blocks[b].length) {
      const grown = new Int32Array(at * 2);
      grown.set(this.blocks[b]);
      this.blocks[b] = grown;
    }
    this.blocks[b][at] = v;
    this.length++;
  }
  get(i: number): number {
    return this.blocks[i >>> 16][i & 0xffff];
  }
}

/**
 * id → value (an item number, or −line for a gold id outside T). Canonical
 * decimal ids index a typed array directly while they are dense enough (at
 * most four slots per id held, or below 2^20 once the index holds
 * SMALL_INDEX ids); the rest go to a Map. A key of a few lines (a save's gold
 * line, lib/server/derived) keeps its ids in the Map: growing the array to a
 * high id would zero up to 4 MiB for one line.
 */
const SMALL_INDEX = 64;
class IdIndex {
  private dense = new Int32Array(1024);
  private readonly map = new Map<string | number, number>();
  private held = 0;
  /** A decimal id below the array's length may be in the Map (it went there before the array grew past it). */
  private spilled = false;

  /** The value for an id key, or undefined. */
  get(key: string | number): number | undefined {
    if (typeof key === "number" && key < this.dense.length) {
      const v = this.dense[key];
      if (v !== 0 || !this.spilled) return v === 0 ? undefined : v > 0 ? v - 1 : v;
    }
    return this.map.get(key);
  }

  set(key: string | number, value: number): void {
    this.held++;
    if (typeof key === "number") {
      if (key >= this.dense.length) {
        let size = this.dense.length;
        while (size <= key) size *= 2;
        if (size <= Math.max(this.held >= SMALL_INDEX ? 1 << 20 : 0, 4 * this.held)) {
          const grown = new Int32Array(size);
          grown.set(this.dense);
          this.dense = grown;
        }
      }
      if (key < this.dense.length) {
        this.dense[key] = value >= 0 ? value + 1 : value;
        return;
      }
      this.spilled = true;
    }
    this.map.set(key, value);
  }
}

/**
 * Build a key line by line (from a stream) or from parsed gold lines. The key
 * keeps its own id index; lines for an id seen before are refused as errors.
 */
export class KeyBuilder {
  private readonly reader: GoldReader;
  private readonly cls: PerlClasses;
  private readonly log = new DiagnosticLog(10);
  private readonly key: ScoringKey;
  private readonly subs: string[] = [];
  private readonly counts: number[] = [];
  private readonly fieldStart: number[] = [];
  private readonly fieldSpace: number[] = [];
  private lastLexelt = "";
  private lastLexeltIndex = -1;

  constructor(
    readonly file: string,
    options: KeyOptions = {},
  ) {
    this.reader = new GoldReader(file, "gold", { checkRepeats: false, reading: options.reading });
    this.cls = classesOf(options.reading);
    this.key = new ScoringKey(options);
  }

  /** Feed line number `line` of the file (a kept line, read again under its own number). */
  pushAt(line: number, raw: string): void {
    this.reader.seek(line);
    this.push(raw);
  }

  /** Whether the last line fed was read as a gold line (then `lastId` is its id). */
  private lastRead = false;

  /** The id of the last line fed, when it was read as a gold line; else null. */
  get lastId(): string | null {
    return this.lastRead ? this.reader.id : null;
  }

  /** Line `line`, read elsewhere (the fast lane's, fast.ts), is not sorted by count: reported in line order with this builder's own lines. */
  unsortedElsewhere(line: number, id: string): void {
    this.log.add("unsorted", unsortedLine(this.file, line, id), UNSORTED_LINES);
  }

  /** `lines` lines were read elsewhere (fast.ts): counted as read, so a file of them is not "in no format". */
  countRead(lines: number): void {
    this.reader.read += lines;
  }

  /** Feed one raw line (without `\n`). */
  push(raw: string): void {
    const r = this.reader;
    this.lastRead = false;
    if (!r.scanLine(raw)) return;
    this.lastRead = true;
    const only = this.key.options.only;
    if (only && !only.has(r.id)) return;
    const text = r.text;
    const num = numericId(text, r.idStart, r.idEnd);
    const key = num >= 0 ? num : r.id;
    const k = this.key;
    const seen = k.index.get(key);
    if (seen !== undefined) {
      r.repeated(r.id, r.line, seen >= 0 ? k.lineOf(seen) : -seen);
      return;
    }
    const o = k.options;
    let li: number;
    if (this.lastLexeltIndex >= 0 && r.lexeltStart === 0 && r.lexeltEnd === this.lastLexelt.length && text.startsWith(this.lastLexelt)) li = this.lastLexeltIndex;
    else {
      const lexelt = r.lexelt;
      if (excludedLexelt(lexelt, o)) {
        k.index.set(key, -r.line);
        return;
      }
      li = k.lexeltNumber(lexelt);
      this.lastLexelt = k.lexeltName(li);
      this.lastLexeltIndex = li;
    }
    if (o.excludeIds && o.excludeIds.has(r.id)) {
      k.index.set(key, -r.line);
      return;
    }
    // A CRLF line goes the long way: score.pl's fields then include the "\r".
    if (!r.cr && this.plain(text, r.restStart, key, li, r.line)) return;
    r.scanEntries();
    this.addEntries(r.id, key, li, r.line, r.subs, r.counts, r.entries, r.fields);
  }

  /**
   * The common case, read without cutting the line into pieces: every entry
   * `word… count` (see `plainEntry`) with no apostrophe or leading "non"
   * (nothing to normalise but hyphens), not `pn`, not repeated, single words
   * under NMWS. Such a line is stored as written (marked when it holds a
   * hyphen); false (nothing stored) otherwise.
   */
  private plain(text: string, start: number, key: string | number, li: number, line: number): boolean {
    const pattern = this.key.options.singleWordOnly ? PLAIN_SINGLE : PLAIN;
    // "pn" anywhere in the entries (a `pn` entry, or "sharpness") goes the long way.
    if (text.indexOf(PN, start) >= 0) return false;
    pattern.lastIndex = start;
    if (!pattern.test(text)) return false;
    let end = text.length;
    while (end > start && text.charCodeAt(end - 1) === 59) end--;
    const counts = this.counts;
    const fs = this.fieldStart;
    const sp = this.fieldSpace;
    let n = 0;
    let from = start;
    while (from < end) {
      let semi = text.indexOf(";", from);
      if (semi < 0 || semi > end) semi = end;
      const space = text.lastIndexOf(" ", semi - 1);
      // Repeats are looked for pairwise: fine for a gold line's handful of entries,
      // quadratic for thousands, which go the long way.
      if (n === PLAIN_MAX_ENTRIES) return false;
      for (let j = 0; j < n; j++) if (sameRange(text, fs[j], sp[j], from, space)) return false;
      let c = 0;
      for (let i = space + 1; i < semi; i++) c = c * 10 + (text.charCodeAt(i) - 48);
      fs[n] = from;
      sp[n] = space;
      counts[n++] = c;
      from = semi + 1;
    }
    if (!inT(n, counts[0])) {
      this.key.index.set(key, -line);
      return true;
    }
    const mode = this.modeOf(counts, n, key, line);
    const hu = humanResponses(counts, 0, n);
    const entries = text.slice(start, end);
    // A hyphenated mode: score.pl never hits it; the repaired mode does.
    if (mode && this.key.options.repairs && hasHyphen(text, fs[0], sp[0])) this.key.options.repairs.note("hyphen-mode", String(key));
    this.key.append(key, li, line, text.indexOf("-", start) >= 0 ? [HYPHENS, entries].join("") : copy(entries), hu, mode);
    return true;
  }

  /** Add one parsed gold line. */
  add(g: GoldLine): void {
    const k = this.key;
    if (k.options.only && !k.options.only.has(g.id)) return;
    const key = idKey(g.id);
    const seen = k.index.get(key);
    if (seen !== undefined) {
      this.reader.repeated(g.id, g.line, seen >= 0 ? k.lineOf(seen) : -seen);
      return;
    }
    if ((k.options.excludeIds && k.options.excludeIds.has(g.id)) || excludedLexelt(g.lexelt, k.options)) {
      k.index.set(key, -g.line);
      return;
    }
    const subs = g.entries.map((e) => e.substitute);
    const counts = g.entries.map((e) => e.count);
    this.addEntries(g.id, key, k.lexeltNumber(g.lexelt), g.line, subs, counts, subs.length, g.fields ?? null);
  }

  private addEntries(
    id: string,
    key: string | number,
    li: number,
    line: number,
    readSubs: readonly string[],
    readCounts: readonly number[],
    read: number,
    fields: FieldInfo | null,
  ): void {
    const k = this.key;
    const o = k.options;
    const tracker = o.repairs;
    // score.pl drops every field holding "pn" before anything else; the repaired
    // reading drops only the entry `pn`. Fields are known when the line was read
    // here (not for lines parsed elsewhere, whose entries stand for their fields).
    const byField = fields !== null && !o.repaired;
    const fieldKept = this.fieldKept;
    if (fields) for (let f = 0; f < fields.count; f++) fieldKept[f] = !fields.pn[f];
    // pn, apostrophe, NMWS.
    const subs = this.subs;
    const counts = this.counts;
    let n = 0;
    let pnDiffers = false;
    let nonEntry = false;
    for (let i = 0; i < read; i++) {
      let s = readSubs[i];
      const pnField = fields !== null && fields.pn[fields.entryField[i]];
      if (fields !== null && dropsEntry(s, pnField, true) !== dropsEntry(s, pnField, false)) pnDiffers = true;
      if (dropsEntry(s, pnField, byField)) continue;
      s = withoutFirstApostrophe(s);
      if (o.singleWordOnly && isMultiword(s)) {
        if (fields) fieldKept[fields.entryField[i]] = false;
        continue;
      }
      if (isNonEntry(s, this.cls)) nonEntry = true;
      subs[n] = s;
      counts[n++] = readCounts[i];
    }
    if (fields) for (let f = 0; f < fields.count; f++) if (fields.pn[f] && !fieldTextIsPn(fields, f, readSubs, read)) pnDiffers = true;
    // T: by readable entries (repaired), or by fields as score.pl counts them.
    const inTByEntries = inT(n, counts[0]);
    let scored = inTByEntries;
    if (fields) {
      let kept = 0;
      let first = -1;
      for (let f = 0; f < fields.count; f++) {
        if (!fieldKept[f]) continue;
        if (first < 0) first = f;
        kept++;
      }
      const inTByFields = inT(kept, kept === 1 ? fieldCount(fields, first, readCounts, read, this.cls) : 0);
      if (byField) scored = inTByFields;
      if (tracker && inTByFields !== inTByEntries) tracker.note("t-fields", String(id));
    }
    if (tracker && pnDiffers) tracker.note("pn", String(id));
    if (tracker && nonEntry && scored) tracker.note("non", String(id));
    if (!scored) {
      k.index.set(key, -line);
      return;
    }
    if (n === 0) {
      this.log.add(
        "unscorable",
        diag("warning", this.file, line, `id ${id} is in T as score.pl counts it (by its fields), but no entry of it is readable: no answer can be scored on it`),
        "items in T with no readable entry",
      );
      k.append(typeof key === "number" ? key : copy(id), li, line, TABLE, 0, false);
      return;
    }
    const mode = this.modeOf(counts, n, id, line);
    if (mode && tracker && subs[0].indexOf("-") >= 0) tracker.note("hyphen-mode", String(id));
    // A substitute repeated in the line keeps its first place and its last count
    // (looked up among those kept; through a map when a line holds many entries,
    // where a scan would be quadratic).
    const place = n > 16 ? new Map<string, number>() : null;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      let at: number | undefined;
      if (place) at = place.get(subs[i]);
      else for (let j = 0; j < kept && at === undefined; j++) if (subs[j] === subs[i]) at = j;
      if (at !== undefined) {
        this.log.add(
          "repeated-substitute",
          diag("warning", this.file, line, `substitute "${subs[i]}" is repeated for id ${id}; its last count (${counts[i]}) is used, as the official scorer does`),
          "repeated substitutes",
        );
        counts[at] = counts[i];
        continue;
      }
      place?.set(subs[i], kept);
      subs[kept] = subs[i];
      counts[kept++] = counts[i];
    }
    n = kept;
    // The entries, then the forms derived from them, each with "~k" for the
    // entry k it comes from; join() builds one flat string.
    const parts: (string | number)[] = [];
    for (let i = 0; i < n; i++) parts.push(subs[i], counts[i]);
    const hu = humanResponses(counts, 0, n);
    const forms = new Set(subs.slice(0, n));
    for (let i = 0; i < n; i++) {
      for (const form of derivedForms(subs[i], o.repaired === true, this.cls)) {
        if (forms.has(form)) {
          if (form === spacedForm(subs[i]) && subs.indexOf(form) >= 0 && subs.indexOf(form) < n) {
            this.log.add(
              "hash-order",
              diag(
                "warning",
                this.file,
                line,
                `id ${id} has both "${form}" and "${subs[i]}": score.pl credits "${form}" with either count, by Perl's hash order (it varies from run to run); lexgold credits it with its own count`,
              ),
              "lines holding both a spaced and a hyphenated substitute",
            );
          }
          continue;
        }
        forms.add(form);
        parts.push(form, "~" + i);
      }
    }
    k.append(typeof key === "number" ? key : copy(id), li, line, TABLE + parts.join(SEP), hu, mode);
  }

  private readonly fieldKept: boolean[] = [];

  /** Whether the first entry is the mode (rules.ts `modeOf`); warns when the counts are not sorted. */
  private modeOf(counts: readonly number[], n: number, id: string | number, line: number): boolean {
    const flags = modeOf(counts, 0, n);
    if ((flags & UNSORTED) !== 0) this.log.add("unsorted", unsortedLine(this.file, line, id), UNSORTED_LINES);
    return (flags & HAS_MODE) !== 0;
  }

  /** The key, and every diagnostic of the gold file (sorted by line). */
  finish(): { key: ScoringKey; diagnostics: Diagnostic[] } {
    const diagnostics = [...this.reader.finish(), ...this.log.finish()];
    return { key: this.key, diagnostics: sortDiagnostics(diagnostics) };
  }
}

const UNSORTED_LINES = "lines not sorted by count";

/** A gold line whose counts are not in descending order (shared with the fast lane, fast.ts). */
function unsortedLine(file: string, line: number, id: string | number): Diagnostic {
  return diag("warning", file, line, `entries of id ${id} are not sorted by count; the mode is taken to be the first entry, as the official scorer does`);
}

/**
 * The entries part of a line the key can keep as written, from `lastIndex`
 * to the end: fields `sub count` separated by single `;` (trailing `;`s
 * allowed), each sub a word character, then word characters, spaces and
 * hyphens, ending in no space (so the official entry pattern reads it exactly
 * as written: the sub up to the last space), a count of at most 15 digits;
 * no apostrophe, no leading "non" (nothing to normalise), not `pn`. Anything
 * else goes the long way, which is always right; this only has to be a subset.
 * PLAIN_SINGLE, for NMWS, also allows no space inside a sub.
 */
const FIELD = String.raw`(?!pn \d)(?!non)\w[\w -]*[\w-] \d{1,15}`;
const FIELD_SINGLE = String.raw`(?!pn \d)(?!non)\w[\w-]*[\w-] \d{1,15}`;
/** The most entries a line kept as written may have. */
const PLAIN_MAX_ENTRIES = 64;
const PLAIN = new RegExp(`(?:${FIELD}(?:;${FIELD})*)?;*$`, "y");
const PLAIN_SINGLE = new RegExp(`(?:${FIELD_SINGLE}(?:;${FIELD_SINGLE})*)?;*$`, "y");

/** Whether text[a, aEnd) and text[b, bEnd) hold the same characters. */
function sameRange(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  // Lengths, then the last characters (words often share a beginning), then the rest.
  if (aEnd - a !== bEnd - b || text.charCodeAt(aEnd - 1) !== text.charCodeAt(bEnd - 1)) return false;
  for (let i = 0; i < aEnd - a - 1; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

/** Whether text[from, to) holds a hyphen. */
function hasHyphen(text: string, from: number, to: number): boolean {
  const at = text.indexOf("-", from);
  return at >= 0 && at < to;
}

/** The count score.pl reads from field `f` (see `looseCount`): the entry's own when the field was read as a plain entry. */
function fieldCount(fields: FieldInfo, f: number, readCounts: readonly number[], read: number, cls: PerlClasses): number {
  if (f < 0) return 0;
  const text = fields.text[f];
  if (text !== null) return looseCount(text, cls);
  for (let i = 0; i < read; i++) if (fields.entryField[i] === f) return readCounts[i];
  return 0;
}

/** Whether field `f` (holding "pn") was read as the entry `pn` itself, which both readings drop. */
function fieldTextIsPn(fields: FieldInfo, f: number, readSubs: readonly string[], read: number): boolean {
  for (let i = 0; i < read; i++) if (fields.entryField[i] === f) return readSubs[i] === PN;
  return false;
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
 * T, compactly. For item number `o` (0-based, in gold order): its id, lexelt,
 * |H_i|, whether it has a mode, and its entries — as the gold line wrote them
 * (`glad 3;merry 2`) when they need nothing done, else as a table
 * `\u0001form\0count\0form\0count…` of every form an answer can match: the
 * entries first (so the mode, when there is one, is entry 0), then the forms
 * derived from them, each with "~k" for the entry k it comes from.
 */
export class ScoringKey {
  /** id → item number for items in T; −line for gold ids outside T. */
  readonly index = new IdIndex();
  private readonly idOf: (string | number)[] = [];
  private readonly lines = new IntColumn();
  private readonly lexeltIndex = new Map<string, number>();
  private readonly lexelts: string[] = [];
  private readonly lexeltOf = new IntColumn();
  /** |H_i| · 2 + (1 if the item has a mode). */
  private readonly huMode = new IntColumn();
  private readonly entries: string[] = [];
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
    const o = this.index.get(idKey(id));
    return o === undefined || o < 0 ? -1 : o;
  }

  /** The gold line of item `o`. */
  lineOf(o: number): number {
    return this.lines.get(o);
  }

  id(o: number): string {
    return String(this.idOf[o]);
  }

  lexelt(o: number): string {
    return this.lexelts[this.lexeltOf.get(o)];
  }

  /** The lexelt numbered `li` (used by KeyBuilder). */
  lexeltName(li: number): string {
    return this.lexelts[li];
  }

  /** The number of a lexelt, numbering it if new (used by KeyBuilder). */
  lexeltNumber(lexelt: string): number {
    let li = this.lexeltIndex.get(lexelt);
    if (li === undefined) {
      li = this.lexelts.length;
      const own = copy(lexelt);
      this.lexelts.push(own);
      this.lexeltIndex.set(own, li);
    }
    return li;
  }

  humanResponses(o: number): number {
    return this.huMode.get(o) >>> 1;
  }

  hasMode(o: number): boolean {
    return (this.huMode.get(o) & 1) === 1;
  }

  /** The mode of item `o`, or null. */
  mode(o: number): string | null {
    if (!this.hasMode(o)) return null;
    const t = this.entries[o];
    if (t.charCodeAt(0) === 1) return t.slice(1, t.indexOf(SEP));
    const from = t.charCodeAt(0) === 2 ? 1 : 0;
    let end = t.indexOf(";");
    if (end < 0) end = t.length;
    return t.slice(from, t.lastIndexOf(" ", end - 1));
  }

  /**
   * Item `o`'s entries as stored: a gold line's entries as written (`glad
   * 3;merry 2`, preceded by "\u0002" when a substitute holds a hyphen, which
   * then also matches with a space), or a table (starting "\u0001"; see `matchEntry`).
   */
  stored(o: number): string {
    return this.entries[o];
  }

  /** The match table of item `o`: alternating form and count (a derived form has "~k", k its entry). */
  table(o: number): string[] {
    const t = this.entries[o];
    if (t === TABLE) return []; // in T by its fields, with no readable entry
    if (t.charCodeAt(0) === 1) return t.slice(1).split(SEP);
    const out: string[] = [];
    const spaced: string[] = [];
    const fields = (t.charCodeAt(0) === 2 ? t.slice(1) : t).split(";");
    fields.forEach((field, k) => {
      const sp = field.lastIndexOf(" ");
      const sub = field.slice(0, sp);
      out.push(sub, field.slice(sp + 1));
      if (sub.includes("-")) spaced.push(spacedForm(sub), "~" + k);
    });
    for (let i = 0; i < spaced.length; i += 2) if (!out.some((f, j) => j % 2 === 0 && f === spaced[i])) out.push(spaced[i], spaced[i + 1]);
    return out;
  }

  item(o: number): KeyItem {
    const t = this.table(o);
    const entries: GoldEntry[] = [];
    for (let i = 0; i < t.length; i += 2) if (t[i + 1][0] !== "~") entries.push({ substitute: t[i], count: Number(t[i + 1]) });
    return { id: this.id(o), lexelt: this.lexelt(o), entries, humanResponses: this.humanResponses(o), mode: this.mode(o) };
  }

  /** |T| and |TM| of each group (e.g. per PoS), in first-seen order. */
  groupTotals(groupOf: (lexelt: string) => string): Map<string, { total: number; totalWithMode: number }> {
    const out = new Map<string, { total: number; totalWithMode: number }>();
    const ofLexelt = this.lexelts.map(groupOf);
    for (let o = 0; o < this.idOf.length; o++) {
      const g = ofLexelt[this.lexeltOf.get(o)];
      let t = out.get(g);
      if (!t) out.set(g, (t = { total: 0, totalWithMode: 0 }));
      t.total++;
      if (this.hasMode(o)) t.totalWithMode++;
    }
    return out;
  }

  /** Add an item of T (used by KeyBuilder). */
  append(key: string | number, li: number, line: number, entries: string, hu: number, hasMode: boolean): void {
    const o = this.idOf.length;
    this.index.set(key, o);
    this.idOf.push(key);
    this.lines.push(line);
    this.lexeltOf.push(li);
    this.huMode.push(hu * 2 + (hasMode ? 1 : 0));
    this.entries.push(entries);
    if (hasMode) this.modes++;
  }
}

/**
 * A copy of a string that does not keep alive the (possibly large) text it was
 * cut from: engines may represent a substring as a view of its parent, and a
 * key holding a million such views would hold the whole file.
 */
export function copy(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

/**
 * The other forms a gold substitute matches: hyphens as spaces (score.pl's
 * norms table); repaired, also the form an answer is normalised to (so gold
 * `non-x` and `non x` match the answer `nonx`).
 */
function derivedForms(s: string, repaired = false, cls: PerlClasses = BYTE_CLASSES): string[] {
  const out: string[] = [];
  if (s.includes("-")) out.push(spacedForm(s));
  if (!repaired) return out;
  const n = normalizeGuess(s, cls);
  if (n !== s && !out.includes(n)) out.push(n);
  return out;
}

/**
 * The entry of a stored table (see `ScoringKey.stored`: starting "\u0001")
 * that `guess` matches — its index, 0 being the mode when the item has one —
 * or -1; `counter.count` gets the entry's count, and `counter.exact` whether
 * the guess is the entry as written (not a form derived from it). (A gold line kept as written
 * is matched in place by the scorer, from its field positions.)
 */
export function matchEntry(stored: string, guess: string, counter: { count: number; exact?: boolean }): number {
  return matchTable(stored, guess, counter);
}

function matchTable(stored: string, guess: string, counter: { count: number; exact?: boolean }): number {
  const n = stored.length;
  let from = 1;
  let k = 0;
  while (from < n) {
    const formEnd = stored.indexOf(SEP, from);
    let countEnd = stored.indexOf(SEP, formEnd + 1);
    if (countEnd < 0) countEnd = n;
    if (formEnd - from === guess.length && stored.startsWith(guess, from)) {
      if (stored.charCodeAt(formEnd + 1) !== 126) {
        counter.count = digits(stored, formEnd + 1, countEnd);
        counter.exact = true;
        return k;
      }
      counter.exact = false;
      // A derived form: "~e", the count is entry e's.
      const e = digits(stored, formEnd + 2, countEnd);
      let at = 1;
      for (let j = 0; j < e; j++) at = stored.indexOf(SEP, stored.indexOf(SEP, at) + 1) + 1;
      const end = stored.indexOf(SEP, at);
      const cEnd = stored.indexOf(SEP, end + 1);
      counter.count = digits(stored, end + 1, cEnd < 0 ? n : cEnd);
      return e;
    }
    from = countEnd + 1;
    k++;
  }
  return -1;
}

/** The decimal number text[from, to), or -1 when it is not all digits. */
function digits(text: string, from: number, to: number): number {
  if (from >= to) return -1;
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}
