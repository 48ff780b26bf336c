/**
 * Runs once in the server process before requests are served (Next's
 * instrumentation hook): stamps every request with its socket address so the
 * sign-in throttle and origin checks cannot be fooled by forwarded headers
 * (lib/net/trusted-proxy.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerHeader } = await import("./lib/net/trusted-proxy");
  installPeerHeader();
}
