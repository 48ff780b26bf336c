/**
 * Where a model may be called, and the one way it is called (issue #41).
 *
 * - A base URL is http(s), without a user, password, query or fragment (`parseBaseUrl`).
 * - Server-side request forgery: a coordinator registers a URL on the page, and the server then makes
 *   requests to it. A model registered on the page may reach public addresses only, unless the operator
 *   names its host in LEXGOLD_MODEL_PRIVATE_HOSTS (`127.0.0.1:11434` for an Ollama on the same machine):
 *   loopback, private networks, link-local (the cloud metadata services at 169.254.169.254), carrier-grade
 *   NAT, multicast and the reserved ranges are refused, for IPv4, IPv6 and IPv4 mapped into IPv6. The
 *   check runs when the model is registered and again at every connection (the resolver's answer is
 *   checked as the socket connects), so a name that later resolves elsewhere (DNS rebinding) is refused
 *   then. A model registered from the CLI is the operator's and may reach any address.
 * - Only the registered base URL is called (never a URL from a request), redirects are not followed, every
 *   call has a time limit (the model's timeout), the reply is read up to LEXGOLD_MODEL_MAX_REPLY_KB and no
 *   further, and at most the model's max concurrency connections are open at once in a process.
 */
import "server-only";
import dns from "node:dns";
import net from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { setting } from "../../config";

/** What the policy allows a model's calls to reach. */
export interface Reach {
  /** Loopback and private addresses too (a CLI-registered model, or a host the operator listed). */
  privateAllowed: boolean;
}

export class ModelNetError extends Error {
  constructor(
    message: string,
    readonly outcome: "refused" | "too-large" | "timeout" | "network" | "cancelled",
  ) {
    super(message);
  }
}

/** The base URL normalised (no trailing slash), or a reason it is refused. */
export function parseBaseUrl(raw: string): { url: string } | { problem: string } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { problem: `"${raw}" is not a URL (e.g. http://127.0.0.1:11434 or https://api.openai.com/v1)` };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return { problem: "A model's URL starts with http:// or https://." };
  if (u.username || u.password) return { problem: "A model's URL holds no user name or password: give the key as a key." };
  if (u.search || u.hash) return { problem: "A model's URL has no query (?…) or fragment (#…)." };
  if (!u.hostname) return { problem: "A model's URL names a host." };
  return { url: `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}` };
}

