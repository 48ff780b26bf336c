/** next-auth: credentials over the users table, JWT sessions. */
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../../db/client";
import { verifyCredentials } from "../server/users";
import { authSecret } from "./secret";

function clientKey(headers: Record<string, unknown> | undefined): string {
  const fwd = headers?.["x-forwarded-for"];
  const ip = typeof fwd === "string" ? fwd.split(",")[0].trim() : undefined;
  return ip || "local";
}

export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "lexgold",
        credentials: {
          username: { label: "User name", type: "text" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, req) {
          const name = String(credentials?.username ?? "").trim();
          const password = String(credentials?.password ?? "");
          if (!name || !password) return null;
          const r = verifyCredentials(getDb(), name, password, clientKey(req?.headers as Record<string, unknown> | undefined));
          if (!r.ok) {
            if (r.reason === "rate-limited") throw new Error("RateLimited");
            return null;
          }
          return { id: String(r.user.id), name: r.user.name, role: r.user.role };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.role = (user as { role?: string }).role;
        }
        return token;
      },
      async session({ session, token }) {
        session.user = { name: token.name ?? null, uid: token.uid as number, role: token.role as string } as typeof session.user;
        return session;
      },
    },
    logger: {
      // Never log credentials: next-auth's default logger may print request bodies in debug.
      error(code) {
        console.error(`[auth] ${code}`);
      },
      warn() {},
      debug() {},
    },
  };
}
