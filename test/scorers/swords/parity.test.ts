/**
 * swords/eval.py's behaviour on inputs written here. Expected figures follow
 * from what eval.py does: NLTK 3.5's WordNetLemmatizer over WordNet 3.0, then
 * pr_at_k (numerator counts each place of R[:k] found in G; P ÷ Σ|R[:k]|,
 * R ÷ Σ min(|G|, k), Rs ÷ Σ|G|, F = 2PR/(P+R), Fs = 2·P·Rs/(P+Rs), any division
 * by zero raising), GAP's first, uncaught assertion 0 ≤ gap ≤ 1, and
 * dataset.get_target raising for a target id the dataset lacks.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { WordNetData } from "../../../lib/lexsub/morphy";
import { nltkLemmatize, parseNltkExceptions, parseSwordsGold, parseSwordsResult, rankRuns, scoreSwords, swordsLoaderCheck, swordsMetricNames } from "../../../lib/scorers/ranking";
import { readWordNet } from "../../../lib/wordnet/load";
import { readWordNet30, tarFiles } from "../../../lib/wordnet/wn30";

const wn30: WordNetData = readWordNet30();
const wn31: WordNetData = readWordNet();

describe("WordNet 3.0 (eval.py's) against the project's 3.1: forms NLTK's lemmatiser maps differently", () => {
  // From bench/wordnet-versions.ts (every form that differs over both databases' vocabularies); real words only.
  it.each([
    ["baths", "v", "bath", "baths"], // `bath` is a verb in 3.0 only
    ["bathed", "v", "bath", "bathe"], // bath and bathe both verbs in 3.0: the shorter wins
    ["bathing", "v", "bath", "bathe"],
    ["minors", "v", "minors", "minor"], // `minor` a verb in 3.1 only
    ["rewinds", "v", "rewinds", "rewind"],
    ["rewound", "v", "rewound", "rewind"],
    ["regifts", "v", "regifts", "regift"],
    ["babysits", "v", "babysits", "babysit"],
    ["reacquainted", "v", "reacquaint", "reacquainted"],
    ["supercedes", "v", "supercede", "supercedes"],
    ["bikers", "n", "bikers", "biker"],
    ["humidifiers", "n", "humidifiers", "humidifier"],
    ["malwares", "n", "malwares", "malware"],
    ["mangas", "n", "mangas", "manga"],
    ["promos", "n", "promos", "promo"],
    ["mics", "n", "mics", "mic"],
    ["dyslexics", "n", "dyslexics", "dyslexic"],
    ["initialisms", "n", "initialisms", "initialism"],
    ["paronyms", "n", "paronyms", "paronym"],
    ["send-ups", "n", "send-ups", "send-up"],
    ["oligonucleotides", "n", "oligonucleotides", "oligonucleotide"],
    ["disbelievers", "n", "disbeliever", "disbelievers"],
    ["unbelievers", "n", "unbeliever", "unbelievers"],
    ["orientals", "n", "oriental", "orientals"],
    ["palefaces", "n", "paleface", "palefaces"],
    ["coloreds", "n", "colored", "coloreds"],
    ["penetralium", "n", "penetralia", "penetralium"],
    ["involucra", "n", "involucra", "involucre"],
    ["gardener", "a", "gardener", "garden"],
    ["offer", "a", "offer", "off"],
  ] as const)("%s (%s): 3.0 %s, 3.1 %s", (form, pos, in30, in31) => {
    expect(nltkLemmatize(wn30, form, pos)).toBe(in30);
    expect(nltkLemmatize(wn31, form, pos)).toBe(in31);
  });
  it("shared behaviour holds over 3.0: shortest lemma (boss → bos), exceptions (ran → run), case kept", () => {
    expect(nltkLemmatize(wn30, "boss", "n")).toBe("bos");
    expect(nltkLemmatize(wn30, "ran", "v")).toBe("run");
    expect(nltkLemmatize(wn30, "Boss", "n")).toBe("Boss");
  });
  it("NLTK reads an exception list with a repeated key as its last line (a dict assignment)", () => {
    expect(parseNltkExceptions("axes ax\naxes axis\n").get("axes")).toEqual(["axis"]);
  });
  it("tarFiles reads a ustar archive's regular files by name", () => {
    const block = (name: string, body: string) => {
      const h = new Uint8Array(512);
      new TextEncoder().encodeInto(name, h);
      new TextEncoder().encodeInto(body.length.toString(8).padStart(11, "0"), h.subarray(124));
      h[156] = 48;
      const data = new Uint8Array(Math.ceil(body.length / 512) * 512);
      new TextEncoder().encodeInto(body, data);
      return [...h, ...data];
    };
    const tar = new Uint8Array([...block("dict/a", "alpha"), ...block("dict/b", "beta"), ...new Uint8Array(1024)]);
    const files = tarFiles(tar, new Set(["dict/b"]));
    expect(new TextDecoder().decode(files.get("dict/b"))).toBe("beta");
    expect(files.has("dict/a")).toBe(false);
  });
});

/** A SWORDS dataset of one target per entry: [id, word, pos, [substitute, labels][]]. */
function dataset(targets: [string, string, string, [string, string[]][]][]): string {
  const d = { contexts: {} as Record<string, unknown>, targets: {} as Record<string, unknown>, substitutes: {} as Record<string, unknown>, substitute_labels: {} as Record<string, unknown>, substitutes_lemmatized: false };
  let n = 0;
  for (const [tid, word, pos, subs] of targets) {
    d.contexts[`c:${tid}`] = { context: `a ${word} here`, extra: null };
    d.targets[tid] = { context_id: `c:${tid}`, target: word, offset: 2, pos };
    for (const [s, labels] of subs) {
      const sid = `s:${++n}`;
      d.substitutes[sid] = { target_id: tid, substitute: s };
      d.substitute_labels[sid] = labels;
    }
  }
  return JSON.stringify(d);
}
const result = (m: Record<string, [string, number][]>) => JSON.stringify({ substitutes_lemmatized: false, substitutes: m });
const scored = (gold: string, run: string, options: { skipPreprocessing?: boolean; repaired?: boolean } = {}) =>
  scoreSwords(parseSwordsGold(gold, "gold.json"), parseSwordsResult(run, "run.json"), options.skipPreprocessing ? null : wn30, options);

