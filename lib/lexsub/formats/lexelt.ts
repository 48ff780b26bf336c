/**
 * Lexelt XML, the task's corpus format (seed 000 §2.1):
 *
 *   <corpus lang="english">
 *     <lexelt item="bright.a">
 *       <instance id="1"><context>… a <head>bright</head> boy …</context></instance>
 *
 * The task's own files are not well-formed XML: they hold numeric character
 * references with a space before the semicolon (`&#8221 ;`) and a DOCTYPE naming
 * an external DTD. This reader repairs the first (listing every repair with its
 * line), ignores the external DTD (never fetched), refuses internal DTD subsets
 * and any entity other than XML's five predefined ones and numeric references
 * (so no XXE, no entity bombs), and refuses anything else it cannot read with
 * the line and the problem. Pure: strings in, records out.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { truncation } from "./xml-truncation";
import { type Diagnostic, diag } from "../diagnostics";
import { parseLexeltItem } from "../types";

interface LexeltInstance {
  /** The id as in the file (a string: ids are keys, never numbers). */
  id: string;
  /** Context text before the head, exactly as in the file (references decoded). */
  before: string;
  head: string;
  after: string;
  /** 1-based line of the `<instance` tag. */
  line: number;
}

interface LexeltEntry {
  /** The item verbatim, e.g. "bright.a" or "stand.n.v". */
  item: string;
  lemma: string;
  pos: string;
  originalPos: string | null;
  line: number;
  instances: LexeltInstance[];
}

export interface LexeltCorpus {
  lang: string;
  lexelts: LexeltEntry[];
}

export interface LexeltParseResult {
  /** null when the file cannot be read (then `errors` says why). */
  corpus: LexeltCorpus | null;
  /** What was repaired, one diagnostic (warning) per repair, with its line. */
  repairs: Diagnostic[];
  errors: Diagnostic[];
}

export interface LexeltParseOptions {
  /** Refuse text longer than this many characters before parsing. */
  maxBytes?: number;
  /** Stop after this many errors (default 20). */
  maxErrors?: number;
}

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number, lineStarts: number[]): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  void text;
  return lo + 1;
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Replace a span with spaces, keeping its newlines so line numbers stay right. */
function blank(s: string): string {
  return s.replace(/[^\n]/g, " ");
}

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Decode XML's predefined entities and numeric references (already checked). */
function decodeReferences(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const cp = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return isXmlChar(cp) ? String.fromCodePoint(cp) : whole;
    }
    return PREDEFINED[ref] ?? whole;
  });
}

/**
 * Encode text for element content or a double-quoted attribute. A CR is written
 * as a reference (a raw one would be read back as a line break), and so are tab
 * and LF in an attribute (XML reads them there as spaces).
 */
export function encodeText(s: string, attribute = false): string {
  const out = s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\r/g, "&#13;");
  return attribute ? out.replace(/\t/g, "&#9;").replace(/\n/g, "&#10;") : out;
}

/**
 * First pass over the raw text: strip the DOCTYPE (refusing internal subsets),
 * repair `&#NNNN ;`, and check every `&` starts a reference we allow.
 * Returns the cleaned text, same length in lines as the input.
 */
