import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { deviceCookieHeader, signInName, startsSession } from "@/lib/auth/device";
import { authOptions } from "@/lib/auth/options";

/**
 * next-auth's handler, plus the device cookie: a successful credentials sign-in
 * leaves a signed cookie for that account, so strangers' failures never lock
 * this browser out (lib/server/signin.ts).
 */
async function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) {
  const credentials = req.method === "POST" && req.nextUrl.pathname.endsWith("/callback/credentials");
  const name = credentials ? await signInName(req) : "";
  const res: Response = await NextAuth(authOptions())(req, ctx);
  if (credentials && name && startsSession(res)) res.headers.append("Set-Cookie", deviceCookieHeader(name));
  return res;
}

export { handler as GET, handler as POST };
