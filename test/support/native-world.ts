/**
 * The world of test/server/native-forms/native-forms.test.ts (#38): the production build served as `lexgold
 * start` serves it, on a demo database, with the coordinator and an annotator signed in; every form
 * posted as a browser posts it before hydration or without JavaScript, and a record of which forms
 * of which pages were posted, for the test that no form is left out.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { cookieHeader, mergeCookies, signIn } from "../../bench/lib/auth";
import { buildIfNeeded, freePort, ROOT, Server } from "../../bench/lib/server";
import { formsIn, type NativeForm, nativeBody } from "./native-form";

const DIST = process.env.NATIVE_FORMS_DIST || ".next-e2e";
/** The answer is waited for at most this long: a guard against a hang, never a measure of speed. */
export const ANSWER_MS = 30_000;
const PASSWORD = "lexgold-demo";

export const world = {
  dir: "",
  server: null as unknown as Server,
  db: null as unknown as Database.Database,
  dbFile: "",
  env: {} as NodeJS.ProcessEnv,
  projectId: 0,
  /** The Cookie header of each signed-in account, by name. */
  cookies: {} as Record<string, string>,
  /** page path (ids left out) → labels of the forms posted from it; "*" for the layout's, on every page. */
  posted: new Map<string, Set<string>>(),
};

