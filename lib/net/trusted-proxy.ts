/**
 * Who is the client? The socket's address, unless the socket belongs to a proxy
 * named in LEXGOLD_TRUSTED_PROXY (addresses or CIDR blocks, comma-separated):
 * only then are X-Forwarded-For / X-Forwarded-Host believed.
 *
 * `next start` fills X-Forwarded-For from the socket only when the request does
 * not carry one, so a client could write its own; Next gives the app no other
 * word of the socket. The production server, scripts/serve.mjs, owns
 * createServer and stamps each request itself (`stampRequest`, before Next):
 * `x-lexgold-peer` = the socket's address and `x-lexgold-peer-key` = the
 * process's LEXGOLD_PEER_KEY (whatever the client sent under those names), and
 * forwarded headers are dropped unless the peer is a trusted proxy. A peer
 * header is believed only with that key: under `next dev` and `next start`
 * nothing stamps, instrumentation.ts gives the process a key no request
 * carries, and the client's address is unknown (null: the per-address limits
 * are off; the per-account ones hold). With no key at all (tests and scripts
 * that call the handlers themselves) the caller's own stamp is believed.
 * Nothing is patched: no node prototype, no global.
 *
 * No next, db or fs here: serve.mjs loads this before the app.
 */
import type http from "node:http";
import net from "node:net";
import { setting } from "../config";

/** @public the header every request carries its socket's address under. */
export const PEER_HEADER = "x-lexgold-peer";
/** The header that says the server stamped PEER_HEADER: the process's LEXGOLD_PEER_KEY. */
const PEER_KEY_HEADER = "x-lexgold-peer-key";
const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded"];

/** "::ffff:127.0.0.1" → "127.0.0.1"; brackets and ports off "[::1]:80" / "1.2.3.4:5". */
function normaliseAddress(raw: string): string {
  let a = raw.trim();
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracket) a = bracket[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  if (a.toLowerCase().startsWith("::ffff:") && net.isIPv4(a.slice(7))) a = a.slice(7);
  return a.toLowerCase();
}

let cache: { spec: string; list: net.BlockList | null } | null = null;

/** The trusted proxies from LEXGOLD_TRUSTED_PROXY, or null when none is configured. */
function trustedList(spec = setting("LEXGOLD_TRUSTED_PROXY")): net.BlockList | null {
  if (cache && cache.spec === spec) return cache.list;
  const entries = spec.split(/[\s,]+/).filter(Boolean);
  let list: net.BlockList | null = null;
  if (entries.length > 0) {
    list = new net.BlockList();
    for (const e of entries) {
      const [addr, bits] = e.split("/");
      const a = normaliseAddress(addr);
      const type = net.isIPv6(a) ? "ipv6" : "ipv4";
      if (!net.isIP(a)) throw new Error(`LEXGOLD_TRUSTED_PROXY: "${e}" is not an IP address or CIDR block`);
      if (bits !== undefined) list.addSubnet(a, Number(bits), type);
      else list.addAddress(a, type);
    }
  }
  cache = { spec, list };
  return list;
}

function isTrustedProxy(address: string): boolean {
  const list = trustedList();
  if (!list) return false;
  const a = normaliseAddress(address);
  if (!net.isIP(a)) return false;
  return list.check(a, net.isIPv6(a) ? "ipv6" : "ipv4");
}

type HeaderGet = (name: string) => string | null | undefined;

/** A request's headers: a fetch Request's, or node's (lower-case names; repeated ones as arrays). */
export type HeaderSource = Headers | Record<string, unknown>;

/** One header of either kind of request (repeated ones joined with ","), or undefined. */
export function headerValue(headers: HeaderSource | undefined, name: string): string | undefined {
  return getter(headers)(name) ?? undefined;
}

function getter(headers: Headers | Record<string, unknown> | undefined): HeaderGet {
  if (!headers) return () => undefined;
  if (typeof (headers as Headers).get === "function") return (n) => (headers as Headers).get(n);
  return (n) => {
    const v = (headers as Record<string, unknown>)[n];
    return Array.isArray(v) ? v.join(",") : typeof v === "string" ? v : undefined;
  };
}

/** The peer address the server stamped on a request, or null when it did not (or the key does not match). */
function stampedPeer(get: HeaderGet): string | null {
  const peer = get(PEER_HEADER);
  if (!peer) return null;
  const key = setting("LEXGOLD_PEER_KEY");
  if (key !== undefined && get(PEER_KEY_HEADER) !== key) return null;
  return peer;
}

/**
 * The client's address for a request the server stamped (`stampRequest`): the
 * socket's, or — behind a trusted proxy — the right-most address in
 * X-Forwarded-For that is not itself a trusted proxy. null when nothing stamped
 * it (then nothing in the headers can be believed).
 */
export function clientAddress(headers: Headers | Record<string, unknown> | undefined): string | null {
  const get = getter(headers);
  const peer = stampedPeer(get);
  if (!peer) return null;
  if (!isTrustedProxy(peer)) return normaliseAddress(peer);
  const chain = (get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(chain[i])) return normaliseAddress(chain[i]);
  }
  return normaliseAddress(peer);
}

/** The host the client asked for: X-Forwarded-Host only from a trusted proxy, else Host. */
export function requestHost(headers: Headers | Record<string, unknown>): string | null {
  const get = getter(headers);
  const peer = stampedPeer(get);
  const fwd = get("x-forwarded-host");
  if (peer && isTrustedProxy(peer) && fwd) return fwd.split(",")[0].trim();
  return get("host") ?? null;
}

/**
 * Stamp an incoming request with its socket's address (and the process's key, which says the server
 * wrote it), and drop forwarded headers from untrusted peers: scripts/serve.mjs, for every request
 * before anything else reads it.
 */
export function stampRequest(req: http.IncomingMessage): void {
  const peer = normaliseAddress(req.socket?.remoteAddress ?? "");
  req.headers[PEER_HEADER] = peer || "unknown";
  const key = setting("LEXGOLD_PEER_KEY");
  if (key !== undefined) req.headers[PEER_KEY_HEADER] = key;
  else delete req.headers[PEER_KEY_HEADER];
  if (!isTrustedProxy(peer)) for (const h of FORWARDED) delete req.headers[h];
}
