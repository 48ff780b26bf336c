/**
 * The task's WordNet baselines (seed 002, §3.1), over WordNet's own files.
 *
 * best and oot: candidates are gathered by four criteria in order —
 *   1. the synonyms in the target's first synset;
 *   2. the synonyms in the synsets that first synset points to: hypernyms
 *      (`@`, `@i`) for nouns and verbs, similar-to (`&`) for adjectives (the
 *      "closely related classes"); adverbs have none;
 *   3. the synonyms in all the target's synsets;
 *   4. the synonyms in the synsets all of them point to, as in 2 —
 * each criterion's new candidates ranked by frequency, most frequent first.
 * best takes the first candidate, oot the first ten. The paper ranked by BNC
 * frequencies; there is no BNC here, so a candidate's frequency is the sum of
 * WordNet's sense tag counts (index.sense, counted in SemCor) over the
 * candidate's senses in the synset's part of speech; ties keep WordNet's order.
 * The target itself is never a candidate; a candidate appears once.
 *
 * mw: a WordNet multiword that holds the target and lies within two words
 * before and two after it: every run of two to five tokens of that window
 * which covers the target, the target read as its lemma, looked up in every
 * part of speech's index; the longest found wins (the leftmost among equals).
 *
 * Pure: the files' texts in, lines out. Synsets are read at their byte offset
 * in data.* when first asked for (WordNet's files are ASCII, so a byte offset
 * is a character offset), so a baseline over 2,000 items reads a few thousand
 * lines of the 22 MB of data, not all of it.
 */
import type { WordNetPos } from "../morphy";

/** The WordNet files a graph reads: index.* and data.* per part of speech, and index.sense. */
export interface WordNetFiles {
  index: Record<WordNetPos, string>;
  data: Record<WordNetPos, string>;
  sense: string;
}

interface Pointer {
  symbol: string;
  pos: WordNetPos;
  offset: number;
}

export interface Synset {
  pos: WordNetPos;
  offset: number;
  /** Its words as WordNet writes them (underscores for spaces, adjective markers removed). */
  words: string[];
  pointers: Pointer[];
}

const POS_OF_SS_TYPE: Record<string, WordNetPos> = { n: "n", v: "v", a: "a", s: "a", r: "r" };
/** index.sense's ss_type digits: 1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite adjective. */
const POS_OF_SENSE_DIGIT: Record<string, WordNetPos> = { "1": "n", "2": "v", "3": "a", "4": "r", "5": "a" };
const POSES: readonly WordNetPos[] = ["n", "v", "a", "r"];

/** WordNet's lemma form: lower case, spaces as underscores. */
function wordnetKey(word: string): string {
  return word.trim().toLowerCase().replace(/\s+/g, "_");
}

/** A WordNet word as a substitute: underscores as spaces. */
function wordnetWord(word: string): string {
  return word.replace(/_/g, " ");
}

/** The lemmas, synsets and sense tag counts of WordNet, read lazily from its files' texts. */
export class WordNetGraph {
  private readonly senses: Record<WordNetPos, Map<string, number[]>>;
  private readonly synsets = new Map<string, Synset>();
  private frequencies: Map<string, number> | null = null;

  constructor(private readonly files: WordNetFiles) {
    this.senses = { n: new Map(), v: new Map(), a: new Map(), r: new Map() };
    for (const pos of POSES) readIndex(files.index[pos], this.senses[pos]);
  }

  /** The synset offsets of a lemma in a part of speech, in WordNet's sense order (most frequent first); [] if none. */
  synsetsOf(lemma: string, pos: WordNetPos): number[] {
    return this.senses[pos].get(wordnetKey(lemma)) ?? [];
  }

  /** Whether a lemma (a word or a multiword) is in the part of speech's index. */
  has(lemma: string, pos: WordNetPos): boolean {
    return this.senses[pos].has(wordnetKey(lemma));
  }

  /** The synset at `offset` of data.<pos>. */
  synset(pos: WordNetPos, offset: number): Synset {
    const k = `${pos}${offset}`;
    let s = this.synsets.get(k);
    if (!s) {
      s = parseSynset(this.files.data[pos], pos, offset);
      this.synsets.set(k, s);
    }
    return s;
  }