describe("eval.py's figures", () => {
  const big = dataset([["t:big", "big", "ADJ", [["large", ["TRUE"]], ["huge", ["TRUE", "FALSE", "UNSURE"]]]]]);
  const repeated = result({ "t:big": [["large", 3], ["large", 2], ["huge", 1]] });

  it("--skip-preprocessing: a candidate listed twice counts at each place", () => {
    // As given: R = [large, large, huge]; labels kept whole, so huge is 1/3 (conceivable only).
    // strict_a: G {large}: 2 of 3 right, R ÷ min(1, 10) = 2, F = 2·(2/3)·2 / (2/3 + 2) = 1
    // strict_c: G {large, huge}: 3 of 3, R = 3/2, F = 2·1·1.5/2.5 = 1.2; Rs = 3/2
    const f = scored(big, repeated, { skipPreprocessing: true }).figures!;
    expect(f.settings.strict_a).toMatchObject({ numerator: 2, pDenominator: 3, rDenominator: 1, rsDenominator: 1 });
    expect(f.settings.strict_a.p).toBeCloseTo(200 / 3, 10);
    expect(f.settings.strict_a.r).toBe(200);
    expect(f.settings.strict_a.f).toBeCloseTo(100, 10);
    expect(f.settings.strict_c.f).toBeCloseTo(120, 10);
    expect(f.settings.strict_c.rs).toBe(150);
    expect(f.strictCP1.p).toBe(100);
    // eval.py's GAP refuses unpreprocessed lists: no gap figures in this mode.
    expect(f.gap).toBeNull();
    expect(swordsMetricNames({ skipPreprocessing: true })).not.toContain("gap");
  });
  it("with preprocessing the repeat is merged: R = [large, huge], huge 1/2 after UNSURE goes (conceivable only)", () => {
    const f = scored(big, repeated).figures!;
    // strict_a: 1 of 2, R 1/1 → F = 2·0.5·1/1.5
    expect(f.settings.strict_a).toMatchObject({ numerator: 1, pDenominator: 2, rDenominator: 1 });
    expect(f.settings.strict_a.f).toBeCloseTo(200 / 3, 10);
  });
  it("fs@10 and rs@10: recall over all of G, not min(|G|, 10)", () => {
    // 12 acceptable substitutes, the first 10 ranked: P = 1, R = 10/10, Rs = 10/12, Fs = 2·(10/12)/(1 + 10/12) = 10/11
    const subs = Array.from({ length: 12 }, (_, i) => [`qx${i}`, ["TRUE"]] as [string, string[]]);
    const f = scored(dataset([["t:x", "thing", "NOUN", subs]]), result({ "t:x": subs.slice(0, 10).map(([s], i) => [s, -i] as [string, number]) })).figures!;
    const a = f.settings.strict_a;
    expect([a.p, a.r, a.f]).toEqual([100, 100, 100]);
    expect(a.rs).toBeCloseTo((100 * 10) / 12, 10);
    expect(a.fs).toBeCloseTo((100 * 10) / 11, 10);
    expect(swordsMetricNames().slice(0, 5)).toEqual(["lenient_a_f@10", "lenient_a_fs@10", "lenient_a_p@10", "lenient_a_r@10", "lenient_a_rs@10"]);
  });
  it("a target id the dataset lacks: eval.py stops (ValueError), so no figures; --skip-preprocessing never looks it up", () => {
    const run = result({ "t:big": [["large", 1]], "t:nope": [["x", 1]] });
    const r = scored(big, run);
    expect(r.figures).toBeNull();
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", message: expect.stringContaining("t:nope") }));
    expect(scored(big, run, { skipPreprocessing: true }).figures).not.toBeNull();
    expect(scored(big, run, { repaired: true }).figures).not.toBeNull();
    // An id without "t:" fails already when eval.py loads the result.
    expect(scored(big, result({ big: [["large", 1]] }), { skipPreprocessing: true }).figures).toBeNull();
  });
  it("nothing right at rank 1: P@1 = R@1 = 0, so F@1 = 0/0 stops eval.py even though only P@1 is printed", () => {
    const r = scored(big, result({ "t:big": [["tiny", 2], ["large", 1]] }));
    expect(r.figures).toBeNull();
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", message: expect.stringContaining("strict_c@1") }));
    expect(scored(big, result({ "t:big": [["tiny", 2], ["large", 1]] }), { repaired: true }).figures!.strictCP1.p).toBe(0);
  });
  it("GAP below 0 (targets without positive labels count −1) fails eval.py's first assertion: no figures", () => {
    // t:a and t:c judged FALSE only (−1 each), t:b right at rank 1 (1): mean −1/3
    const gold = dataset([
      ["t:a", "alpha", "NOUN", [["qa", ["FALSE"]]]],
      ["t:b", "beta", "NOUN", [["qb", ["TRUE"]]]],
      ["t:c", "gamma", "NOUN", [["qc", ["FALSE"]]]],
    ]);
    const run = result({ "t:a": [["qa", 1]], "t:b": [["qb", 1]], "t:c": [["qc", 1]] });
    const r = scored(gold, run);
    expect(r.figures).toBeNull();
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", message: expect.stringContaining("assertion") }));
    expect(scored(gold, run, { repaired: true }).figures!.gap).toBe(100);
  });
  it("a results file without substitutes_lemmatized (a bare map) stops LexSubResult.from_dict (KeyError): an error; repaired reads it", () => {
    const bare = JSON.stringify({ "t:big": [["large", 1]] });
    const t = rankRuns("swords", { name: "gold.json", text: big }, [{ name: "run.json", text: bare }], wn30);
    expect(t.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", file: "run.json", message: expect.stringContaining("KeyError") }));
    expect(t.rows[0].values.every((v) => v === null)).toBe(true);
    const fixed = rankRuns("swords", { name: "gold.json", text: big }, [{ name: "run.json", text: bare }], wn30, { repaired: true });
    expect(fixed.rows[0].values[fixed.columns.indexOf("strict_a_p@10")]).toBe(100);
  });
  it("ids: swords' recipe is sha1 of Python's json.dumps(…, sort_keys=True); other ids would stop eval.py's loader (a warning)", () => {
    const sha1 = (s: string) => createHash("sha1").update(s, "utf8").digest("hex");
    const context = 'She said "Café".\n';
    // json.dumps escapes quotes, newlines and every non-ASCII character (ensure_ascii), ", " and ": " between items.
    const cid = `c:${sha1('{"context": "She said \\"Caf\\u00e9\\".\\n"}')}`;
    // The target lower-cased; keys sorted: context_id, offset, pos, target.
    const tid = `t:${sha1(`{"context_id": "${cid}", "offset": 10, "pos": "NOUN", "target": "café"}`.replace("é", "\\u00e9"))}`;
    const sid = `s:${sha1(`{"substitute": "bistro", "target_id": "${tid}"}`)}`;
    const good = JSON.stringify({
      contexts: { [cid]: { context, extra: null } },
      targets: { [tid]: { context_id: cid, target: "Café", offset: 10, pos: "NOUN" } },
      substitutes: { [sid]: { target_id: tid, substitute: "Bistro" } },
      substitute_labels: { [sid]: ["TRUE"] },
      substitutes_lemmatized: false,
    });
    expect(swordsLoaderCheck(good, "gold.json", sha1)).toEqual([]);
    const [w] = swordsLoaderCheck(big, "gold.json", sha1);
    expect(w).toMatchObject({ severity: "warning", message: expect.stringContaining("4 entries") });
    expect(swordsLoaderCheck(good.replace('"offset":10', '"offset":9'), "gold.json", sha1)[0].message).toContain("not at offset 9");
  });
  it("a byte-order mark stops eval.py's json.load: an error; repaired reads past it", () => {
    const t = rankRuns("swords", { name: "gold.json", text: "\uFEFF" + big }, [{ name: "run.json", text: repeated }], wn30);
    expect(t.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", file: "gold.json", message: expect.stringContaining("JSONDecodeError") }));
    const fixed = rankRuns("swords", { name: "gold.json", text: "\uFEFF" + big }, [{ name: "run.json", text: repeated }], wn30, { repaired: true });
    expect(fixed.rows[0].values.some((v) => v !== null)).toBe(true);
  });
});
