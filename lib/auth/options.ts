/** next-auth: credentials over the users table, JWT sessions that end (a per-user session version). */
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../../db/client";
import { clientAddress } from "../net/trusted-proxy";
import { joinStudy } from "../server/crowd";
import { signOutEverywhere } from "../server/people/accounts";
import { DEVICE_COOKIE, signInWithPassword } from "../server/people/signin";
import { decodeSessionToken, encodeSessionToken, SESSION_MAX_AGE_S, signedInTooLongAgo } from "./jwt";
import { type ParticipantIssued, participantCookieName } from "./sign-in-cookies";
import { authSecret } from "../server/kernel/secret";

/** One cookie's value from a Cookie header. */
function cookieValue(header: unknown, name: string): string | null {
  if (typeof header !== "string") return null;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return null;
}

/** The study link's query as the page sent it: a JSON object of strings, at most 32 names, each value at most 512 characters. */
function studyParams(raw: unknown): Record<string, string> | null {
  if (typeof raw !== "string" || raw.length > 8000) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > 32 || entries.some(([, x]) => typeof x !== "string" || x.length > 512)) return null;
  return Object.fromEntries(entries) as Record<string, string>;
}

let warned = false;

/** What one request's sign-in came to, for the route (lib/auth/route.ts): who signed in, or why it was refused unchecked. */
export interface SignInOutcome {
  signedIn?: { id: number };
  refused?: { reason: "rate-limited" | "busy"; retryAfterS: number };
  /** A study participant who joined or resumed: the secrets their browser gets, if any (lib/auth/sign-in-cookies.ts). */
  participant?: ParticipantIssued;
}

export function authOptions(outcome: SignInOutcome = {}): NextAuthOptions {
  return {
    secret: authSecret(),
    // A session lasts 12 hours from sign-in, however often it is renewed (jwt callback, lib/auth/session.ts).
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    // next-auth's token format, with the key derived from the secret once (lib/auth/jwt.ts).
    jwt: { encode: encodeSessionToken, decode: decodeSessionToken, maxAge: SESSION_MAX_AGE_S },
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
          const headers = req?.headers as Record<string, unknown> | undefined;
          const client = clientAddress(headers);
          if (!client && !warned) {
            warned = true;
            console.error("[auth] no client address (not served by scripts/serve.mjs, which stamps it): the per-client sign-in limit is off");
          }
          const r = await signInWithPassword(getDb(), {
            name,
            password,
            client,
            deviceCookie: cookieValue(headers?.cookie, DEVICE_COOKIE),
            secret: authSecret(),
          });
          if (!r.ok) {
            if (r.reason === "invalid") return null;
            outcome.refused = { reason: r.reason, retryAfterS: r.retryAfterS };
            // The sign-in form reads this (…?error=RateLimited / Busy); the route answers 429 with Retry-After.
            throw new Error(r.reason === "busy" ? "Busy" : "RateLimited");
          }
          // The device cookie goes to this account, the one the password was checked for.
          outcome.signedIn = { id: r.user.id };
          return { id: String(r.user.id), name: r.user.name, role: r.user.role, sessionVersion: r.user.sessionVersion };
        },
      }),
      // A crowd participant arriving by a study link (lib/server/crowd/join.ts): the link's token and the
      // platform's parameters are the credentials; the account is the one joinStudy returns.
      CredentialsProvider({
        id: "study",
        name: "study link",
        credentials: {
          token: { label: "Study", type: "text" },
          params: { label: "The link's parameters (JSON)", type: "text" },
          consent: { label: "I agree", type: "text" },
          resumeCode: { label: "Resume code", type: "text" },
          id: { label: "Your id (a plain link's, typed on the page)", type: "text" },
        },
        async authorize(credentials, req) {
          const params = studyParams(credentials?.params);
          if (!params) throw new Error("The link's parameters could not be read: open the study link again.");
          // A plain link's id typed on the study's page, sent beside the link's parameters (the page's form without JavaScript).
          const typed = (credentials as { id?: unknown } | undefined)?.id;
          if (typeof typed === "string" && typed.trim() !== "") params.id = typed.trim().slice(0, 512);
          const headers = req?.headers as Record<string, unknown> | undefined;
          try {
            const joined = await joinStudy(getDb(), {
              token: String(credentials?.token ?? ""),
              params,
              address: clientAddress(headers),
              consent: credentials?.consent === "yes",
              // The participant's own browser: the study's cookie (HttpOnly, set by lib/auth/route.ts on their first join).
              browserKey: (studyId) => cookieValue(headers?.cookie, participantCookieName(studyId)),
              resumeCode: credentials?.resumeCode ?? null,
              now: Date.now(),
            });
            const { browserKey, resumeCode } = joined.issued;
            outcome.participant = { studyId: joined.studyId, token: joined.study.token, minutes: joined.study.minutes, browserKey, resumeCode };
            return { id: String(joined.user.id), name: joined.user.name, role: joined.user.role, sessionVersion: joined.user.sessionVersion };
          } catch (e) {
            // The participant's page shows this sentence (signIn's error); anything unexpected stays in the log.
            if (e instanceof Error && "status" in e) throw new Error(e.message);
            console.error("[auth] joining a study failed:", e);
            throw new Error("Something went wrong on the server: try the link again in a moment.");
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.role = (user as { role?: string }).role;
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
          // When the password was checked: renewals keep it, so the session ends 12 hours after it.
          token.auth_time = Math.floor(Date.now() / 1000);
        }
        // next-auth clears the session cookie when this throws.
        if (signedInTooLongAgo(token)) throw new Error("SessionExpired");
        return token;
      },
      async session({ session, token }) {
        session.user = { name: token.name ?? null, uid: token.uid as number, role: token.role as string } as typeof session.user;
        // The session version, checked against the user's on every request (lib/auth/session.ts).
        return Object.assign(session, { sv: Number(token.sv ?? 0) });
      },
    },
    events: {
      // Sign-out retires the session's version server-side: a kept copy of the cookie opens nothing.
      async signOut({ token }) {
        const uid = Number(token?.uid);
        if (Number.isInteger(uid) && uid > 0) signOutEverywhere(getDb(), uid, Number(token?.sv ?? 0));
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
