/**
 * Findings 3 and 8: password checks off the request thread, the same work for
 * unknown names as for real ones, and passwords that are not trivially weak.
 */
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";

// Record the jobs sent to the bcrypt worker threads (and run them there as usual).
const jobs = vi.hoisted(() => ({ compares: [] as string[] }));
vi.mock("../../lib/server/runtime/hash-pool", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../lib/server/runtime/hash-pool")>();
  return {
    ...real,
    compareOnPool: (password: string, hash: string) => {
      jobs.compares.push(hash);
      return real.compareOnPool(password, hash);
    },
  };
});
import { BCRYPT_COST, passwordProblem } from "../../lib/server/people/passwords";
import { signInWithPassword } from "../../lib/server/people/signin";
import { createUser } from "../../lib/server/people/users";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { testDb } from "../support/db";

afterEach(() => vi.restoreAllMocks());

const cost = (hash: string) => Number(/^\$2[aby]\$(\d\d)\$/.exec(hash)?.[1]);

describe("finding 3: bcrypt off the request thread, the same work for every name", () => {
  it("sign-in compares on a worker thread, against a hash of the configured cost for unknown names as for real ones", async () => {
    const db = testDb();
    createUser(db, SYSTEM, { name: "ann", role: "annotator", password: "password-ann" });
    const sync = vi.spyOn(bcrypt, "compareSync");
    const onThread = vi.spyOn(bcrypt, "compare");
    jobs.compares.length = 0;
    const attempt = (name: string) => signInWithPassword(db, { name, password: "not-the-password", client: "192.0.2.1", deviceCookie: null, secret: "s" });
    expect(await attempt("ann")).toEqual({ ok: false, reason: "invalid" });
    expect(await attempt("nobody-by-that-name")).toEqual({ ok: false, reason: "invalid" });
    // Nothing ran bcrypt on this thread, in slices or at once.
    expect(sync).not.toHaveBeenCalled();
    expect(onThread).not.toHaveBeenCalled();
    expect(jobs.compares).toHaveLength(2);
    expect(jobs.compares.map(cost)).toEqual([BCRYPT_COST, BCRYPT_COST]);
  });

  it("the worker pool answers a burst of compares each with its own result, in any order of completion", async () => {
    const { compareOnPool, hashOnPool } = await import("../../lib/server/runtime/hash-pool");
    const hash = await hashOnPool("password-ann", 4);
    expect(cost(hash)).toBe(4);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => compareOnPool(i % 2 ? "password-ann" : `wrong-${i}-password`, hash)));
    expect(results).toEqual([false, true, false, true, false, true, false, true]);
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

  it.each(["correct horse battery", "k7qm-3xtp-9fhw", "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich, ß!"])("accepts %j", (password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it("the CLI's account creation applies the rules", () => {
    const db = testDb();
    expect(() => createUser(db, SYSTEM, { name: "weak", role: "annotator", password: "aaaaaaaa" })).toThrow(/at least 10/);
    expect(() => createUser(db, SYSTEM, { name: "long", role: "annotator", password: "y".repeat(40) + "z".repeat(33) })).toThrow(/72 bytes/);
  });
});
