/**
 * Every setting lexgold takes from the environment: its name, type, default, check and meaning, in
 * one table (SETTINGS). This module is the only reader of process.env in app/, lib/ and db/, and
 * the settings table of docs/operating.md ("Settings") lists every setting here that is not
 * `internal` (test/config/config.test.ts holds both).
 *
 * A folder of its own, importing nothing of lexgold: db/ reads its settings here too
 * (.dependency-cruiser.cjs lets db/ reach down to lib/config/ and nothing else of lib/).
 *
 * Reading: `setting(NAME)` reads the variable on every call and parses it again only when its text
 * changed since the last call (one process.env lookup and a string compare otherwise), so a test or a
 * benchmark that sets process.env.X before calling the code gets X. Modules that read a setting once
 * at import (MAX_RUN_BYTES, BCRYPT_COST, the sign-in limits) still do, as before.
 *
 * A bad value is an error naming the variable and what it takes (e.g. `LEXGOLD_JOB_THREADS must be a
 * whole number above 0, not "two"`), thrown where the setting is first read. The rate limits
 * (`invalid: "warn"`) instead say so on stderr and keep their default: a typo there must not take the
 * server down with every request. An empty value counts as unset.
 *
 * Kept outside this module, and why:
 * - `process.env.NODE_ENV` (lib/server/runtime/worker-files.ts, proxy.ts) and `process.env.NEXT_RUNTIME`
 *   (instrumentation.ts): Next replaces them with literals when it bundles, which a call into this
 *   module would prevent (and with it the dead-code removal of the other runtime's branch).
 * - next.config.ts reads NEXT_DIST_DIR itself: Next loads it on its own, before anything of the app.
 * - scripts/serve.mjs (LEXGOLD_ROOT, PORT, HOSTNAME, LEXGOLD_WORKERS, LEXGOLD_SERVER_HEAP_MB, LEXGOLD_STALL_S, LEXGOLD_SERVE_HANDLER,
 *   LEXGOLD_SAVE_BEFORE_NEXT, LEXGOLD_WARM, LEXGOLD_LOOP_PROBE, NEXT_DIST_DIR) and bin/lexgold.cjs (sets LEXGOLD_ROOT) are plain JavaScript run by node, which
 *   cannot import this file; their settings are listed here all the same, with `readBy`.
 * - bin/output.ts (LEXGOLD_DEBUG), bin/commands/score-plain.ts and bin/commands/score.ts
 *   (LEXGOLD_SCORE_LANE) are on the CLI's start-up path (`--help`, the fast scoring lane), which must
 *   not load zod; they compare the raw text only.
 * - `environment()` below hands the whole environment to child processes and to `lexgold start`'s plan.
 */
import { z } from "zod";

/** The text a variable holds, or undefined when unset or empty. */
type Raw = string;

interface Setting<T> {
  /** One line: what it sets. */
  describe: string;
  /** The value when unset (undefined: the caller computes it, as `defaultText` says). */
  default: T;
  /** The default as docs/operating.md's table says it, when `default` does not. */
  defaultText?: string;
  /** What a good value looks like, for the error message. */
  expects: string;
  /** Parses a set (non-empty) value; fails on a bad one. */
  schema: z.ZodType<T, Raw>;
  /** For tests and benchmarks only: left out of docs/operating.md's table. */
  internal?: boolean;
  /** A bad value: "throw" (the default) an error naming the variable, or "warn" and keep the default. */
  invalid?: "throw" | "warn";
  /** Read by a plain-JavaScript file instead of through `setting()` (see the header). */
  readBy?: string;
}

const def = <T>(s: Setting<T>): Setting<T> => s;

const text = z.string();
const positiveNumber = z.coerce.number<Raw>().finite().positive();
const positiveInteger = z.coerce.number<Raw>().int().positive();
const nonNegativeNumber = z.coerce.number<Raw>().finite().nonnegative();
const flag = (on: string) => z.string().transform((s) => s === on);

/** A rate limit: RATE requests a second, then BURST at most at once. */
export interface LimitSpec {
  rate: number;
  burst: number;
}

/** "RATE,BURST" (e.g. "5,30"), "off" → null; anything else is an error naming the variable. */
export function parseLimit(raw: string | undefined, name: string, fallback: LimitSpec): LimitSpec | null {
  if (raw === undefined || raw.trim() === "") return fallback;
  const s = raw.trim().toLowerCase();
  if (s === "off" || s === "0") return null;
  const m = /^(\d+(?:\.\d+)?)\s*,\s*(\d+)$/.exec(s);
  const spec = m ? { rate: Number(m[1]), burst: Number(m[2]) } : null;
  if (!spec || !(spec.rate > 0) || spec.burst < 1) throw new Error(`${name} must be "RATE,BURST" (requests a second, then the most at once, e.g. "5,30") or "off", not "${raw}"`);
  return spec;
}

