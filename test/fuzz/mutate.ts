/**
 * Inputs for the fuzz tests: valid samples mutated the way files go wrong
 * (characters and lines deleted, duplicated, swapped or inserted; `&`, `<`,
 * CR, NUL, byte-order marks, odd Unicode and huge tokens injected), plus
 * purely random text. fast-check shrinks a failure to the fewest mutations.
 */
import fc from "fast-check";

/** Fragments that break parsers: markup, references, line endings, control and odd Unicode. */
const NASTY = [
  "&",
  "&amp;",
  "&#",
  "&#8221 ;",
  "&#x0;",
  "&#0;",
  "&#1114112;",
  "&#xD800;",
  "&#13;",
  "&#xD;",
  "&#10;",
  "&#9;",
  "&#x85;",
  "&#x2028;",
  "&nbsp;",
  "&bogus;",
  "<",
  ">",
  "</",
  "<head>",
  "</head>",
  "<context>",
  "</context>",
  "<instance id=\"9\">",
  "</instance>",
  "<lexelt item=\"x.n\">",
  "</lexelt>",
  "<!--",
  "-->",
  "<![CDATA[",
  "]]>",
  "<?pi x?>",
  "<!DOCTYPE corpus SYSTEM \"lexsub.dtd\">",
  "<!DOCTYPE c [<!ENTITY e \"x\">]>",
  "\"",
  "'",
  "\r",
  "\r\n",
  "\n",
  "\n\n",
  "\t",
  "\u0000",
  "\u0001",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "\ud800",
  "\udfff",
  "😀",
  "é",
  "e\u0301",
  "ß",
  "İ",
  "中文",
  "עברית",
  "\u202e",
  ";",
  ";;",
  ":",
  "::",
  ":::",
  " ",
  "  ",
  "-",
  "non-",
  "0",
  "999999999999999999999",
  "-1",
  "NaN",
  "NAME",
  "NIL",
  "N/A",
  "annotator",
  "__proto__",
  "constructor",
  "toString",
  "$&",
  "\\",
  "%s",
];

/** A huge token: long runs of one character or a repeated fragment. */
const hugeToken = fc.oneof(
  fc.constantFrom("x", "a b ", "&", "<", ";", "\t", "é", "😀", "1").chain((s) => fc.integer({ min: 1000, max: 200_000 }).map((n) => s.repeat(Math.ceil(n / s.length)))),
);

const insertion = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: hugeToken },
);

export type Mutation =
  | { op: "deleteChars"; at: number; len: number }
  | { op: "duplicateChars"; at: number; len: number }
  | { op: "insert"; at: number; text: string }
  | { op: "replaceChar"; at: number; text: string }
  | { op: "deleteLine"; at: number }
  | { op: "duplicateLine"; at: number }
  | { op: "swapLines"; at: number; with: number }
  | { op: "insertLine"; at: number; text: string }
  | { op: "truncate"; at: number };

const pos = fc.nat({ max: 1_000_000 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("deleteChars" as const), at: pos, len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant("duplicateChars" as const), at: pos, len: fc.integer({ min: 1, max: 40 }) }),
  { weight: 4, arbitrary: fc.record({ op: fc.constant("insert" as const), at: pos, text: insertion }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("replaceChar" as const), at: pos, text: insertion }) },
  fc.record({ op: fc.constant("deleteLine" as const), at: pos }),
  fc.record({ op: fc.constant("duplicateLine" as const), at: pos }),
  fc.record({ op: fc.constant("swapLines" as const), at: pos, with: pos }),
  { weight: 2, arbitrary: fc.record({ op: fc.constant("insertLine" as const), at: pos, text: insertion }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), at: pos }) },
);

/** Apply one mutation (positions taken modulo the text's length, so any number fits). */
export function applyMutation(text: string, m: Mutation): string {
  const at = (n: number, len: number) => (len === 0 ? 0 : n % (len + 1));
  switch (m.op) {
    case "deleteChars": {
      const i = at(m.at, text.length);
      return text.slice(0, i) + text.slice(i + m.len);
    }
    case "duplicateChars": {
      const i = at(m.at, text.length);
      return text.slice(0, i + m.len) + text.slice(i);
    }
    case "insert": {
      const i = at(m.at, text.length);
      return text.slice(0, i) + m.text + text.slice(i);
    }
    case "replaceChar": {
      const i = at(m.at, text.length);
      return text.slice(0, i) + m.text + text.slice(i + 1);
    }
    case "truncate":
      return text.slice(0, at(m.at, text.length));
    default: {
      const lines = text.split("\n");
      const i = m.at % lines.length;
      if (m.op === "deleteLine") lines.splice(i, 1);
      else if (m.op === "duplicateLine") lines.splice(i, 0, lines[i]);
      else if (m.op === "insertLine") lines.splice(i, 0, m.text);
      else {
        const j = m.with % lines.length;
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
      return lines.join("\n");
    }
  }
}

/** A sample with 1..maxMutations mutations applied. */
function mutated(samples: readonly string[], maxMutations = 6): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...samples), fc.array(mutation, { minLength: 1, maxLength: maxMutations }))
    .map(([s, ms]) => ms.reduce(applyMutation, s));
}

/**
 * Random lines built from a format's own pieces (so they often get far into
 * the parser), joined by LF, CRLF or CR.
 */
function pieceLines(pieces: readonly string[], maxLines = 12): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...pieces) }, { weight: 2, arbitrary: fc.constantFrom(...NASTY) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
  const line = fc.array(piece, { maxLength: 10 }).map((ps) => ps.join(""));
  return fc.tuple(fc.array(line, { maxLength: maxLines }), fc.constantFrom("\n", "\r\n", "\r")).map(([ls, nl]) => ls.join(nl));
}

/** Valid samples, mutated samples, format-piece lines and plain random text. */
export function inputs(samples: readonly string[], pieces: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...samples) },
    { weight: 8, arbitrary: mutated(samples) },
    { weight: 3, arbitrary: pieceLines(pieces) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 200 }) },
  );
}

/** Number of lines a text has, as the parsers count them (split on LF). */
export function lineCount(text: string): number {
  return text.split("\n").length;
}

/** Runs per property: modest, so the fuzz suite fits in every CI run (FUZZ_RUNS raises it). */
export const RUNS = Number(process.env.FUZZ_RUNS) > 0 ? Number(process.env.FUZZ_RUNS) : 300;
