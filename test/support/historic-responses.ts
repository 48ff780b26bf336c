import { mulberry32 } from "../../lib/lexsub/agreement";

/**
 * A CoInCo-like project built from answers people already gave: a lexelt XML of
 * generated sentences and a responses TSV of pseudo-annotators (one line per
 * annotator × target, each answer a few lemmas, as CoInCo's crowd answers are
 * turned into responses). Words and sentences are made up here; only the kinds
 * of answer come from the real release: the target's own lemma or head word
 * (`say` for say.v), one-letter answers (`x`), a trailing full stop
 * (`suppression .`), plurals CoInCo kept (`media`, `pence`) and capitals (`TV`).
 *
 * With it come what the file should give, worked out here from the answers
 * themselves, not through the importer or the gold derivation: the gold line of
 * every target (annotators per substitute, count descending, ties in code-point
 * order, as the official files have them) and how many answers break each rule.
 *
 * Deterministic: a seeded generator, the same file for the same options.
 */

interface Lexelt {
  item: string;
  lemma: string;
  /** Head words the target stands as in its sentences. */
  heads: string[];
  /** Substitutes the annotators choose from (distinct, case ignored). */
  pool: string[];
}

/** The rule each kind of rule-breaking answer breaks (substitute-rules.ts), by the answer as written. */
const RULE_OF: Record<string, "letters" | "characters"> = { x: "letters", "suppression .": "characters" };

const LEXELTS: Lexelt[] = [
  { item: "say.v", lemma: "say", heads: ["said", "says"], pool: ["state", "tell", "declare", "mention", "claim", "say", "report", "said"] },
  { item: "press.n", lemma: "press", heads: ["press"], pool: ["media", "newspapers", "journalists", "reporters", "TV", "news outlet"] },
  { item: "cost.n", lemma: "cost", heads: ["cost", "costs"], pool: ["price", "pence", "charge", "fee", "expense", "outlay"] },
  { item: "crackdown.n", lemma: "crackdown", heads: ["crackdown"], pool: ["suppression .", "repression", "clampdown", "purge", "curb"] },
  { item: "letter.n", lemma: "letter", heads: ["letter"], pool: ["note", "message", "x", "missive", "epistle", "mail"] },
  { item: "bright.a", lemma: "bright", heads: ["bright"], pool: ["shiny", "brilliant", "vivid", "clever", "smart", "radiant"] },
  { item: "come.v", lemma: "come", heads: ["came", "comes"], pool: ["arrive", "appear", "turn up", "show up", "emerge"] },
];

const FILLER = ["the", "old", "river", "town", "quickly", "a", "green", "market", "under", "evening", "its", "people", "then"];

export interface HistoricOptions {
  /** Targets (instances), spread over the lexelts in turn. */
  targets: number;
  /** Pseudo-annotators (default 12). */
  annotators?: number;
  /** How many of them answer each target: from, to (default 4 to 6). */
  perTarget?: [number, number];
  /** Lines the format cannot read, put in at even intervals: a sixth cell (the answer is CoInCo's, the line is not read). */
  oddLines?: number;
  seed?: number;
}

export interface HistoricProject {
  xml: string;
  tsv: string;
  annotators: string[];
  /** Responses lines in the file (header excluded), odd lines included. */
  lines: number;
  /** 1-based line numbers (header = 1) of the lines the format cannot read. */
  oddLineNumbers: number[];
  /** instance id → every annotator's answer as given (odd lines included: they are CoInCo's answers too). */
  answers: Map<string, { annotator: string; substitutes: string[] }[]>;
  /** instance id → the gold line the answers make, every answer kept exactly as written. */
  expectedGold: Map<string, string>;
  /** Substitutes (in lines the format reads) that break each rule of the workspace. */
  ruleCounts: { target: number; letters: number; characters: number };
  /** How many responses (in lines the format reads) give each substitute, by substitute. */
  given: Map<string, number>;
}

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Code-point order, as the gold writer sorts ties. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function historicProject(opts: HistoricOptions): HistoricProject {
  const rnd = mulberry32(opts.seed ?? 29);
  const [fewest, most] = opts.perTarget ?? [4, 6];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const annotators = Array.from({ length: opts.annotators ?? 12 }, (_, k) => `crowd${String(k + 1).padStart(2, "0")}`);
  const byLexelt = new Map<string, string[]>();
  const answers = new Map<string, { annotator: string; substitutes: string[] }[]>();
  const expectedGold = new Map<string, string>();
  const rows: { line: string; odd: boolean }[] = [];
  const ruleCounts = { target: 0, letters: 0, characters: 0 };
  const given = new Map<string, number>();
  let oddSoFar = 0;
  const oddEvery = opts.oddLines ? Math.floor((opts.targets * (fewest + most)) / 2 / (opts.oddLines + 1)) : 0;

  for (let t = 0; t < opts.targets; t++) {
    const lx = LEXELTS[t % LEXELTS.length];
    const id = String(100000 + t * 7);
    const head = pick(lx.heads);
    const words = Array.from({ length: 8 }, () => pick(FILLER));
    const sentence = `${xmlEscape(words.slice(0, 4).join(" "))} <head>${xmlEscape(head)}</head> ${xmlEscape(words.slice(4).join(" "))}`;
    let list = byLexelt.get(lx.item);
    if (!list) byLexelt.set(lx.item, (list = []));
    list.push(`<instance id="${id}"><context>${sentence}</context></instance>`);

    const who = [...annotators].sort(() => rnd() - 0.5).slice(0, fewest + Math.floor(rnd() * (most - fewest + 1))).sort();
    const given_: { annotator: string; substitutes: string[] }[] = [];
    const counts = new Map<string, number>();
    for (const a of who) {
      const subs = [...lx.pool].sort(() => rnd() - 0.5).slice(0, 1 + Math.floor(rnd() * 3));
      given_.push({ annotator: a, substitutes: subs });
      for (const s of subs) counts.set(s, (counts.get(s) ?? 0) + 1);
      const odd = oddEvery > 0 && rows.length > 0 && rows.length % oddEvery === 0 && oddSoFar < (opts.oddLines ?? 0);
      if (odd) oddSoFar++;
      rows.push({ line: [a, lx.item, id, subs.join(";"), "", ...(odd ? ["an extra cell"] : [])].join("\t"), odd });
      if (odd) continue;
      for (const s of subs) {
        given.set(s, (given.get(s) ?? 0) + 1);
        if (s === lx.lemma || s === head) ruleCounts.target++;
        else if (RULE_OF[s]) ruleCounts[RULE_OF[s]]++;
      }
    }
    answers.set(id, given_);
    const entries = [...counts].sort((x, y) => y[1] - x[1] || cmp(x[0], y[0]));
    expectedGold.set(id, `${lx.item} ${id} :: ${entries.map(([s, n]) => `${s} ${n};`).join("")}`);
  }

  const xml =
    `<?xml version="1.0"?>\n<corpus lang="english">\n` +
    [...byLexelt].map(([item, insts]) => `<lexelt item="${item}">\n${insts.join("\n")}\n</lexelt>`).join("\n") +
    `\n</corpus>\n`;
  const tsv = ["annotator\tlexelt\tinstance\tanswer\tmultiword", ...rows.map((r) => r.line)].join("\n") + "\n";
  const oddLineNumbers = rows.flatMap((r, k) => (r.odd ? [k + 2] : []));
  return { xml, tsv, annotators, lines: rows.length, oddLineNumbers, answers, expectedGold, ruleCounts, given };
}
