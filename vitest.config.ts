import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname),
      // lib/server marks itself server-only; under vitest it runs in plain node.
      "server-only": path.resolve(__dirname, "test/support/server-only.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // A timeout here only catches a hang: a test asserts behaviour, never speed, and must pass
    // on a busy machine (speed is measured by the benchmarks, bench/).
    testTimeout: 120_000,
    // Fast password hashing in tests; production uses the default cost.
    env: { LEXGOLD_BCRYPT_COST: "4" },
    hookTimeout: 180_000,
    // After the summary: the suites that did not run, and why (those that need ../shared first).
    reporters: ["default", "./test/support/skip-report.ts"],
  },
});
