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
import { encodeText } from "./lexelt";
import { parseLexeltItem } from "../types";
import {
  type DatasetEntry,
  type DatasetError,
  type DatasetInstance,
  type DatasetParseResult,
  type ExportItem,
  type ExportResult,
  coincoSentenceKey,
  coincoSentenceTokens,
  countLoss,
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

export function parseCoinco(text: string, file: string): DatasetParseResult {
  const errors: DatasetError[] = [];
  const notes: string[] = [];
  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) {
    errors.push({ where: `${file}:${lineAt(text, doctype.index)}`, field: "DOCTYPE", message: "a document type declaration is not allowed (CoInCo has none; it could declare entities)" });
    return { format: "coinco", instances: [], errors, notes };
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    errors.push({ where: `${file}:${valid.err.line}`, field: "XML", message: valid.err.msg });
    return { format: "coinco", instances: [], errors, notes };
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
    return { format: "coinco", instances: [], errors, notes };
  }
  const sents = (root.sent as Record<string, unknown>[] | undefined) ?? [];
  // One pass each (a full CoInCo file has some 60,000 tokens).
  const sentAt = linesAt(text, openings(text, "sent"));
  const tokenAt = linesAt(text, openings(text, "token"));
  const instances: DatasetInstance[] = [];
  const seen = new Map<string, number>();
  let tokenIndex = 0;
  let withoutTargets = 0;
  let problematic = 0;

  sents.forEach((sent, si) => {
    const sentLine = sentAt[si] ?? 0;
    const pre = textOf(sent.precontext).trim();
    const target = textOf(sent.targetsentence).trim();
    const post = textOf(sent.postcontext).trim();
    const masc = { file: String(sent.MASCfile ?? ""), sentId: String(sent.MASCsentID ?? "") };
    if (sent.targetsentence === undefined) errors.push({ where: `${file}:${sentLine}`, field: "targetsentence", message: "missing in <sent>" });
    const tokenBlock = sent.tokens as Record<string, unknown> | undefined;
    const tokens = (tokenBlock && typeof tokenBlock === "object" ? (tokenBlock.token as XmlToken[] | undefined) : undefined) ?? [];
    const kept: CoincoToken[] = [];
    let cursor = 0;
    let first: DatasetInstance | null = null;
    for (const tok of tokens) {
      const line = tokenAt[tokenIndex++] ?? sentLine;
      const where = `${file}:${line}`;
      const id = tok.id;
      const wordform = tok.wordform;
      if (id === undefined || wordform === undefined || tok.lemma === undefined) {
        errors.push({ where, field: id === undefined ? "id" : wordform === undefined ? "wordform" : "lemma", message: "missing attribute of <token>" });
        continue;
      }
      const t: CoincoToken = { id, wordform, lemma: tok.lemma, posMASC: tok.posMASC ?? "", posTT: tok.posTT ?? "" };
      if (tok.problematic !== undefined) t.problematic = tok.problematic;
      kept.push(t);
      const at = wordform === "" ? -1 : target.indexOf(wordform, cursor);
      if (at >= 0) cursor = at + wordform.length;
      if (id === "XXX") continue;
      if (at < 0) {
        errors.push({ where, field: "wordform", message: `"${wordform}" is not found in the target sentence after the tokens before it` });
        continue;
      }
      const pos = POS_FROM_MASC[(tok.posMASC ?? "").charAt(0)] ?? POS_FROM_MASC[(tok.posTT ?? "").charAt(0)];
      if (!pos) {
        errors.push({ where, field: "posMASC", message: `"${tok.posMASC ?? ""}" is not a noun, verb, adjective or adverb tag (N…, V…, J…, R…)` });
        continue;
      }
      if (seen.has(id)) {
        errors.push({ where, field: "id", message: `target id "${id}" already used at line ${seen.get(id)}` });
        continue;
      }
      seen.set(id, line);
      const entries: DatasetEntry[] = [];
      const substs = (tok.substitutions as unknown as Record<string, unknown> | undefined)?.subst as Attrs[] | undefined;
      (substs ?? []).forEach((s, k) => {
        const freq = s.freq ?? "";
        if (!/^[1-9][0-9]*$/.test(freq)) {
          errors.push({ where, field: "freq", message: `substitute ${k + 1} ("${s.lemma ?? ""}"): "${freq}" is not a positive whole number` });
          return;
        }
        if (!s.lemma || s.lemma.trim() === "" || s.lemma.includes(";")) {
          errors.push({ where, field: "lemma", message: `substitute ${k + 1}: "${s.lemma ?? ""}" is empty or holds a ";"` });
          return;
        }
        if (entries.some((e) => e.substitute === s.lemma)) {
          errors.push({ where, field: "lemma", message: `substitute "${s.lemma}" is listed twice` });
          return;
        }
        entries.push({ substitute: s.lemma, count: Number(freq), labels: null, meta: s.pos !== undefined ? { pos: s.pos } : null });
      });
      if (tok.problematic === "yes") problematic++;
      const before = (pre ? pre + " " : "") + target.slice(0, at);
      const after = target.slice(at + wordform.length) + (post ? " " + post : "");
      const lemma = lexeltLemma(tok.lemma);
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
  if (sents.length === 0) errors.push({ where: `${file}:1`, field: "sent", message: "no <sent> elements" });
  if (withoutTargets > 0) notes.push(`${withoutTargets} sentences hold no target and were not imported`);
  if (problematic > 0) notes.push(`${problematic} ${problematic === 1 ? "target is" : "targets are"} flagged problematic (kept, and written back on export)`);
  return { format: "coinco", instances, errors, notes };
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
    s += `          <subst lemma="${attr(e.substitute)}" pos="${attr(pos)}" freq="${e.count}" />\n`;
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
  if (moved.length > 0) lost.push(`${moved.length} instances' heads could not be placed by the tokens: a reader puts them at an earlier occurrence of the word (${someIds(moved)})`);
  countLoss(lost, names, "NAME answers (pn) were dropped: CoInCo has no proper-name entry");
  if (mw.length > 0) lost.push(`${mw.length} instances had multiword answers, which CoInCo cannot carry (${someIds(mw)})`);
  countLoss(lost, unjudged, "substitutes nobody gave (count 0: SWORDS substitutes with no TRUE label) were left out");
  countLoss(lost, labelled, "instances' SWORDS labels are written as counts (TRUE + TRUE_IMPLICIT): which were TRUE_IMPLICIT, the FALSE and UNSURE ones and their order are not written");
  countLoss(lost, swords, "instances' SWORDS fields (context, target and substitute ids, their extra) are not written");
  if (derived > 0) lost.push(`${derived} instances have annotators' substitutes: which annotator gave each is not written, only how many did`);
  lost.push("modes are not written: CoInCo gives counts only (the mode is the unique most frequent substitute)");
  return { text: out.join(""), lost, written };
}
