/**
 * What a server process was doing when its event loop stopped turning (#38 item 3).
 *
 * The primary (scripts/serve.mjs) notices a worker whose event loop has not turned for
 * LEXGOLD_STALL_S seconds by the heartbeats it stops sending, and replaces it. A held event loop
 * cannot say what it was running, so each worker keeps its requests under way in shared memory
 * (`requestBoard`, a few bytes written per request) and a thread of its own (this file, run as a
 * worker_thread) reads them once the loop has stopped and writes them to stderr directly (fd 2:
 * console output of a thread goes through the held main thread).
 *
 *   main thread: const board = requestBoard(); board.watch(seconds); server.on("request", board.track)
 */
import fs from "node:fs";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const SLOTS = 64;
const SLOT_BYTES = 512;
/**
 * Per slot: Int32 used, Int32 length, then the text. Before the slots, BigInt64s: the main thread's
 * last turn, Next's thread's last turn (0: none yet; scripts/next-thread.mjs), the start of each slot.
 */
const CLOCKS = 2;
const HEAD = (CLOCKS + SLOTS) * 8;

/** The main thread's side: the board, tracking of requests, and the watching thread. */
export function requestBoard() {
  const sab = new SharedArrayBuffer(HEAD + SLOTS * SLOT_BYTES);
  const turned = new BigInt64Array(sab, 0, CLOCKS + SLOTS);
  const slotInts = (i) => new Int32Array(sab, HEAD + i * SLOT_BYTES, 2);
  const slotText = (i) => new Uint8Array(sab, HEAD + i * SLOT_BYTES + 8, SLOT_BYTES - 8);
  const free = Array.from({ length: SLOTS }, (_, i) => SLOTS - 1 - i);
  const encoder = new TextEncoder();
  const beat = () => Atomics.store(turned, 0, BigInt(Date.now()));
  beat();
  return {
    /** Note the request until it is answered or its connection closes (the 65th at once goes unnoted). */
    track(req, res) {
      const i = free.pop();
      if (i === undefined) return;
      const ints = slotInts(i);
      const { written } = encoder.encodeInto(`${req.method} ${req.url}`, slotText(i));
      Atomics.store(turned, CLOCKS + i, BigInt(Date.now()));
      Atomics.store(ints, 1, written);
      Atomics.store(ints, 0, 1);
      res.once("close", () => {
        Atomics.store(ints, 0, 0);
        free.push(i);
      });
    },
    /** Shared with Next's thread, which notes its turns in it (`noteTurns`). */
    sab,
    /** How long ago Next's thread last turned, in ms (0 when it has none). */
    threadQuietMs() {
      const t = Atomics.load(turned, 1);
      return t === 0n ? 0 : Date.now() - Number(t);
    },
    /** Start the watching thread: it reports once a loop (the main thread's or Next's thread's) has not turned for `seconds`. */
    watch(seconds) {
      setInterval(beat, 250).unref();
      const t = new Worker(new URL(import.meta.url), { workerData: { sab, seconds, pid: process.pid } });
      t.unref();
      return t;
    },
  };
}

/** In Next's thread: note its event loop's turns on the board (from its main thread's `board.sab`). */
export function noteTurns(sab) {
  const turned = new BigInt64Array(sab, 0, CLOCKS);
  const beat = () => Atomics.store(turned, 1, BigInt(Date.now()));
  beat();
  setInterval(beat, 250).unref();
}

function runningRequests(sab, now) {
  const turned = new BigInt64Array(sab, 0, CLOCKS + SLOTS);
  const decoder = new TextDecoder();
  const out = [];
  for (let i = 0; i < SLOTS; i++) {
    const ints = new Int32Array(sab, HEAD + i * SLOT_BYTES, 2);
    if (Atomics.load(ints, 0) !== 1) continue;
    const text = decoder.decode(new Uint8Array(sab, HEAD + i * SLOT_BYTES + 8, Atomics.load(ints, 1)).slice());
    out.push({ text, ms: now - Number(Atomics.load(turned, CLOCKS + i)) });
  }
  return out.sort((a, b) => b.ms - a.ms);
}

if (!isMainThread && workerData?.sab) {
  const { sab, seconds, pid } = workerData;
  const turned = new BigInt64Array(sab, 0, CLOCKS);
  const reported = [0n, 0n];
  const loops = ["its event loop", "the event loop of its Next thread"];
  setInterval(() => {
    const now = Date.now();
    for (const k of [0, 1]) {
      const last = Atomics.load(turned, k);
      if (last === 0n || now - Number(last) < seconds * 1000 || last === reported[k]) continue;
      reported[k] = last;
      const running = runningRequests(sab, now);
      const list = running.length === 0 ? "no request" : running.map((r) => `${r.text} (for ${(r.ms / 1000).toFixed(1)} s)`).join(", ");
      fs.writeSync(2, `serve: worker ${pid}: ${loops[k]} has not turned for ${seconds} s; running: ${list}\n`);
    }
  }, 1000);
  parentPort?.unref?.();
}