export function lexgold(args: string[], input?: string): string {
  const r = spawnSync(path.join(ROOT, "bin", "lexgold"), args, { env: world.env, encoding: "utf8", cwd: ROOT, timeout: 300_000, input });
  if (r.status !== 0) throw new Error(`lexgold ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Build (when the sources are newer), make the demo database with a Prolific study, and start the server. */
export async function startWorld(seed: (file: string, port: number) => void): Promise<void> {
  buildIfNeeded(DIST, false, () => {});
  world.dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-native-forms-"));
  const port = await freePort();
  world.dbFile = path.join(world.dir, "forms.db");
  world.env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LEXGOLD_DB: world.dbFile, LEXGOLD_SECRET_FILE: path.join(world.dir, "secret"), LEXGOLD_BCRYPT_COST: "4" };
  lexgold(["demo"]);
  world.db = new Database(world.dbFile, { readonly: true });
  world.projectId = (world.db.prepare("select id from projects where name = 'demo'").get() as { id: number }).id;
  seed(world.dbFile, port);
  world.server = new Server({ distDir: DIST, dbFile: world.dbFile, secretFile: path.join(world.dir, "secret"), port, env: { LEXGOLD_WORKERS: "1", LEXGOLD_BCRYPT_COST: "4" } });
  await world.server.start(180_000);
  for (const name of ["coordinator", "annotator1"]) world.cookies[name] = await signIn(world.server.base, name, PASSWORD);
}

export async function stopWorld(): Promise<void> {
  await world.server?.stop();
  world.db?.close();
  if (world.dir) fs.rmSync(world.dir, { recursive: true, force: true });
}

export const one = <T>(sql: string, ...args: unknown[]) => world.db.prepare(sql).get(...args) as T;

/** A path with the test project's id for PID. */
export const at = (p: string) => p.replace("PID", String(world.projectId));

/** A page as `who` sees it (null: signed out), with its forms. */
export async function page(who: string | null, where: string): Promise<{ html: string; forms: NativeForm[] }> {
  const res = await fetch(world.server.base + where, { headers: who ? { Cookie: world.cookies[who] } : {}, redirect: "manual", signal: AbortSignal.timeout(ANSWER_MS) });
  const html = await res.text();
  expect(res.status, `GET ${where}: ${html.slice(0, 300)}`).toBe(200);
  return { html, forms: formsIn(html) };
}

/** A form's label with the names of this test's studies, rounds, people and ids left out, and the counts in it: the same form for each. */
export const generic = (label: string) =>
  label
    .replace(/^(Accept all \d+ open.*|Accept the open form.*|No open proposals)$/, "Accept all open")
    .replace(/^(Keep all \d+ open.*|No open forms)$/, "Keep all open")
    .replace(/\b(annotator\d+|coordinator|native-[a-z0-9-]+|d\d+|[a-z]+\.[a-z]\.?\d*)\b/g, "…")
    .replace(/wave \d+|native link|native|Post hoc|6101a0+\d+/g, "…");

/** A page's path with its ids and query left out: the forms of one project's page are those of every project's. */
export const pageKey = (where: string) => where.replace(/[?#].*$/, "").replace(/\/\d+(?=\/|$)/g, "/:id");

function notePosted(where: string, label: string): void {
  world.posted.set(pageKey(where), (world.posted.get(pageKey(where)) ?? new Set()).add(generic(label)));
}

export interface Answer {
  status: number;
  location: string | null;
  html: string;
  /** The answer's Set-Cookie headers. */
  cookies?: string[];
}

type Fields = Record<string, string | string[] | File>;

/** The request a browser makes for `form` of page `where` with `button` pressed. */
function request(where: string, form: NativeForm, button: NativeForm["buttons"][number] | undefined, set: Fields): { url: string; init: RequestInit } {
  const url = new URL(form.action || where, world.server.base + where).toString();
  const body = nativeBody(form, button, set);
  if (form.method !== "post") {
    const q = new URLSearchParams();
    for (const [k, v] of body) if (typeof v === "string") q.append(k, v);
    const u = new URL(url);
    u.search = q.toString();
    return { url: u.toString(), init: { method: "GET" } };
  }
  // A server action's form and an upload are multipart; anything else is sent as a browser sends a plain form.
  if (form.serverAction || form.enctype === "multipart/form-data") return { url, init: { method: "POST", body } };
  const q = new URLSearchParams();
  for (const [k, v] of body) if (typeof v === "string") q.append(k, v);
  return { url, init: { method: "POST", body: q, headers: { "Content-Type": "application/x-www-form-urlencoded" } } };
}

/**
 * Send the form labelled `label` on page `where` as a browser without JavaScript does, as `who`
 * (null: signed out; `cookie`: another Cookie header), pressing the submit button whose text
 * matches `button` (the first one otherwise), with `set` typed into it; the first such form
 * `form` accepts, of the page as it is now or as `from` (an earlier answer's page) shows it.
 * The answer is not followed.
 */
export async function post(
  who: string | null,
  where: string,
  label: string | RegExp,
  o: { button?: string | RegExp; set?: Fields; cookie?: string; form?: (f: NativeForm) => boolean; from?: Answer } = {},
): Promise<Answer> {
  const cookie = o.cookie ?? (who ? world.cookies[who] : "");
  let html0 = o.from?.html;
  if (html0 === undefined) {
    const res0 = await fetch(world.server.base + where, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual", signal: AbortSignal.timeout(ANSWER_MS) });
    html0 = await res0.text();
    expect(res0.status, `GET ${where}: ${html0.slice(0, 300)}`).toBe(200);
  }
  const forms = formsIn(html0);
  const matches = (l: string) => (typeof label === "string" ? l === label : label.test(l));
  const form = forms.find((f) => matches(f.label) && (o.form ? o.form(f) : true));
  expect(form, `no form "${label}" on ${where}: ${forms.map((f) => f.label).join(" | ")}`).toBeDefined();
  const pressed = (t: string) => (typeof o.button === "string" ? t === o.button : o.button!.test(t));
  const button = o.button ? (form!.buttons.find((b) => pressed(b.text)) ?? form!.buttons.find((b) => pressed(b.label))) : form!.buttons[0];
  expect(button, `no button ${o.button} in "${form!.label}"`).toBeDefined();
  expect(button!.disabled, `"${button!.text}" is disabled in the HTML: a browser without JavaScript cannot press it`).toBe(false);
  const { url, init } = request(where, form!, button, o.set ?? {});
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), ...(cookie ? { Cookie: cookie } : {}), Origin: world.server.base, Accept: "text/html", "Sec-Fetch-Mode": "navigate" },
      redirect: "manual",
      signal: AbortSignal.timeout(ANSWER_MS),
    });
  } catch (e) {
    throw new Error(`"${form!.label}" on ${where}: no answer within ${ANSWER_MS / 1000} s (${(e as Error).name})\n${world.server.tail(10)}`);
  }
  const html = await res.text();
  notePosted(where, form!.label);
  // The server still serves.
  const after = await fetch(`${world.server.base}/signin`, { signal: AbortSignal.timeout(ANSWER_MS) });
  expect(after.status).toBe(200);
  await after.body?.cancel();
  return { status: res.status, location: res.headers.get("location"), html, cookies: res.headers.getSetCookie() };
}

/** A page as a browser with the cookie jar `jar` sees it: the jar takes the page's cookies. */
export async function visit(where: string, jar: Map<string, string>): Promise<Answer> {
  const res = await fetch(world.server.base + where, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual", signal: AbortSignal.timeout(ANSWER_MS) });
  mergeCookies(jar, res);
  return { status: res.status, location: res.headers.get("location"), html: await res.text(), cookies: res.headers.getSetCookie() };
}

/** The cookies of an answer into the jar (an empty value removes one). */
export function keep(jar: Map<string, string>, a: Answer): void {
  for (const c of a.cookies ?? []) {
    const pair = c.split(";")[0];
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const [k, v] = [pair.slice(0, eq).trim(), pair.slice(eq + 1)];
    if (v === "" || /max-age=0/i.test(c)) jar.delete(k);
    else jar.set(k, v);
  }
}

/** The page a redirect (303) leads to, as `who` sees it; its address in `location`. */
export async function follow(a: Answer, who: string | null, cookie?: string): Promise<Answer> {
  expect(a.status, a.html.slice(0, 500)).toBe(303);
  const c = cookie ?? (who ? world.cookies[who] : "");
  const url = new URL(a.location!, world.server.base);
  const res = await fetch(url, { headers: c ? { Cookie: c } : {}, redirect: "manual", signal: AbortSignal.timeout(ANSWER_MS) });
  return { status: res.status, location: url.pathname + url.search, html: await res.text() };
}

/** The text of a page, its markup and entities left out. */
export const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");

/** The page with the action's outcome, whose text says `said`. */
export function shows(a: Answer, said: string | RegExp) {
  expect(a.status, a.html.slice(0, 500)).toBe(200);
  if (typeof said === "string") expect(textOf(a.html)).toContain(said);
  else expect(textOf(a.html)).toMatch(said);
}

/** A redirect (a form whose action redirects), to a URL matching `to`. */
export function redirects(a: Answer, to: RegExp) {
  expect([303, 307], a.html.slice(0, 500)).toContain(a.status);
  expect(a.location).toMatch(to);
}

/** A fresh Cookie header for `name`, signed in through next-auth's credentials flow. */
export const signInAs = (name: string, password = PASSWORD) => signIn(world.server.base, name, password);

export { cookieHeader };
