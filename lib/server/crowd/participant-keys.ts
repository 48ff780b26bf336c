/**
 * What binds a crowd participant to the person who joined (issue #38): a browser key (the
 * participant cookie's value, 256 random bits) and a resume code (60 random bits, 12 characters of
 * Crockford's base 32, shown once as XXXX-XXXX-XXXX). Only their SHA-256 is stored: both are
 * random enough that a hash without a salt or a slow function loses nothing, and whoever reads the
 * database learns neither. Every comparison of a secret is made in constant time over digests of
 * the same length, so the time an answer takes says nothing of how much of a guess was right.
 */
import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Crockford's base 32: no I, L, O or U (nothing to misread, no accidental words). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 12;
const CODE = /^[0-9A-HJKMNP-TV-Z]{12}$/;

/** A new browser key: 32 random bytes, base64url (43 characters). */
export function newBrowserKey(): string {
  return randomBytes(32).toString("base64url");
}

/** A new resume code, as shown: "K7QM-2XHD-9RTA" (each character 5 random bits). */
export function newResumeCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  // 256 is a multiple of 32: the low five bits of a random byte are uniform.
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/**
 * A resume code as typed, in the one form it is hashed in: any case, spaces and dashes dropped,
 * O read as 0 and I or L as 1 (Crockford's rules); null when it cannot be a code.
 */
export function normaliseResumeCode(typed: unknown): string | null {
  if (typeof typed !== "string" || typed.length > 64) return null;
  const s = typed
    .toUpperCase()
    .replace(/[\s-]+/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  return CODE.test(s) ? s : null;
}

/** The stored form of a browser key or a normalised resume code: SHA-256, hex. */
export function secretHash(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Whether a presented secret's hash is the stored one, in constant time. A malformed stored hash matches nothing. */
export function matchesHash(presentedHash: string, storedHash: string | null): boolean {
  if (!storedHash || !/^[0-9a-f]{64}$/.test(storedHash) || !/^[0-9a-f]{64}$/.test(presentedHash)) return false;
  return timingSafeEqual(Buffer.from(presentedHash, "hex"), Buffer.from(storedHash, "hex"));
}

/** Whether two platform session ids (Prolific's SESSION_ID, Mechanical Turk's assignmentId) are the same, exactly, in constant time. */
export function samePlatformSession(presented: string | null, stored: string | null): boolean {
  if (!presented || !stored) return false;
  return timingSafeEqual(digest(presented), digest(stored));
}
