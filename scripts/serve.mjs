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
 * This process is the primary and serves nothing itself, LEXGOLD_WORKERS=1 included: it watches
 * its workers and stops them.
 *
 * In each worker the main thread takes the connections and serves the saves itself (lib/serve);
 * Next renders everything else in a thread of its own (scripts/next-thread.mjs), to which the main
 * thread hands each such request over a Unix socket. A page that holds its thread's event loop for
 * tens of milliseconds then holds up no save (#39). Before it serves, Next's thread requests every
 * page once on a private port (`warmUp`), so that no real request pays for Next loading a page's
 * code (LEXGOLD_WARM=0: not).
 *
 * LEXGOLD_LOOP_PROBE=FILE (benchmarks: `npm run bench:loop`): each serving process
 * appends to FILE, every 100 ms, "epoch-ms pid longest-block-ms" — the longest the
 * event loop was held in that interval (perf_hooks.monitorEventLoopDelay).
 *
 * Each worker's heap is bounded (LEXGOLD_SERVER_HEAP_MB, default 512: its --max-old-space-size).
 *
 * The primary checkpoints the database's WAL every 100 ms (scripts/wal-checkpointer.mjs), so that
 * no request waits for the copy and its fsync.
 *
 * No process stays wedged (#38 item 3): each worker sends the primary a heartbeat every second
 * from its main thread's event loop while Next's thread's loop turns too; one whose loops have not
 * both turned for LEXGOLD_STALL_S seconds (default 30) is replaced by a new worker and stopped
 * (SIGTERM, then SIGKILL), and its own watching thread (scripts/loop-watch.mjs) writes the requests
 * it was running to stderr. A worker whose Next thread ends (its heap exhausted, say) exits, and is
 * replaced.
 *
 * The primary forwards SIGINT / SIGTERM / SIGHUP to the workers and exits when they have: each
 * stops taking connections and answers what it serves within WORKER_STOP_MS; what still runs
 * after PRIMARY_STOP_MS is killed, so the server stops within 10 s whatever a worker does. A
 * worker that dies unexpectedly is replaced, unless it died while starting (then the server stops
 * with its exit code).
 *
 * LEXGOLD_SERVE_HANDLER=FILE (tests only): the workers' Next threads serve with FILE's default
 * export, `(req, res) => Promise`, instead of Next's handler.
 */
import cluster from "node:cluster";
import crypto from "node:crypto";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { requestBoard } from "./loop-watch.mjs";

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
const stallSeconds = secondsSetting("LEXGOLD_STALL_S", 30);
/** After a stop signal a worker finishes what it serves (a save waits at most 5 s for the write lock) for this long… */
const WORKER_STOP_MS = 6_500;
/** …and the primary kills what is left after this long: `lexgold start` stops within 10 s whatever a worker does. */
const PRIMARY_STOP_MS = 8_000;

if (cluster.isPrimary) {
  let stopping = false;
  const ready = new Set();
  /** Workers being replaced (their exit starts no other). */
  const replaced = new Set();
  /** When each worker last said its event loop turned (its heartbeat, every second). */
  const lastBeat = new Map();
  // WAL checkpoints here, not inside the workers' requests (scripts/wal-checkpointer.mjs): each worker
  // names its database file once it has opened it (db/client.ts getDb).
  const checkpointers = new Map();
  const fork = () => {
    // Each worker holds its share of every request limit (lib/server/kernel/rate-limit.ts): together they hold it once.
    const w = cluster.fork({ LEXGOLD_SERVER_PROCESSES: String(workers) });
    lastBeat.set(w.id, Date.now());
    w.on("message", (m) => {
      if (m === "lexgold:beat") lastBeat.set(w.id, Date.now());
      else if (m === "lexgold:ready") ready.add(w.id);
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
  // LEXGOLD_SERVER_HEAP_MB: each worker's --max-old-space-size (default 512; 0: V8's own, which on a large machine lets
  // a heap grow past a gigabyte before it collects hard). A worker holds pages and saves, never a whole file or
  // project (#39); the derivations and jobs have their own processes and bounds.
  const heapMb = heapSetting("LEXGOLD_SERVER_HEAP_MB", 512);
  if (heapMb > 0) cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-old-space-size=${heapMb}`] });
  for (let i = 0; i < workers; i++) fork();
  const kill = (w, signal) => {
    try {
      w.process.kill(signal);
    } catch {
      // already gone
    }
  };
  const stopAll = (signal) => {
    if (!stopping) setTimeout(() => Object.values(cluster.workers ?? {}).forEach((w) => w && kill(w, "SIGKILL")), PRIMARY_STOP_MS).unref();
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) if (w) kill(w, signal);
  };
  for (const signal of SIGNALS) process.on(signal, () => stopAll(signal));
  // A worker whose event loop has not turned for stallSeconds (no heartbeat) serves nobody: another
  // takes its place at once, and it is stopped — politely, in case its loop turns again and it can
  // answer what it holds, then killed. Its saves are each one transaction: committed and answered,
  // or not written at all (the workspace sends an unanswered save again).
  setInterval(() => {
    if (stopping) return;
    const now = Date.now();
    for (const w of Object.values(cluster.workers ?? {})) {
      if (!w || !ready.has(w.id) || replaced.has(w.id) || now - (lastBeat.get(w.id) ?? now) < stallSeconds * 1000) continue;
      replaced.add(w.id);
      console.error(`serve: worker ${w.process.pid}: no heartbeat for ${stallSeconds} s (its event loop is held); starting another in its place and stopping it`);
      fork();
      kill(w, "SIGTERM");
      setTimeout(() => kill(w, "SIGKILL"), WORKER_STOP_MS + 1000).unref();
    }
  }, 1000).unref();
  cluster.on("exit", (w, code, signal) => {
    const wasReady = ready.delete(w.id);
    lastBeat.delete(w.id);
    if (replaced.delete(w.id)) console.error(`serve: worker ${w.process.pid} stopped (${signal ?? `code ${code}`})`);
    else if (!stopping) {
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
  console.log(`serve: ${workers} worker process${workers === 1 ? "" : "es"} on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`);
} else {
  process.env.NODE_ENV = "production";
  // The key of this process's stamps (stampRequest, lib/net/trusted-proxy.ts): a peer address is believed only with it.
  process.env.LEXGOLD_PEER_KEY = crypto.randomBytes(24).toString("base64url");
  const board = requestBoard();
  // The save, served here before Next (lib/serve, bundled into dist-workers/serve.mjs), unless LEXGOLD_SAVE_BEFORE_NEXT=0.
  const { answerLimitAsks, holdForTurn, isSaveRequest, openDatabase, refuseApiRequest, serveSave, stampRequest } = await serverBundle();
  openDatabase();
  const handle = await nextThread(board, answerLimitAsks);
  const saveHere = process.env.LEXGOLD_SAVE_BEFORE_NEXT !== "0";
  const route = (req, res) => {
    if (saveHere && isSaveRequest(req)) return void serveSave(req, res);
    // Every other /api request takes a request token here (lib/serve), pages in proxy.ts.
    const next = req.url?.startsWith("/api/") && !isSaveRequest(req) ? refuseApiRequest(req, res).then((refused) => refused || handle(req, res)) : handle(req, res);
    next.catch((e) => {
      console.error(e);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  };
  const server = http.createServer((req, res) => {
    board.track(req, res);
    stampRequest(req);
    // A crowd's arrivals (study pages, study sign-ins) wait while saves are served (lib/server/crowd/join-gate.ts).
    if (holdForTurn(req, res, () => route(req, res))) return;
    route(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  if (process.env.LEXGOLD_LOOP_PROBE) await probeEventLoop(process.env.LEXGOLD_LOOP_PROBE);
  // The heartbeat the primary waits for (sent only when this event loop turns, and Next's thread's has lately), and the thread that says what ran when it stopped.
  setInterval(() => board.threadQuietMs() < stallSeconds * 1000 && process.send?.("lexgold:beat"), 1000).unref();
  board.watch(stallSeconds);
  process.send?.("lexgold:ready");
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      // No new connections; idle ones close now, the requests under way are answered, then the process exits.
      server.close(() => process.exit(0));
      server.closeIdleConnections?.();
      setTimeout(() => process.exit(0), WORKER_STOP_MS).unref();
    });
  }
}

/** dist-workers/serve.mjs, built with the app (npm run build); a clear message when it is missing. */
async function serverBundle() {
  const { pathToFileURL } = await import("node:url");
  const file = path.join(root, "dist-workers", "serve.mjs");
  try {
    return await import(pathToFileURL(file).href);
  } catch (e) {
    console.error(`serve: cannot load ${file} (${e.message}): run \`npm run build\` (or node scripts/build-workers.mjs) first`);
    process.exit(1);
  }
}

/** A whole number of seconds above 0 from the environment, or the default. */
function heapSetting(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || (n !== 0 && n < 128)) {
    console.error(`serve: ${name} must be a whole number of MB, at least 128 (or 0: no bound of its own), not "${raw}"`);
    process.exit(2);
  }
  return n;
}

function secondsSetting(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!(n > 0) || !Number.isFinite(n)) {
    console.error(`serve: ${name} must be a number of seconds above 0, not "${raw}"`);
    process.exit(2);
  }
  return n;
}

/**
 * Start Next's thread (scripts/next-thread.mjs) and answer its asks for request limits; resolves,
 * once it listens, with the handler that hands it a request: the request goes over the thread's Unix
 * socket as it came (its peer stamped), and the answer comes back as Next gave it, streamed both
 * ways. If the thread ends, so does this process (the primary starts another).
 */
async function nextThread(board, answerLimitAsks) {
  const { Worker, MessageChannel } = await import("node:worker_threads");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-next-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const socketPath = path.join(dir, "next.sock");
  const limits = new MessageChannel();
  answerLimitAsks(limits.port1);
  limits.port1.unref();
  const thread = new Worker(path.join(import.meta.dirname, "next-thread.mjs"), {
    workerData: { root, hostname, port, socketPath, board: board.sab, limits: limits.port2 },
    transferList: [limits.port2],
    env: { ...process.env, LEXGOLD_NEXT_THREAD: "1" },
  });
  await new Promise((resolve, reject) => {
    thread.once("message", resolve);
    thread.once("error", reject);
    thread.once("exit", (code) => reject(new Error(`Next's thread exited (code ${code}) before it served`)));
  });
  thread.on("error", (e) => console.error(`serve: worker ${process.pid}: Next's thread failed:`, e));
  thread.on("exit", (code) => {
    console.error(`serve: worker ${process.pid}: Next's thread exited (code ${code}); this worker stops`);
    process.exit(1);
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  return (req, res) =>
    new Promise((resolve) => {
      /** The client went away first (a prefetch given up, a tab closed): nothing to answer, nothing to report. */
      let gone = false;
      const inner = http.request({ socketPath, method: req.method, path: req.url, headers: withoutHopHeaders(req.headers), agent }, (answer) => {
        const headers = [];
        for (let i = 0; i < answer.rawHeaders.length; i += 2) if (!HOP_HEADERS.has(answer.rawHeaders[i].toLowerCase())) headers.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
        res.writeHead(answer.statusCode, answer.statusMessage, headers);
        answer.pipe(res);
        answer.once("end", resolve);
        answer.once("error", () => {
          res.destroy();
          resolve();
        });
      });
      inner.once("error", (e) => {
        if (gone) return resolve();
        if (!res.headersSent) {
          console.error(`serve: worker ${process.pid}: Next's thread did not answer ${req.method} ${req.url}: ${e.message}`);
          res.writeHead(502, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
          res.end("The server could not answer this request; try again in a moment.");
        } else res.destroy();
        resolve();
      });
      // A client that goes away takes its request to Next with it (a long render or download stops).
      res.once("close", () => {
        if (!res.writableFinished) {
          gone = true;
          inner.destroy();
        }
        resolve();
      });
      req.pipe(inner);
    });
}

/** Headers about one connection, not the request or answer (RFC 9110 7.6.1): each side of the hand-over has its own. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

function withoutHopHeaders(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers)) if (!HOP_HEADERS.has(k)) out[k] = v;
  return out;
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