  /** Σ sense tag counts (index.sense) of a lemma's senses in a part of speech: its frequency in the tagged corpus. */
  frequency(lemma: string, pos: WordNetPos): number {
    if (!this.frequencies) this.frequencies = readSenseCounts(this.files.sense);
    return this.frequencies.get(`${wordnetKey(lemma)} ${pos}`) ?? 0;
  }
}

function readIndex(text: string, into: Map<string, number[]>): void {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    // Licence lines start with two spaces.
    if (text.charCodeAt(start) !== 32) {
      const f = text.slice(start, end).trim().split(" ");
      // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
      const synsetCount = Number(f[2]);
      const pointerCount = Number(f[3]);
      const first = 4 + pointerCount + 2;
      const offsets: number[] = [];
      for (let i = 0; i < synsetCount && first + i < f.length; i++) offsets.push(Number(f[first + i]));
      if (f[0]) into.set(f[0], offsets);
    }
    start = end + 1;
  }
}

/** Parse the data line at `offset`: `offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr… | gloss`. */
export function parseSynset(data: string, pos: WordNetPos, offset: number): Synset {
  let end = data.indexOf("\n", offset);
  if (end < 0) end = data.length;
  const line = data.slice(offset, end);
  const bar = line.indexOf(" | ");
  const f = (bar >= 0 ? line.slice(0, bar) : line).trim().split(" ");
  if (Number(f[0]) !== offset) throw new Error(`data.${pos}: no synset at offset ${offset}`);
  const wordCount = parseInt(f[3], 16);
  const words: string[] = [];
  let i = 4;
  for (let w = 0; w < wordCount; w++, i += 2) words.push(f[i].replace(/\([a-z]+\)$/, ""));
  const pointerCount = Number(f[i++]);
  const pointers: Pointer[] = [];
  for (let p = 0; p < pointerCount; p++, i += 4) {
    pointers.push({ symbol: f[i], offset: Number(f[i + 1]), pos: POS_OF_SS_TYPE[f[i + 2]] ?? pos });
  }
  return { pos, offset, words, pointers };
}

function readSenseCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    // lemma%ss_type:lex_filenum:lex_id:head_word:head_id synset_offset sense_number tag_cnt
    const pct = text.indexOf("%", start);
    if (pct > start && pct < end) {
      const pos = POS_OF_SENSE_DIGIT[text[pct + 1]];
      const lastSpace = text.lastIndexOf(" ", end - 1);
      const tags = Number(text.slice(lastSpace + 1, end));
      if (pos && tags > 0) {
        const k = `${text.slice(start, pct)} ${pos}`;
        counts.set(k, (counts.get(k) ?? 0) + tags);
      }
    }
    start = end + 1;
  }
  return counts;
}

/** One candidate of the best / oot baselines. */
export interface Candidate {
  /** As a substitute: WordNet's word with spaces for underscores. */
  word: string;
  /** The criterion (1–4) that found it. */
  criterion: 1 | 2 | 3 | 4;
  /** Its frequency: the sum of its sense tag counts in the part of speech. */
  frequency: number;
}

/** The pointers criteria 2 and 4 follow from a synset of the part of speech. */
function related(pos: WordNetPos): readonly string[] {
  return pos === "n" || pos === "v" ? ["@", "@i"] : pos === "a" ? ["&"] : [];
}

/**
 * The candidates for a target lemma and part of speech, in the baseline's
 * order, at most `limit` of them.
 */
export function wordnetCandidates(g: WordNetGraph, lemma: string, pos: WordNetPos, limit = 10): Candidate[] {
  const offsets = g.synsetsOf(lemma, pos);
  if (offsets.length === 0) return [];
  const target = wordnetKey(lemma);
  const seen = new Set<string>([target]);
  const out: Candidate[] = [];
  const follow = related(pos);
  const neighbours = (s: Synset) => s.pointers.filter((p) => follow.includes(p.symbol)).map((p) => g.synset(p.pos, p.offset));
  const first = g.synset(pos, offsets[0]);
  const all = offsets.map((o) => g.synset(pos, o));
  const criteria: [1 | 2 | 3 | 4, Synset[]][] = [
    [1, [first]],
    [2, neighbours(first)],
    [3, all],
    [4, all.flatMap(neighbours)],
  ];
  for (const [criterion, synsets] of criteria) {
    const found: Candidate[] = [];
    for (const s of synsets) {
      for (const w of s.words) {
        const k = wordnetKey(w);
        if (seen.has(k)) continue;
        seen.add(k);
        found.push({ word: wordnetWord(w), criterion, frequency: g.frequency(w, s.pos) });
      }
    }
    // Stable: equal frequencies keep WordNet's order.
    found.sort((a, b) => b.frequency - a.frequency);
    for (const c of found) {
      if (out.length >= limit) return out;
      out.push(c);
    }
  }
  return out;
}

