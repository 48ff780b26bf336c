/**
 * Next's thread in a worker process of scripts/serve.mjs: the pages, the /api routes and the server
 * actions are rendered here, apart from the process's main thread, which takes every connection,
 * serves the saves itself (lib/serve) and hands everything else to this thread over a Unix socket
 * in a directory of its own (mode 0700).
 *
 * Why a thread (#39): a page of a large project holds its event loop for tens of milliseconds at a
 * time, and the saves that process took in waited behind it — for the write lock and for their
 * answers. With Next here, the main thread's loop stays free for the saves: the two threads share
 * the process's cores through the kernel's scheduler instead of taking turns on one loop.
 *
 * Started with `workerData` { root, hostname, port, socketPath, board, limits } and the environment of
 * the process (LEXGOLD_NEXT_THREAD=1 added); posts "ready" once it listens. What it keeps in step
 * with the main thread:
 * - `board` (scripts/loop-watch.mjs): it notes its turns there, so that a held loop here stops the
 *   process's heartbeat and is reported with the requests under way, as one of the main thread is;
 * - `limits`: a MessagePort to the main thread, which keeps the process's request limits
 *   (lib/server/kernel/rate-limit.ts, limitPageShared and limitSaveShared ask it).
 *
 * LEXGOLD_SERVE_HANDLER=FILE (tests only): FILE's default export, `(req, res) => Promise`, serves
 * here instead of Next.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { noteTurns } from "./loop-watch.mjs";

const { root, hostname, port, socketPath, board, limits } = workerData;
noteTurns(board);

/**
 * This thread's nice value (Linux keeps one per thread): below the main thread's. At saturation the
 * two threads of each process and the other process share the cores, and a page drawn at the same
 * priority as the saves took a core from them for its whole render: the slowest saves came in bursts,
 * each while a page was drawn. A page still gets a core nobody else wants at once, and about half a
 * nice-0 thread's share of a busy one. Never raised: a server started at a lower priority keeps it.
 *
 * Why 3 (bench:pages, defaults, 2026-11-30; bench/RESULTS.md): at nice 5 the saves' p99 at saturation
 * at 2,000 instances was 132–139 ms, but the 5.9 MB gold download at 100,000 had a p95 of 794, 1,015 and
 * 1,008 ms in three runs; at nice 3 the download's was 890 and 780 ms, and the saves' p99 147 and 155 ms
 * (171–178 ms at nice 0, before other changes).
 */
const NEXT_NICE = 3;
try {
  if (os.getPriority(0) < NEXT_NICE) os.setPriority(0, NEXT_NICE);
} catch {
  // Not permitted or not supported here: the thread keeps the process's priority.
}

// The request limits live in the main thread: ask it (one message each way).
let asked = 0;
const answers = new Map();
limits.on("message", ({ id, verdict }) => {
  answers.get(id)?.(verdict);
  answers.delete(id);
});
globalThis[Symbol.for("lexgold.rateLimitAsk")] = (kind, who) =>
  new Promise((resolve) => {
    const id = ++asked;
    answers.set(id, resolve);
    limits.postMessage({ id, kind, who });
  });

const handle = await requestHandler();
const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    console.error(e);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});
// The main thread's connections to this one stay open while idle (its agent keeps them): a server that
// closed an idle one could do so just as the agent sends a request on it, which would then fail.
server.keepAliveTimeout = 0;
await new Promise((resolve, reject) => {
  server.once("error", (e) => reject(new Error(`Next's thread cannot listen on ${socketPath} (${e.message}): is TMPDIR writable, and its path short?`)));
  // exclusive: this thread's own socket, not one shared through node:cluster.
  server.listen({ path: socketPath, exclusive: true }, resolve);
});
parentPort.postMessage("ready");

/** Next's request handler for the production build, warmed up (LEXGOLD_SERVE_HANDLER: a module's default export instead, for tests). */
async function requestHandler() {
  if (process.env.LEXGOLD_SERVE_HANDLER) {
    return (await import(pathToFileURL(path.resolve(root, process.env.LEXGOLD_SERVE_HANDLER)).href)).default;
  }
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname, port });
  await app.prepare();
  const nextHandle = app.getRequestHandler();
  if (process.env.LEXGOLD_WARM !== "0") await warmUp(nextHandle);
  return nextHandle;
}

/**
 * Request every page of the build once, signed out, on a private port before serving: Next
 * instantiates a route's code on the route's first request (50–400 ms holding the event loop),
 * which would otherwise be the first real request to each page after every start. The pages answer
 * with the sign-in redirect; nothing is written. LEXGOLD_WARM=0 skips it.
 */
async function warmUp(nextHandle) {
  const { readFileSync } = await import("node:fs");
  const { stampRequest } = await import(pathToFileURL(path.join(root, "dist-workers", "serve.mjs")).href);
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
    stampRequest(req);
    nextHandle(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    warm.once("error", reject);
    warm.listen({ port: 0, host: "127.0.0.1", exclusive: true }, resolve);
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