function preflight(text: string, file: string, lineStarts: number[], repairs: Diagnostic[], errors: Diagnostic[]): string {
  let out = text;
  const at = (offset: number) => lineAt(text, offset, lineStarts);

  // Byte-order mark.
  if (out.charCodeAt(0) === 0xfeff) out = " " + out.slice(1);

  // DOCTYPE: external id only. An internal subset may declare entities: refuse it.
  const dt = /<!DOCTYPE\b/i.exec(out);
  if (dt) {
    const start = dt.index;
    let i = start;
    let quote: string | null = null;
    let bracket = false;
    for (; i < out.length; i++) {
      const c = out[i];
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "[") bracket = true;
      else if (c === ">" && !bracket) break;
      else if (c === "]") bracket = false;
    }
    const decl = out.slice(start, i + 1);
    if (/\[/.test(decl.replace(/"[^"]*"|'[^']*'/g, ""))) {
      const ent = /<!ENTITY/i.exec(decl);
      errors.push(
        diag(
          "error",
          file,
          at(start + (ent ? ent.index : 0)),
          ent
            ? "the DOCTYPE declares entities; lexelt files may use only XML's predefined entities and numeric references"
            : "the DOCTYPE has an internal subset; lexelt files may only name an external DTD",
        ),
      );
      return out;
    }
    if (i >= out.length) {
      errors.push(diag("error", file, at(start), "the DOCTYPE declaration is not closed"));
      return out;
    }
    const sys = /SYSTEM\s+("[^"]*"|'[^']*')/i.exec(decl)?.[1];
    repairs.push(
      diag("warning", file, at(start), `ignored the DOCTYPE${sys ? ` naming ${sys}` : ""}: external DTDs are never fetched`),
    );
    out = out.slice(0, start) + blank(decl) + out.slice(i + 1);
  }

  // `&#8221 ;` → `&#8221;`: the task files' own slip, safe to repair.
  out = out.replace(/&#(x[0-9a-fA-F]+|[0-9]+)([ \t]+);/g, (whole, num: string, space: string, offset: number) => {
    repairs.push(diag("warning", file, at(offset), `repaired "${whole}" to "&#${num};" (space before the semicolon)`));
    void space;
    return `&#${num};`;
  });
  // The repair removed spaces and tabs only, so lines are unchanged; offsets are not.
  const outStarts = computeLineStarts(out);

  // Every remaining `&` must start a predefined entity or a valid numeric reference
  // (inside comments and CDATA sections an ampersand is plain text).
  const masked = maskNonMarkup(out);
  const amp = /&/g;
  let m: RegExpExecArray | null;
  const limit = 20;
  while ((m = amp.exec(masked)) && errors.length < limit) {
    const rest = out.slice(m.index, m.index + 40);
    const ref = /^&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/.exec(rest);
    if (!ref) {
      const shown = /^&#?\w*/.exec(rest)?.[0] ?? "&";
      errors.push(
        diag("error", file, lineAt(out, m.index, outStarts), `"${shown}" is not a complete reference (write & as &amp; and end references with ";")`),
      );
      continue;
    }
    const name = ref[1];
    if (name[0] === "#") {
      const cp = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!isXmlChar(cp)) errors.push(diag("error", file, lineAt(out, m.index, outStarts), `"&${name};" is not a character XML allows`));
    } else if (!(name in PREDEFINED)) {
      errors.push(
        diag("error", file, lineAt(out, m.index, outStarts), `entity "&${name};" is not allowed: only &amp; &lt; &gt; &quot; &apos; and numeric references are expanded`),
      );
    }
  }
  return out;
}

type Node = Record<string, unknown> & { ":@"?: Record<string, string> };

function tagOf(node: Node): string | null {
  for (const k of Object.keys(node)) if (k !== ":@") return k;
  return null;
}

function childrenOf(node: Node, tag: string): Node[] {
  const v = node[tag];
  return Array.isArray(v) ? (v as Node[]) : [];
}

function textOf(nodes: Node[]): string {
  let s = "";
  for (const n of nodes) {
    if (tagOf(n) === "#text") s += String(n["#text"]);
  }
  return s;
}

/**
 * Every span from `open` to the first `close` after it blanked out (same
 * length), as `s.replace(/open[\s\S]*?close/g, blank)` would, in linear time:
 * the regular expression rescans to the end of the text from every unclosed
 * `open` (minutes for a megabyte of "<!--").
 */
function blankSpans(s: string, open: string, close: string): string {
  let out = "";
  let done = 0;
  for (;;) {
    const a = s.indexOf(open, done);
    if (a < 0) break;
    const b = s.indexOf(close, a + open.length);
    if (b < 0) break; // no later `open` can close either
    const end = b + close.length;
    out += s.slice(done, a) + blank(s.slice(a, end));
    done = end;
  }
  return done === 0 ? s : out + s.slice(done);
}

/** Comments and CDATA sections blanked out (same length). */
function maskCommentsAndCdata(clean: string): string {
  return blankSpans(blankSpans(clean, "<!--", "-->"), "<![CDATA[", "]]>");
}

/** Comments, CDATA sections and processing instructions blanked out (same length). */
function maskNonMarkup(clean: string): string {
  return blankSpans(maskCommentsAndCdata(clean), "<?", "?>");
}

/** Lines of each opening tag `<name` outside comments, CDATA and PIs, in order. */
function tagLines(clean: string, name: string, lineStarts: number[]): number[] {
  const masked = maskNonMarkup(clean);
  const re = new RegExp(`<${name}(?=[\\s/>])`, "g");
  const out: number[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(masked))) out.push(lineAt(masked, m.index, lineStarts));
  return out;
}

/**
 * The line of a problem the validator let through but the parser refused (it
 * reports no position): an unclosed processing instruction, elements nested
 * too deep, or a name it will not use as a property (`__proto__`…). 1 when
 * it cannot be found.
 */
