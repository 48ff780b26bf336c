/**
 * Is an XML text that fails to parse simply cut short? The XML validator says of
 * a truncated file only that some elements were never closed, at line 1, in its
 * own words ("Invalid '[ "corpus", "lexelt", "inst"]' found"). This walks the
 * tags once and, when every closing tag matched and the text just stops, says
 * where it stops and inside what: "the file ends inside <instance id="x">
 * (opened at line 40) — is it truncated?". Pure: text in, a sentence or null out.
 */

interface OpenElement {
  name: string;
  /** The element's identifying attribute as written (`id="bank.n.3"`, `item="bank.n"`), or "". */
  label: string;
  line: number;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const LABEL = /\b(id|item|MASCsentID)\s*=\s*("[^"]*"|'[^']*')/;

/** 1-based line numbers of offsets asked in increasing order, counted once through the text. */
function lineCounter(text: string): (at: number) => number {
  let pos = 0;
  let line = 1;
  return (at) => {
    for (let nl = text.indexOf("\n", pos); nl !== -1 && nl < at; nl = text.indexOf("\n", nl + 1)) {
      line++;
      pos = nl + 1;
    }
    if (at > pos) pos = at;
    return line;
  };
}

/** The end of the tag starting at `from` (the index of its `>`), skipping quoted attribute values; -1 when the text ends first. */
function tagEnd(text: string, from: number): number {
  let quote = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i;
  }
  return -1;
}

/** The innermost open element, and the nearest one enclosing it that has an id or item, if another: `<context> (line 15) of <instance id="x"> (line 12)`. */
function describe(open: OpenElement[]): string {
  const inner = open[open.length - 1];
  const one = (e: OpenElement) => `<${e.name}${e.label ? ` ${e.label}` : ""}> (line ${e.line})`;
  if (inner.label) return one(inner);
  const named = open.findLast((e) => e.label !== "");
  return named ? `${one(inner)} of ${one(named)}` : one(inner);
}

/**
 * When `text` is well-formed up to where it stops (every closing tag matches an
 * open element) but ends with elements still open, or inside a tag, comment or
 * CDATA section: the line it ends on and a sentence saying where and inside
 * what, ending "is it truncated?". Otherwise null (the error is something else: let the parser say it).
 */
export function truncation(text: string): { line: number; message: string } | null {
  const open: OpenElement[] = [];
  const lineAt = lineCounter(text);
  let endLine = 0; // the line the text ends on, counted when needed (offsets are asked in order)
  const endsInside = (what: string) => {
    endLine = lineAt(text.trimEnd().length);
    const within = open.length > 0 ? `, inside ${describe(open)}` : "";
    return { line: endLine, message: `the file ends at line ${endLine} in the middle of ${what}${within}: is it truncated?` };
  };
  let i = text.indexOf("<");
  while (i !== -1) {
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end === -1) return endsInside(`a comment opened at line ${lineAt(i)}`);
      i = text.indexOf("<", end + 3);
      continue;
    }
    if (text.startsWith("<![CDATA[", i)) {
      const end = text.indexOf("]]>", i + 9);
      if (end === -1) return endsInside(`a CDATA section opened at line ${lineAt(i)}`);
      i = text.indexOf("<", end + 3);
      continue;
    }
    if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end === -1) return endsInside("the XML declaration");
      i = text.indexOf("<", end + 2);
      continue;
    }
    const closing = text[i + 1] === "/";
    const name = NAME.exec(text.slice(i + (closing ? 2 : 1), i + 200))?.[0];
    const end = tagEnd(text, i + 1);
    if (end === -1) return endsInside(`the tag ${text.slice(i, i + 1 + (closing ? 1 : 0) + (name?.length ?? 0)) || "<"}`);
    if (name) {
      if (closing) {
        if (open.length === 0 || open[open.length - 1].name !== name) return null; // a mismatch, not a truncation
        open.pop();
      } else if (text[end - 1] !== "/" && !text.startsWith("<!", i)) {
        const label = LABEL.exec(text.slice(i, end))?.[0].replace(/\s*=\s*/, "=") ?? "";
        open.push({ name, label, line: lineAt(i) });
      }
    }
    i = text.indexOf("<", end + 1);
  }
  if (open.length === 0) return null;
  endLine = lineAt(text.trimEnd().length);
  return { line: endLine, message: `the file ends at line ${endLine} inside ${describe(open)}: is it truncated?` };
}
