/**
 * Token buckets on saves and on every other request (pages, actions, /api), per account and per client address
 * (issue #27: one annotator with 16 connections pushed another's save p99 from
 * 73 ms to 2.2 s).
 *
 * A bucket holds up to `burst` tokens and gains `rate` a second; a request takes
 * one, and is refused while the bucket is empty with the time until a token is
 * back (HTTP 429 with Retry-After). A real annotator saves at most a few times a
 * second and never notices; a script with many connections gets the rate and
 * nothing more, so everyone else's saves stay fast.
 *
 *   saves   per account  LEXGOLD_SAVE_RATE          5/s, burst 30
 *           per address  LEXGOLD_ADDRESS_SAVE_RATE  30/s, burst 150
 *   pages   per account  LEXGOLD_PAGE_RATE          10/s, burst 100  (and /api requests but saves)
 *           per address  LEXGOLD_ADDRESS_PAGE_RATE  30/s, burst 300
 *   joins   per study    LEXGOLD_STUDY_JOIN_RATE    10/s, burst 300  (new crowd participants)
 *           per address  LEXGOLD_ADDRESS_JOIN_RATE  1 per 10 s, burst 10
 *   re-joins per participant, own browser  LEXGOLD_REJOIN_RATE  1/s, burst 20  (participants already in)
 *           per participant, other browsers LEXGOLD_RESUME_RATE 1 per 50 s, burst 10
 *           per address  LEXGOLD_ADDRESS_REJOIN_RATE  2/s, burst 60
 *
 * Each variable is "RATE,BURST" (requests a second, then the most at once), or
 * "off". The account is the user id of the decoded session token (every session
 * and tab of one account share it; a name in the request is never read), the
 * address the client's (lib/net/trusted-proxy.ts; IPv6 by its /64, which one
 * subscriber usually holds whole). A request refused for its account takes no
 * token from its address, so one flooding account does not use up the allowance
 * of others behind the same address (a lab's NAT). A request without a valid
 * session takes from its address's signed-out bucket only (same size, a key of
 * its own: #38 item 11), so strangers behind a lab's address never spend what its
 * annotators need.
 *
 * The limits hold per server, not per server process (#38 item 10): scripts/serve.mjs
 * runs LEXGOLD_WORKERS processes and tells each their number (LEXGOLD_SERVER_PROCESSES),
 * and each holds 1/N of every bucket (rate and burst). The cluster hands new
 * connections to the processes in turn, so a flood over many connections gets the
 * configured rate in all; a client whose requests all reach one process gets 1/N of
 * it (the defaults sit far above a person's pace even so). Sharing the buckets through
 * the primary (a message each way per request) or the database (a write per request)
 * would add to every save the cost the limits are there to keep away; dividing adds
 * nothing. A restart empties them.
 *
 * Where: the save route and the flag-and-note action take a save token, proxy.ts
 * a page token for every page and every /api request but the save; the production
 * server refuses a save at once, before anything of it is read, while its
 * account's (or address's) last refusal says to wait (lib/server/annotate/save-request.ts:
 * a refusal there costs microseconds, and a client that does not wait gets its next
 * ones late).
 *
 * Pure: no next, no database; proxy.ts, the save and the route handlers share it
 * through a registry on globalThis (one per process, whichever bundle loads this file).
 */
import net from "node:net";
import { SETTINGS, setting } from "../../config";

export interface BucketSpec {
  /** Tokens gained a second. */
  rate: number;
  /** The most tokens a bucket holds: the requests allowed at once. */
  burst: number;
}

export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

