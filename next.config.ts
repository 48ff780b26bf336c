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
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
