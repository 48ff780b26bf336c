/**
 * Passwords: the rules every place that sets one applies, and bcrypt hashing on
 * worker threads (./hash-pool.ts), so a burst of sign-ins does not stall other
 * users' requests.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { compareOnPool, hashOnPool } from "./runtime/hash-pool";

export const BCRYPT_COST = Number(process.env.LEXGOLD_BCRYPT_COST ?? 10);
export const MIN_PASSWORD_LENGTH = 10;
/** bcrypt reads at most 72 bytes: longer passwords would share a hash with their first 72 bytes. */
export const MAX_PASSWORD_BYTES = 72;

export const passwordSchema = z
  .string({ message: "Give a password." })
  .min(MIN_PASSWORD_LENGTH, `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .refine((s) => new Set([...s]).size > 1, "A password cannot be one character repeated.")
  .refine((s) => Buffer.byteLength(s, "utf8") <= MAX_PASSWORD_BYTES, `A password has at most ${MAX_PASSWORD_BYTES} bytes (UTF-8): bcrypt ignores the rest.`);

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