/** A monotonic clock in milliseconds (tests pass a fake one). */
export type Clock = () => number;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key. At most `maxKeys` are held: the one used longest ago
 * goes first (forgetting a bucket hands its key a full one, as after a quiet while).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly spec: BucketSpec,
    private readonly now: Clock = () => performance.now(),
    private readonly maxKeys = 50_000,
  ) {
    if (!(spec.rate > 0) || !(spec.burst >= 1)) throw new Error(`a token bucket needs a rate > 0 and a burst ≥ 1, not ${spec.rate},${spec.burst}`);
  }

  get size(): number {
    return this.buckets.size;
  }

  /** The tokens `key` holds now (a key never seen holds a full bucket). */
  tokens(key: string): number {
    return this.refilled(key, this.now()).tokens;
  }

  /** Would `take` succeed? Takes nothing. */
  check(key: string, cost = 1): Verdict {
    return this.verdict(this.refilled(key, this.now()).tokens, cost);
  }

  /** Take `cost` tokens if the bucket holds them; else take nothing and say how long until it will. */
  take(key: string, cost = 1): Verdict {
    const b = this.refilled(key, this.now());
    const v = this.verdict(b.tokens, cost);
    if (v.ok) b.tokens -= cost;
    this.store(key, b);
    return v;
  }

  private verdict(tokens: number, cost: number): Verdict {
    if (tokens >= cost) return { ok: true };
    return { ok: false, retryAfterMs: Math.ceil(((cost - tokens) / this.spec.rate) * 1000) };
  }

  private refilled(key: string, t: number): Bucket {
    const b = this.buckets.get(key);
    if (!b) return { tokens: this.spec.burst, at: t };
    const gained = (Math.max(0, t - b.at) / 1000) * this.spec.rate;
    return { tokens: Math.min(this.spec.burst, b.tokens + gained), at: t };
  }

  private store(key: string, b: Bucket): void {
    // Re-inserted, so the Map's order is the order of last use.
    this.buckets.delete(key);
    this.buckets.set(key, b);
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
  }
}

/**
 * Take one token from each bucket (account first, then address), or from none:
 * refused by the first that is empty, with its wait.
 */
export function takeAll(pairs: Array<[TokenBuckets, string]>): Verdict {
  for (const [buckets, key] of pairs) {
    const v = buckets.check(key);
    if (!v.ok) return v;
  }
  for (const [buckets, key] of pairs) buckets.take(key);
  return { ok: true };
}

/** The key of a client address: IPv4 as is, IPv6 by its /64 (the first four of its eight groups). */
export function addressKey(address: string): string {
  const a = address.trim().toLowerCase().replace(/%.*$/, "");
  if (!net.isIPv6(a)) return a;
  const parts = (s: string) => (s ? s.split(":") : []).flatMap((g) => {
    if (!g.includes(".")) return [g];
    // An IPv4 tail ("::ffff:1.2.3.4") is two groups.
    const [b0, b1, b2, b3] = g.split(".").map(Number);
    return [((b0 << 8) | b1).toString(16), ((b2 << 8) | b3).toString(16)];
  });
  const [head, tail] = a.split("::");
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":") + "::/64";
}

/** The limits; their defaults are lib/config's, the one place they are written. */
export const LIMIT_SETTINGS = {
  save: { env: "LEXGOLD_SAVE_RATE", fallback: SETTINGS.LEXGOLD_SAVE_RATE.default! },
  saveAddress: { env: "LEXGOLD_ADDRESS_SAVE_RATE", fallback: SETTINGS.LEXGOLD_ADDRESS_SAVE_RATE.default! },
  page: { env: "LEXGOLD_PAGE_RATE", fallback: SETTINGS.LEXGOLD_PAGE_RATE.default! },
  pageAddress: { env: "LEXGOLD_ADDRESS_PAGE_RATE", fallback: SETTINGS.LEXGOLD_ADDRESS_PAGE_RATE.default! },
  join: { env: "LEXGOLD_STUDY_JOIN_RATE", fallback: SETTINGS.LEXGOLD_STUDY_JOIN_RATE.default! },
  joinAddress: { env: "LEXGOLD_ADDRESS_JOIN_RATE", fallback: SETTINGS.LEXGOLD_ADDRESS_JOIN_RATE.default! },
  rejoin: { env: "LEXGOLD_REJOIN_RATE", fallback: SETTINGS.LEXGOLD_REJOIN_RATE.default! },
  resume: { env: "LEXGOLD_RESUME_RATE", fallback: SETTINGS.LEXGOLD_RESUME_RATE.default! },
  rejoinAddress: { env: "LEXGOLD_ADDRESS_REJOIN_RATE", fallback: SETTINGS.LEXGOLD_ADDRESS_REJOIN_RATE.default! },
} as const satisfies Record<string, { env: string; fallback: BucketSpec }>;

