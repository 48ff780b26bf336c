import { describe, expect, it } from "vitest";
import { assignedLexeltIds, listAssignments, setAssignments } from "../../../lib/server/annotate/assignments";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError } from "../../../lib/server/kernel/errors";
import { projectFixture } from "../../support/db";

const xml = `<?xml version="1.0"?>\n<corpus lang="english">${["a.n", "b.v", "c.a"]
  .map((item, k) => `<lexelt item="${item}"><instance id="${k}"><context><head>${item}</head></context></instance></lexelt>`)
  .join("")}</corpus>`;

describe("assignments", () => {
  it("default to every lexelt, can be restricted, and restored", () => {
    const { db, coord, ann, project } = projectFixture();
    importLexeltXml(db, coord, project.id, { fileName: "x.xml", bytes: new TextEncoder().encode(xml) });
    const all = assignedLexeltIds(db, project.id, ann.userId);
    expect(all).toHaveLength(3);
    setAssignments(db, coord, project.id, ann.userId, [all[2], all[0]]);
    expect(assignedLexeltIds(db, project.id, ann.userId)).toEqual([all[0], all[2]]);
    expect(listAssignments(db, coord, project.id)).toEqual([{ userId: ann.userId, name: "ann", lexeltIds: [all[0], all[2]] }]);
    setAssignments(db, coord, project.id, ann.userId, all);
    expect(listAssignments(db, coord, project.id)[0].lexeltIds).toBeNull();
    expect(() => setAssignments(db, coord, project.id, ann.userId, [9999])).toThrow(InputError);
    expect(() => setAssignments(db, ann, project.id, ann.userId, [all[0]])).toThrow(AuthError);
    expect(assignedLexeltIds(db, project.id, ann.userId)).toEqual(all);
  });
});
