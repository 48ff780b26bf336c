/**
 * knip: unused files, exports, types and dependencies, checked by `npm run check:unused`
 * (scripts/test-all.sh runs it right after the type check). Entries are what runs: the Next
 * App Router files (the next plugin: app/**\/page.tsx, layout.tsx, route.ts, ..., proxy.ts,
 * instrumentation.ts, next.config.ts), the command line, the worker entries, the scripts, the
 * tests, the benchmarks and the drizzle config. An export only tests use still counts as used.
 */
import type { KnipConfiguration } from "knip";

const config: KnipConfiguration = {
  entry: [
    // The command line: the bundled entry, its launcher and the plain score path built on its own.
    "bin/cli.ts",
    "bin/lexgold.cjs",
    "bin/commands/score-plain.ts",
    // Build, serve and fixture scripts (scripts/build-*.mjs bundle the CLI and the workers).
    "scripts/*.{mjs,ts}",
    // The container image's health check (the Containerfile's HEALTHCHECK) and test (npm run test:container).
    "scripts/container/*.{mjs,ts}",
    // Worker entries, loaded by file name rather than imported (and the tests' own workers).
    "lib/server/**/*-worker.ts",
    // What scripts/serve.mjs loads (bundled by scripts/build-workers.mjs into dist-workers/serve.mjs).
    "lib/serve/index.ts",
    "test/fixtures/**/*.{mjs,cjs,ts}",
    // Benchmarks (npm run bench:*, load, crash-test).
    "bench/*.ts",
    // vitest's alias target for `server-only`.
    "test/support/server-only.ts",
  ],
  project: ["{app,lib,db,bin,bench,test,e2e,scripts}/**/*.{ts,tsx,mjs,cjs}", "*.ts"],
  next: {
    entry: [
      "next.config.ts",
      "proxy.ts",
      "instrumentation.ts",
      "app/**/{layout,page,route,template,default,error,loading,not-found,global-error}.tsx",
      "app/**/route.ts",
    ],
  },
  vitest: { entry: ["vitest.config.ts", "test/**/*.test.ts"] },
  playwright: { entry: ["playwright.config.ts", "e2e/**/*.spec.ts"] },
  drizzle: { config: ["drizzle.config.ts"] },
  // score.pl, the official scorer, runs under perl in the parity tests and bench:score; the
  // read-only checkout test runs under unshare (util-linux) when it can; npm run test:container
  // builds and runs the image with buildah (Debian's package, installed by scripts/container/base.sh).
  ignoreBinaries: ["perl", "unshare", "buildah"],
};

export default config;
