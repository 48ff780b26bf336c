import type { NextConfig } from "next";
import { EVERY_ANSWER, NOT_FRAMED, NOT_FRAMED_SOURCE } from "./lib/net/security-headers";

const asList = (h: Readonly<Record<string, string>>) => Object.entries(h).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // A separate build directory lets e2e builds and a running dev server coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // tinypool starts its workers from its own files (found relative to its module): never bundled.
  serverExternalPackages: ["better-sqlite3", "tinypool"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [
      // The same headers on the save served before Next: lib/net/security-headers.ts.
      { source: "/:path*", headers: asList(EVERY_ANSWER) },
      {
        // Every page but a crowd study's, which Mechanical Turk frames (its CSP's frame-ancestors
        // names Mechanical Turk's sites, proxy.ts; elsewhere frame-ancestors 'none' says the same as this).
        source: NOT_FRAMED_SOURCE,
        headers: asList(NOT_FRAMED),
      },
    ];
  },
};

export default nextConfig;
