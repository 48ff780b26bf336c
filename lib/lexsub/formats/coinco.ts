/**
 * CoInCo (Kremer et al. 2014) XML ↔ instances and a gold with counts.
 *
 * `<document><sent MASCfile MASCsentID><precontext/><targetsentence/><postcontext/>
 * <tokens><token id wordform lemma posMASC posTT problematic><substitutions>
 * <subst lemma pos freq/>…` — a token whose id is not XXX is a target. Each target
 * becomes an instance: id = the token id, lexelt = lemma.pos (posMASC's first
 * letter: N→n, V→v, J→a, R→r), context = the preceding sentences, the target
 * sentence split around the target token, the following sentences. Every field the
 * lexelt model has no place for is kept in `meta` for the export. Pure.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { truncation } from "./xml-truncation";
import { encodeText } from "./lexelt";
import { parseLexeltItem } from "../types";
import {
  type DatasetEntry,
  type DatasetError,
  type DatasetIssue,
  type DatasetInstance,
  type DatasetParseResult,
  type ExportItem,
  type ExportResult,
  coincoSentenceKey,
  coincoSentenceTokens,
  countLoss,
  counted,
  datasetIssue,
  entryMeta,
  formatMeta,
  lexeltLemma,
  lineAt,
  linesAt,
  mergedEntries,
  someIds,
} from "./dataset";

const POS_FROM_MASC: Record<string, string> = { N: "n", V: "v", J: "a", R: "r" };
const MASC_FROM_POS: Record<string, string> = { n: "NN", v: "VB", a: "JJ", r: "RB" };
const TT_FROM_POS: Record<string, string> = { n: "NN", v: "VV", a: "JJ", r: "RB" };

type Attrs = Record<string, string>;
/** A <token>'s attributes (and its substitutions element, an object or "" when empty). */
type XmlToken = Attrs;

/** Element text whether the parser gave a string or an object holding #text. */
function textOf(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "object" && "#text" in (v as object)) return String((v as Record<string, unknown>)["#text"]);
  return "";
}

/** Offsets of every `<tag ` / `<tag>` opening in the text, in order. */
function openings(text: string, tag: string): number[] {
  const re = new RegExp(`<${tag}[\\s>/]`, "g");
  const out: number[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m.index);
  return out;
}

/** The sentence-level fields kept on the first target of a sentence, for the export. */
interface CoincoToken {
  id: string;
  wordform: string;
  lemma: string;
  posMASC: string;
  posTT: string;
  problematic?: string;
}

/** A substitute as the SemEval gold format can hold it: each `;` (it separates entries) and line break becomes a space, spaces collapse, ends trimmed. */
export function carriedSubstitute(s: string): string {
  return /[;\r\n]/.test(s) ? s.replace(/[;\r\n]/g, " ").replace(/\s+/g, " ").trim() : s;
}

/**
 * Where a target's wordform is in its sentence: after the tokens before it (a
 * tokenisation that splits "hadn’t" into "hadn" + "n’t", or glues "…back" to
 * the next word, can leave the cursor past it), else after the previous target,
 * else anywhere in the sentence; -1 when it is not there at all.
 */
function locate(sentence: string, wordform: string, cursor: number, lastTargetEnd: number): number {
  if (wordform === "") return -1;
  const at = sentence.indexOf(wordform, cursor);
  if (at >= 0) return at;
  const again = sentence.indexOf(wordform, lastTargetEnd);
  return again >= 0 ? again : sentence.indexOf(wordform);
}

/**
 * Read a CoInCo file. A file that is not CoInCo XML (not well-formed, a DOCTYPE, no
 * <document>, no <sent>) is refused with located `errors`. Everything else the
 * release carries is imported: an entry that cannot go into the gold as written is
 * repaired or left out and listed in `issues` with its line (docs/datasets.md):
 * a substitute holding `;` or a line break (they become spaces; nothing left: left
 * out), an empty substitute, a freq that is no positive whole number (left out), a
 * substitute listed twice for a token (counts added), a target with a missing
 * attribute, a wordform not in its sentence or an id already used (left out), a
 * target whose tag is no N/V/J/R (kept under lemma.x).
 */
