import { describe, expect, it } from "vitest";
import { participantLabel, shortId } from "../../app/_ui/participant-label";

describe("platform ids shown to people", () => {
  it("keep their first and last characters when long, cut by characters, not bytes", () => {
    // Prolific ids of people who joined together differ at the end.
    expect(shortId("64a000000000000000000001")).toBe("64a000…0001");
    expect(shortId("64a000000000000000000002")).not.toBe(shortId("64a000000000000000000001"));
    // Fourteen characters are shown whole.
    expect(shortId("abcdefghijklmn")).toBe("abcdefghijklmn");
    expect(shortId("ééééééééééééééé")).toBe("éééééé…éééé");
  });
});

describe("the header's label for a crowd participant", () => {
  it("names the platform's id, never the account name", () => {
    expect(participantLabel("prolific:1:5f0a00000000000000000001")).toEqual({ label: "Prolific ID", id: "5f0a00000000000000000001", short: "5f0a00…0001" });
    expect(participantLabel("mturk:12:A1B2C3D4E5")).toEqual({ label: "Worker ID", id: "A1B2C3D4E5", short: "A1B2C3D4E5" });
    // A link participant's own id may hold colons: everything after the study is the id.
    expect(participantLabel("link:3:ana:x")).toEqual({ label: "ID", id: "ana:x", short: "ana:x" });
  });

  it("gives nothing for a name not made by a study's join", () => {
    expect(participantLabel("ann")).toBeNull();
    expect(participantLabel("prolific:x:1")).toBeNull();
    expect(participantLabel("prolific:1:")).toBeNull();
  });
});
