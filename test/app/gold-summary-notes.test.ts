import { describe, expect, it } from "vitest";
import { acceptAllLabel, proposalsNote } from "../../app/projects/[projectId]/gold/_views/summary-notes";

describe("the Gold summary's words beside the proposals to decide", () => {
  it("says why none to decide sits beside forms not reviewed", () => {
    expect(proposalsNote({ forms: 62, changed: 0, open: 62, openChanged: 0 })).toBe("62 of 62 forms not reviewed are their own lemma: nothing to decide");
    expect(proposalsNote({ forms: 62, changed: 3, open: 10, openChanged: 3 })).toBe(
      "written as typed until decided · 7 of 62 forms not reviewed are their own lemma: nothing to decide",
    );
    expect(proposalsNote({ forms: 5, changed: 2, open: 2, openChanged: 2 })).toBe("written as typed until decided");
    expect(proposalsNote({ forms: 5, changed: 2, open: 0, openChanged: 0 })).toBe("all 5 forms reviewed");
  });
});

describe("the lemma review's bulk accept button", () => {
  it("says how many open proposals change a form, so it never contradicts \"0 to decide\"", () => {
    expect(acceptAllLabel(30, 0)).toBe("Accept all 30 open forms as their own lemma");
    expect(acceptAllLabel(1, 0)).toBe("Accept the open form as its own lemma");
    expect(acceptAllLabel(30, 4)).toBe("Accept all 30 open proposals (4 change the form)");
    expect(acceptAllLabel(2, 1)).toBe("Accept all 2 open proposals (1 changes the form)");
    expect(acceptAllLabel(0, 0)).toBe("No open proposals");
  });
});
