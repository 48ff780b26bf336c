/**
 * Joins queue behind saves (issue #38, finding 9: 300 participants joining within 25 s lifted
 * another annotator's save p99 from 141 to 869 ms). A crowd's arrival is a burst of page renders
 * and sign-ins — the study page, the study sign-in, the started page — each a few dozen
 * milliseconds of the server's one thread, and dozens at once interleave on it: a save waits
 * behind all of them. Here, in each server process, those requests wait at the HTTP server until
 *
 *  - no save is being served in this process (a save waits for at most the one join under way),
 *    or the join has waited MAX_DEFER_MS (a steady stream of saves cannot shut joins out), and
 *  - no other join request of this process is being served (one at a time, JOIN_CONCURRENCY).
 *
 * A waiting request costs an open connection and a closure, no work. A join request counts as
 * served until its answer is written (or JOIN_HOLD_MS at most, so a client that never reads its
 * answer cannot hold the line). Beyond MAX_WAITING waiting requests the next is answered 503 with
 * Retry-After at once. The participant sees the page a moment later; annotators' saves do not wait.
 *
 * The gate decides from the request line alone (method and path): nothing is read or decoded.
 * The production server (scripts/serve.mjs, through lib/serve) passes each request through
 * `holdForTurn` before it routes it; `next dev` has no gate.
 */
import type http from "node:http";
import { isSaveRequest } from "../annotate";

/** Crowd arrivals: the study link's page (and its started page), and the study sign-in. */
const JOIN_REQUEST = /^(?:GET \/study\/[A-Za-z0-9_-]{16,64}(?:\?|$)|POST \/api\/auth\/callback\/study(?:\?|$))/;

export const JOIN_CONCURRENCY = 1;
export const MAX_DEFER_MS = 1000;
const JOIN_HOLD_MS = 15_000;
export const MAX_WAITING = 2000;

type Clock = () => number;

/** The gate's state and rules, without HTTP (tests drive it directly). */
export class JoinGate {
  private saves = 0;
  private joins = 0;
  private readonly waiting: Array<{ since: number; go: () => void }> = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly now: Clock = () => performance.now()) {}

  get state(): { saves: number; joins: number; waiting: number } {
    return { saves: this.saves, joins: this.joins, waiting: this.waiting.length };
  }

  /** A save began; call the returned function once it is answered. */
  saveStarted(): () => void {
    this.saves++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.saves--;
      this.pump();
    };
  }

  /**
   * A join request: `go` runs when its turn comes, with the function to call once it is answered.
   * False: too many wait already (nothing queued; answer 503).
   */
  enter(go: (done: () => void) => void): boolean {
    if (this.waiting.length >= MAX_WAITING) return false;
    this.waiting.push({
      since: this.now(),
      go: () => {
        this.joins++;
        let done = false;
        go(() => {
          if (done) return;
          done = true;
          this.joins--;
          this.pump();
        });
      },
    });
    this.pump();
    return true;
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.joins < JOIN_CONCURRENCY) {
      const head = this.waiting[0];
      const waited = this.now() - head.since;
      if (this.saves > 0 && waited < MAX_DEFER_MS) {
        // Saves first; looked at again when one is answered, or when the head's patience runs out.
        this.wakeAfter(MAX_DEFER_MS - waited);
        return;
      }
      this.waiting.shift();
      head.go();
    }
  }

  private wakeAfter(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(1, Math.ceil(ms)));
    this.timer.unref?.();
  }
}

/** This process's gate. */
const processGate = new JoinGate();

/** Watch a request: count a save, hold a join request for its turn. True: held (the gate emits it later, or answered 503). */
export function holdForTurn(req: http.IncomingMessage, res: http.ServerResponse, emit: () => void, g: JoinGate = processGate): boolean {
  if (isSaveRequest(req)) {
    const done = g.saveStarted();
    res.once("close", done);
    res.once("finish", done);
    return false;
  }
  if (!JOIN_REQUEST.test(`${req.method} ${req.url ?? ""}`)) return false;
  const queued = g.enter((done) => {
    if (res.destroyed) return done();
    const hold = setTimeout(done, JOIN_HOLD_MS);
    hold.unref?.();
    const end = () => {
      clearTimeout(hold);
      done();
    };
    res.once("finish", end);
    res.once("close", end);
    emit();
  });
  if (!queued) {
    res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5", "Cache-Control": "no-store" });
    res.end("Many people are joining just now: try again in a few seconds.");
  }
  return true;
}
