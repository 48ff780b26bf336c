/** Helpers for route handlers: same-origin checks, bodies read within a limit, error → HTTP response. */
import "server-only";
import type { IncomingMessage } from "node:http";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
import { setting } from "../../config";
import { headerValue, type HeaderSource, requestHost } from "../../net/trusted-proxy";
import { AuthError, httpStatus, InputError, RetryLaterError, toActionError } from "./errors";

/** The body is over the route's limit (read until the limit, never further). */
export class TooLargeError extends Error {
  status = 413 as const;
}

/**
 * The origin this app is served from, and the setting that says so:
 * LEXGOLD_PUBLIC_URL or NEXTAUTH_URL when set (the deployment's word, not the
 * request's), else null.
 */
function configuredOrigin(): { origin: string; setting: string } | null {
  for (const name of ["LEXGOLD_PUBLIC_URL", "NEXTAUTH_URL"] as const) {
    const url = setting(name);
    if (!url) continue;
    try {
      return { origin: new URL(url).origin, setting: name };
    } catch {
      return null;
    }
  }
  return null;
}

const REFUSED = "Cross-site request refused";

/**
 * Refuse cross-site state-changing requests: the Origin header must name this
 * app — the configured public URL, or (none configured) the request's Host;
 * X-Forwarded-Host counts only from a trusted proxy (LEXGOLD_TRUSTED_PROXY). A
 * POST without an Origin is refused too: browsers send one on every POST.
 */
export function assertSameOrigin(req: { headers: HeaderSource }): void {
  const origin = headerValue(req.headers, "origin") ?? null;
  if (!origin || origin === "null") throw new AuthError(`${REFUSED}: it names no page it was sent from (no Origin header; browsers send one with every form).`);
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new AuthError(`${REFUSED}: the page it was sent from is not an address (Origin ${JSON.stringify(origin.slice(0, 100))}).`);
  }
  const configured = configuredOrigin();
  if (configured) {
    // The usual cause is trying lexgold at another address than the one configured (loopback while NEXTAUTH_URL names the public site).
    if (url.origin !== configured.origin) {
      throw new AuthError(
        `${REFUSED}: it was sent from a page at ${url.origin}, but ${configured.setting} says lexgold is served at ${configured.origin}. ` +
          `Open lexgold at ${configured.origin}, or set ${configured.setting} to the address you use.`,
      );
    }
    return;
  }
  const host = requestHost(req.headers);
  if (!host || url.host !== host) throw new AuthError(`${REFUSED}: it was sent from a page at ${url.origin}, not from this site (${host ?? "no Host header"}).`);
}

/**
 * The request's body, read from the stream and abandoned as soon as it passes
 * `maxBytes`, whatever Content-Length says (or when there is none: chunked).
 */
export async function readBodyLimited(req: Request, maxBytes: number, message: string): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const c of bodyChunks(req, maxBytes, message)) {
    chunks.push(c);
    total += c.byteLength;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * readBodyLimited for a request node's HTTP server hands over (the routes served before Next):
 * read until `maxBytes`, then refused with TooLargeError and the rest left unread (the answer
 * then closes the connection: lib/server/annotate/save-request.ts).
 */
export function readNodeBodyLimited(req: IncomingMessage, maxBytes: number, message: string): Promise<Uint8Array> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(new TooLargeError(message));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (e?: unknown) => {
      req.off("data", onData).off("end", onEnd).off("error", done).off("aborted", onAborted);
      if (e) reject(e);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
    };
    const onData = (c: Buffer) => {
      total += c.byteLength;
      if (total > maxBytes) {
        req.pause();
        done(new TooLargeError(message));
      } else chunks.push(c);
    };
    const onEnd = () => done();
    const onAborted = () => done(new InputError("Not saved: the request was cut off before its end."));
    req.on("data", onData).on("end", onEnd).on("error", done).on("aborted", onAborted);
  });
}

/**
 * The request's body as it arrives, chunk by chunk; refused (TooLargeError, the
 * stream cancelled) as soon as it passes `maxBytes`, whatever Content-Length
 * says (or when there is none: chunked).
 */
async function* bodyChunks(req: Request, maxBytes: number, message: string): AsyncGenerator<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new TooLargeError(message);
  if (!req.body) return;
  const reader = req.body.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError(message);
    }
    yield value;
  }
}

/**
 * Stream the request's body into a new file at `file`, abandoning (and deleting
 * it) as soon as it passes `maxBytes`: a large upload is never held in memory.
 * Returns the number of bytes written.
 */
