/**
 * Gold, mwgold and agreement off the request thread (issue #14): the jobs of
 * lib/server/derive-jobs.ts run in one worker per database file, which opens
 * its own read-only connection to the same WAL file, so a request only awaits
 * the answer while saves go on. The worker keeps the results under the
 * project's data version, so repeated page loads do not recompute.
 *
 * The worker is a child process started under `nice -n 10` (IPC with
 * structured-clone serialization), not a worker thread: measured with 50
 * annotators saving while agreement over 100,000 instances × 5 was recomputed,
 * a worker thread at nice 10 still took the CPU from saves, because V8's
 * garbage-collection helper threads, which a worker thread shares with the
 * server, run at the server's priority. In a process of its own every thread
 * of the derivation yields to the server.
 *
 * The worker's code is lib/server/runtime/derive-worker.ts bundled into plain
 * JavaScript with esbuild (a dependency; run in its own process, so the build
 * does not hold the event loop) once per process, written under
 * node_modules/.cache/lexgold/ (content-named, so concurrent servers agree)
 * where it resolves better-sqlite3 from the project's node_modules.
 *
 * An in-memory database (tests) or LEXGOLD_DERIVE_THREADS=0 runs the job
 * in-process instead, after yielding once. A worker that dies fails its jobs
 * and is replaced on the next one. Errors keep their class (AuthError,
 * NotFoundError, InputError) so routes and pages answer as before.
 */
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { type ChildProcess, spawn } from "node:child_process";
import { Readable } from "node:stream";
import { type Db, projectRoot } from "../../../db/client";
import { requireProject } from "../actor";
import { type DeriveJob, type DeriveResult, UPLOAD_OPS, runDeriveJob } from "../derive-jobs";
import { AuthError, InputError, NotFoundError } from "../errors";
import { SLICE, stringSlices, textStream } from "../stream";

/** The worker's nice value: derivation yields the CPU to saves and page requests when both want it. */
const DERIVE_NICE = 10;

/** A worker's answer before its spilled texts are read back. */
interface Raw {
  value: unknown;
  files?: Record<string, string>;
}

interface Pending {
  resolve: (v: Raw) => void;
  reject: (e: Error) => void;
}

interface WorkerError {
  kind: "auth" | "notFound" | "input" | "other";
  message: string;
  status?: number;
  fieldErrors?: Record<string, string>;
  details?: string[];
  stack?: string;
}

function rehydrate(e: WorkerError): Error {
  if (e.kind === "auth") return new AuthError(e.message, e.status === 401 ? 401 : 403);
  if (e.kind === "notFound") return new NotFoundError(e.message);
  if (e.kind === "input") return new InputError(e.message, e.fieldErrors ?? {}, e.details ?? []);
  const err = new Error(e.message);
  if (e.stack) err.stack = `${e.stack}\n    (on the derivation worker)`;
  return err;
}

let bundle: Promise<string> | null = null;

/** Bundle derive-worker.ts (once per process); the path of the JavaScript file. */
function workerFile(): Promise<string> {
  bundle ??= (async () => {
    const root = projectRoot();
    const esbuildName = "esbuild";
    const esbuild = createRequire(path.join(root, "package.json"))(esbuildName) as typeof import("esbuild");
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [path.join(root, "lib", "server", "runtime", "derive-worker.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      external: ["better-sqlite3"],
      plugins: [
        {
          name: "server-only",
          setup(build) {
            build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "lexgold-empty" }));
            build.onLoad({ filter: /.*/, namespace: "lexgold-empty" }, () => ({ contents: "", loader: "js" }));
          },
        },
      ],
      banner: { js: 'import { createRequire as __lexgoldCreateRequire } from "node:module"; const require = __lexgoldCreateRequire(import.meta.url);' },
      legalComments: "none",
      logLevel: "silent",
      write: false,
    });
    const code = result.outputFiles[0].contents;
    const hash = crypto.createHash("sha256").update(code).digest("hex").slice(0, 16);
    const dir = path.join(root, "node_modules", ".cache", "lexgold");
    const file = path.join(dir, `derive-worker-${hash}.mjs`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, code);
      fs.renameSync(tmp, file);
    }
    return file;
  })();
  bundle.catch(() => (bundle = null));
  return bundle;
}

/** `nice`, where the system has it (the worker then runs at a lower priority in every thread). */
function niceCommand(): string | null {
  for (const p of ["/usr/bin/nice", "/bin/nice"]) if (fs.existsSync(p)) return p;
  return null;
}

/** Put back an answer's large texts, which the worker wrote to temporary files (see derive-worker.ts), and delete the files. */
async function readSpilled(value: Record<string, unknown>, files: Record<string, string>): Promise<unknown> {
  try {
    for (const [k, file] of Object.entries(files)) value[k] = await fs.promises.readFile(file, "utf8");
    return value;
  } finally {
    for (const file of Object.values(files)) await fs.promises.unlink(file).catch(() => {});
  }
}

