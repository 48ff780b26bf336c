/**
 * Findings 3 and 8: password checks off the request thread, the same work for
 * unknown names as for real ones, and passwords that are not trivially weak.
 */
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BCRYPT_COST, passwordProblem } from "../../lib/server/passwords";
import { signInWithPassword } from "../../lib/server/signin";
import { createUser } from "../../lib/server/users";
import { SYSTEM } from "../../lib/server/actor";
import { testDb } from "../support/db";

afterEach(() => vi.restoreAllMocks());

const cost = (hash: string) => Number(/^\$2[aby]\$(\d\d)\$/.exec(hash)?.[1]);

describe("finding 3: bcrypt off the request thread, the same work for every name", () => {
  it("sign-in compares asynchronously, against a hash of the configured cost for unknown names as for real ones", async () => {
    const db = testDb();
    createUser(db, SYSTEM, { name: "ann", role: "annotator", password: "password-ann" });
    const sync = vi.spyOn(bcrypt, "compareSync");
    const compare = vi.spyOn(bcrypt, "compare");
    const attempt = (name: string) => signInWithPassword(db, { name, password: "not-the-password", client: "192.0.2.1", deviceCookie: null, secret: "s" });
    expect(await attempt("ann")).toEqual({ ok: false, reason: "invalid" });
    expect(await attempt("nobody-by-that-name")).toEqual({ ok: false, reason: "invalid" });
    expect(sync).not.toHaveBeenCalled();
    const hashes = compare.mock.calls.map((c) => String(c[1]));
    expect(hashes).toHaveLength(2);
    expect(hashes.map(cost)).toEqual([BCRYPT_COST, BCRYPT_COST]);
  });

  it("other work proceeds while a password is being checked", async () => {
    const db = testDb();
    createUser(db, SYSTEM, { name: "ann", role: "annotator", password: "password-ann" });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await Promise.all(Array.from({ length: 4 }, () => signInWithPassword(db, { name: "ann", password: "password-ann", client: null, deviceCookie: null, secret: "s" })));
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});

describe("finding 8: password rules", () => {
  it.each([
    ["8 spaces", "        ", /at least 10/],
    ["aaaaaaaa", "aaaaaaaa", /at least 10/],
    ["one character repeated", "zzzzzzzzzzzz", /one character repeated/],
    ["more than 72 bytes", "x".repeat(60) + "ü".repeat(7), /at most 72 bytes/],
  ])("refuses %s", (_what, password, message) => {
    expect(passwordProblem(password)).toMatch(message);
  });

  it.each(["lexgold-demo", "correct horse battery", "k7qm-3xtp-9fhw", "üö".repeat(18)])("accepts %j", (password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it("the CLI's account creation applies the rules", () => {
    const db = testDb();
    expect(() => createUser(db, SYSTEM, { name: "weak", role: "annotator", password: "aaaaaaaa" })).toThrow(/at least 10/);
    expect(() => createUser(db, SYSTEM, { name: "long", role: "annotator", password: "y".repeat(40) + "z".repeat(33) })).toThrow(/72 bytes/);
  });
});
