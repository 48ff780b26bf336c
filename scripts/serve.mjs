#!/usr/bin/env node
/**
 * lexgold's production server: Next's request handler (the production build in
 * NEXT_DIST_DIR, default .next) in LEXGOLD_WORKERS processes sharing one port
 * through node:cluster — by default one per core, at most 2 (issue #14: one Node
 * process uses one core for its JavaScript; this machine kind has two).
 *
 *   node scripts/serve.mjs [-p PORT] [-H HOST]      (what `lexgold start` runs)
 *
 * Every process opens the same SQLite file (WAL: one writer at a time, each save
 * one transaction, its write lock waited for off the event loop: lib/server/kernel/write-lock.ts)
 * and keeps no state another needs: sessions
 * are JWTs checked against the users table on every request, the sign-in throttle
 * lives in the database, caches are keyed by a fingerprint read from the database.
 * LEXGOLD_WORKERS=1 serves from this process alone, as `next start` does.
 *
 * Before it serves, each process requests every page once on a private port (`warmUp`), so that no
 * real request pays for Next loading a page's code (LEXGOLD_WARM=0: not).
 *
 * LEXGOLD_LOOP_PROBE=FILE (benchmarks: `npm run bench:loop`): each serving process
 * appends to FILE, every 100 ms, "epoch-ms pid longest-block-ms" — the longest the
 * event loop was held in that interval (perf_hooks.monitorEventLoopDelay).
 *
 * With more than one worker the primary checkpoints the database's WAL every 100 ms
 * (scripts/wal-checkpointer.mjs), so that no request waits for the copy and its fsync.
 *
 * The primary forwards SIGINT / SIGTERM / SIGHUP to the workers and exits when
 * they have; a worker that dies unexpectedly is replaced, unless it died while
 * starting (then the server stops with its exit code).
 */
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const root = process.env.LEXGOLD_ROOT || path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
  strict: true,
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname ?? process.env.HOSTNAME ?? "127.0.0.1";
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`serve: -p needs a port number (1-65535), not "${values.port}"`);
  process.exit(2);
}

function workerCount() {
  const raw = process.env.LEXGOLD_WORKERS;
  if (raw === undefined || raw === "") return Math.max(1, Math.min(2, os.availableParallelism()));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`serve: LEXGOLD_WORKERS must be a whole number from 1 to 64, not "${raw}"`);
    process.exit(2);
  }
  return n;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const workers = workerCount();

if (cluster.isPrimary && workers > 1) {
  let stopping = false;
  const ready = new Set();
  // WAL checkpoints here, not inside the workers' requests (scripts/wal-checkpointer.mjs): each worker
  // names its database file once it has opened it (db/client.ts getDb).
  const checkpointers = new Map();
  const fork = () => {
    const w = cluster.fork();
    w.on("message", (m) => {
      if (m === "lexgold:ready") ready.add(w.id);
      else if (m?.lexgold === "checkpoint" && typeof m.file === "string" && !checkpointers.has(m.file)) {
        checkpointers.set(m.file, null);
        import("./wal-checkpointer.mjs").then(
          ({ startCheckpointer }) => checkpointers.set(m.file, startCheckpointer(m.file)),
          (e) => console.error(`serve: no WAL checkpointer (the workers checkpoint themselves): ${e.message}`),
        );
      }
    });
    return w;
  };
  for (let i = 0; i < workers; i++) fork();
  const stopAll = (signal) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  };
  for (const signal of SIGNALS) process.on(signal, () => stopAll(signal));
  cluster.on("exit", (w, code, signal) => {
    const wasReady = ready.delete(w.id);
    if (!stopping) {
      if (!wasReady) {
        console.error(`serve: a worker exited while starting (${signal ?? `code ${code}`}); stopping`);
        process.exitCode = code || 1;
        stopAll("SIGTERM");
      } else {
        console.error(`serve: worker ${w.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
        fork();
      }
    }
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) {
      for (const c of checkpointers.values()) c?.stop();
      process.exit();
    }
  });
  console.log(`serve: ${workers} worker processes on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`);
} else {
  process.env.NODE_ENV = "production";
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  if (process.env.LEXGOLD_WARM !== "0") await warmUp(handle);
  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      console.error(e);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  if (process.env.LEXGOLD_LOOP_PROBE) await probeEventLoop(process.env.LEXGOLD_LOOP_PROBE);
  if (cluster.isWorker) process.send?.("lexgold:ready");
  else console.log(`serve: ready on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`);
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      // Keep-alive connections do not hold the exit up for long.
      server.closeIdleConnections?.();
      setTimeout(() => process.exit(0), 3000).unref();
    });
  }
}

/**
 * Request every page of the build once, signed out, on a private port of this process before it
 * serves: Next instantiates a route's code on the route's first request (50–400 ms holding the
 * event loop), which would otherwise be the first real request to each page after every start.
 * The pages answer with the sign-in redirect; nothing is written. LEXGOLD_WARM=0 skips it.
 */
async function warmUp(handle) {
  const { readFileSync } = await import("node:fs");
  const manifest = path.join(path.resolve(root, process.env.NEXT_DIST_DIR || ".next"), "server", "app-paths-manifest.json");
  let routes;
  try {
    routes = Object.keys(JSON.parse(readFileSync(manifest, "utf8")));
  } catch {
    return;
  }
  // "/projects/[projectId]/gold/page" → "/projects/0/gold": any id will do, the visitor is signed out.
  const pages = routes.filter((r) => r.endsWith("/page") && !r.startsWith("/_")).map((r) => r.slice(0, -"/page".length).replace(/\[[^\]]+\]/g, "0") || "/");
  // The sign-in route too (a GET that writes nothing): its first real POST then finds its code loaded and the hash thread started.
  pages.push("/api/auth/csrf");
  const warm = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    warm.once("error", reject);
    warm.listen(0, "127.0.0.1", resolve);
  });
  const base = `http://127.0.0.1:${warm.address().port}`;
  try {
    for (const page of pages) {
      try {
        const res = await fetch(base + page, { redirect: "manual", signal: AbortSignal.timeout(15_000) });
        await res.arrayBuffer();
      } catch {
        // A page that fails here fails (and says why) on its first real request.
      }
    }
  } finally {
    warm.closeAllConnections?.();
    await new Promise((resolve) => warm.close(resolve));
  }
}

/** See LEXGOLD_LOOP_PROBE in the header. */
async function probeEventLoop(file) {
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const { appendFileSync } = await import("node:fs");
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${process.pid} ${(h.max / 1e6).toFixed(1)}\n`);
    h.reset();
  }, 100).unref();
}