const BLOCKED = new net.BlockList();
for (const [a, p] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(a, p, "ipv4");
for (const [a, p] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(a, p, "ipv6");

/** Whether `address` (an IP) is loopback, private, link-local or otherwise not a public address. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], "ipv4");
  const hex = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const n = (parseInt(hex[1], 16) << 16) | parseInt(hex[2], 16);
    return BLOCKED.check([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."), "ipv4");
  }
  return BLOCKED.check(address, "ipv6");
}

/** The host as the URL names it, without IPv6 brackets. */
function bareHost(u: URL): string {
  return u.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

/** Whether the operator lets the page register this base URL's host at a private address (LEXGOLD_MODEL_PRIVATE_HOSTS). */
export function operatorAllowsPrivate(baseUrl: string): boolean {
  const u = new URL(baseUrl);
  const host = bareHost(u);
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  for (const raw of setting("LEXGOLD_MODEL_PRIVATE_HOSTS").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+)(?::(\d+))?$/.exec(entry) ?? [entry, entry, undefined];
    const [eh, ep] = [m[1], m[2]];
    if (eh === host && (ep === undefined || ep === port)) return true;
  }
  return false;
}

/** The reach of a model: the CLI's may go anywhere; the page's only where the operator allows. */
export function reachOf(model: { registeredFrom: "cli" | "page"; baseUrl: string }): Reach {
  return { privateAllowed: model.registeredFrom === "cli" || operatorAllowsPrivate(model.baseUrl) };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A resolver for the socket's connection that refuses private addresses unless `reach` allows them. */
function guardedLookup(reach: Reach) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as dns.LookupAddress[];
      if (!reach.privateAllowed && list.some((a) => isPrivateAddress(a.address))) {
        const e = new ModelNetError(`${hostname} resolves to an address on this machine or a private network; the operator has not allowed it (LEXGOLD_MODEL_PRIVATE_HOSTS)`, "refused");
        return callback(e as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** Refused before resolving: an IP literal that the policy does not reach (a socket to an IP is never looked up). */
function checkLiteralHost(baseUrl: string, reach: Reach): void {
  const host = bareHost(new URL(baseUrl));
  if (net.isIP(host) && !reach.privateAllowed && isPrivateAddress(host)) {
    throw new ModelNetError(`${host} is an address on this machine or a private network; the operator has not allowed it (LEXGOLD_MODEL_PRIVATE_HOSTS)`, "refused");
  }
}

/** Resolve the base URL's host now and check it against the reach (registration on the page). */
export async function checkReachable(baseUrl: string, reach: Reach): Promise<string | null> {
  try {
    checkLiteralHost(baseUrl, reach);
    const host = bareHost(new URL(baseUrl));
    if (net.isIP(host) || reach.privateAllowed) return null;
    const addresses = await dns.promises.lookup(host, { all: true });
    if (addresses.some((a) => isPrivateAddress(a.address))) return `${host} resolves to an address on this machine or a private network; the operator has not allowed it (LEXGOLD_MODEL_PRIVATE_HOSTS).`;
    return null;
  } catch (e) {
    if (e instanceof ModelNetError) return e.message + ".";
    return `${new URL(baseUrl).hostname} cannot be resolved: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`;
  }
}

/** Read a body up to `max` bytes; past it the stream is cancelled and the call fails. */
async function readLimited(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > max) {
      await reader.cancel().catch(() => undefined);
      throw new ModelNetError(`the reply is longer than ${Math.round(max / 1024)} KB (LEXGOLD_MODEL_MAX_REPLY_KB)`, "too-large");
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

export interface Channel {
  /** A fetch for the model's client library: only under the base URL, within the limits. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

/**
 * The one way a model is called: a fetch that takes only URLs under `baseUrl`, connects through a resolver
 * that applies `reach`, opens at most `connections` sockets, never follows a redirect, aborts after
 * `timeoutMs` (or when `signal` aborts) and reads at most LEXGOLD_MODEL_MAX_REPLY_KB of the reply.
 */
export function openChannel(opts: { baseUrl: string; reach: Reach; connections: number; timeoutMs: number; signal?: AbortSignal }): Channel {
  const agent = new Agent({ connect: { lookup: guardedLookup(opts.reach) as never, timeout: opts.timeoutMs }, connections: opts.connections, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
  const prefix = opts.baseUrl.endsWith("/") ? opts.baseUrl : opts.baseUrl + "/";
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(prefix)) throw new ModelNetError(`refused a call outside the model's URL (${url})`, "refused");
    checkLiteralHost(opts.baseUrl, opts.reach);
    if (opts.signal?.aborted) throw new ModelNetError("cancelled", "cancelled");
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signals = [timeout, ...(opts.signal ? [opts.signal] : []), ...(init.signal ? [init.signal] : [])];
    const signal = AbortSignal.any(signals);
    const maxBytes = setting("LEXGOLD_MODEL_MAX_REPLY_KB") * 1024;
    try {
      const res = await undiciFetch(url, { method: init.method, headers: init.headers as never, body: init.body as never, dispatcher: agent, redirect: "manual", signal });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => undefined);
        throw new ModelNetError(`the model's server answered ${res.status}, a redirect; redirects are not followed`, "refused");
      }
      const bytes = await readLimited(res.body as ReadableStream<Uint8Array> | null, maxBytes);
      const headers = new Headers();
      res.headers.forEach((v, k) => headers.set(k, v));
      return new Response(res.status === 204 ? null : (bytes as unknown as BodyInit), { status: res.status, statusText: res.statusText, headers });
    } catch (e) {
      if (e instanceof ModelNetError) throw e;
      if (opts.signal?.aborted) throw new ModelNetError("cancelled", "cancelled");
      // The client library's own time limit (set a little past ours) aborts through init.signal.
      if (timeout.aborted || init.signal?.aborted) throw new ModelNetError(`no complete reply within ${Math.round(opts.timeoutMs / 1000)} s`, "timeout");
      const cause = (e as { cause?: unknown }).cause;
      if (cause instanceof ModelNetError) throw cause;
      const code = (cause as NodeJS.ErrnoException | undefined)?.code;
      if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") throw new ModelNetError(`no complete reply within ${Math.round(opts.timeoutMs / 1000)} s`, "timeout");
      throw new ModelNetError(`the connection failed: ${code ?? (cause as Error | undefined)?.message ?? (e as Error).message}`, "network");
    }
  };
  return { fetch, close: () => agent.close() };
}