type LimitName = keyof typeof LIMIT_SETTINGS;

/** "RATE,BURST" (e.g. "5,30"), "off" → null; anything else is an error naming the variable (lib/config/index.ts). */
export { parseLimit } from "../../config";

/** This process's share of a limit: 1/N of its rate and burst, with N the server's processes (at least one token at once). */
function share(spec: BucketSpec): BucketSpec {
  const n = setting("LEXGOLD_SERVER_PROCESSES") ?? 1;
  return n <= 1 ? spec : { rate: spec.rate / n, burst: Math.max(1, spec.burst / n) };
}

interface Registry {
  limits: Record<LimitName, TokenBuckets | null>;
  /** Until when (clock ms) each save bucket's last refusal said to wait: the save's early refusal. */
  refusedUntil: Map<string, number>;
}

const REGISTRY = Symbol.for("lexgold.rateLimits");
type Holder = { [REGISTRY]?: Registry };

let clock: Clock = () => performance.now();

function registry(): Registry {
  const g = globalThis as Holder;
  if (!g[REGISTRY]) {
    const limits = {} as Registry["limits"];
    for (const [name, { env, fallback }] of Object.entries(LIMIT_SETTINGS) as Array<[LimitName, (typeof LIMIT_SETTINGS)[LimitName]]>) {
      let spec: BucketSpec | null;
      try {
        spec = setting(env);
      } catch (e) {
        // A typo must not take the server down with every request: say so, keep the default.
        console.error(`lexgold: ${(e as Error).message}; using ${fallback.rate},${fallback.burst}`);
        spec = fallback;
      }
      limits[name] = spec ? new TokenBuckets(share(spec), clock) : null;
    }
    g[REGISTRY] = { limits, refusedUntil: new Map() };
  }
  return g[REGISTRY];
}

/** Forget every bucket and read the settings again, with the given clock (tests; a process reads them once). */
export function resetRateLimits(now: Clock = () => performance.now()): void {
  clock = now;
  delete (globalThis as Holder)[REGISTRY];
}

export interface Requester {
  /** The signed-in user's id, from the decoded session token; null for nobody. */
  userId: number | null;
  /** The client's address (lib/net/trusted-proxy.ts clientAddress); null when unknown. */
  address: string | null;
}

function pairsFor(kind: "save" | "page", who: Requester): Array<[TokenBuckets, string]> {
  const { limits } = registry();
  const pairs: Array<[TokenBuckets, string]> = [];
  const perAccount = limits[kind];
  const perAddress = limits[kind === "save" ? "saveAddress" : "pageAddress"];
  if (who.userId == null) {
    // Signed out: the address's signed-out bucket only.
    if (perAddress && who.address) pairs.push([perAddress, `n${addressKey(who.address)}`]);
    return pairs;
  }
  if (perAccount) pairs.push([perAccount, `u${who.userId}`]);
  if (perAddress && who.address) pairs.push([perAddress, addressKey(who.address)]);
  return pairs;
}

/**
 * One save (the save route, the flag-and-note action): a token from each bucket, or a refusal,
 * remembered until the wait it gives is over (`refusedSave`).
 */
export function limitSave(who: Requester): Verdict {
  const pairs = pairsFor("save", who);
  for (const [buckets, key] of pairs) {
    const v = buckets.check(key);
    if (!v.ok) {
      const { refusedUntil } = registry();
      refusedUntil.delete(key);
      refusedUntil.set(key, clock() + v.retryAfterMs);
      if (refusedUntil.size > 50_000) refusedUntil.delete(refusedUntil.keys().next().value!);
      return v;
    }
  }
  for (const [buckets, key] of pairs) buckets.take(key);
  return { ok: true };
}

/**
 * The refusal a save of `who` met last, while the wait it gave is not over; null otherwise. Takes
 * and checks no bucket (the one check is limitSave's): the production server answers a save 429 at
 * once with it, before anything else is done (lib/server/annotate/save-request.ts).
 */
export function refusedSave(who: Requester): Extract<Verdict, { ok: false }> | null {
  const { refusedUntil } = registry();
  const now = clock();
  for (const [, key] of pairsFor("save", who)) {
    const until = refusedUntil.get(key);
    if (until === undefined) continue;
    if (until > now) return { ok: false, retryAfterMs: Math.ceil(until - now) };
    refusedUntil.delete(key);
  }
  return null;
}

