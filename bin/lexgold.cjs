#!/usr/bin/env node
/**
 * lexgold command line (bin/lexgold links here). Runs the plain-JavaScript
 * bundle that scripts/build-cli.mjs makes of bin/cli.ts (npm run build:cli;
 * npm ci does it too), as CommonJS so that the most common call starts with
 * nothing but Node:
 *
 * - A stale bundle never runs: when a source it was built from (listed in
 *   dist-cli/manifest.json), the build script or package-lock.json is newer
 *   than dist-cli/lexgold.mjs, or the bundle is missing, it is rebuilt first;
 *   if that fails, bin/cli.ts runs through tsx instead, with a warning.
 * - `lexgold score SYSTEM GOLD [-t best|oot] [--json] [-q]` is tried with the
 *   plain score call's own file (bin/commands/score-plain.ts, bundled as
 *   CommonJS): no ES module loader, no commander. When it declines (other
 *   options, or files outside the fast lane's form), or for any other
 *   command, the bundle's `main` runs it.
 *
 * Plain JavaScript, not TypeScript: it runs before any bundle exists.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const root = path.dirname(__dirname);
const outDir = path.join(root, "dist-cli");
const entry = path.join(outDir, "lexgold.mjs");
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.LEXGOLD_ROOT = process.env.LEXGOLD_ROOT || root;

/** dist-cli/manifest.json (written by the build after the bundle); null when it cannot be read. */
function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8"));
  } catch {
    return null;
  }
}

/** Whether the bundle is missing or older than a source it was built from (or one is gone). */
function stale(manifest) {
  try {
    const built = fs.statSync(entry).mtimeMs;
    for (const source of manifest.sources) if (fs.statSync(path.join(root, source)).mtimeMs > built) return true;
    return false;
  } catch {
    return true;
  }
}

/** Run Node with these arguments in a child sharing this process's stdio (child_process loaded only then). */
function node(args) {
  return require("node:child_process").spawnSync(process.execPath, args, { stdio: "inherit" });
}

/** Run bin/cli.ts through tsx in a child, ending this process as it ends. */
function runSources() {
  // --conditions=react-server lets tsx load lib/server (marked 'server-only'); the bundle needs no such flag.
  const tsx = pathToFileURL(path.join(root, "node_modules", "tsx", "dist", "loader.mjs")).href;
  const r = node(["--conditions=react-server", "--import", tsx, path.join(root, "bin", "cli.ts"), ...process.argv.slice(2)]);
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

function launch() {
  let manifest = readManifest();
  if (!manifest || stale(manifest)) {
    const built = node([path.join(root, "scripts", "build-cli.mjs"), "--quiet"]);
    manifest = built.status === 0 ? readManifest() : null;
    if (!manifest) {
      process.stderr.write("lexgold: warning: could not rebuild dist-cli/lexgold.mjs (above); running bin/cli.ts through tsx instead (slower)\n");
      runSources();
      return;
    }
  }
  let plainTried = false;
  if (process.argv[2] === "score") {
    const plain = require(path.join(outDir, manifest.plain));
    plain.guardOutput();
    try {
      if (plain.scorePlain(process.argv.slice(3))) return;
    } catch (err) {
      plain.exitWithPlainError(err);
    }
    plainTried = true;
  }
  import(pathToFileURL(entry).href).then(
    (cli) => cli.main({ plainTried }),
    (err) => {
      process.stderr.write(`lexgold: cannot load ${path.relative(root, entry)}: ${err instanceof Error ? err.message.split("\n")[0] : err}\n`);
      process.exit(1);
    },
  );
}

launch();