export function parseCoinco(text: string, file: string): DatasetParseResult {
  const errors: DatasetError[] = [];
  const issues: DatasetIssue[] = [];
  const notes: string[] = [];
  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) {
    errors.push({ where: `${file}:${lineAt(text, doctype.index)}`, field: "DOCTYPE", message: "a document type declaration is not allowed (CoInCo has none; it could declare entities)" });
    return { format: "coinco", instances: [], errors, issues, notes };
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const cut = truncation(text);
    errors.push(cut ? { where: `${file}:${cut.line}`, field: "XML", message: cut.message } : { where: `${file}:${valid.err.line}`, field: "XML", message: valid.err.msg });
    return { format: "coinco", instances: [], errors, issues, notes };
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    isArray: (name) => name === "sent" || name === "token" || name === "subst",
  });
  const doc = parser.parse(text) as Record<string, unknown>;
  const root = doc.document as Record<string, unknown> | undefined;
  if (!root || typeof root !== "object") {
    errors.push({ where: `${file}:1`, field: "document", message: "no <document> element: not a CoInCo file" });
    return { format: "coinco", instances: [], errors, issues, notes };
  }
  const sents = (root.sent as Record<string, unknown>[] | undefined) ?? [];
  if (sents.length === 0) {
    errors.push({ where: `${file}:1`, field: "sent", message: "no <sent> elements: not a CoInCo file" });
    return { format: "coinco", instances: [], errors, issues, notes };
  }
  // One pass each (a full CoInCo file has some 60,000 tokens and 110,000 substitutes).
  const sentAt = linesAt(text, openings(text, "sent"));
  const tokenAt = linesAt(text, openings(text, "token"));
  const substAt = linesAt(text, openings(text, "subst"));
  const instances: DatasetInstance[] = [];
  const seen = new Map<string, number>();
  let tokenIndex = 0;
  let substIndex = 0;
  let withoutTargets = 0;
  let problematic = 0;

  sents.forEach((sent, si) => {
    const sentLine = sentAt[si] ?? 0;
    const pre = textOf(sent.precontext).trim();
    const target = textOf(sent.targetsentence).trim();
    const post = textOf(sent.postcontext).trim();
    const masc = { file: String(sent.MASCfile ?? ""), sentId: String(sent.MASCsentID ?? "") };
    const tokenBlock = sent.tokens as Record<string, unknown> | undefined;
    const tokens = (tokenBlock && typeof tokenBlock === "object" ? (tokenBlock.token as XmlToken[] | undefined) : undefined) ?? [];
    const kept: CoincoToken[] = [];
    let cursor = 0;
    let lastTargetEnd = 0;
    let first: DatasetInstance | null = null;
    for (const tok of tokens) {
      const line = tokenAt[tokenIndex++] ?? sentLine;
      const where = `${file}:${line}`;
      const substs = ((tok.substitutions as unknown as Record<string, unknown> | undefined)?.subst as Attrs[] | undefined) ?? [];
      const firstSubst = substIndex;
      substIndex += substs.length;
      const id = tok.id;
      const wordform = tok.wordform;
      const leaveOut = (entry: string, why: string) =>
        issues.push(datasetIssue(file, line, entry, "left out", `${why}${substs.length > 0 ? ` (with its ${substs.length} substitute${substs.length === 1 ? "" : "s"})` : ""}`));
      if (id === undefined || wordform === undefined || tok.lemma === undefined) {
        const missing = id === undefined ? "id" : wordform === undefined ? "wordform" : "lemma";
        if (id !== "XXX") leaveOut(id === undefined ? `<token wordform="${wordform ?? ""}">` : `target ${id}`, `its ${missing} attribute is missing`);
        continue;
      }
      const t: CoincoToken = { id, wordform, lemma: tok.lemma, posMASC: tok.posMASC ?? "", posTT: tok.posTT ?? "" };
      if (tok.problematic !== undefined) t.problematic = tok.problematic;
      kept.push(t);
      if (id === "XXX") {
        const at = wordform === "" ? -1 : target.indexOf(wordform, cursor);
        if (at >= 0) cursor = at + wordform.length;
        continue;
      }
      const entry = `target ${id} "${wordform}"`;
      const at = locate(target, wordform, cursor, lastTargetEnd);
      if (at < 0) {
        leaveOut(entry, sent.targetsentence === undefined ? "its <sent> has no <targetsentence>" : "the wordform is not in the target sentence");
        continue;
      }
      if (seen.has(id)) {
        leaveOut(entry, `target id ${id} is already used at line ${seen.get(id)}`);
        continue;
      }
      const lemma = lexeltLemma(tok.lemma);
      if (lemma === "") {
        leaveOut(entry, "its lemma is empty (the lexelt is lemma.pos)");
        continue;
      }
      cursor = lastTargetEnd = at + wordform.length;
      let pos = POS_FROM_MASC[(tok.posMASC ?? "").charAt(0)] ?? POS_FROM_MASC[(tok.posTT ?? "").charAt(0)];
      if (!pos) {
        pos = "x";
        issues.push(datasetIssue(file, line, entry, "repaired", `posMASC "${tok.posMASC ?? ""}" and posTT "${tok.posTT ?? ""}" name no noun, verb, adjective or adverb: kept under the lexelt ${lemma}.x`));
      }
      seen.set(id, line);
      const entries: DatasetEntry[] = [];
      const lineOf = new Map<DatasetEntry, number>();
      substs.forEach((s, k) => {
        const sLine = substAt[firstSubst + k] ?? line;
        const raw = s.lemma;
        const what = `target ${id}, substitute ${raw === undefined ? k + 1 : JSON.stringify(raw)}`;
        const freq = s.freq ?? "";
        if (raw === undefined) return issues.push(datasetIssue(file, sLine, what, "left out", "it has no lemma attribute"));
        if (!/^[1-9][0-9]*$/.test(freq)) return issues.push(datasetIssue(file, sLine, what, "left out", `freq "${freq}" is not a positive whole number`));
        const substitute = carriedSubstitute(raw);
        if (substitute.trim() === "") {
          return issues.push(datasetIssue(file, sLine, what, "left out", raw.trim() === "" ? "the substitute is empty" : `nothing is left once the ";" (it separates gold entries) is taken out`));
        }
        if (substitute !== raw) {
          const why = raw.includes(";") ? `";" separates gold entries: each ";"` : "a gold entry is on one line: each line break";
          issues.push(datasetIssue(file, sLine, what, "repaired", `kept as "${substitute}" (${why} became a space, spaces collapsed, ends trimmed)`));
        }
        const count = Number(freq);
        const hit = entries.find((e) => e.substitute === substitute);
        if (hit) {
          issues.push(datasetIssue(file, sLine, what, "repaired", `"${substitute}" is already listed at line ${lineOf.get(hit)}: its count ${count} added there (${hit.count} + ${count} = ${hit.count + count})`));
          hit.count += count;
          return;
        }
        const e: DatasetEntry = { substitute, count, labels: null, meta: s.pos !== undefined ? { pos: s.pos } : null };
        if (substitute !== raw) e.meta = { ...e.meta, lemma: raw };
        lineOf.set(e, sLine);
        entries.push(e);
      });
      if (tok.problematic === "yes") problematic++;
      const before = (pre ? pre + " " : "") + target.slice(0, at);
      const after = target.slice(at + wordform.length) + (post ? " " + post : "");
      const inst: DatasetInstance = {
        instanceId: id,
        lexelt: `${lemma}.${pos}`,
        lemma,
        pos,
        before,
        head: wordform,
        after,
        meta: { format: "coinco", sent: si, masc: masc, pre, target, post, offset: at, token: t },
        entries,
        where,
      };
      if (!first) first = inst;
      instances.push(inst);
    }
    if (first) first.meta.tokens = kept;
    else withoutTargets++;
  });
  if (withoutTargets > 0) notes.push(`${withoutTargets} sentences hold no target and were not imported`);
  if (problematic > 0) notes.push(`${problematic} ${problematic === 1 ? "target is" : "targets are"} flagged problematic (kept, and written back on export)`);
  return { format: "coinco", instances, errors, issues, notes };
}

