/**
 * Issue #27, finding 12 (the small items that leak or trust too much):
 * - the responses-import preview told a coordinator whether any name is an
 *   account on the server, and its role;
 * - time on task (`activeMs`) came from the browser;
 * - the TSAR import accepted NUL and other control characters in sentences.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "../../lib/server/actor";
import { importDataset } from "../../lib/server/datasets";
import { InputError } from "../../lib/server/errors";
import { previewResponses } from "../../lib/server/response-import";
import { createUser } from "../../lib/server/users";
import { world } from "./world";

const HEADER = "annotator\tlexelt\tinstance\tanswer\tmultiword\n";

function refusal(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e.details;
    throw e;
  }
  throw new Error("not refused");
}

describe("finding 12: the responses-import preview says nothing about accounts outside the project", () => {
  it("no account, another project's annotator, another project's coordinator, an admin and this project's coordinator all read the same", () => {
    const w = world();
    createUser(w.db, SYSTEM, { name: "root", role: "admin", password: "admin-river-lamp" });
    const names = ["nobody", "annq", "coordq", "root", "coord"];
    const text = HEADER + names.map((n) => `${n}\tbright.a\tp2\tclever\t`).join("\n") + "\n";
    const details = refusal(() => previewResponses(w.db, w.coord, w.p.id, { fileName: "r.tsv", text }));
    expect(details).toEqual(names.map((n, i) => `r.tsv:${i + 2}: error: "${n}" is not an annotator of this project (add them on the Team page)`));
    expect(details.join("\n")).not.toMatch(/no user|coordinator|admin|account|member/);
  });
});

describe("finding 12: the TSAR import refuses control characters, naming file and line", () => {
  it.each([
    ["NUL", "\u0000"],
    ["a bell", "\u0007"],
    ["an escape", "\u001b"],
    ["DEL", "\u007f"],
    ["a C1 control", "\u0085"],
  ])("%s in a sentence is refused and nothing is written", (_what, c) => {
    const w = world();
    const count = () => (w.db.$client.prepare("select count(*) as n from instances").get() as { n: number }).n;
    const before = count();
    const text = `a swift reply\tswift\tquick\nthe plant${c} grew\tplant\ttree\n`;
    let message = "";
    try {
      importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode(text) });
    } catch (e) {
      message = [(e as Error).message, ...((e as InputError).details ?? [])].join("\n");
    }
    expect(message).toMatch(/t\.tsv:2\b.*control character/);
    expect(count()).toBe(before);
  });

  it("control characters in the complex word or an annotation are refused too; tabs separate cells as before", () => {
    const w = world();
    for (const text of ["a swift reply\tswi\u0000ft\tquick\n", "a swift reply\tswift\tqu\u0001ick\n"]) {
      expect(() => importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode(text) })).toThrow(/t\.tsv:1\b.*control character/);
    }
    expect(importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode("a swift reply\tswift\tquick\r\n") }).instancesAdded).toBe(1);
  });
});