export async function saveBodyToFile(req: Request, file: string, maxBytes: number, message: string): Promise<number> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new TooLargeError(message);
  const { createWriteStream } = await import("node:fs");
  const { rm } = await import("node:fs/promises");
  const out = createWriteStream(file, { flags: "wx", mode: 0o600 });
  let total = 0;
  try {
    for await (const value of bodyChunks(req, maxBytes, message)) {
      total += value.byteLength;
      if (!out.write(value)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    return total;
  } catch (e) {
    out.destroy();
    await rm(file, { force: true });
    throw e;
  }
}

/**
 * A multipart (or urlencoded) form, its body read within `maxBytes`. A
 * multipart body is parsed as it arrives, chunk by chunk (@fastify/busboy):
 * parsing a whole body of tens of MB at once held the event loop for over
 * 100 ms (measured for a 19 MB upload).
 */
export async function readFormLimited(req: Request, maxBytes: number, message: string): Promise<FormData> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    const body = await readBodyLimited(req, maxBytes, message);
    try {
      return await new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
    } catch {
      throw new InputError("The upload is not a form with a file; nothing was read.");
    }
  }
  const notAForm = () => new InputError("The upload is not a form with a file; nothing was read.");
  let parser: BusboyInstance;
  try {
    parser = Busboy({ headers: { "content-type": type }, limits: { fieldSize: maxBytes } });
  } catch {
    throw notAForm();
  }
  const form = new FormData();
  const parsed = new Promise<void>((resolve, reject) => {
    const files: Promise<void>[] = [];
    parser.on("file", (field, stream, fileName, _encoding, mimeType) => {
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      files.push(
        new Promise<void>((done, fail) => {
          stream.on("data", (c: Uint8Array<ArrayBuffer>) => chunks.push(c));
          stream.on("end", () => {
            form.append(field, new File(chunks, fileName ?? "", { type: mimeType || "application/octet-stream" }));
            done();
          });
          stream.on("error", fail);
        }),
      );
    });
    parser.on("field", (field, value) => form.append(field, value));
    parser.on("finish", () => Promise.all(files).then(() => resolve(), reject));
    parser.on("error", reject);
  });
  parsed.catch(() => {});
  try {
    for await (const value of bodyChunks(req, maxBytes, message)) {
      if (!parser.write(value)) {
        await Promise.race([new Promise<void>((r) => parser.once("drain", () => r())), parsed]).catch(() => {});
      }
    }
  } catch (e) {
    parser.destroy();
    throw e;
  }
  parser.end();
  try {
    await parsed;
  } catch {
    throw notAForm();
  }
  return form;
}

/**
 * An uploaded file's bytes, read piece by piece into one array. A File's own
 * `arrayBuffer()` gathers every piece in one step: for a 12 MB upload that held
 * the event loop for over 100 ms, where this takes a few ms at a time.
 */
export async function uploadBytes(upload: Blob): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Uint8Array(upload.size);
  let at = 0;
  for await (const piece of pieces(upload)) {
    out.set(piece, at);
    at += piece.byteLength;
  }
  return at === out.byteLength ? out : out.slice(0, at);
}

/** Write an uploaded file to a new file at `path` (mode 0600), piece by piece (see `uploadBytes`). */
export async function saveUpload(upload: Blob, path: string): Promise<void> {
  const { open } = await import("node:fs/promises");
  const fh = await open(path, "wx", 0o600);
  try {
    for await (const piece of pieces(upload)) await fh.write(piece);
  } finally {
    await fh.close();
  }
}

/** An uploaded file's pieces, as its stream gives them. */
async function* pieces(upload: Blob): AsyncGenerator<Uint8Array> {
  const reader = upload.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** Room for the multipart framing and the small fields around an upload's files. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

export function errorResponse(e: unknown): Response {
  return toResponse(errorAnswer(e));
}

/**
 * An answer of a JSON route as plain parts, for the routes that are also served before Next
 * (lib/server/annotate/save-request.ts): the same status, headers and body either way.
 */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = { "Content-Type": "application/json" };

/** A JSON answer's parts (what Response.json would send). */
export function jsonAnswer(value: unknown, status = 200, headers: Record<string, string> = {}): HttpAnswer {
  return { status, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** errorResponse's parts: the refusal's status, its Retry-After when it has one, { ok: false, message, … }. */
export function errorAnswer(e: unknown): HttpAnswer {
  if (e instanceof TooLargeError) return jsonAnswer({ ok: false, message: e.message }, 413);
  if (e instanceof RetryLaterError) return jsonAnswer({ ok: false, message: e.message }, e.status, { "Retry-After": String(e.retryAfter) });
  const status = httpStatus(e);
  return jsonAnswer(toActionError(e), status);
}

export function toResponse(a: HttpAnswer): Response {
  return new Response(a.body, { status: a.status, headers: a.headers });
}
