import { describe, expect, it } from "vitest";
import { mwNote } from "../../app/projects/[projectId]/scoring/format";

describe("the words beside mw figures", () => {
  it("say only majority multiwords count, and why recall is undefined when the gold has none", () => {
    expect(mwNote(false)).toMatch(/^Only majority multiwords count: .*at least two annotators.*not scored\.$/);
    expect(mwNote(false)).not.toMatch(/nothing to divide by/);
    expect(mwNote(true)).toMatch(/This gold has none, so recall has nothing to divide by \(—\)\.$/);
  });
});