class DeriveWorker {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly file: string) {}

  private async start(): Promise<ChildProcess> {
    if (this.child) return this.child;
    this.starting ??= workerFile().then((code) => {
      const nice = niceCommand();
      const [cmd, args] = nice ? [nice, ["-n", String(DERIVE_NICE), process.execPath, code]] : [process.execPath, [code]];
      const c = spawn(cmd, args, {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
        serialization: "advanced",
        env: { ...process.env, LEXGOLD_DERIVE_DB: this.file },
      });
      c.unref();
      c.channel?.unref();
      c.on("message", (m: { id: number; value?: unknown; files?: Record<string, string>; error?: WorkerError }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (!p) {
          for (const f of Object.values(m.files ?? {})) fs.promises.unlink(f).catch(() => {});
          return;
        }
        if (this.pending.size === 0) c.channel?.unref();
        if (m.error) p.reject(rehydrate(m.error));
        else p.resolve({ value: m.value, files: m.files });
      });
      const lost = (e: Error) => {
        if (this.child !== c) return;
        this.child = null;
        this.starting = null;
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      };
      c.on("error", lost);
      c.on("exit", (code, signal) => lost(new Error(`the derivation worker exited (${signal ?? code})`)));
      this.child = c;
      return c;
    });
    this.starting.catch(() => (this.starting = null));
    return this.starting;
  }

  /** The worker's answer: the value, and the temporary files holding its large texts (see derive-worker.ts), for the caller to read or stream and delete. */
  async run(job: DeriveJob): Promise<Raw> {
    const c = await this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Keep the process alive while a job is out (and let it exit when idle).
      c.channel?.ref();
      c.send({ id, job }, (e) => {
        if (e && this.pending.delete(id)) reject(e);
      });
    });
  }
}

const workers = new Map<string, DeriveWorker>();
const inFlight = new Map<string, Promise<unknown>>();

/** Whether jobs for this database run on a worker thread (a file database, and not turned off). */
export function derivesOnWorker(db: Db): boolean {
  const file = db.$client.name;
  return process.env.LEXGOLD_DERIVE_THREADS !== "0" && !db.$client.memory && file !== "" && file !== ":memory:";
}

/**
 * Run a derivation job: on the worker thread for a file database, else
 * in-process. Who asks is checked here first (so a refusal costs no trip to the
 * worker) and again by the job.
 */
export async function derive<J extends DeriveJob>(db: Db, job: J): Promise<DeriveResult<J>> {
  requireProject(db, job.actor, job.projectId, { coordinator: true });
  if (!derivesOnWorker(db)) {
    await new Promise((r) => setImmediate(r));
    return runDeriveJob(db, job);
  }
  const file = path.resolve(db.$client.name);
  let w = workers.get(file);
  if (!w) workers.set(file, (w = new DeriveWorker(file)));
  const read = (r: Raw) => (r.files ? readSpilled(r.value as Record<string, unknown>, r.files) : r.value);
  // The same job already out (a reload while the first is computing): share its answer. Never an upload's.
  if (UPLOAD_OPS.has(job.op)) return (await read(await w.run(job))) as DeriveResult<J>;
  const key = `${file}\u0000${JSON.stringify(job)}`;
  let p = inFlight.get(key);
  if (!p) {
    p = w
      .run(job)
      .then(read)
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return (await p) as DeriveResult<J>;
}

/** The fields of a job's answer that hold text. */
type TextField<J extends DeriveJob> = { [K in keyof DeriveResult<J>]: DeriveResult<J>[K] extends string ? K : never }[keyof DeriveResult<J>];

/**
 * A download from a derivation: the answer without its `field`, and that field's
 * text as a stream of UTF-8 bytes. When the worker wrote the text to a
 * temporary file (a large one), the file itself is streamed and then deleted:
 * the text never becomes one string on the request thread, which decoding and
 * re-encoding tens of MB held for 80–180 ms. Not shared between callers.
 */
export async function deriveDownload<J extends DeriveJob, K extends TextField<J>>(
  db: Db,
  job: J,
  field: K,
): Promise<{ value: Omit<DeriveResult<J>, K>; body: ReadableStream<Uint8Array> }> {
  requireProject(db, job.actor, job.projectId, { coordinator: true });
  if (!derivesOnWorker(db)) {
    const value = await derive(db, job);
    return { value, body: textStream(stringSlices(value[field] as string)) };
  }
  const file = path.resolve(db.$client.name);
  let w = workers.get(file);
  if (!w) workers.set(file, (w = new DeriveWorker(file)));
  const { value, files } = await w.run(job);
  const own = files?.[field as string];
  const rest = files ? Object.fromEntries(Object.entries(files).filter(([k]) => k !== field)) : {};
  const v = (Object.keys(rest).length > 0 ? await readSpilled(value as Record<string, unknown>, rest) : value) as DeriveResult<J>;
  if (!own) return { value: v, body: textStream(stringSlices(v[field] as string)) };
  const stream = fs.createReadStream(own, { highWaterMark: SLICE });
  stream.on("close", () => fs.promises.unlink(own).catch(() => {}));
  return { value: v, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
}
