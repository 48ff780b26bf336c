/**
 * A CoInCo-shaped XML file of any size, made here (words of made-up syllables, no
 * text of the release): `<document><sent MASCfile MASCsentID>` with the three
 * context blocks and `<tokens>`, targets holding `<substitutions><subst lemma pos
 * freq/>`, XXX tokens between them — and, at lines it records, the oddities a
 * real release carries that the SemEval gold cannot hold as written:
 *
 * - the three substitutes of the full release that hold a `;`: `genus ;`, `exact ; u`, `;`;
 * - an empty substitute, a freq of 0 and one of "1.5", a substitute listed twice;
 * - a target whose wordform is not in its sentence, a target id used twice, a
 *   target whose tags name no open-class PoS;
 * - and things that are no problem at all: `problematic="yes"`, a contraction
 *   split as "hadn" + "n’t" (the "n" in both), an XXX token glued to the next
 *   target ("…dar" before the target "dar").
 *
 * `expected` is each target as the gold should carry it, written independently
 * of the reader: the substitutes with their counts after the documented repairs.
 */
import { mulberry32 } from "../../lib/lexsub/agreement/bootstrap";

interface CoincoOddity {
  line: number;
  action: "repaired" | "left out";
  /** What the report's entry must contain, e.g. `substitute "genus ;"`. */
  entry: string;
  /** What the report must say was done, e.g. `kept as "genus"`. */
  detail: string;
}

export interface GeneratedCoinco {
  xml: string;
  targets: number;
  substitutes: number;
  /** Target id → substitutes and counts as the gold should carry them; targets left out are absent. */
  expected: Map<string, Map<string, number>>;
  oddities: CoincoOddity[];
  problematic: number;
}

/** A small deterministic PRNG: lib's mulberry32 (the agreement bootstrap's). */
const rng = mulberry32;

const SYLLABLES = ["ba", "ko", "ri", "tem", "lu", "sa", "nor", "vi", "del", "mo", "pra", "ke", "zul", "fi", "go", "tan", "we", "ly", "shu", "dar"];
const POS = [
  { masc: "NN", tt: "NN" },
  { masc: "VB", tt: "VV" },
  { masc: "JJ", tt: "JJ" },
  { masc: "RB", tt: "RB" },
];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/**
 * `targets` targets (the full release: 15,629), about `perTarget` substitutes each
 * (CoInCo: some 7), in sentences of about 6 targets.
 */
