import { describe, expect, it } from "vitest";
import {
  CONTROL_RANDOM,
  CONTROL_TARGET,
  addControls,
  isPostHocEligible,
  judgeOrder,
  judgesNeeded,
  krippendorffAlpha,
  poolCandidates,
  sampleItems,
  singleWordSubstitutes,
  table8,
  verdict,
  wilson,
} from "../../lib/lexsub/judgement";

const subs = (...lists: string[][]) => lists.map((s) => ({ kind: "substitutes" as const, substitutes: s }));

describe("§5.1 item filter", () => {
  it("needs more than two distinct single-word substitutes", () => {
    expect(isPostHocEligible({ responses: subs(["shiny", "vivid"], ["shiny"]), multiword: null })).toBe(false);
    expect(isPostHocEligible({ responses: subs(["shiny", "vivid"], ["clever"]), multiword: null })).toBe(true);
    // phrases do not count
    expect(singleWordSubstitutes({ responses: subs(["full of light", "shiny"], ["vivid"]), multiword: null })).toEqual(["shiny", "vivid"]);
    expect(isPostHocEligible({ responses: subs(["full of light", "shiny"], ["vivid"]), multiword: null })).toBe(false);
  });
  it("drops items with a NAME response or a majority multiword", () => {
    const r = subs(["shiny", "vivid", "clever"]);
    expect(isPostHocEligible({ responses: [...r, { kind: "NAME", substitutes: [] }], multiword: null })).toBe(false);
    expect(isPostHocEligible({ responses: r, multiword: "bright spark" })).toBe(false);
    expect(isPostHocEligible({ responses: [...r, { kind: "NIL", substitutes: [] }], multiword: null })).toBe(true);
  });
});

describe("seeded sampling and judge order", () => {
  const items = Array.from({ length: 50 }, (_, i) => `item${i}`);
  it("is reproducible from the seed and differs between seeds", () => {
    const a = sampleItems(items, 10, 7);
    expect(sampleItems(items, 10, 7)).toEqual(a);
    expect(new Set(a).size).toBe(10);
    expect(sampleItems(items, 10, 8)).not.toEqual(a);
    expect(sampleItems(items, 100, 7)).toHaveLength(50);
    expect(() => sampleItems(items, 0, 7)).toThrow(/sample size/);
  });
  it("gives each judge their own order of the same candidates", () => {
    const c = ["a", "b", "c", "d", "e", "f", "g"];
    const j1 = judgeOrder(c, 1, "judge1", "bright.a 1");
    expect(judgeOrder(c, 1, "judge1", "bright.a 1")).toEqual(j1);
    expect([...j1].sort()).toEqual(c);
    expect(judgeOrder(c, 1, "judge2", "bright.a 1")).not.toEqual(j1);
  });
});

describe("candidate pooling", () => {
  it("de-duplicates across sources and keeps every tag", () => {
    const pool = poolCandidates([
      { source: "annotators", candidates: ["shiny", "vivid", "Shiny "] },
      { source: "wordnet", candidates: ["vivid", "brilliant"] },
      { source: "run:sysA", candidates: ["brilliant", "shiny"] },
    ]);
    expect(pool).toEqual([
      { text: "shiny", sources: ["annotators", "run:sysA"] },
      { text: "vivid", sources: ["annotators", "wordnet"] },
      { text: "brilliant", sources: ["wordnet", "run:sysA"] },
    ]);
  });
});

describe("control candidates", () => {
  it("adds the target and a word from another item's pool that is not in this one", () => {
    const own = poolCandidates([{ source: "annotators", candidates: ["shiny", "vivid"] }]);
    const other = poolCandidates([{ source: "annotators", candidates: ["vivid", "table", "desk"] }]);
    const out = addControls(own, "bright", [other], 3);
    expect(out.find((c) => c.text === "bright")?.sources).toEqual([CONTROL_TARGET]);
    const random = out.filter((c) => c.sources.includes(CONTROL_RANDOM));
    expect(random).toHaveLength(1);
    expect(["table", "desk"]).toContain(random[0].text);
    expect(own).toHaveLength(2); // input untouched
  });
  it("tags an existing candidate rather than adding the target twice; no random word when none is foreign", () => {
    const own = poolCandidates([{ source: "wordnet", candidates: ["bright", "vivid"] }]);
    const out = addControls(own, "Bright", [poolCandidates([{ source: "annotators", candidates: ["vivid"] }])], 1);
    expect(out).toEqual([
      { text: "bright", sources: ["wordnet", CONTROL_TARGET] },
      { text: "vivid", sources: ["wordnet"] },
    ]);
  });
});

