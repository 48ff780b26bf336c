import { describe, expect, it } from "vitest";
import { listAnswers } from "../../app/_ui/answer-text";
import { describe as describeAnswer } from "../../app/annotate/draft";

describe("answers listed to people", () => {
  it("are joined by a comma and a space, in the workspace too", () => {
    expect(listAnswers(["reserved", "withdrawn"])).toBe("reserved, withdrawn");
    expect(listAnswers([])).toBe("");
    expect(describeAnswer({ kind: "substitutes", substitutes: ["shy", "timid"], multiword: "keep quiet" })).toBe("shy, timid · multiword “keep quiet”");
    expect(describeAnswer({ kind: "NAME", substitutes: [], multiword: null })).toBe("NAME");
  });
});
