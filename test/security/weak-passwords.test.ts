/**
 * Issue #27, finding 11: common and leaked passwords, and the quick start's
 * published demo password, are refused wherever a password is set (creating an
 * account, an annotator made on the Team page, changing one's own password, the
 * accounts TSV, `lexgold init`); the demo's own seeding still takes the demo
 * password. The messages say what is wrong in plain words.
 */
import { describe, expect, it } from "vitest";
import { changeOwnPassword } from "../../lib/server/people/accounts";
import { SYSTEM } from "../../lib/server/kernel/actor";
import type { InputError } from "../../lib/server/kernel/errors";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "../../lib/server/ops/demo";
import { passwordProblem } from "../../lib/server/people/passwords";
import { createAnnotatorForProject } from "../../lib/server/people/team";
import { importUsers } from "../../lib/server/people/user-import";
import { createUser } from "../../lib/server/people/users";
import { P_XML, world } from "./world";

/** Passwords the attack tried (the three) and more from the lists of common and leaked passwords. */
const WEAK = ["password12", "1234567890", "qwertyuiop", "Password123!", "iloveyou12", "qwerty12345", "sunshine2024", "abcdefghij", "0987654321"];

describe("finding 11: weak passwords are refused", () => {
  it.each(WEAK)("refuses %j, saying why in plain words", (password) => {
    expect(passwordProblem(password)).toMatch(/^That password is (on lists of common or leaked passwords|too easy to guess)/);
  });

  it("refuses the demo's published password (and passwords built on it) outside the demo", () => {
    for (const p of [DEMO_PASSWORD, "LEXGOLD-DEMO", "lexgold-demo-2"]) expect(passwordProblem(p)).toBe("That is the demo's published password: choose another.");
  });

  it.each(["correct horse battery", "k7qm-3xtp-9fhw", "a-new-password-1", "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich, ß!", "password-ann"])("still accepts %j", (password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it("every way of setting a password applies the rule, and nothing is written", async () => {
    const w = world();
    const users = () => w.db.$client.prepare("select name, password_hash from users order by id").all();
    const before = users();
    expect(() => createUser(w.db, SYSTEM, { name: "weak1", role: "annotator", password: "password12" })).toThrow(/common or leaked/);
    expect(() => createUser(w.db, SYSTEM, { name: "weak2", role: "annotator", password: DEMO_PASSWORD })).toThrow(/demo's published password/);
    await expect(createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "weak3", password: "qwertyuiop" })).rejects.toThrow(/common or leaked/);
    await expect(changeOwnPassword(w.db, w.ann, { current: "password-ann", next: "1234567890" })).rejects.toThrow(/common or leaked/);
    await expect(changeOwnPassword(w.db, w.ann, { current: "password-ann", next: DEMO_PASSWORD })).rejects.toThrow(/demo's published password/);
    try {
      importUsers(w.db, SYSTEM, { fileName: "u.tsv", text: `weak4\tannotator\tp\t${DEMO_PASSWORD}\n` });
      expect.unreachable("the import took the demo password");
    } catch (e) {
      expect((e as InputError).details).toEqual([`u.tsv:1: password for "weak4": That is the demo's published password: choose another.`]);
    }
    expect(users()).toEqual(before);
  });

  it("only the command line's demo seeding gives an account the demo password", () => {
    const w = world();
    expect(() => createUser(w.db, w.coord, { name: "sneaky", role: "annotator", password: DEMO_PASSWORD }, { demo: true })).toThrow(/command line/);
    // The demo flag takes the demo password and nothing else: no weaker password gets in through it.
    expect(() => createUser(w.db, SYSTEM, { name: "sneaky", role: "annotator", password: "qwertyuiop" }, { demo: true })).toThrow(/demo password/);
    const report = seedDemo(w.db, { fileName: "demo.xml", bytes: new TextEncoder().encode(P_XML) });
    expect(report.created).toEqual([...DEMO_USERS.map((u) => `user ${u.name}`), "project demo"]);
  });
});