/** One page render, client-side navigation or server action (proxy.ts). */
export function limitPage(who: Requester): Verdict {
  return takeAll(pairsFor("page", who));
}

/**
 * Where a thread asks for save and page tokens when its process keeps its limits in another thread:
 * scripts/serve.mjs serves the save and the /api limit in its main thread and Next in a thread of its
 * own (scripts/next-thread.mjs), which sets this, so that the process holds each bucket once
 * whichever thread takes from it. Unset (tests, `next dev`, `next start`): this thread's own buckets.
 */
const ASK = Symbol.for("lexgold.rateLimitAsk");
type Ask = (kind: "save" | "page", who: Requester) => Promise<Verdict>;

/** `limitSave`, from the process's buckets wherever its thread keeps them (the flag-and-note action). */
export function limitSaveShared(who: Requester): Promise<Verdict> {
  const ask = (globalThis as { [ASK]?: Ask })[ASK];
  return ask ? ask("save", who) : Promise.resolve(limitSave(who));
}

/** `limitPage`, from the process's buckets wherever its thread keeps them (proxy.ts). */
export function limitPageShared(who: Requester): Promise<Verdict> {
  const ask = (globalThis as { [ASK]?: Ask })[ASK];
  return ask ? ask("page", who) : Promise.resolve(limitPage(who));
}

/** The thread that keeps the limits: answer another thread's asks (scripts/next-thread.mjs sends them on `port`). */
export function answerLimitAsks(port: { on(event: "message", fn: (m: unknown) => void): unknown; postMessage(m: unknown): void }): void {
  port.on("message", (m) => {
    const { id, kind, who } = m as { id: number; kind: "save" | "page"; who: Requester };
    port.postMessage({ id, verdict: kind === "save" ? limitSave(who) : limitPage(who) });
  });
}

/**
 * One new participant joining a crowd study (lib/server/crowd/join.ts): a token from the study
 * link's bucket and one from the address's (every study together). Arriving again with a known
 * platform id resumes and takes none.
 */
export function limitJoin(who: { studyId: number; address: string | null }): Verdict {
  const { limits } = registry();
  const pairs: Array<[TokenBuckets, string]> = [];
  if (limits.join) pairs.push([limits.join, `s${who.studyId}`]);
  if (limits.joinAddress && who.address) pairs.push([limits.joinAddress, addressKey(who.address)]);
  return takeAll(pairs);
}

/**
 * One arrival of a participant already in a crowd study (lib/server/crowd/join.ts): a token of the
 * address's bucket (every study together), and one of the participant's — the re-join bucket when
 * the browser holds their cookie (a reload, a second tab), else the resume bucket (a platform
 * session, a resume code, or a guess at one). Kept apart, so strangers' tries never hold up the
 * participant's own browser.
 */
export function limitRejoin(who: { participantId: number; address: string | null; ownBrowser: boolean }): Verdict {
  const { limits } = registry();
  const pairs: Array<[TokenBuckets, string]> = [];
  const own = who.ownBrowser ? limits.rejoin : limits.resume;
  if (own) pairs.push([own, `p${who.participantId}`]);
  if (limits.rejoinAddress && who.address) pairs.push([limits.rejoinAddress, addressKey(who.address)]);
  return takeAll(pairs);
}

/** Retry-After's whole seconds for a wait (at least 1). */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** The save route's refusal, as parts: 429, Retry-After, and the JSON body a refused save has. */
export function tooManySavesParts(v: Extract<Verdict, { ok: false }>): { status: 429; headers: Record<string, string>; body: string } {
  const seconds = retryAfterSeconds(v.retryAfterMs);
  return {
    status: 429,
    headers: { "Content-Type": "application/json", "Retry-After": String(seconds), "Cache-Control": "no-store" },
    body: JSON.stringify({
      ok: false,
      message: `Not saved yet: too many saves at once. Your answer is kept; it goes again in ${seconds} s.`,
      retryAfterMs: seconds * 1000,
    }),
  };
}

