/**
 * A model's API key is never stored, shown, logged, exported or backed up in clear (issue #41):
 * - registered from the CLI, the model keeps the name of an environment variable (`--api-key-env`),
 *   read by the process that makes the call (lib/config modelKeyFromEnv: never one of lexgold's own
 *   settings, so NEXTAUTH_SECRET cannot be sent to a model server as a bearer token);
 * - typed on the page, the key is encrypted with AES-256-GCM under a key derived (HKDF-SHA-256) from
 *   the server's secret (kernel/secret.ts), and decrypted only to make a call. A database or backup
 *   holds only the ciphertext; a server with another secret cannot read it and says so.
 */
import "server-only";
import crypto from "node:crypto";
import { modelKeyFromEnv } from "../../config";
import { authSecret } from "../kernel/secret";

const PREFIX = "v1:";

function keyOf(secret: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secret, "lexgold-model-keys", "model api key v1", 32));
}

/** The key encrypted under the server's secret: "v1:" + base64url(iv, tag, ciphertext). */
export function encryptKey(plain: string, secret = authSecret()): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", keyOf(secret), iv);
  const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return PREFIX + Buffer.concat([iv, c.getAuthTag(), body]).toString("base64url");
}

export class KeyUnreadable extends Error {}

/** The key in clear, for one call; throws KeyUnreadable when it was encrypted under another secret. */
export function decryptKey(stored: string, secret = authSecret()): string {
  if (!stored.startsWith(PREFIX)) throw new KeyUnreadable("The stored key is not in a form this lexgold reads: enter it again.");
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  try {
    const d = crypto.createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8");
  } catch {
    throw new KeyUnreadable("The stored key was encrypted with another server secret: remove the model and register it again with its key.");
  }
}

/** The key a model's calls carry, or null for none; throws KeyUnreadable (with what to do) when it cannot be had. */
export function resolveKey(m: { apiKeyEnv: string | null; apiKeyEncrypted: string | null }): string | null {
  if (m.apiKeyEncrypted) return decryptKey(m.apiKeyEncrypted);
  if (m.apiKeyEnv) {
    const k = modelKeyFromEnv(m.apiKeyEnv);
    if (k === undefined) throw new KeyUnreadable(`${m.apiKeyEnv} is not set in this process's environment: set it where lexgold runs (the server, or the shell of the CLI).`);
    return k;
  }
  return null;
}