function parserErrorLine(clean: string, message: string, lineStarts: number[]): number {
  const masked = maskCommentsAndCdata(clean);
  const at = (offset: number) => lineAt(masked, offset, lineStarts);
  if (/Pi Tag is not closed/.test(message)) {
    // A `<?…?>` whose quotes never let it close.
    const pi = /<\?/g;
    let m: RegExpExecArray | null;
    while ((m = pi.exec(masked))) {
      let quote: string | null = null;
      let closed = false;
      for (let i = m.index + 2; i < masked.length && !closed; i++) {
        const c = masked[i];
        if (quote) {
          if (c === quote) quote = null;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === "?" && masked[i + 1] === ">") closed = true;
      }
      if (!closed) return at(m.index);
    }
  }
  const name = /Invalid name: "([^"]+)"/.exec(message)?.[1];
  if (name) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const use = new RegExp(`</?${escaped}(?=[\\s/>])|\\s${escaped}\\s*=`).exec(masked);
    if (use) return at(use.index);
  }
  if (/nested/i.test(message)) {
    const tag = /<(\/?)[^\s>/!?]+(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;
    let depth = 0;
    let m: RegExpExecArray | null;
    while ((m = tag.exec(masked))) {
      if (m[1]) depth--;
      else if (!m[2] && ++depth > 100) return at(m.index);
    }
  }
  return 1;
}

/** What the parts of one file share while they are read: the corpus so far and every problem. */
interface ReadState {
  file: string;
  maxErrors: number;
  repairs: Diagnostic[];
  errors: Diagnostic[];
  lexelts: LexeltEntry[];
  seenIds: Map<string, number>;
  seenItems: Map<string, number>;
}

/**
 * Where each further XML document of a file begins: a `</corpus>` followed (past
 * white space, processing instructions, comments and a DOCTYPE) by another
 * `<corpus`. orenmel/lexsub's `lst_all.xml`, the LST as most papers since 2014 read
 * it, is the trial and test files joined so (`</corpus><?xml …` at line 973).
 */
function documentStarts(text: string): number[] {
  const masked = maskCommentsAndCdata(text);
  const close = /<\/corpus\s*>/g;
  const starts: number[] = [];
  let m: RegExpExecArray | null;
  while ((m = close.exec(masked))) {
    const end = m.index + m[0].length;
    if (corpusOpensAt(masked, end)) starts.push(end);
  }
  return starts;
}

/** Whether, past white space, processing instructions and a DOCTYPE from `i`, a `<corpus` element opens. */
function corpusOpensAt(s: string, i: number): boolean {
  for (;;) {
    while (i < s.length && /\s/.test(s[i])) i++;
    if (s.startsWith("<?", i)) {
      const e = s.indexOf("?>", i + 2);
      if (e < 0) return false;
      i = e + 2;
    } else if (/^<!DOCTYPE\b/i.test(s.slice(i, i + 10))) {
      let quote: string | null = null;
      for (i += 9; i < s.length; i++) {
        const c = s[i];
        if (quote) {
          if (c === quote) quote = null;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === ">") break;
      }
      if (i >= s.length) return false;
      i++;
    } else return /^<corpus[\s/>]/.test(s.slice(i, i + 8));
  }
}