const attr = (s: string) => encodeText(s, true);
const txt = (s: string) => encodeText(s);

function tokenXml(t: CoincoToken, entries: DatasetEntry[] | null, posTT: string): string {
  let s = `      <token id="${attr(t.id)}" wordform="${attr(t.wordform)}" lemma="${attr(t.lemma)}" posMASC="${attr(t.posMASC)}" posTT="${attr(t.posTT)}"`;
  if (t.problematic !== undefined) s += ` problematic="${attr(t.problematic)}"`;
  if (entries === null) return s + " />\n";
  s += " >\n        <substitutions>\n";
  for (const e of entries) {
    const own = entryMeta(e);
    const pos = typeof own?.pos === "string" ? own.pos : posTT;
    // A substitute repaired at import (a ";" taken out) goes back as the file had it: CoInCo XML can hold it.
    const lemma = typeof own?.lemma === "string" ? own.lemma : e.substitute;
    s += `          <subst lemma="${attr(lemma)}" pos="${attr(pos)}" freq="${e.count}" />\n`;
  }
  return s + "        </substitutions>\n      </token>\n";
}

/** Where parseCoinco's walk (each token's wordform searched after the previous one's) finds the last of `wordforms` in `sentence`. */
function walkTo(sentence: string, wordforms: readonly string[]): number {
  let cursor = 0;
  let at = -1;
  for (const w of wordforms) {
    at = w === "" ? -1 : sentence.indexOf(w, cursor);
    if (at >= 0) cursor = at + w.length;
  }
  return at;
}

