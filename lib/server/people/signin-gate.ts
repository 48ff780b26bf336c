/**
 * The gate in front of sign-in's password checks: a bounded, prioritised,
 * per-client fair semaphore. bcrypt is slow on purpose, so a flood of failed
 * sign-ins must not build an unbounded queue in front of a real user's check:
 *  - at most `slots` checks run at once (as many as the hash pool has threads);
 *  - browsers holding a valid device cookie for the account wait in their own
 *    line, served before any other; then clients with no failed sign-in in the
 *    last 15 minutes (a new annotator's first try), one check per client at a
 *    time (a flood from new addresses puts one check each there, the rest go
 *    last); then everyone else;
 *  - within a line, waiting checks are served one per client in turn (round
 *    robin), so a real user waits behind at most one check per other client, not
 *    behind everything a flooding client sent first; in the clean line the client
 *    with the fewest checks in the gate goes first (a new annotator's one try
 *    before the first tries of addresses that each keep several going at once);
 *  - a line holds at most `maxWaiting` checks and a client at most `perClient`:
 *    beyond that the attempt is answered at once "busy, retry after N s" (429).
 * Clients are counted by address, IPv6 by /64 (clientKey).
 */
import "server-only";
import net from "node:net";
import { hashThreads } from "../runtime";
import { setting } from "../../config";

/** The address a client is counted by: IPv4 as is, IPv6 by its /64 ("2001:db8:1:2::/64"). */
export function clientKey(address: string | null | undefined): string {
  let a = (address ?? "").trim().toLowerCase();
  if (!a) return "unknown";
  if (!net.isIPv6(a)) return a;
  // An embedded IPv4 tail ("::ffff:1.2.3.4", "64:ff9b::1.2.3.4") as its two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number);
    a = a.slice(0, v4.index) + `${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const split = (s: string) => (s ? s.split(":") : []);
  const [head, tail] = a.includes("::") ? a.split("::") : [a, null];
  const h = split(head);
  const groups = tail === null ? h : [...h, ...Array<string>(8 - h.length - split(tail).length).fill("0"), ...split(tail)];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}

export class GateBusyError extends Error {
  constructor(public readonly retryAfterS: number) {
    super("Too many sign-ins are being checked: try again shortly.");
    this.name = "GateBusyError";
  }
}

interface Waiter {
  client: string;
  start: () => void;
}

/** One line of waiting checks, served one client at a time in turn (or, given a rank, lowest rank first, in turn among equals). */
class Line {
  private byClient = new Map<string, Waiter[]>();
  /** Clients with waiting checks, in serving order. */
  private turn: string[] = [];
  size = 0;

  constructor(private readonly rank?: (client: string) => number) {}

  waitingFor(client: string): number {
    return this.byClient.get(client)?.length ?? 0;
  }

  push(w: Waiter): void {
    const list = this.byClient.get(w.client);
    if (list) list.push(w);
    else {
      this.byClient.set(w.client, [w]);
      this.turn.push(w.client);
    }
    this.size++;
  }

  shift(): Waiter | undefined {
    if (this.turn.length === 0) return undefined;
    let at = 0;
    if (this.rank) {
      // A line holds at most maxWaiting clients: a scan is cheap.
      for (let i = 1, best = this.rank(this.turn[0]); i < this.turn.length; i++) {
        const r = this.rank(this.turn[i]);
        if (r < best) [at, best] = [i, r];
      }
    }
    const client = this.turn.splice(at, 1)[0];
    const list = this.byClient.get(client)!;
    const w = list.shift()!;
    if (list.length > 0) this.turn.push(client);
    else this.byClient.delete(client);
    this.size--;
    return w;
  }
}

export interface GateOptions {
  slots: number;
  maxWaiting: number;
  perClient: number;
}

/** The lines, served in this order. */
export type Priority = "known" | "clean" | "others";
const ORDER: Priority[] = ["known", "clean", "others"];

export class SignInGate {
  private running = 0;
  /** Checks each client has in the gate now (waiting or running): the clean line's rank. */
  private readonly inGate = new Map<string, number>();
  private readonly lines: Record<Priority, Line> = { known: new Line(), clean: new Line((c) => this.inGate.get(c) ?? 0), others: new Line() };
  /** Clients with a check in the clean line (waiting or running). */
  private readonly cleanInFlight = new Set<string>();
  /** Recent check times (ms), for the Retry-After estimate. */
  private avgMs = 100;

  constructor(readonly opts: GateOptions) {}

  /** Checks running and waiting now. */
  state(): { running: number; waitingKnown: number; waitingClean: number; waitingOthers: number } {
    return { running: this.running, waitingKnown: this.lines.known.size, waitingClean: this.lines.clean.size, waitingOthers: this.lines.others.size };
  }

  private waiting(upTo: Priority = "others"): number {
    let n = 0;
    for (const p of ORDER.slice(0, ORDER.indexOf(upTo) + 1)) n += this.lines[p].size;
    return n;
  }

  /**
   * Run `check` when a slot is free: at once if one is, else after the checks
   * before it in its line. Throws GateBusyError, without running it, when its
   * line or its client's share of it is full.
   */
  async run<T>(who: { client: string | null; priority: Priority }, check: () => Promise<T>): Promise<T> {
    const client = clientKey(who.client);
    // One check per client at a time in the clean line: the others from it wait with everyone else.
    const priority = who.priority === "clean" && this.cleanInFlight.has(client) ? "others" : who.priority;
    const line = this.lines[priority];
    if (this.running >= this.opts.slots || this.waiting() > 0) {
      if (line.size >= this.opts.maxWaiting || line.waitingFor(client) >= this.opts.perClient) {
        const ahead = this.waiting(priority) + this.running;
        throw new GateBusyError(Math.max(1, Math.ceil((ahead * this.avgMs) / this.opts.slots / 1000)));
      }
      this.inGate.set(client, (this.inGate.get(client) ?? 0) + 1);
      if (priority === "clean") this.cleanInFlight.add(client);
      await new Promise<void>((start) => line.push({ client, start }));
    } else {
      this.inGate.set(client, (this.inGate.get(client) ?? 0) + 1);
      if (priority === "clean") this.cleanInFlight.add(client);
      this.running++;
    }
    const t = performance.now();
    try {
      return await check();
    } finally {
      const n = (this.inGate.get(client) ?? 1) - 1;
      if (n > 0) this.inGate.set(client, n);
      else this.inGate.delete(client);
      if (priority === "clean") this.cleanInFlight.delete(client);
      this.avgMs = this.avgMs * 0.8 + (performance.now() - t) * 0.2;
      this.release();
    }
  }

  /** A check ended: its slot goes to the next waiting check (known browsers first, then clean clients), or is freed. */
  private release(): void {
    const next = this.lines.known.shift() ?? this.lines.clean.shift() ?? this.lines.others.shift();
    if (next) next.start();
    else this.running--;
  }
}

const globalForGate = globalThis as unknown as { lexgoldSignInGate?: SignInGate };

/** The process's gate: LEXGOLD_SIGNIN_CONCURRENCY checks at once (default: the hash threads), 32 waiting per line, 4 per client. */
export function signInGate(): SignInGate {
  globalForGate.lexgoldSignInGate ??= new SignInGate({
    slots: setting("LEXGOLD_SIGNIN_CONCURRENCY") ?? hashThreads(),
    maxWaiting: setting("LEXGOLD_SIGNIN_QUEUE"),
    perClient: setting("LEXGOLD_SIGNIN_QUEUE_PER_CLIENT"),
  });
  return globalForGate.lexgoldSignInGate;
}