export function parseLexeltXml(text: string, file: string, options: LexeltParseOptions = {}): LexeltParseResult {
  const state: ReadState = { file, maxErrors: options.maxErrors ?? 20, repairs: [], errors: [], lexelts: [], seenIds: new Map(), seenItems: new Map() };
  const fail = (line: number, message: string): LexeltParseResult => {
    state.errors.push(diag("error", file, line, message));
    return { corpus: null, repairs: state.repairs, errors: state.errors };
  };

  if (options.maxBytes !== undefined && text.length > options.maxBytes) {
    return fail(0, `${text.length} characters is over the limit of ${options.maxBytes}`);
  }
  if (text.trim() === "") return fail(0, "the file is empty");
  if (/\u0000/.test(text)) {
    const at = text.indexOf("\u0000");
    return fail(text.slice(0, at).split("\n").length, "the file holds NUL bytes: it is binary, not lexelt XML");
  }

  // XML reads CRLF as LF; so do we (line numbers are unchanged). A byte-order mark
  // is no character of the document (an XML declaration may follow it).
  text = text.replace(/\r\n/g, "\n").replace(/^\uFEFF/, "");
  const starts = documentStarts(text);
  let lang: string | null = null;
  const bounds = [0, ...starts, text.length];
  for (let k = 0; k + 1 < bounds.length; k++) {
    let part = text.slice(bounds[k], bounds[k + 1]);
    let line = 1;
    if (k > 0) {
      line = text.slice(0, bounds[k]).split("\n").length;
      // The part's own XML declaration may only open a document: blank it (lines kept).
      part = "\n".repeat(line - 1) + part.replace(/^(\s*)(<\?xml\b[\s\S]*?\?>)/, (_, ws: string, decl: string) => ws + blank(decl));
      const at = line + (/^\s*/.exec(text.slice(bounds[k]))![0].match(/\n/g)?.length ?? 0);
      state.repairs.push(
        diag("warning", file, at, `a second XML document begins here (the file is ${bounds.length - 1} lexelt documents one after another): repaired: read as the next part of the corpus`),
      );
    }
    const partLang = readDocument(part, state);
    if (partLang !== null) {
      if (lang === null) lang = partLang;
      else if (partLang !== lang) state.repairs.push(diag("warning", file, line, `this part's corpus lang is "${partLang}", the first part's "${lang}": the corpus keeps "${lang}"`));
    }
  }
  state.repairs.sort((a, b) => a.line - b.line);
  if (state.lexelts.length === 0 && state.errors.length === 0) state.errors.push(diag("error", file, 1, "the corpus holds no <lexelt> elements"));
  if (state.errors.length > 0) return { corpus: null, repairs: state.repairs, errors: state.errors.slice(0, state.maxErrors) };
  return { corpus: { lang: lang ?? "english", lexelts: state.lexelts }, repairs: state.repairs, errors: [] };
}

