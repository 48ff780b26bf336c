import { describe, expect, it } from "vitest";
import { safeReturnTo, signInHref } from "../../lib/auth/return-to";

describe("the sign-in page's way back", () => {
  it.each([
    ["/annotate/3/17", "/annotate/3/17"],
    ["/projects/2/gold?view=instances&instance=c2", "/projects/2/gold?view=instances&instance=c2"],
    ["//evil.example/x", "/"],
    ["https://evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/signin?next=/x", "/"],
    ["/api/projects/1/gold", "/"],
    ["", "/"],
    [undefined, "/"],
  ])("%s → %s", (next, back) => expect(safeReturnTo(next)).toBe(back));

  it("links to the sign-in page with the page to come back to", () => {
    expect(signInHref("/annotate/3/17")).toBe("/signin?next=%2Fannotate%2F3%2F17");
    expect(signInHref("//evil.example")).toBe("/signin");
  });
});
