/**
 * Where a worker's code comes from (#28): the bundles the build made, never a
 * build at run time in production.
 *
 * - Production (NODE_ENV=production: `lexgold start`, scripts/serve.mjs): the
 *   worker is dist-workers/<name>.mjs of the checkout, built by `npm run build`
 *   and by `npm ci` (scripts/build-cli.mjs runs scripts/build-workers.mjs).
 *   Nothing is built or written; a missing bundle fails the work that needs it
 *   with a message naming the command that makes it.
 * - Elsewhere (next dev, vitest, the CLI): the same bundle when it is newer than
 *   every source it was built from (dist-workers/manifest.json); otherwise the
 *   workers are built once per process, in a child process, into
 *   LEXGOLD_CACHE_DIR or a private directory of the system temp dir — never into
 *   the checkout.
 */
import "server-only";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../../../db/client";
import { environment, setting } from "../../config";

/** The workers scripts/build-workers.mjs builds. */
export const WORKER_NAMES = ["derive", "jobs", "hash"] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

interface State {
  built: Promise<Record<string, string>> | null;
  current: Map<string, boolean>;
  warned: boolean;
}
// On globalThis: Next may load this module once per server bundle, and one build per process is enough.
const g = globalThis as unknown as { lexgoldWorkerFiles?: State };
const state = (): State => (g.lexgoldWorkerFiles ??= { built: null, current: new Map(), warned: false });

/** The directory of the build-time bundles. */
export function distWorkerDir(root = projectRoot()): string {
  return path.join(root, "dist-workers");
}

/** Where anything lexgold must write outside its data goes: LEXGOLD_CACHE_DIR, else a directory of the system temp dir. */
function cacheDir(): string {
  const set = setting("LEXGOLD_CACHE_DIR");
  if (set) return path.resolve(set);
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return path.join(os.tmpdir(), `lexgold-cache-${uid}`);
}

/** Whether the bundle is at least as new as every source listed in the manifest (false when either is missing). */
function isCurrent(root: string, file: string): boolean {
  const known = state().current.get(file);
  if (known !== undefined) return known;
  let current = false;
  try {
    const built = fs.statSync(file).mtimeMs;
    const manifest = JSON.parse(fs.readFileSync(path.join(distWorkerDir(root), "manifest.json"), "utf8")) as { sources: string[] };
    current = manifest.sources.every((s) => fs.statSync(path.join(root, s)).mtimeMs <= built);
  } catch {
    current = false;
  }
  state().current.set(file, current);
  return current;
}

/** Build every worker into the cache directory, in a child process (esbuild does not hold this event loop). */
function buildIntoCache(root: string): Promise<Record<string, string>> {
  const s = state();
  s.built ??= new Promise<Record<string, string>>((resolve, reject) => {
    const out = path.join(cacheDir(), "workers");
    const child = spawn(process.execPath, [path.join(root, "scripts", "build-workers.mjs"), "--out", out, "--json"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...environment(), NODE_OPTIONS: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) {
        try {
          return resolve(JSON.parse(stdout) as Record<string, string>);
        } catch {
          /* fall through */
        }
      }
      reject(new Error(`building the worker bundles failed (${stderr.trim() || `exit ${code}`})`));
    });
  });
  s.built.catch(() => (s.built = null));
  return s.built;
}

/** The JavaScript file of worker `name` (see the header). */
export async function workerFile(name: WorkerName): Promise<string> {
  const root = projectRoot();
  const dist = path.join(distWorkerDir(root), `${name}.mjs`);
  if (process.env.NODE_ENV === "production") {
    if (!fs.existsSync(dist)) {
      throw new Error(`the worker bundle ${path.relative(root, dist)} is missing: run \`npm run build\` (or \`npm run build:cli\`) in ${root}`);
    }
    if (!isCurrent(root, dist) && !state().warned) {
      state().warned = true;
      console.warn(`lexgold: warning: ${path.relative(root, distWorkerDir(root))}/ is older than its sources: run \`npm run build\` (serving the bundles as built)`);
    }
    return dist;
  }
  if (isCurrent(root, dist)) return dist;
  const files = await buildIntoCache(root);
  if (!files[name]) throw new Error(`no worker bundle named ${name}`);
  return files[name];
}