/** Read one XML document of the file into `state`; its corpus lang, or null when it cannot be read. */
function readDocument(text: string, state: ReadState): string | null {
  const { file, maxErrors, repairs, errors, seenIds, seenItems } = state;
  const fail = (line: number, message: string): null => {
    errors.push(diag("error", file, line, message));
    return null;
  };
  const lineStarts = computeLineStarts(text);
  const partErrors: Diagnostic[] = [];
  const clean = preflight(text, file, lineStarts, repairs, partErrors);
  if (partErrors.length > 0) {
    errors.push(...partErrors);
    return null;
  }

  const valid = XMLValidator.validate(clean, { allowBooleanAttributes: false });
  if (valid !== true) {
    const cut = truncation(clean);
    if (cut) return fail(cut.line, cut.message);
    const e = valid.err;
    return fail(e.line, `not well-formed XML: ${e.msg.replace(/\.$/, "")} (column ${e.col})`);
  }

  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    commentPropName: false,
    cdataPropName: false,
  });
  let doc: Node[];
  try {
    doc = parser.parse(clean) as Node[];
  } catch (e) {
    const message = (e as Error).message.replace(/\.$/, "");
    const line = parserErrorLine(clean, message, computeLineStarts(clean));
    const name = /^\[SECURITY\] Invalid name: "([^"]+)"/.exec(message)?.[1];
    return fail(line, name ? `the name "${name}" is not allowed for an element or attribute` : `not well-formed XML: ${message}`);
  }

  const root = doc.find((n) => {
    const t = tagOf(n);
    return t !== null && t !== "#text";
  });
  if (!root || tagOf(root) !== "corpus") {
    return fail(tagLines(clean, root ? tagOf(root)! : "corpus", computeLineStarts(clean))[0] ?? 1, `the root element must be <corpus>, found ${root ? `<${tagOf(root)}>` : "no element"}`);
  }

  const cleanStarts = computeLineStarts(clean);
  const lexeltLines = tagLines(clean, "lexelt", cleanStarts);
  const instanceLines = tagLines(clean, "instance", cleanStarts);
  let lexeltIndex = 0;
  let instanceIndex = 0;
  const lexelts = state.lexelts;
  const err = (line: number, message: string) => {
    if (errors.length < maxErrors) errors.push(diag("error", file, line, message));
  };

  for (const child of childrenOf(root, "corpus")) {
    const tag = tagOf(child);
    if (tag === "#text") {
      if (String(child["#text"]).trim() !== "") err(lexeltLines[lexeltIndex] ?? 1, "text directly inside <corpus>; expected only <lexelt> elements");
      continue;
    }
    if (tag !== "lexelt") {
      err(lexeltLines[lexeltIndex] ?? 1, `unexpected <${tag}> inside <corpus>; expected <lexelt>`);
      continue;
    }
    const lxLine = lexeltLines[lexeltIndex++] ?? 1;
    const rawItem = child[":@"]?.item;
    if (rawItem === undefined) {
      err(lxLine, "<lexelt> has no item attribute");
      continue;
    }
    const item = decodeReferences(rawItem);
    const parts = parseLexeltItem(item);
    if (!parts) {
      err(lxLine, `lexelt item "${item}" is not of the form lemma.pos or lemma.pos.pos (e.g. "bright.a", "stand.n.v")`);
      continue;
    }
    if (seenItems.has(item)) {
      err(lxLine, `lexelt item "${item}" appears twice (first at line ${seenItems.get(item)})`);
      continue;
    }
    seenItems.set(item, lxLine);
    const entry: LexeltEntry = { ...parts, line: lxLine, instances: [] };

    for (const inst of childrenOf(child, "lexelt")) {
      const itag = tagOf(inst);
      if (itag === "#text") {
        if (String(inst["#text"]).trim() !== "") err(lxLine, `text directly inside <lexelt item="${item}">; expected only <instance> elements`);
        continue;
      }
      if (itag !== "instance") {
        err(lxLine, `unexpected <${itag}> inside <lexelt item="${item}">; expected <instance>`);
        continue;
      }
      const line = instanceLines[instanceIndex++] ?? lxLine;
      const rawId = inst[":@"]?.id;
      if (rawId === undefined || decodeReferences(rawId).trim() === "") {
        err(line, `an <instance> in lexelt "${item}" has no id`);
        continue;
      }
      const id = decodeReferences(rawId);
      if (seenIds.has(id)) {
        err(line, `instance id "${id}" is repeated (first at line ${seenIds.get(id)})`);
        continue;
      }
      seenIds.set(id, line);
      const contexts = childrenOf(inst, "instance").filter((n) => tagOf(n) === "context");
      const others = childrenOf(inst, "instance").filter((n) => {
        const t = tagOf(n);
        return t !== "context" && !(t === "#text" && String(n["#text"]).trim() === "");
      });
      if (contexts.length !== 1 || others.length > 0) {
        err(line, `instance "${id}" must hold exactly one <context> and nothing else`);
        continue;
      }
      let before = "";
      let head: string | null = null;
      let after = "";
      let heads = 0;
      let bad: string | null = null;
      for (const piece of childrenOf(contexts[0], "context")) {
        const t = tagOf(piece);
        if (t === "#text") {
          const s = String(piece["#text"]);
          if (head === null) before += s;
          else after += s;
        } else if (t === "head") {
          heads++;
          const inner = childrenOf(piece, "head");
          if (inner.some((n) => tagOf(n) !== "#text")) bad = `the <head> of instance "${id}" holds markup; it must be plain text`;
          head = textOf(inner);
        } else {
          bad = `instance "${id}" has <${t}> in its context; only text and one <head> are allowed`;
        }
      }
      if (bad) {
        err(line, bad);
        continue;
      }
      if (heads === 0) {
        err(line, `instance "${id}" has no <head> (the target word)`);
        continue;
      }
      if (heads > 1) {
        err(line, `instance "${id}" has ${heads} <head> elements; exactly one is allowed`);
        continue;
      }
      const headText = decodeReferences(head ?? "");
      if (headText.trim() === "") {
        err(line, `the <head> of instance "${id}" is empty`);
        continue;
      }
      entry.instances.push({ id, before: decodeReferences(before), head: headText, after: decodeReferences(after), line });
    }
    if (entry.instances.length === 0 && errors.length === 0) err(lxLine, `lexelt "${item}" has no instances`);
    lexelts.push(entry);
  }
  return decodeReferences(root[":@"]?.lang ?? "english");
}

/** Write a corpus back as lexelt XML that this reader (and any XML reader) accepts. */
export function formatLexeltXml(corpus: LexeltCorpus): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', `<corpus lang="${encodeText(corpus.lang, true)}">`];
  for (const lx of corpus.lexelts) {
    out.push(`\t<lexelt item="${encodeText(lx.item, true)}">`);
    for (const inst of lx.instances) {
      out.push(`\t\t<instance id="${encodeText(inst.id, true)}">`);
      out.push(`\t\t\t<context>${encodeText(inst.before)}<head>${encodeText(inst.head)}</head>${encodeText(inst.after)}</context>`);
      out.push("\t\t</instance>");
    }
    out.push("\t</lexelt>");
  }
  out.push("</corpus>", "");
  return out.join("\n");
}
