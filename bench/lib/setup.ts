/**
 * Shared set-up of the load and crash runs: arguments, a throw-away database
 * seeded through lib/server, the production server, every account signed in.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { signIn } from "./auth";
import type { Annotator } from "./load-run";
import { LOAD_PASSWORD, type Seeded, prefillResponses, seedLoadDb } from "./seed";
import { buildIfNeeded, freePort, ROOT, Server } from "./server";

/** `--name value` from argv, else the environment variable, else the default. */
export function numberArg(name: string, env: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i >= 0 ? process.argv[i + 1] : process.env[env];
  if (raw === undefined || raw === "") return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0) {
    process.stderr.write(`--${name} (or ${env}) needs a number ≥ 0, got ${JSON.stringify(raw)}\n`);
    process.exit(2);
  }
  return v;
}

export function stringArg(name: string, env: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : process.env[env]) || fallback;
}

export const flag = (name: string) => process.argv.includes(`--${name}`);

export interface Rig {
  dir: string;
  dbFile: string;
  server: Server;
  seeded: Seeded;
  annotators: Annotator[];
  coordinatorCookie: string;
  distDir: string;
  cleanup: () => Promise<void>;
}

export async function setUp(opts: {
  annotators: number;
  instances: number;
  log: (s: string) => void;
  prefill?: number;
  /** Extra environment for the server (e.g. the request limits, which the rig turns off: lib/server.ts LIMITS_OFF). */
  serverEnv?: Record<string, string>;
  /** Serve the bare route (lib/server/ops/bench-bare.ts) too. */
  bareRoute?: boolean;
}): Promise<Rig> {
  const { log } = opts;
  const distDir = stringArg("dist", "LOAD_DIST_DIR", ".next-bench");
  buildIfNeeded(distDir, flag("build"), log);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-load-"));
  const dbFile = path.join(dir, "load.db");
  process.env.LEXGOLD_BCRYPT_COST ??= "4";
  const perLexelt = 10;
  const seeded = await seedLoadDb(dbFile, { annotators: opts.annotators, lexelts: Math.ceil(opts.instances / perLexelt), instancesPerLexelt: perLexelt });
  log(`seeded ${dbFile}: ${seeded.instanceRefs.length} instances, ${seeded.annotators.length} annotators + a coordinator in ${(seeded.seedMs / 1000).toFixed(1)} s`);
  if (opts.prefill) {
    const t = performance.now();
    const n = prefillResponses(dbFile, seeded.projectId, opts.prefill);
    log(`prefilled ${n} responses (${opts.prefill} other annotators on every instance) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }

  const server = new Server({
    distDir,
    dbFile,
    secretFile: path.join(dir, "secret"),
    port: await freePort(),
    // The bare route (lib/server/ops/bench-bare.ts) answers only in a server started so.
    env: { ...(opts.serverEnv ?? {}), ...(opts.bareRoute ? { LEXGOLD_BENCH_BARE: "1" } : {}) },
    // --cpu-prof DIR: the server writes a V8 CPU profile there when it stops.
    nodeArgs: stringArg("cpu-prof", "LOAD_CPU_PROF", "") ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(stringArg("cpu-prof", "LOAD_CPU_PROF", ""))}`] : [],
  });
  const startMs = await server.start();
  log(`server up at ${server.base} in ${(startMs / 1000).toFixed(1)} s (pid ${server.pid})`);

  const t = performance.now();
  const annotators: Annotator[] = [];
  // A few at a time, as people arriving in the morning would.
  for (let i = 0; i < seeded.annotators.length; i += 5) {
    const batch = seeded.annotators.slice(i, i + 5);
    const cookies = await Promise.all(batch.map((a) => signIn(server.base, a.name, LOAD_PASSWORD)));
    batch.forEach((a, k) => annotators.push({ name: a.name, userId: a.userId, cookie: cookies[k] }));
  }
  const coordinatorCookie = await signIn(server.base, seeded.coordinator, LOAD_PASSWORD);
  log(`signed in ${annotators.length} annotators and the coordinator through next-auth in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  return {
    dir,
    dbFile,
    server,
    seeded,
    annotators,
    coordinatorCookie,
    distDir,
    cleanup: async () => {
      await server.stop();
      if (!flag("keep")) fs.rmSync(dir, { recursive: true, force: true });
      else log(`kept ${dir}`);
    },
  };
}

/** A short tag unique to this run (letters and digits), part of every substitute sent. */
export function runTag(): string {
  return "q" + crypto.randomBytes(3).toString("hex");
}
