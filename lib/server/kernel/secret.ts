/**
 * next-auth's secret: NEXTAUTH_SECRET if set, else a random secret generated on
 * first run into .lexgold-secret (git-ignored, mode 600). Never printed.
 */
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../../../db/client";
import { setting } from "../../config";

let cached: string | undefined;

function secretFile(): string {
  return setting("LEXGOLD_SECRET_FILE") ?? path.join(projectRoot(), ".lexgold-secret");
}

export function authSecret(): string {
  const fromEnv = setting("NEXTAUTH_SECRET");
  if (fromEnv) return fromEnv;
  if (cached) return cached;
  const file = secretFile();
  try {
    cached = fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8").trim();
  } catch {
    const fresh = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(/*turbopackIgnore: true*/ file, fresh + "\n", { flag: "wx", mode: 0o600 });
      cached = fresh;
    } catch {
      // Another process created it first: use theirs.
      cached = fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8").trim();
    }
  }
  return cached!;
}

/** Shortest secret accepted from NEXTAUTH_SECRET or the file (next-auth derives its keys from it). */
export const MIN_SECRET_LENGTH = 32;

export type SecretState =
  | { source: "env"; length: number }
  | { source: "file"; file: string; exists: false }
  | { source: "file"; file: string; exists: true; length: number; mode: number };

/** Where the secret comes from and what it looks like (never the secret itself). */
export function secretState(): SecretState {
  const fromEnv = setting("NEXTAUTH_SECRET");
  if (fromEnv) return { source: "env", length: fromEnv.trim().length };
  const file = secretFile();
  try {
    const st = fs.statSync(/*turbopackIgnore: true*/ file);
    const length = fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8").trim().length;
    return { source: "file", file, exists: true, length, mode: st.mode & 0o777 };
  } catch {
    return { source: "file", file, exists: false };
  }
}

/**
 * Write a fresh random secret to the secret file with mode 0600 (its directory
 * made 0700 when missing), unless one is there already: an existing secret is
 * kept (replacing it would sign everybody out) and its mode tightened to 0600.
 */
export function writeSecretFile(file = secretFile()): { file: string; created: boolean } {
  fs.mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(/*turbopackIgnore: true*/ file, crypto.randomBytes(32).toString("base64url") + "\n", { flag: "wx", mode: 0o600 });
    return { file, created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    if (fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8").trim().length < MIN_SECRET_LENGTH) {
      throw new Error(`${file} holds a secret shorter than ${MIN_SECRET_LENGTH} characters; remove the file and run again to write a new one.`);
    }
    fs.chmodSync(/*turbopackIgnore: true*/ file, 0o600);
    return { file, created: false };
  }
}