/**
 * A project's gold as CoInCo XML. Instances imported from CoInCo (or carried through a
 * lexgold SWORDS file) are written back in their sentences with every token; other
 * instances become one sentence each holding the target token, after an XXX token for
 * each space-separated word before it when the word occurs earlier in the sentence (so
 * that a reader walking the tokens finds the head where it was).
 */
export function writeCoinco(items: readonly ExportItem[]): ExportResult {
  const lost: string[] = [];
  let names = 0;
  const mw: string[] = [];
  let excluded = 0;
  let untokenised = 0;
  let written = 0;
  let unjudged = 0;
  let labelled = 0;
  let swords = 0;
  let derived = 0;
  const moved: string[] = [];
  const out: string[] = ['<?xml version="1.0"?>\n<document>\n'];
  // CoInCo sentences, in the order their first target comes.
  const groups: { key: string | null; items: ExportItem[] }[] = [];
  const byKey = new Map<string, { key: string | null; items: ExportItem[] }>();
  /** Each item's CoInCo fields (its own, or carried by a SWORDS file). */
  const metaOf = new Map<ExportItem, Record<string, unknown>>();
  const sentenceTokens = coincoSentenceTokens(items);
  for (const item of items) {
    if (item.excluded !== null) {
      excluded++;
      continue;
    }
    const m = formatMeta(item.meta, "coinco", item.before + item.head + item.after);
    if (m && typeof m.sent === "number" && m.token) {
      metaOf.set(item, m);
      // The sentence: its index in the file, MASC ids and text (two imports' sentence 0 are not one sentence).
      const key = coincoSentenceKey(m);
      let g = byKey.get(key);
      if (!g) byKey.set(key, (g = { key, items: [] })), groups.push(g);
      g.items.push(item);
    } else groups.push({ key: null, items: [item] });
  }
  for (const g of groups) {
    const perItem = new Map<string, DatasetEntry[]>();
    for (const item of g.items) {
      const { entries, names: n } = mergedEntries(item);
      names += n;
      if (item.mwEntries.length > 0) mw.push(item.instanceId);
      if (item.derived.some((d) => d.substitute !== "pn")) derived++;
      // Labels other than TRUE (TRUE_IMPLICIT, FALSE, UNSURE…) are more than a count says.
      if (entries.some((e) => e.labels?.some((l) => l !== "TRUE"))) labelled++;
      if (item.meta?.format === "swords") swords++;
      const positive = entries.filter((e) => e.count > 0);
      unjudged += entries.length - positive.length;
      perItem.set(item.instanceId, positive);
      written++;
    }
    const m0 = metaOf.get(g.items[0]);
    if (g.key !== null && m0) {
      const masc = (m0.masc ?? {}) as { file?: string; sentId?: string };
      out.push(`  <sent MASCfile="${attr(masc.file ?? "")}" MASCsentID="${attr(masc.sentId ?? "")}" >\n`);
      out.push(`    <precontext>\n    ${txt(String(m0.pre ?? ""))}\n    </precontext>\n`);
      out.push(`    <targetsentence>\n    ${txt(String(m0.target ?? ""))}\n    </targetsentence>\n`);
      out.push(`    <postcontext>\n    ${txt(String(m0.post ?? ""))}\n    </postcontext>\n    <tokens>\n`);
      // The sentence's tokens, also when the target that kept them is excluded.
      const tokens = (sentenceTokens.get(g.key) as CoincoToken[] | undefined) ?? g.items.map((i) => metaOf.get(i)!.token as CoincoToken);
      for (const t of tokens) {
        const entries = t.id === "XXX" ? null : perItem.get(t.id) ?? null;
        out.push(tokenXml(t, entries ?? (t.id === "XXX" ? null : []), t.posTT));
      }
    } else {
      const item = g.items[0];
      untokenised++;
      const parsed = parseLexeltItem(item.lexelt);
      const pos = parsed?.pos ?? "";
      const lemma = parsed?.lemma ?? item.lexelt;
      const sentence = item.before + item.head + item.after;
      out.push(`  <sent MASCfile="" MASCsentID="${attr(item.instanceId)}" >\n    <precontext>\n    </precontext>\n`);
      out.push(`    <targetsentence>\n    ${txt(sentence)}\n    </targetsentence>\n    <postcontext>\n    </postcontext>\n    <tokens>\n`);
      const t: CoincoToken = { id: item.instanceId, wordform: item.head, lemma, posMASC: MASC_FROM_POS[pos] ?? "XXX", posTT: TT_FROM_POS[pos] ?? "XXX", problematic: "no" };
      // A reader finds the head by walking the tokens: the words before it lead the walk past earlier occurrences.
      const trimmed = sentence.trim();
      const at = item.before.length - (sentence.length - sentence.trimStart().length);
      const lead = walkTo(trimmed, [item.head]) === at ? [] : item.before.split(/\s+/).filter((w) => w !== "");
      for (const w of lead) out.push(tokenXml({ id: "XXX", wordform: w, lemma: "", posMASC: "XXX", posTT: "XXX" }, null, ""));
      if (walkTo(trimmed, [...lead, item.head]) !== at) moved.push(item.instanceId);
      out.push(tokenXml(t, perItem.get(item.instanceId) ?? [], t.posTT));
    }
    out.push("    </tokens>\n  </sent>\n");
  }
  out.push("</document>\n");
  countLoss(lost, excluded, "excluded instances were left out");
  countLoss(lost, untokenised, "instances not imported from CoInCo were written as one sentence each with only the target token (and, where the word occurs earlier, an XXX token for each word before it; CoInCo tokenises every word)");
  if (moved.length > 0) lost.push(counted(moved.length, `instances' heads could not be placed by the tokens: a reader puts them at an earlier occurrence of the word (${someIds(moved)})`));
  countLoss(lost, names, "NAME answers (pn) were dropped: CoInCo has no proper-name entry");
  if (mw.length > 0) lost.push(counted(mw.length, `instances had multiword answers, which CoInCo cannot carry (${someIds(mw)})`));
  countLoss(lost, unjudged, "substitutes nobody gave (count 0: SWORDS substitutes with no TRUE label) were left out");
  countLoss(lost, labelled, "instances' SWORDS labels are written as counts (TRUE + TRUE_IMPLICIT): which were TRUE_IMPLICIT, the FALSE and UNSURE ones and their order are not written");
  countLoss(lost, swords, "instances' SWORDS fields (context, target and substitute ids, their extra) are not written");
  if (derived > 0) lost.push(counted(derived, `instances have annotators' substitutes: which annotator gave each is not written, only how many did`));
  lost.push("modes are not written: CoInCo gives counts only (the mode is the unique most frequent substitute)");
  return { text: out.join(""), lost, written };
}
