#!/usr/bin/env node
/**
 * Bundle the worker entries of lib/server/runtime/ (derivations, jobs, bcrypt)
 * into plain JavaScript with esbuild, so that the running app only loads them.
 *
 * - At build time (`npm run build`, and `npm ci`'s prepare through
 *   scripts/build-cli.mjs): into dist-workers/ of the checkout, as
 *   dist-workers/<name>.mjs, with dist-workers/manifest.json listing the sources
 *   they were built from. A production server loads these and never builds or
 *   writes anything into the checkout (lib/server/runtime/worker-files.ts).
 * - On demand, outside production (next dev, vitest, a CLI run from sources
 *   newer than the bundles): `--out DIR --json` writes content-named files
 *   (<name>-<hash>.mjs) into DIR, a directory outside the checkout
 *   (LEXGOLD_CACHE_DIR or the system temp dir), and prints {name: file}.
 *   There the native better-sqlite3 is imported by its absolute path in the
 *   checkout's node_modules, which a file in the temp dir could not resolve.
 * - `server-only` (the marker lib/server modules import) resolves to an empty
 *   module, as in the CLI bundle; better-sqlite3 stays external; everything
 *   else (bcryptjs, drizzle, the app's code) is bundled in.
 *
 *   node scripts/build-workers.mjs [--out DIR --json] [--quiet]
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the build-time bundles go (read by lib/server/runtime/worker-files.ts). */
export const distDir = path.join(root, "dist-workers");

/** Each worker: its name (the file name) and its entry. */
export const WORKERS = {
  derive: "lib/server/jobs/derive-worker.ts",
  jobs: "lib/server/jobs/jobs-worker.ts",
  hash: "lib/server/runtime/hash-worker.ts",
  // Not a worker: what scripts/serve.mjs serves itself, before Next (the save).
  serve: "lib/serve/index.ts",
};
/** Files besides the bundled sources whose change makes new bundles. */
const BUILD_INPUTS = ["scripts/build-workers.mjs", "package-lock.json", "tsconfig.json"];
const NATIVE = ["better-sqlite3"];

const serverOnly = {
  name: "server-only",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "lexgold-empty" }));
    build.onLoad({ filter: /.*/, namespace: "lexgold-empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/** Native packages imported by absolute path (a bundle outside the checkout cannot resolve them by name). */
const nativeByPath = {
  name: "native-by-path",
  setup(build) {
    const req = createRequire(path.join(root, "package.json"));
    for (const name of NATIVE) {
      build.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: req.resolve(name), external: true }));
    }
  },
};

function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/**
 * Build every worker. Without `outDir`: into dist-workers/ with a manifest. With it: content-named
 * files there (created 0700 if missing). Returns { name: absolute file }.
 */
export async function buildWorkers({ outDir, quiet = true } = {}) {
  const t = performance.now();
  const started = new Date();
  const cache = outDir !== undefined;
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: WORKERS,
    outdir: cache ? outDir : distDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: false,
    format: "esm",
    platform: "node",
    target: "node20",
    external: cache ? [] : NATIVE,
    plugins: cache ? [serverOnly, nativeByPath] : [serverOnly],
    // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
    banner: { js: 'import { createRequire as __lexgoldCreateRequire } from "node:module"; const require = __lexgoldCreateRequire(import.meta.url);' },
    legalComments: "none",
    logLevel: "silent",
    metafile: true,
    write: false,
  });
  for (const w of result.warnings) process.stderr.write(`build-workers: warning: ${w.text}${w.location ? ` (${w.location.file}:${w.location.line})` : ""}\n`);
  const files = {};
  if (cache) fs.mkdirSync(outDir, { recursive: true, mode: 0o700 });
  for (const f of result.outputFiles) {
    const name = path.basename(f.path, ".mjs");
    if (cache) {
      const hash = crypto.createHash("sha256").update(f.contents).digest("hex").slice(0, 16);
      const file = path.join(outDir, `${name}-${hash}.mjs`);
      if (!fs.existsSync(file)) writeAtomically(file, f.contents);
      files[name] = file;
    } else {
      writeAtomically(f.path, f.contents);
      fs.utimesSync(f.path, started, started);
      files[name] = f.path;
    }
  }
  if (!cache) {
    const sources = [...Object.keys(result.metafile.inputs).filter((i) => !i.includes(":") && !i.includes("node_modules/")), ...BUILD_INPUTS].sort();
    writeAtomically(path.join(distDir, "manifest.json"), JSON.stringify({ workers: Object.keys(WORKERS), sources }));
  }
  if (!quiet) {
    const bytes = result.outputFiles.reduce((s, f) => s + f.contents.length, 0);
    console.log(`built ${Object.keys(files).length} worker bundles in ${path.relative(root, cache ? outDir : distDir) || outDir} (${(bytes / 1e6).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(2)} s`);
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--out");
  const outDir = i >= 0 ? path.resolve(process.argv[i + 1]) : undefined;
  buildWorkers({ outDir, quiet: process.argv.includes("--quiet") || process.argv.includes("--json") }).then(
    (files) => {
      if (process.argv.includes("--json")) process.stdout.write(JSON.stringify(files) + "\n");
    },
    (e) => {
      process.stderr.write(`build-workers: ${e instanceof Error ? e.message : e}\n`);
      process.exit(1);
    },
  );
}
