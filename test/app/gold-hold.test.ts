import { describe, expect, it } from "vitest";
import { formatHold, goldQuery, parseHold } from "../../app/projects/[projectId]/gold/_views/params";

describe("the review queue's held instances in the URL", () => {
  it("round-trips ids with commas and colons, and no agreement", () => {
    const hold = { d1: 0.25, "a,b:c": null, "7": 1 / 9 };
    expect(parseHold(formatHold(hold))).toEqual(hold);
    expect(formatHold({})).toBe("");
  });
  it("drops entries it cannot read", () => {
    expect(parseHold("d1:x,:0.5,nocolon,%E0%A4%A:0.1,d2:0.5")).toEqual({ d2: 0.5 });
    expect(goldQuery({ view: "queue", hold: "d1:0.5" }).instanceQuery.hold).toEqual({ d1: 0.5 });
    expect(goldQuery({ view: "queue" }).instanceQuery.hold).toEqual({});
  });
});
