/**
 * rules.ts decides each of score.pl's rules once; the string readers (key.ts,
 * system.ts) and the byte-level fast lane (fast.ts) both call it. These check
 * the rules themselves and that their string and byte forms agree.
 */
import { describe, expect, it } from "vitest";
import {
  ANSWERED,
  COUNTS,
  HAS_MODE,
  OUTSIDE_T,
  UNSCORABLE,
  UNSORTED,
  dropsEntry,
  humanResponses,
  inT,
  isNonEntry,
  lineVerdict,
  matchesSpaced,
  modeHit,
  modeOf,
  normalizeGuess,
  normalizeUnits,
  spacedForm,
  withoutFirstApostrophe,
} from "../../../lib/scorers/semeval2007/rules";

describe("T", () => {
  it("takes two or more entries, or one counted twice or more", () => {
    expect(inT(2, 1)).toBe(true);
    expect(inT(1, 2)).toBe(true);
    expect(inT(1, 1)).toBe(false);
    expect(inT(0, 5)).toBe(false);
  });
});

describe("the mode and |H_i|", () => {
  it("is the first entry unless another has its count; rising counts are unsorted", () => {
    expect(modeOf([3, 2, 1], 0, 3)).toBe(HAS_MODE);
    expect(modeOf([2, 2], 0, 2)).toBe(0);
    expect(modeOf([1, 3], 0, 2)).toBe(HAS_MODE | UNSORTED);
    expect(modeOf(new Int32Array([9, 3, 3, 1]), 1, 3)).toBe(0);
    expect(humanResponses(new Int32Array([9, 3, 2, 1]), 1, 4)).toBe(6);
  });
});

describe("pn", () => {
  it("drops a field holding the letters (score.pl), or only the entry pn (repaired)", () => {
    expect(dropsEntry("sharpness", true, true)).toBe(true);
    expect(dropsEntry("sharpness", true, false)).toBe(false);
    expect(dropsEntry("pn", true, false)).toBe(true);
  });
});

describe("normalisation", () => {
  it.each([
    ["non-smoker", "nonsmoker"],
    ["non smoker", "nonsmoker"],
    ["non\u000bx", "nonx"],
    ["non-", "non"],
    ["none", "none"],
    ["open-air", "open air"],
    ["rock'n'roll", "rockn'roll"],
    ["non--x", "non x"],
    ["Glad", "Glad"],
  ])("%j → %j", (guess, normalised) => {
    expect(normalizeGuess(guess)).toBe(normalised);
  });

  it("gives the same on bytes as on strings (the fast lane's reading and the full reader's)", () => {
    const alphabet = "no- 'ax\u000b";
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const out = new Uint8Array(64);
    for (let t = 0; t < 2000; t++) {
      let s = "";
      const len = Math.floor(next() * 9);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(next() * alphabet.length)];
      const bytes = new TextEncoder().encode(`;${s};`);
      const n = normalizeUnits(bytes, 1, bytes.length - 1, out);
      expect(new TextDecoder().decode(out.subarray(0, n)), JSON.stringify(s)).toBe(normalizeGuess(s));
    }
  });

  it("recognises gold entries written non x / non-x, and drops a gold substitute's first apostrophe", () => {
    expect(isNonEntry("non-x")).toBe(true);
    expect(isNonEntry("none")).toBe(false);
    expect(withoutFirstApostrophe("o'clock's")).toBe("oclock's");
  });
});

describe("matching", () => {
  it("matches a hyphenated substitute with spaces, and the mode only as written unless repaired", () => {
    expect(spacedForm("open-air-ish")).toBe("open air ish");
    expect(matchesSpaced(45, 32)).toBe(true);
    expect(matchesSpaced(32, 45)).toBe(false);
    expect(modeHit(0, true, true, false)).toBe(true);
    expect(modeHit(0, true, false, false)).toBe(false);
    expect(modeHit(0, true, false, true)).toBe(true);
    expect(modeHit(1, true, true, true)).toBe(false);
    expect(modeHit(0, false, true, true)).toBe(false);
  });
});

describe("which system lines count", () => {
  it("ignores ids outside T and later lines for an id; never attempts an item with no readable entry", () => {
    const answeredAt = new Uint32Array(2);
    expect(lineVerdict(-1, 1, answeredAt, 0)).toBe(OUTSIDE_T);
    expect(lineVerdict(0, 2, answeredAt, 5)).toBe(COUNTS);
    expect(lineVerdict(0, 3, answeredAt, 5)).toBe(ANSWERED);
    expect(answeredAt[0]).toBe(2);
    expect(lineVerdict(1, 4, answeredAt, 0)).toBe(UNSCORABLE);
    expect(lineVerdict(1, 5, answeredAt, 0)).toBe(ANSWERED);
  });
});