export function generateCoinco(targets: number, options: { perTarget?: number; seed?: number } = {}): GeneratedCoinco {
  const rand = rng(options.seed ?? 29);
  const perTarget = options.perTarget ?? 7;
  const word = (min = 2) => {
    let w = "";
    const n = min + Math.floor(rand() * 2);
    for (let k = 0; k < n; k++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    return w;
  };
  const lines: string[] = ['<?xml version="1.0"?>', "<document>"];
  const expected = new Map<string, Map<string, number>>();
  const oddities: CoincoOddity[] = [];
  let substitutes = 0;
  let problematic = 0;
  let made = 0;
  let sentNo = 0;
  // Which target (by number) carries which oddity: spread over the file.
  const at = (share: number) => Math.max(1, Math.floor(targets * share));
  const odd = new Map<number, string>([
    [at(0.04), "genus"],
    [at(0.33), "exact"],
    [at(0.48), "semicolon"],
    [at(0.1), "empty"],
    [at(0.2), "freq0"],
    [at(0.3), "freqDecimal"],
    [at(0.6), "repeat"],
    [at(0.7), "missing"],
    [at(0.8), "reused"],
    [at(0.9), "tag"],
  ]);
  let firstId = "";
  while (made < targets) {
    sentNo++;
    const inSent = Math.min(targets - made, 4 + Math.floor(rand() * 5));
    const tokens: string[] = [];
    const words: string[] = [];
    const parts: Array<{ kind: "xxx"; wordform: string; posTT: string } | { kind: "target"; n: number; wordform: string }> = [];
    for (let k = 0; k < inSent; k++) {
      const n = made + k + 1;
      if (rand() < 0.7) parts.push({ kind: "xxx", wordform: word(1), posTT: "DT" });
      parts.push({ kind: "target", n, wordform: word() });
    }
    parts.push({ kind: "xxx", wordform: ".", posTT: "SENT" });
    lines.push(`  <sent MASCfile="gen${Math.floor(sentNo / 50)}.txt" MASCsentID="s-r${sentNo}" >`);
    lines.push("    <precontext>", `    ${word()} ${word()} ${word()}.`, "    </precontext>");
    const targetLine = lines.length + 1; // the sentence's text line, filled in below
    lines.push("    <targetsentence>", "", "    </targetsentence>");
    lines.push("    <postcontext>", "    ", "    </postcontext>", "    <tokens>");
    for (const p of parts) {
      if (p.kind === "xxx") {
        // Between two targets now and then: a contraction split with an overlap, or a token glued to the next word.
        words.push(p.wordform);
        tokens.push(`      <token id="XXX" wordform="${esc(p.wordform)}" lemma="${esc(p.wordform)}" posMASC="XXX" posTT="${p.posTT}" />`);
        continue;
      }
      const n = p.n;
      const id = `${n}`;
      if (n === 1) firstId = id;
      const kind = odd.get(n);
      const pos = POS[n % 4];
      let wordform = p.wordform;
      let sentenceWord = p.wordform;
      const contraction = n % 97 === 5;
      const glued = n % 89 === 7;
      if (contraction) {
        wordform = `${p.wordform}n`;
        sentenceWord = `${p.wordform}n’t`;
      }
      if (kind === "missing") wordform = `${wordform}qj`; // no generated word holds "qj": the wordform is not in the sentence
      if (glued) {
        words.push(`…${sentenceWord}`);
        tokens.push(`      <token id="XXX" wordform="…${esc(sentenceWord)}" lemma="&lt;unknown&gt;" posMASC="XXX" posTT="JJ" />`);
      } else words.push(sentenceWord);
      const isProblematic = n % 73 === 0;
      if (isProblematic) problematic++;
      const tokenId = kind === "reused" ? firstId : id;
      const tag = kind === "tag" ? { masc: "XXX", tt: "CD" } : pos;
      const tokenLine = lines.length + tokens.length + 1;
      tokens.push(
        `      <token id="${tokenId}" wordform="${esc(wordform)}" lemma="${esc(wordform)}" posMASC="${tag.masc}" posTT="${tag.tt}" problematic="${isProblematic ? "yes" : "no"}" >`,
        "        <substitutions>",
      );
      const subs = new Map<string, number>();
      const count = 1 + Math.floor(rand() * (2 * perTarget - 1));
      const line = () => lines.length + tokens.length + 1;
      const subst = (lemma: string, freq: string) => {
        tokens.push(`          <subst lemma="${esc(lemma)}" pos="${tag.tt}" freq="${freq}" />`);
        substitutes++;
      };
      for (let k = 0; k < count; k++) {
        const s = k === 0 && n % 11 === 0 ? `${word(1)} ${word(1)}` : word(1) + (k > 0 ? k : "");
        if (subs.has(s)) continue;
        const f = 1 + Math.floor(rand() * rand() * 6);
        subs.set(s, f);
        subst(s, String(f));
      }
      if (kind === "genus") {
        oddities.push({ line: line(), action: "repaired", entry: `target ${id}, substitute "genus ;"`, detail: 'kept as "genus"' });
        subst("genus ;", "1");
        subs.set("genus", 1);
      } else if (kind === "exact") {
        oddities.push({ line: line(), action: "repaired", entry: `target ${id}, substitute "exact ; u"`, detail: 'kept as "exact u"' });
        subst("exact ; u", "1");
        subs.set("exact u", 1);
      } else if (kind === "semicolon") {
        oddities.push({ line: line(), action: "left out", entry: `target ${id}, substitute ";"`, detail: "nothing is left" });
        subst(";", "1");
      } else if (kind === "empty") {
        oddities.push({ line: line(), action: "left out", entry: `target ${id}, substitute ""`, detail: "the substitute is empty" });
        subst("", "2");
      } else if (kind === "freq0") {
        oddities.push({ line: line(), action: "left out", entry: `target ${id}, substitute "zerofreq"`, detail: 'freq "0" is not a positive whole number' });
        subst("zerofreq", "0");
      } else if (kind === "freqDecimal") {
        oddities.push({ line: line(), action: "left out", entry: `target ${id}, substitute "halffreq"`, detail: 'freq "1.5" is not a positive whole number' });
        subst("halffreq", "1.5");
      } else if (kind === "repeat") {
        const [first, c] = [...subs][0];
        oddities.push({ line: line(), action: "repaired", entry: `target ${id}, substitute "${first}"`, detail: `its count 2 added there (${c} + 2 = ${c + 2})` });
        subst(first, "2");
        subs.set(first, c + 2);
      }
      tokens.push("        </substitutions>", "      </token>");
      if (kind === "missing") oddities.push({ line: tokenLine, action: "left out", entry: `target ${id} "${wordform}"`, detail: "the wordform is not in the target sentence" });
      else if (kind === "reused") oddities.push({ line: tokenLine, action: "left out", entry: `target ${firstId} "${wordform}"`, detail: `target id ${firstId} is already used` });
      else {
        if (kind === "tag") oddities.push({ line: tokenLine, action: "repaired", entry: `target ${id} "${wordform}"`, detail: `kept under the lexelt ${wordform}.x` });
        expected.set(tokenId, subs);
      }
    }
    made += inSent;
    lines[targetLine - 1 + 1] = `    ${words.join(" ")}`;
    lines.push(...tokens, "    </tokens>", "  </sent>");
  }
  lines.push("</document>", "");
  oddities.sort((a, b) => a.line - b.line);
  return { xml: lines.join("\n"), targets, substitutes, expected, oddities, problematic };
}
