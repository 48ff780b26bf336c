/**
 * The client's address is believed only from the server's own stamp (lib/net/trusted-proxy.ts, #43):
 * scripts/serve.mjs stamps each request with the socket's address and its process's key; under
 * `next dev` and `next start` nothing stamps, instrumentation.ts gives the process a key no request
 * carries, and an address a client writes is never believed. No node prototype is patched for it.
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, PEER_HEADER, requestHost, stampRequest } from "../../lib/net/trusted-proxy";

const ENV = ["LEXGOLD_PEER_KEY", "LEXGOLD_TRUSTED_PROXY"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** A request as node's server hands it over: its socket's address, and the headers the client wrote. */
function incoming(remoteAddress: string, headers: Record<string, string>): http.IncomingMessage {
  return { socket: { remoteAddress }, headers: { ...headers } } as unknown as http.IncomingMessage;
}

describe("the peer stamp", () => {
  it("with a key (scripts/serve.mjs): the stamped socket address counts, whatever the client wrote under the stamp's names", () => {
    process.env.LEXGOLD_PEER_KEY = "k-serve";
    const req = incoming("::ffff:192.0.2.7", { [PEER_HEADER]: "198.51.100.1", "x-lexgold-peer-key": "guess", "x-forwarded-for": "203.0.113.9" });
    stampRequest(req);
    expect(clientAddress(req.headers)).toBe("192.0.2.7");
    expect(req.headers["x-forwarded-for"]).toBeUndefined();
  });

  it("with a key and no stamp (next dev, next start): an address the client writes is not believed, nor its forwarded host", () => {
    process.env.LEXGOLD_PEER_KEY = "k-next";
    process.env.LEXGOLD_TRUSTED_PROXY = "10.0.0.1";
    const forged = { [PEER_HEADER]: "10.0.0.1", "x-forwarded-for": "192.0.2.1", "x-forwarded-host": "evil.example", host: "lexgold.test" };
    expect(clientAddress(forged)).toBeNull();
    expect(clientAddress({ ...forged, "x-lexgold-peer-key": "wrong" })).toBeNull();
    expect(requestHost(forged)).toBe("lexgold.test");
    // The same headers with the process's key are the server's own stamp: a trusted proxy's forwarded client.
    expect(clientAddress({ ...forged, "x-lexgold-peer-key": "k-next" })).toBe("192.0.2.1");
    expect(requestHost({ ...forged, "x-lexgold-peer-key": "k-next" })).toBe("evil.example");
  });

  it("a stamp made with one process's key is not believed by another's", () => {
    process.env.LEXGOLD_PEER_KEY = "k-one";
    const req = incoming("192.0.2.8", {});
    stampRequest(req);
    expect(clientAddress(req.headers)).toBe("192.0.2.8");
    process.env.LEXGOLD_PEER_KEY = "k-two";
    expect(clientAddress(req.headers)).toBeNull();
  });

  it("patches no server: a node server's emit is its own", () => {
    expect(Object.prototype.hasOwnProperty.call(http.Server.prototype, "emit")).toBe(false);
  });
});
