import { describe, expect, it } from "vitest";
import { answeredCount, trainingCounter } from "../../app/annotate/training-count";

describe("the training counter", () => {
  const answered = [{ ref: 11 }, { ref: 12 }];
  it("counts the item just answered before the refreshed view lists it, and once after", () => {
    expect(answeredCount(answered, null)).toBe(2);
    // Feedback on item 13 shown, the view not refreshed yet.
    expect(answeredCount(answered, 13)).toBe(3);
    // The view refreshed: 13 is listed; it is not counted twice.
    expect(answeredCount([...answered, { ref: 13 }], 13)).toBe(3);
    expect(answeredCount([], 5)).toBe(1);
  });
  it("says which item is being answered, and how many are done after feedback", () => {
    expect(trainingCounter(0, 3, true)).toBe("Item 1 of 3");
    expect(trainingCounter(1, 3, false)).toBe("1 of 3 answered");
    expect(trainingCounter(3, 3, false)).toBe("3 of 3 answered");
    expect(trainingCounter(3, 3, true)).toBe("Item 3 of 3");
  });
});
