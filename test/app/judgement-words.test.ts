import { describe, expect, it } from "vitest";
import { alphaText } from "../../app/projects/[projectId]/judgement/alpha-text";

describe("Krippendorff's α on the Judgement page", () => {
  it("gives the figures, or says why there are none", () => {
    expect(alphaText({ nominal: 0.5, ordinal: 0.61234 }, 3)).toBe("nominal 0.500, ordinal 0.612");
    expect(alphaText({ nominal: null, ordinal: null }, 1)).toBe(
      "not defined yet: only one judge has labelled yet, and α compares two judges' labels of the same candidate",
    );
    expect(alphaText({ nominal: null, ordinal: null }, 0)).toMatch(/^not defined yet: no judge has labelled yet/);
    expect(alphaText({ nominal: null, ordinal: null }, 2)).toMatch(/all the labels are the same/);
  });
});
