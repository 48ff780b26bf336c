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
    testTimeout: 30_000,
    // Fast password hashing in tests; production uses the default cost.
    env: { LEXGOLD_BCRYPT_COST: "4" },
    hookTimeout: 60_000,
  },
});