describe("verdict rule", () => {
  it("takes the majority", () => {
    expect(verdict(["good", "good", "bad"])).toBe("good");
    expect(verdict(["bad", "reasonable", "bad"])).toBe("bad");
  });
  it("one good and one reasonable → reasonable (the paper's rule), three different labels → reasonable", () => {
    expect(verdict(["good", "reasonable"])).toBe("reasonable");
    expect(verdict(["good", "reasonable", "bad"])).toBe("reasonable");
    expect(verdict(["bad", "good", "reasonable"])).toBe("reasonable");
    expect(verdict(["good", "good", "reasonable", "reasonable"])).toBe("reasonable");
    expect(verdict(["good", "bad"])).toBe("bad");
  });
  it("leaves abstentions out", () => {
    expect(verdict(["good", "abstain", "abstain"])).toBe("good");
    expect(verdict(["abstain"])).toBeNull();
    expect(verdict([])).toBeNull();
  });
});

describe("escalation", () => {
  const policy = { judges: 3, cap: 5 };
  it("asks for the base judges first, then up to the cap once anyone said good", () => {
    expect(judgesNeeded([], policy)).toBe(3);
    expect(judgesNeeded(["good", "bad"], policy)).toBe(3);
    expect(judgesNeeded(["bad", "reasonable", "bad"], policy)).toBe(3);
    expect(judgesNeeded(["bad", "good", "bad"], policy)).toBe(5);
    expect(judgesNeeded(["bad", "good", "bad", "bad", "bad"], policy)).toBe(5);
    expect(() => judgesNeeded([], { judges: 3, cap: 2 })).toThrow(/cap/);
  });
});

describe("Table 8 and Wilson intervals", () => {
  it("counts per source, a candidate of two sources in both", () => {
    const rows = table8([
      { sources: ["annotators"], verdict: "good" },
      { sources: ["annotators", "wordnet"], verdict: "reasonable" },
      { sources: ["wordnet"], verdict: "bad" },
      { sources: ["wordnet"], verdict: "bad" },
      { sources: ["wordnet"], verdict: null },
    ]);
    expect(rows.map((r) => [r.source, r.total, r.good.count, r.reasonable.count, r.bad.count])).toEqual([
      ["annotators", 2, 1, 1, 0],
      ["wordnet", 3, 0, 1, 2],
    ]);
    expect(rows[1].bad.percent).toBeCloseTo(200 / 3, 10);
    expect(rows[1].bad.interval).toEqual(wilson(2, 3));
  });
  it("wilson matches the closed form and stays inside [0, 1]", () => {
    // 5 of 10: centre 0.5, half-width z·sqrt(0.025 + z²/400)/(1 + z²/10)
    const z = 1.959963984540054;
    const half = (z * Math.sqrt(0.025 + (z * z) / 400)) / (1 + (z * z) / 10);
    expect(wilson(5, 10).low).toBeCloseTo(0.5 - half, 12);
    expect(wilson(5, 10).high).toBeCloseTo(0.5 + half, 12);
    expect(wilson(0, 4).low).toBe(0);
    expect(wilson(4, 4).high).toBeCloseTo(1, 12);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 0 });
  });
});

describe("Krippendorff's alpha", () => {
  it("is 1 for full agreement and matches a hand computation", () => {
    expect(krippendorffAlpha([["good", "good"], ["bad", "bad", "bad"]], "nominal")).toBe(1);
    // coincidences: gg 2, bb 2, gb 1, bg 1; n = 6; α = 1 − (n−1)·D_o/D_e = 1 − 5·2/18
    expect(krippendorffAlpha([["good", "good"], ["bad", "bad"], ["good", "bad"]], "nominal")).toBeCloseTo(1 - 10 / 18, 12);
    // two categories: ordinal equals nominal
    expect(krippendorffAlpha([["good", "good"], ["bad", "bad"], ["good", "bad"]], "ordinal")).toBeCloseTo(1 - 10 / 18, 12);
  });
  it("ordinal counts good/reasonable as a smaller disagreement than good/bad", () => {
    const units = [["good", "reasonable"], ["good", "good"], ["bad", "bad"], ["reasonable", "reasonable"]] as const;
    const nominal = krippendorffAlpha(units, "nominal")!;
    const ordinal = krippendorffAlpha(units, "ordinal")!;
    expect(ordinal).toBeGreaterThan(nominal);
    expect(krippendorffAlpha([["good"], ["bad"]], "nominal")).toBeNull();
    expect(krippendorffAlpha([["good", "abstain"], ["good", "good"]], "nominal")).toBeNull();
  });
});
