/**
 * Passwords: the rules every place that sets one applies, and bcrypt hashing on
 * worker threads (./hash-pool.ts), so a burst of sign-ins does not stall other
 * users' requests.
 *
 * Besides length, a password is refused when it is easy to guess: zxcvbn
 * (@zxcvbn-ts, with its list of common and leaked passwords, keyboard rows,
 * sequences, repeats and dates) estimates it falls within a million guesses
 * (its score 0 or 1). The quick start's published demo password is refused
 * everywhere but in the demo's own seeding (`demoPasswordSchema`).
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as zxcvbnCommon from "@zxcvbn-ts/language-common";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { setting } from "../../config";
import { compareOnPool, hashOnPool } from "../runtime";

export const BCRYPT_COST = setting("LEXGOLD_BCRYPT_COST");
const MIN_PASSWORD_LENGTH = 10;
/** bcrypt reads at most 72 bytes: longer passwords would share a hash with their first 72 bytes. */
const MAX_PASSWORD_BYTES = 72;

/** The quick start's demo password: published in the README, so refused for every account but the demo's. */
export const DEMO_PASSWORD = "lexgold-demo";
/** zxcvbn's estimate below which a password is refused: a million guesses (its scores 0 and 1). */
const MIN_PASSWORD_GUESSES = 1e6;
/** Words an attacker of this site tries first. */
const SITE_WORDS = ["lexgold", "lexgold-demo", "coordinator", "annotator", "semeval"];

let estimator: ZxcvbnFactory | null = null;
/** zxcvbn with the common-password list, built on first use (some 50 ms). */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ dictionary: zxcvbnCommon.dictionary, graphs: zxcvbnCommon.adjacencyGraphs });
  return estimator;
}

/** Why a password is easy to guess, in plain words, or null when it is not. */
function guessableProblem(password: string): string | null {
  // zxcvbn works on the first 256 characters; the byte rule refuses longer ones anyway.
  const r = zxcvbn().check(password.slice(0, 256), SITE_WORDS);
  if (r.guesses >= MIN_PASSWORD_GUESSES) return null;
  const listed = r.sequence.some((m) => m.pattern === "dictionary" && m.token.length * 2 >= password.length);
  return listed
    ? "That password is on lists of common or leaked passwords: choose one that is not (a few unrelated words work well)."
    : "That password is too easy to guess (a keyboard row, a sequence, a repeat or a date): choose a less predictable one (a few unrelated words work well).";
}

const basePasswordSchema = z
  .string({ message: "Give a password." })
  .min(MIN_PASSWORD_LENGTH, `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .refine((s) => new Set([...s]).size > 1, "A password cannot be one character repeated.")
  .refine((s) => Buffer.byteLength(s, "utf8") <= MAX_PASSWORD_BYTES, `A password has at most ${MAX_PASSWORD_BYTES} bytes (UTF-8): bcrypt ignores the rest.`);

export const passwordSchema = basePasswordSchema
  .refine((s) => !s.toLowerCase().includes(DEMO_PASSWORD), "That is the demo's published password: choose another.")
  .superRefine((s, ctx) => {
    const problem = guessableProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** The demo's own accounts (seeded by `lexgold demo` and the quick start): the published password, nothing else. */
export const demoPasswordSchema = basePasswordSchema.refine((s) => s === DEMO_PASSWORD, "The demo's accounts have the demo password.");

/** The rule a password breaks, or null. */
export function passwordProblem(password: string): string | null {
  const r = passwordSchema.safeParse(password);
  return r.success ? null : r.error.issues[0].message;
}

export function hashPassword(password: string): Promise<string> {
  return hashOnPool(password, BCRYPT_COST);
}

/** For the CLI and seeding, where no other request waits. */
export function hashPasswordSync(password: string): string {
  return bcrypt.hashSync(password, BCRYPT_COST);
}

let dummy: Promise<string> | null = null;
/** A hash of a random password at the configured cost, made once per process. */
function dummyHash(): Promise<string> {
  dummy ??= hashOnPool(randomBytes(18).toString("base64url"), BCRYPT_COST);
  return dummy;
}

/**
 * Whether the password matches the hash. With no hash (an unknown name) the
 * password is compared with a dummy hash of the same cost, so unknown names take
 * the same work as known ones.
 */
export async function checkPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const ok = await compareOnPool(password, hash ?? (await dummyHash()));
  return ok && !!hash;
}

/** Warm the dummy hash so the first unknown name is not slower than the rest. */
export function prepareDummyHash(): Promise<string> {
  return dummyHash();
}