const limit = (name: string, fallback: LimitSpec, describe: string) =>
  def<LimitSpec | null>({
    describe,
    default: fallback,
    expects: `"RATE,BURST" (requests a second, then the most at once, e.g. "5,30") or "off"`,
    schema: z.string().transform((s, ctx) => {
      try {
        return parseLimit(s, name, fallback);
      } catch {
        ctx.addIssue({ code: "custom", message: "not RATE,BURST" });
        return z.NEVER;
      }
    }),
    invalid: "warn",
  });

export const SETTINGS = {
  // Where things are
  LEXGOLD_ROOT: def<string | undefined>({ describe: "the project root (set by bin/lexgold)", default: undefined, defaultText: "the working directory", expects: "a directory", schema: text, internal: true }),
  LEXGOLD_DB: def<string | undefined>({ describe: "the database file (`--db` beats it)", default: undefined, defaultText: "data/lexgold.db in the checkout", expects: "a file path", schema: text }),
  LEXGOLD_SECRET_FILE: def<string | undefined>({ describe: "the session secret's file, written by `init`", default: undefined, defaultText: ".lexgold-secret in the checkout", expects: "a file path", schema: text }),
  LEXGOLD_BACKUP_DIR: def<string | undefined>({ describe: "where `doctor` looks for timed backups (`--backups`), and where `start` backs the database up before a migration", default: undefined, defaultText: "unset (`start`: backups/ beside the database)", expects: "a directory", schema: text }),
  LEXGOLD_INIT_USER: def<string | undefined>({ describe: "`start` on a database without accounts (or none): creates it with this first coordinator, as `init` does (the container image)", default: undefined, expects: "a user name", schema: text }),
  LEXGOLD_INIT_PASSWORD_FILE: def<string | undefined>({ describe: "the first coordinator's password for LEXGOLD_INIT_USER, read from this file's first line (a mounted secret)", default: undefined, expects: "a file path", schema: text }),
  LEXGOLD_INIT_PASSWORD: def<string | undefined>({ describe: "the same password given in the variable itself (the file is better: it stays out of `docker inspect`)", default: undefined, expects: "a password", schema: text }),
  LEXGOLD_CACHE_DIR: def<string | undefined>({ describe: "where a non-production run builds the worker bundles when dist-workers/ is stale", default: undefined, defaultText: "the system temp dir", expects: "a directory", schema: text }),
  NEXT_DIST_DIR: def<string>({ describe: "the build directory (also read by next.config.ts and scripts/serve.mjs)", default: ".next", expects: "a directory", schema: text }),

  // Serving
  NEXTAUTH_SECRET: def<string | undefined>({ describe: "the session secret itself, instead of the file (32+ characters)", default: undefined, expects: "a secret", schema: text }),
  NEXTAUTH_URL: def<string | undefined>({ describe: "the address people open (`lexgold start` checks it)", default: undefined, expects: "an http(s) URL", schema: text }),
  LEXGOLD_PUBLIC_URL: def<string | undefined>({ describe: "the same as NEXTAUTH_URL", default: undefined, expects: "an http(s) URL", schema: text }),
  LEXGOLD_HOST: def<string>({ describe: "the address `lexgold start` listens on (`--host`)", default: "127.0.0.1", expects: "an address", schema: text }),
  PORT: def<string>({ describe: "the port `lexgold start` listens on (`--port`; checked there)", default: "3000", expects: "a port number", schema: text }),
  HOSTNAME: def<string>({ describe: "the address scripts/serve.mjs listens on (lexgold start passes -H)", default: "127.0.0.1", expects: "an address", schema: text, internal: true, readBy: "scripts/serve.mjs" }),
  LEXGOLD_WORKERS: def<number | undefined>({ describe: "server processes sharing the port", default: undefined, defaultText: "one per core, at most 2", expects: "a whole number above 0", schema: positiveInteger, readBy: "scripts/serve.mjs" }),
  LEXGOLD_SERVER_PROCESSES: def<number | undefined>({ describe: "how many server processes share the port, so that each holds its share of every request limit; set by scripts/serve.mjs for its workers (unset: not served by it)", default: undefined, defaultText: "unset (one process)", expects: "a whole number above 0", schema: positiveInteger, internal: true }),
  LEXGOLD_NEXT_THREAD: def<boolean>({ describe: "set by scripts/serve.mjs for a worker's Next thread (scripts/next-thread.mjs): its database connection leaves WAL checkpoints to the primary, as the worker's main thread's does", default: false, expects: '"1"', schema: z.string().transform((s) => s === "1"), internal: true }),
  LEXGOLD_SERVER_HEAP_MB: def<number>({ describe: "each server process's heap limit in MB (its --max-old-space-size; 0: V8's own)", default: 512, expects: "a whole number of MB, at least 128, or 0", schema: z.coerce.number<Raw>().int().refine((n) => n === 0 || n >= 128), readBy: "scripts/serve.mjs" }),
  LEXGOLD_STALL_S: def<number>({ describe: "a server process whose event loop (its main thread's or its Next thread's) has not turned for this many seconds is replaced by a new one (its requests under way logged)", default: 30, expects: "a number of seconds above 0", schema: positiveNumber, readBy: "scripts/serve.mjs" }),
  LEXGOLD_SERVE_HANDLER: def<string | undefined>({ describe: "a module whose default export serves instead of Next's handler (tests of scripts/serve.mjs)", default: undefined, expects: "a file path", schema: text, internal: true, readBy: "scripts/serve.mjs" }),
  LEXGOLD_WARM: def<boolean>({ describe: "0: a server process serves at once, without first loading every page's code and the lemmatiser's data", default: true, expects: '"0" or "1"', schema: z.string().transform((s) => s !== "0"), readBy: "scripts/serve.mjs, instrumentation.ts" }),
  LEXGOLD_SAVE_BEFORE_NEXT: def<boolean>({ describe: "0: saves go through Next like every other request, instead of being served by the HTTP server before Next (lib/server/annotate/save-request.ts)", default: true, expects: '"0" or "1"', schema: z.string().transform((s) => s !== "0"), readBy: "scripts/serve.mjs" }),
  LEXGOLD_PEER_KEY: def<string | undefined>({ describe: "the key a request's stamped peer address carries (lib/net/trusted-proxy.ts): set by scripts/serve.mjs in each worker, and by instrumentation.ts under next dev and next start (a key no request carries: the client's address is unknown there)", default: undefined, defaultText: "unset: the caller's own stamp is believed (tests)", expects: "a random string", schema: text, internal: true }),
  LEXGOLD_TRUSTED_PROXY: def<string>({ describe: "the reverse proxies (addresses or CIDR blocks) whose X-Forwarded-* headers are believed", default: "", expects: "IP addresses or CIDR blocks", schema: text }),

  // Limits
  LEXGOLD_SAVE_RATE: limit("LEXGOLD_SAVE_RATE", { rate: 5, burst: 30 }, "saves one account may make"),
  LEXGOLD_ADDRESS_SAVE_RATE: limit("LEXGOLD_ADDRESS_SAVE_RATE", { rate: 30, burst: 150 }, "saves from one address"),
  LEXGOLD_PAGE_RATE: limit("LEXGOLD_PAGE_RATE", { rate: 10, burst: 100 }, "page loads, in-app moves, form actions and /api requests (but saves) one account may make"),
  LEXGOLD_ADDRESS_PAGE_RATE: limit("LEXGOLD_ADDRESS_PAGE_RATE", { rate: 30, burst: 300 }, "the same from one address (signed-out requests: a bucket of their own)"),
  LEXGOLD_STUDY_JOIN_RATE: limit("LEXGOLD_STUDY_JOIN_RATE", { rate: 10, burst: 300 }, "new participants one study link takes"),
  LEXGOLD_ADDRESS_JOIN_RATE: limit("LEXGOLD_ADDRESS_JOIN_RATE", { rate: 0.1, burst: 10 }, "new participants joining from one address, every study together"),
  LEXGOLD_REJOIN_RATE: limit("LEXGOLD_REJOIN_RATE", { rate: 1, burst: 20 }, "arrivals of one participant again from a browser holding their cookie (a reload, a second tab)"),
  LEXGOLD_RESUME_RATE: limit("LEXGOLD_RESUME_RATE", { rate: 0.02, burst: 10 }, "arrivals with one participant's id from browsers without their cookie: resumes by platform session or resume code, and refusals"),
  LEXGOLD_ADDRESS_REJOIN_RATE: limit("LEXGOLD_ADDRESS_REJOIN_RATE", { rate: 2, burst: 60 }, "arrivals of participants already in a study from one address, every study together"),
  LEXGOLD_MAX_IMPORT_BYTES: def<number>({ describe: "the largest lexelt XML file imported", default: 50 * 1024 * 1024, expects: "a number above 0", schema: positiveNumber }),
  // 72 MB: a best file of 1,000,000 items with CoInCo's longest lexelt (`confidence_inspiring.a`), a seven-digit id,
  // its longest substitute (36 bytes) and a CRLF on every line is 72 bytes a line, 72,000,000 bytes (docs/scorer.md).
  LEXGOLD_MAX_RUN_BYTES: def<number>({ describe: "the largest system, gold or SENSEVAL file accepted, as sent and unzipped (read at start)", default: 72 * 1024 * 1024, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_MAX_QUEUED_UPLOAD_MB: def<number>({ describe: "the uploads one person may have waiting for their jobs and derivations", default: 100, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_SIGNIN_LIMIT: def<number>({ describe: "failed sign-ins per device (or account and address) that cost no wait (read at start)", default: 5, expects: "a number, 0 or more", schema: nonNegativeNumber }),
  LEXGOLD_SIGNIN_ACCOUNT_CEILING: def<number>({ describe: "failed sign-ins for one account in an hour, from anywhere (read at start)", default: 50, expects: "a number, 0 or more", schema: nonNegativeNumber }),
  LEXGOLD_SIGNIN_CLIENT_LIMIT: def<number>({ describe: "failed sign-ins from one address in an hour (read at start)", default: 30, expects: "a number, 0 or more", schema: nonNegativeNumber }),
  LEXGOLD_SIGNIN_CONCURRENCY: def<number | undefined>({ describe: "password checks run at once", default: undefined, defaultText: "the hash threads", expects: "a whole number above 0", schema: positiveInteger }),
  LEXGOLD_SIGNIN_QUEUE: def<number>({ describe: "password checks waiting per line", default: 32, expects: "a whole number above 0", schema: positiveInteger }),
  LEXGOLD_SIGNIN_QUEUE_PER_CLIENT: def<number>({ describe: "password checks waiting per address", default: 4, expects: "a whole number above 0", schema: positiveInteger }),

  // Work
  LEXGOLD_BCRYPT_COST: def<number>({ describe: "bcrypt's cost for new password hashes (read at start)", default: 10, expects: "a whole number from 4 to 31", schema: z.coerce.number<Raw>().int().min(4).max(31) }),
  LEXGOLD_HASH_THREADS: def<number | undefined>({ describe: "worker threads that hash and check passwords", default: undefined, defaultText: "the cores but one", expects: "a whole number above 0", schema: positiveInteger }),
  LEXGOLD_JOB_THREADS: def<number>({ describe: "worker threads for imports and other jobs", default: 1, expects: "a whole number above 0", schema: positiveInteger }),
  LEXGOLD_JOB_TIME_LIMIT_S: def<number>({ describe: "a job's time limit in seconds", default: 1800, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_JOB_HEAP_MB: def<number>({ describe: "a job's heap limit in MB", default: 2048, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_DERIVE_THREADS: def<boolean>({ describe: "0: derive in-process instead of in the derivation child", default: true, expects: '"0" or "1"', schema: z.string().transform((s) => s !== "0") }),
  LEXGOLD_DERIVE_TIME_LIMIT_S: def<number>({ describe: "one derivation's time limit in seconds", default: 300, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_DERIVE_HEAP_MB: def<number>({ describe: "one derivation's heap limit in MB", default: 1024, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_DERIVE_SPILL_CHARS: def<number>({ describe: "a derivation result longer than this goes through a file", default: 1 << 20, expects: "a number above 0", schema: positiveNumber, internal: true }),

  // Models (lib/server/models, docs/models.md)
  LEXGOLD_MODEL_PRIVATE_HOSTS: def<string>({ describe: "hosts (`host` or `host:port`) a coordinator may register on the page though they are on this machine or a private network, e.g. `127.0.0.1:11434`", default: "", defaultText: "none: the page registers public addresses only", expects: "host or host:port names, comma-separated", schema: text }),
  LEXGOLD_MODEL_MAX_REPLY_KB: def<number>({ describe: "the largest reply read from a model, in KB (past it the call fails)", default: 256, expects: "a number above 0", schema: positiveNumber }),
  LEXGOLD_MODEL_JOB_TIME_LIMIT_S: def<number>({ describe: "a model run's time limit in seconds (a run stopped by it goes on from where it was when started again)", default: 86400, expects: "a number above 0", schema: positiveNumber }),

  // Diagnostics and benchmarks
  LEXGOLD_DEBUG: def<boolean>({ describe: "any value: the CLI prints an error's stack", default: false, expects: "any text", schema: z.string().transform(() => true), readBy: "bin/output.ts" }),
  LEXGOLD_SCORE_LANE: def<boolean>({ describe: '"full": `lexgold score` skips the fast lane (parity tests)', default: false, expects: '"full"', schema: flag("full"), internal: true, readBy: "bin/commands/score-plain.ts, bin/commands/score.ts" }),
  LEXGOLD_BENCH_BARE: def<boolean>({ describe: "1: the load benchmark's bare route answers", default: false, expects: '"1"', schema: flag("1"), internal: true }),
  LEXGOLD_CONTAINER_BASE: def<string | undefined>({ describe: "npm run test:container: the base image to build on (default: the local stand-in of scripts/container/base.sh)", default: undefined, expects: "an image name", schema: text, internal: true, readBy: "scripts/container/test.ts" }),
  LEXGOLD_CONTAINER_IMAGE: def<string | undefined>({ describe: "npm run test:container: the image's name", default: undefined, defaultText: "localhost/lexgold:test", expects: "an image name", schema: text, internal: true, readBy: "scripts/container/test.ts" }),
  LEXGOLD_CONTAINER_BUILT: def<boolean>({ describe: "npm run test:container: 1 tests the image as built before, without building it", default: false, expects: '"1"', schema: flag("1"), internal: true, readBy: "scripts/container/test.ts" }),
  LEXGOLD_CONTAINER_CA: def<string | undefined>({ describe: "npm run test:container: the certificate authorities npm trusts in the build", default: undefined, defaultText: "/etc/ssl/certs/ca-certificates.crt", expects: "a file path", schema: text, internal: true, readBy: "scripts/container/test.ts" }),
  LEXGOLD_CONTAINER_KEEP: def<boolean>({ describe: "npm run test:container: 1 keeps the working container and its folders", default: false, expects: '"1"', schema: flag("1"), internal: true, readBy: "scripts/container/test.ts" }),
  LEXGOLD_LOOP_PROBE: def<string | undefined>({ describe: "a file each serving process writes its longest event-loop delay to (bench:loop)", default: undefined, expects: "a file path", schema: text, internal: true, readBy: "scripts/serve.mjs" }),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N]["default"];

/** A bad value, naming the variable. */
export class ConfigError extends Error {}

const parsed = new Map<SettingName, { raw: string | undefined; value: unknown }>();

function parse<N extends SettingName>(name: N, raw: string | undefined): SettingValue<N> {
  const s = SETTINGS[name] as Setting<SettingValue<N>>;
  if (raw === undefined) return s.default;
  const r = s.schema.safeParse(raw.trim());
  if (r.success) return r.data;
  const message = `${name} must be ${s.expects}, not "${raw}"`;
  if (s.invalid === "warn") {
    console.error(`lexgold: ${message}; using ${s.defaultText ?? describeDefault(s.default)}`);
    return s.default;
  }
  throw new ConfigError(message);
}

function describeDefault(v: unknown): string {
  if (v && typeof v === "object" && "rate" in v && "burst" in v) return `${v.rate},${v.burst}`;
  return String(v);
}

/** The setting's value now: parsed when the variable's text changed since the last call, else remembered. */
export function setting<N extends SettingName>(name: N): SettingValue<N> {
  const text = process.env[name];
  const raw = text === undefined || text.trim() === "" ? undefined : text;
  const known = parsed.get(name);
  if (known && known.raw === raw) return known.value as SettingValue<N>;
  const value = parse(name, raw);
  parsed.set(name, { raw, value });
  return value;
}

/** The whole environment (string values only): for a child process, or a plan checked against it. */
export function environment(): NodeJS.ProcessEnv & Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out as NodeJS.ProcessEnv & Record<string, string>;
}

/** What an environment variable holding a model's API key may be called (`--api-key-env`). */
const MODEL_KEY_VAR = /^[A-Z_][A-Z0-9_]{0,99}$/;

/**
 * Why `name` may not hold a model's API key, or null when it may: a name of the right shape that is none
 * of lexgold's own settings (NEXTAUTH_SECRET above all: a model server would receive it as a bearer token).
 */
export function modelKeyVarProblem(name: string): string | null {
  if (!MODEL_KEY_VAR.test(name)) return `"${name}" is not an environment variable's name (capitals, digits and _, e.g. OPENAI_API_KEY)`;
  if (name in SETTINGS || name.startsWith("NEXTAUTH_") || name.startsWith("LEXGOLD_")) return `${name} is one of lexgold's own settings, never sent to a model`;
  return null;
}

/** A model's API key from the environment variable `name` (checked by modelKeyVarProblem first), or undefined when unset or empty. */
export function modelKeyFromEnv(name: string): string | undefined {
  if (modelKeyVarProblem(name) !== null) return undefined;
  const v = process.env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}
