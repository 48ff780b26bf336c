/**
 * next-auth's secret: NEXTAUTH_SECRET if set, else a random secret generated on
 * first run into .lexgold-secret (git-ignored, mode 600). Never printed.
 */
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../../db/client";

let cached: string | undefined;

export function secretFile(): string {
  return process.env.LEXGOLD_SECRET_FILE ?? path.join(projectRoot(), ".lexgold-secret");
}

export function authSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
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
