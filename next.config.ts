import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // A separate build directory lets e2e builds and a running dev server coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // tinypool starts its workers from its own files (found relative to its module): never bundled.
  serverExternalPackages: ["better-sqlite3", "tinypool"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
      {
        // Every page but a crowd study's, which Mechanical Turk frames (its CSP's frame-ancestors
        // names Mechanical Turk's sites, proxy.ts; elsewhere frame-ancestors 'none' says the same as this).
        source: "/:path((?!study/).*)",
        headers: [{ key: "X-Frame-Options", value: "DENY" }],
      },
    ];
  },
};

export default nextConfig;