/** An instance for the baselines: its lexelt item, id and context around the target. */
export interface BaselineInstance {
  /** The lexelt item, e.g. "bright.a" (or "stand.n.v": the last PoS is the target's). */
  lexelt: string;
  id: string;
  before: string;
  head: string;
  after: string;
}

function lemmaPos(lexelt: string): { lemma: string; pos: WordNetPos } | null {
  const m = /^(.+?)\.([a-z])(?:\.([a-z]))?$/.exec(lexelt);
  if (!m) return null;
  const pos = (m[3] ?? m[2]) as WordNetPos;
  return POSES.includes(pos) ? { lemma: m[1], pos } : null;
}

export interface BaselineOutput {
  /** The system file's lines (no trailing newline). */
  lines: string[];
  /** Instances given no answer (the target not in WordNet, no candidate, or no multiword). */
  unanswered: number;
}

/** The best or oot baseline as a system file in the task's format. */
export function wordnetSubstitutionBaseline(g: WordNetGraph, instances: readonly BaselineInstance[], type: "best" | "oot"): BaselineOutput {
  const lines: string[] = [];
  let unanswered = 0;
  const cache = new Map<string, Candidate[]>();
  for (const inst of instances) {
    let cands = cache.get(inst.lexelt);
    if (!cands) {
      const lp = lemmaPos(inst.lexelt);
      cands = lp ? wordnetCandidates(g, lp.lemma, lp.pos, 10) : [];
      cache.set(inst.lexelt, cands);
    }
    if (cands.length === 0) {
      unanswered++;
      continue;
    }
    lines.push(type === "best" ? `${inst.lexelt} ${inst.id} :: ${cands[0].word}` : `${inst.lexelt} ${inst.id} ::: ${cands.map((c) => c.word).join(";")}`);
  }
  return { lines, unanswered };
}

/** The WordNet multiword around an instance's target (window of two words each side), or null. */
export function wordnetMultiword(g: WordNetGraph, inst: BaselineInstance): string | null {
  const lp = lemmaPos(inst.lexelt);
  const before = inst.before.split(/\s+/).filter(Boolean).slice(-2);
  const after = inst.after.split(/\s+/).filter(Boolean).slice(0, 2);
  const tokens = [...before, inst.head.trim(), ...after];
  const h = before.length;
  let best: string | null = null;
  let bestLength = 0;
  for (let from = 0; from <= h; from++) {
    for (let to = Math.max(h, from + 1); to < tokens.length; to++) {
      const length = to - from + 1;
      if (length <= bestLength) continue;
      for (const head of lp ? [lp.lemma, inst.head.trim()] : [inst.head.trim()]) {
        const words = tokens.slice(from, to + 1).map((t, i) => (from + i === h ? head : t));
        const key = wordnetKey(words.join(" "));
        if (POSES.some((pos) => g.has(key, pos))) {
          best = wordnetWord(key);
          bestLength = length;
          break;
        }
      }
    }
  }
  return best;
}

/** The mw baseline as a system file in the task's format: a line per instance where a multiword was found. */
export function wordnetMwBaseline(g: WordNetGraph, instances: readonly BaselineInstance[]): BaselineOutput {
  const lines: string[] = [];
  let unanswered = 0;
  for (const inst of instances) {
    const mw = wordnetMultiword(g, inst);
    if (mw === null) unanswered++;
    else lines.push(`${inst.lexelt} ${inst.id} :: ${mw}`);
  }
  return { lines, unanswered };
}
