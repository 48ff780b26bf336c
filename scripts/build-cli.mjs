#!/usr/bin/env node
/**
 * Bundle the command line (bin/cli.ts and what it imports) into plain
 * JavaScript with esbuild: dist-cli/lexgold.mjs plus chunks, so `lexgold`
 * starts without transpiling TypeScript. Run by `npm run build:cli`, by
 * `npm ci`/`npm install` (the prepare script) and by bin/lexgold itself when
 * a source is newer than the bundle.
 *
 * - Every `await import()` in the CLI becomes a chunk of its own that is only
 *   read when a command needs it (so `--help` and `score` never load the
 *   database layer).
 * - The plain score path (bin/commands/score-plain.ts, which bin/lexgold.cjs
 *   and the entry try first) is built on its own into one self-contained
 *   CommonJS file, content-named like the chunks: one module to load instead
 *   of ten shared chunks, and no ES module loader to start (together a third
 *   of the time a 15,000-item file takes beyond Node's own start).
 * - dist-cli/manifest.json names that file and lists the sources the bundle
 *   was built from, for bin/lexgold.cjs's check that the bundle is current.
 * - `server-only` (the marker lib/server modules import) resolves to an empty
 *   module here: the CLI is server code. Next keeps enforcing the marker for
 *   app/ builds.
 * - better-sqlite3 (native) stays external, resolved from node_modules.
 * - Safe against concurrent builds and running CLIs: chunks are named by
 *   their content and written before the entry (and the manifest after it),
 *   and every file is written to a temporary name and renamed into place.
 *
 * - The worker bundles of lib/server/runtime/ (dist-workers/) are built here
 *   too (scripts/build-workers.mjs), so that `npm ci` and `npm run build` both
 *   leave a checkout whose server never builds anything at run time.
 *
 *   node scripts/build-cli.mjs [--quiet] [--metafile FILE]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { buildWorkers } from "./build-workers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const outDir = path.join(root, "dist-cli");
const entryName = "lexgold";
/** dist-cli/manifest.json: see bin/lexgold.cjs. */
const MANIFEST = "manifest.json";
/** Files besides the bundled sources whose change makes a new bundle. */
const BUILD_INPUTS = ["scripts/build-cli.mjs", "package-lock.json", "tsconfig.json"];

/**
 * Packages left out of the bundle, loaded from node_modules at run time: native code, and tinypool
 * (it starts its workers from its own files, found relative to its module).
 */
const EXTERNAL = ["better-sqlite3", "tinypool"];

const serverOnly = {
  name: "server-only",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "lexgold-empty" }));
    build.onLoad({ filter: /.*/, namespace: "lexgold-empty" }, () => ({ contents: "", loader: "js" }));
  },
};

function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

export async function buildCli({ quiet = false, metafile } = {}) {
  const t = performance.now();
  // The entry's time is set to the build's start below: a source saved during the build is newer than it.
  const started = new Date();
  const common = {
    absWorkingDir: root,
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
    banner: { js: 'import { createRequire as __lexgoldCreateRequire } from "node:module"; const require = __lexgoldCreateRequire(import.meta.url);' },
    legalComments: "none",
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "silent",
    metafile: true,
    write: false,
  };
  // CommonJS, so that bin/lexgold.cjs can require() it without starting Node's ES module loader.
  const plain = await esbuild.build({
    ...common,
    format: "cjs",
    outExtension: { ".js": ".cjs" },
    banner: {},
    entryPoints: { "score-plain": "bin/commands/score-plain.ts" },
    entryNames: "chunks/[name]-[hash]",
    splitting: false,
    plugins: [serverOnly],
  });
  const plainFile = plain.outputFiles.find((f) => f.path.endsWith(".cjs"));
  // The entry's `import("./commands/score-plain")` loads that file.
  const plainPath = `./chunks/${path.basename(plainFile.path)}`;
  const plainImport = {
    name: "score-plain",
    setup(build) {
      build.onResolve({ filter: /^\.\/commands\/score-plain$/ }, () => ({ path: plainPath, external: true }));
    },
  };
  const main = await esbuild.build({
    ...common,
    entryPoints: { [entryName]: "bin/cli.ts" },
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    plugins: [serverOnly, plainImport],
  });
  const result = {
    warnings: [...plain.warnings, ...main.warnings],
    outputFiles: [...plain.outputFiles, ...main.outputFiles],
    metafile: { inputs: { ...plain.metafile.inputs, ...main.metafile.inputs }, outputs: { ...plain.metafile.outputs, ...main.metafile.outputs } },
  };
  for (const w of result.warnings) process.stderr.write(`build-cli: warning: ${w.text}${w.location ? ` (${w.location.file}:${w.location.line})` : ""}\n`);
  const entry = path.join(outDir, `${entryName}.mjs`);
  const written = new Set();
  // Chunks first (content-named, so an existing one is already right), then the entry that imports them.
  for (const f of result.outputFiles) {
    written.add(f.path);
    if (f.path === entry || fs.existsSync(f.path)) continue;
    writeAtomically(f.path, f.contents);
  }
  writeAtomically(entry, result.outputFiles.find((f) => f.path === entry).contents);
  fs.utimesSync(entry, started, started);
  // What bin/lexgold.cjs reads before running anything: the plain score call's file, and the
  // sources the bundle was built from (a bundle older than any of them is rebuilt first).
  const sources = [...Object.keys(result.metafile.inputs).filter((i) => !i.includes(":") && !i.includes("node_modules/")), ...BUILD_INPUTS].sort();
  writeAtomically(path.join(outDir, MANIFEST), JSON.stringify({ plain: plainPath, sources }));
  // Chunks of earlier builds: a CLI started from an older entry may still import them, so each
  // is noted when a build first leaves it out (retired.json) and removed 10 minutes after that.
  const chunkDir = path.join(outDir, "chunks");
  const retiredFile = path.join(outDir, "retired.json");
  let retired = {};
  try {
    retired = JSON.parse(fs.readFileSync(retiredFile, "utf8"));
  } catch {
    // none yet, or torn by a concurrent build: start again
  }
  const now = Date.now();
  const still = {};
  for (const name of fs.readdirSync(chunkDir)) {
    const p = path.join(chunkDir, name);
    if (written.has(p)) continue;
    const since = retired[name] ?? now;
    if (now - since > 10 * 60 * 1000) fs.rmSync(p, { force: true });
    else still[name] = since;
  }
  writeAtomically(retiredFile, JSON.stringify(still));
  if (metafile) fs.writeFileSync(metafile, JSON.stringify(result.metafile));
  if (!quiet) {
    const bytes = result.outputFiles.reduce((s, f) => s + f.contents.length, 0);
    console.log(`built ${path.relative(root, entry)} and ${result.outputFiles.length - 1} chunks (${(bytes / 1e6).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(2)} s`);
  }
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--metafile");
  const quiet = process.argv.includes("--quiet");
  Promise.all([buildCli({ quiet, metafile: i >= 0 ? process.argv[i + 1] : undefined }), buildWorkers({ quiet })]).catch((e) => {
    process.stderr.write(`build-cli: ${e instanceof Error ? e.message : e}\n`);
    process.exit(1);
  });
}
