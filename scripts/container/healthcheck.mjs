#!/usr/bin/env node
/**
 * The container image's HEALTHCHECK: exit 0 when the server in this container answers
 * GET /api/health with 200 within 4 seconds, 1 otherwise. Asks the loopback address on $PORT
 * (the port `lexgold start` listens on; 3000 unless set).
 */
const port = Number(process.env.PORT || 3000);
try {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
