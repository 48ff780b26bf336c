/**
 * The security matrix over HTTP, against the production server: every page,
 * route handler and server action × {signed out, annotator of another project,
 * the project's annotator, coordinator of another project, the project's
 * coordinator}. Then cookies, cross-site POSTs, the sign-in rate limit, and
 * markup in sentences, guidelines and reasons rendered as text (markup typed as
 * a substitute or phrase is refused at save, and stays text in its field).
 *
 * The project under test is "sealed" (seeded by e2e/serve.sh with its own
 * sealed-coord and sealed-ann); annotator1 and coordinator belong only to
 * "demo", so they are "of another project". sealed's corpus (e2e/fixtures/xss.xml)
 * holds the word "zebrafinch": no refused response may contain it.
 *
 * A new page, route or action is one line in PAGES / ROUTES / ACTIONS.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type APIResponse, type Page, expect, test } from "@playwright/test";
import { passwordOf, signIn } from "./helpers";

const ROOT = path.resolve(import.meta.dirname, "..");
const XSS_XML = path.join(ROOT, "e2e/fixtures/xss.xml");
const ACTORS = ["signedOut", "annotatorOfOther", "annotator", "coordinatorOfOther", "coordinator"] as const;
type ActorKey = (typeof ACTORS)[number];
const ACCOUNTS: Record<Exclude<ActorKey, "signedOut">, string> = {
  annotatorOfOther: "annotator1",
  annotator: "sealed-ann",
  coordinatorOfOther: "coordinator",
  coordinator: "sealed-coord",
};
/** Text only the sealed project's pages and files hold. */
const MARKERS = ["zebrafinch", "sealed-ann", "xss-1"];
const EVIL = "http://evil.example";
/** The production build the server runs (playwright.config.ts / e2e/serve.sh). */
const DIST = path.join(ROOT, process.env.NEXT_DIST_DIR ?? ".next-e2e");

/** Whether the build being served has this app route (e.g. "/projects/[projectId]/gold/page"). */
function built(route: string): boolean {
  const manifest = JSON.parse(readFileSync(path.join(DIST, "server/app-paths-manifest.json"), "utf8")) as Record<string, string>;
  return route in manifest;
}

test.describe.configure({ mode: "serial" });

let base: string;
const api = {} as Record<ActorKey, APIRequestContext>;
let sealed: number;
/** The first instance of sealed's corpus (its database id, as in /annotate/:project/:ref). */
let firstRef: number;
const stamp = Date.now().toString(36);

/** Sign in the way the sign-in form does: CSRF token, then the credentials callback. */
async function signInApi(ctx: APIRequestContext, name: string, password = passwordOf(name), headers: Record<string, string> = {}): Promise<APIResponse> {
  const { csrfToken } = (await (await ctx.get("/api/auth/csrf", { headers })).json()) as { csrfToken: string };
  return ctx.post("/api/auth/callback/credentials", { form: { username: name, password, csrfToken, json: "true" }, headers });
}

test.beforeAll(async ({ playwright }, info) => {
  base = info.project.use.baseURL!;
  for (const k of ACTORS) {
    api[k] = await playwright.request.newContext({ baseURL: base });
    if (k !== "signedOut") expect((await signInApi(api[k], ACCOUNTS[k])).status(), k).toBe(200);
  }
  // sealed-coord belongs to sealed only: its projects page links to it alone.
  const list = await (await api.coordinator.get("/projects")).text();
  const ids = [...new Set([...list.matchAll(/href="\/projects\/(\d+)"/g)].map((m) => Number(m[1])))];
  expect(ids).toHaveLength(1);
  sealed = ids[0];
  // The corpus with markup in its sentences (importing it twice adds nothing).
  // ?wait=1: answered when the import job has finished.
  const imported = await api.coordinator.post(`/api/projects/${sealed}/import?wait=1`, {
    headers: { Origin: base },
    multipart: { file: { name: "xss.xml", mimeType: "application/xml", buffer: readFileSync(XSS_XML) } },
  });
  expect(imported.status(), await imported.text()).toBe(200);
  const resume = await api.coordinator.get(`/annotate/${sealed}`, { maxRedirects: 0 });
  firstRef = Number(/\/annotate\/\d+\/(\d+)$/.exec(resume.headers().location ?? "")?.[1]);
  expect(firstRef).toBeGreaterThan(0);
});

test.afterAll(async () => {
  for (const k of ACTORS) await api[k]?.dispose();
});

// ---------------------------------------------------------------------------
// Outcomes

/**
 * "200"; "404"; "401"/"403" (route handlers' JSON refusals); "signin" (307 to
 * the sign-in page); "to:/path" (307 elsewhere: annotators sent from coordinator
 * pages to their workspace); "refused" (the workspace's "No such project."
 * notice, the same page as for a project that does not exist).
 */
type Outcome = string;

async function outcomeOf(r: APIResponse): Promise<{ outcome: Outcome; body: string }> {
  const body = await r.text();
  const status = r.status();
  if (status === 307 || status === 308 || status === 303) {
    const to = new URL(r.headers().location!, base).pathname;
    return { outcome: to === "/signin" ? "signin" : `to:${to}`, body };
  }
  if (status === 200 && body.includes("No such project.")) return { outcome: "refused", body };
  return { outcome: String(status), body };
}

/** One outcome per actor, in ACTORS order. */
function expectations(s: string): Record<ActorKey, Outcome> {
  const parts = s.trim().split(/\s+/);
  expect(parts).toHaveLength(ACTORS.length);
  return Object.fromEntries(ACTORS.map((a, i) => [a, parts[i]])) as Record<ActorKey, Outcome>;
}

// Pages. Coordinator pages: annotators are sent to /annotate before any project is looked up.
const COORDINATOR_PAGE = "signin to:/annotate to:/annotate 404 200";

interface PageCase {
  path: () => string;
  expect: string;
  /** Optional: the app route this page needs; pages still being built by others are checked once the build has them. */
  route?: string;
  /** For allowed responses: text that must be there. */
  shows?: string;
}

const PAGES: PageCase[] = [
  { path: () => "/", expect: "signin to:/annotate to:/annotate to:/projects to:/projects" },
  { path: () => "/signin", expect: "200 to:/ to:/ to:/ to:/" },
  { path: () => "/projects", expect: "signin to:/annotate to:/annotate 200 200" },
  { path: () => `/projects/${sealed}`, expect: COORDINATOR_PAGE, shows: "bank.n" },
  { path: () => `/projects/${sealed}/members`, expect: COORDINATOR_PAGE, shows: "sealed-ann" },
  { path: () => `/projects/${sealed}/progress`, expect: COORDINATOR_PAGE, shows: "sealed-ann" },
  { path: () => `/projects/${sealed}/gold`, expect: COORDINATOR_PAGE, route: "/projects/[projectId]/gold/page" },
  { path: () => `/projects/${sealed}/agreement`, expect: COORDINATOR_PAGE, route: "/projects/[projectId]/agreement/page" },
  { path: () => `/projects/${sealed}/scoring`, expect: COORDINATOR_PAGE, route: "/projects/[projectId]/scoring/page" },
  { path: () => "/annotate", expect: "signin 200 200 200 200" },
  // Members resume at their first open instance; non-members see the same notice as for no project.
  { path: () => `/annotate/${sealed}`, expect: "signin 404 to:/annotate/{S}/{R} 404 to:/annotate/{S}/{R}" },
  { path: () => `/annotate/${sealed}/${firstRef}`, expect: "signin 404 200 404 200", shows: "zebrafinch" },
  { path: () => `/projects/999999`, expect: "signin to:/annotate to:/annotate 404 404" },
  { path: () => `/annotate/999999`, expect: "signin 404 404 404 404" },
];

test("pages × actor: each outcome as designed, and nothing of the project for those refused", async () => {
  for (const p of PAGES) {
    if (p.route && !built(p.route)) continue;
    const want = expectations(p.expect.replaceAll("{S}", String(sealed)).replaceAll("{R}", String(firstRef)));
    for (const k of ACTORS) {
      const { outcome, body } = await outcomeOf(await api[k].get(p.path(), { maxRedirects: 0 }));
      expect(outcome, `GET ${p.path()} as ${k}`).toBe(want[k]);
      if (outcome === "200" && p.shows && (k === "annotator" || k === "coordinator")) expect(body, `GET ${p.path()} as ${k}`).toContain(p.shows);
      if (k !== "annotator" && k !== "coordinator") for (const m of MARKERS) expect(body, `GET ${p.path()} as ${k}`).not.toContain(m);
    }
  }
});

// Route handlers. Coordinators of the project only; a coordinator of another project gets 404.
const COORDINATOR_ROUTE = "401 403 403 404 200";
// Markup in answers is refused at import (lib/lexsub/substitute-rules.ts), so the import the matrix sends is plain.
const RESPONSES_TSV = `annotator\tlexelt\tinstance\tanswer\tmultiword\nsealed-ann\tbank.n\tx2\tlender;bold lender\tbank holiday\n`;

interface RouteCase {
  name: string;
  expect: string;
  /** Optional: the app route this needs; routes still being built by others are checked once the build has them. */
  route?: string;
  /** headers: sent as given (the default is this app's Origin, as a browser sends it). */
  send: (ctx: APIRequestContext, headers?: Record<string, string>) => Promise<APIResponse>;
  /** A state-changing request: refused when another site sends it. */
  post?: boolean;
}

const GOLD_ROUTE = "/api/projects/[projectId]/gold/route";

const ROUTES: RouteCase[] = [
  { name: "GET gold", route: GOLD_ROUTE, expect: COORDINATOR_ROUTE, send: (c, headers) => c.get(`/api/projects/${sealed}/gold?file=gold`, { headers }) },
  { name: "GET mwgold", route: GOLD_ROUTE, expect: COORDINATOR_ROUTE, send: (c, headers) => c.get(`/api/projects/${sealed}/gold?file=mwgold`, { headers }) },
  { name: "GET gold review log", route: GOLD_ROUTE, expect: COORDINATOR_ROUTE, send: (c, headers) => c.get(`/api/projects/${sealed}/gold?file=log`, { headers }) },
  { name: "GET gold review log TSV", route: GOLD_ROUTE, expect: COORDINATOR_ROUTE, send: (c, headers) => c.get(`/api/projects/${sealed}/gold?file=logtsv`, { headers }) },
  { name: "GET gold problems TSV", route: GOLD_ROUTE, expect: COORDINATOR_ROUTE, send: (c, headers) => c.get(`/api/projects/${sealed}/gold?file=problems`, { headers }) },
  { name: "GET responses export", expect: COORDINATOR_ROUTE, send: (c, headers) => c.get(`/api/projects/${sealed}/responses`, { headers }) },
  {
    name: "POST responses import",
    expect: COORDINATOR_ROUTE,
    post: true,
    send: (c, headers) =>
      c.post(`/api/projects/${sealed}/responses`, { headers: headers ?? { Origin: base }, multipart: { file: { name: "r.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(RESPONSES_TSV) } } }),
  },
  {
    name: "POST lexelt XML import",
    expect: COORDINATOR_ROUTE,
    post: true,
    send: (c, headers) => c.post(`/api/projects/${sealed}/import?wait=1`, { headers: headers ?? { Origin: base }, multipart: { file: { name: "xss.xml", mimeType: "application/xml", buffer: readFileSync(XSS_XML) } } }),
  },
  {
    // The workspace's save (a route handler since issue #14): each member saves their own answer once.
    name: "POST a save",
    route: "/api/projects/[projectId]/responses/[instanceRef]/route",
    expect: "401 404 200 404 200",
    post: true,
    send: (c, headers) =>
      c.post(`/api/projects/${sealed}/responses/${firstRef}`, {
        headers: headers ?? { Origin: base },
        data: { response: { kind: "NIL", substitutes: [], multiword: false, phrase: "" }, expectedRevision: 0 },
      }),
  },
];

test("route handlers × actor: 401 / 403 / 404 / 200, and the refusals hold nothing of the project", async () => {
  for (const r of ROUTES) {
    if (r.route && !built(r.route)) continue;
    const want = expectations(r.expect);
    for (const k of ACTORS) {
      const res = await r.send(api[k]);
      const body = await res.text();
      expect(String(res.status()), `${r.name} as ${k}: ${body.slice(0, 200)}`).toBe(want[k]);
      if (res.status() !== 200) {
        for (const m of MARKERS) expect(body).not.toContain(m);
        expect(JSON.parse(body)).toMatchObject({ ok: false });
      }
    }
  }
  // The responses upload above only previewed; the coordinator confirms it with the preview's token.
  const file = { name: "r.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(RESPONSES_TSV) };
  const preview = (await (await api.coordinator.post(`/api/projects/${sealed}/responses`, { headers: { Origin: base }, multipart: { file } })).json()) as { preview: { token: string } };
  // The import is a job: ?wait=1 answers when it has ended.
  const confirmed = await api.coordinator.post(`/api/projects/${sealed}/responses?wait=1`, { headers: { Origin: base }, multipart: { file, mode: "confirm", token: preview.preview.token } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  // The coordinator's export holds the imported answers, with no password or hash anywhere.
  const tsv = await (await api.coordinator.get(`/api/projects/${sealed}/responses`)).text();
  expect(tsv).toContain(`sealed-ann\tbank.n\tx2\tlender;bold lender\tbank holiday\n`);
  expect(tsv).not.toContain(passwordOf("sealed-ann"));
  expect(tsv).not.toMatch(/\$2[aby]\$/);
});

test("route handlers refuse state-changing requests from another site (403), even for the project's coordinator", async () => {
  for (const r of ROUTES.filter((r) => r.post && (!r.route || built(r.route)))) {
    const res = await r.send(api.coordinator, { Origin: EVIL });
    expect(res.status(), r.name).toBe(403);
    expect(await res.json()).toEqual({ ok: false, message: expect.stringMatching(/^Cross-site request refused: it was sent from a page at http:\/\/evil\./) });
    const ref = await r.send(api.coordinator, { Referer: `${EVIL}/page` });
    expect(ref.status(), `${r.name} (Referer only)`).toBe(403);
    // Finding 9: no Origin at all (browsers send one on every POST) is refused too, even with this app's Referer;
    // and a forged X-Forwarded-Host / Host from a client that is no trusted proxy does not make another site "same origin".
    const none = await r.send(api.coordinator, { Referer: `${base}/projects` });
    expect(none.status(), `${r.name} (no Origin)`).toBe(403);
    const forged = await r.send(api.coordinator, { Origin: EVIL, "X-Forwarded-Host": new URL(EVIL).host });
    expect(forged.status(), `${r.name} (X-Forwarded-Host)`).toBe(403);
  }
});

// ---------------------------------------------------------------------------
// Server actions, called as the browser calls them (Next-Action header, React's reply encoding).

interface Manifest {
  node: Record<string, { filename?: string; exportedName?: string }>;
}

function actionId(file: string, name: string): string | undefined {
  const manifest = JSON.parse(readFileSync(path.join(DIST, "server/server-reference-manifest.json"), "utf8")) as Manifest;
  return Object.entries(manifest.node).find(([, v]) => v.filename === file && v.exportedName === name)?.[0];
}

/** Arguments as React encodes them: plain JSON, or multipart with each FormData argument's fields under "_<n>_". */
function encodeArgs(args: unknown[]): { data?: string; multipart?: FormData } {
  const forms: FormData[] = [];
  const json = JSON.stringify(args.map((a) => (a instanceof FormData ? `$K${forms.push(a)}` : a)));
  if (forms.length === 0) return { data: json };
  const body = new FormData();
  forms.forEach((f, i) => f.forEach((v, k) => body.append(`_${i + 1}_${k}`, v)));
  body.append("0", json); // the root last: the server resolves references as fields arrive
  return { multipart: body };
}

type ActionOutcome = { status: number; result?: { ok?: boolean; message?: string }; redirect?: string };

async function callAction(ctx: APIRequestContext, at: string, id: string, args: unknown[], origin = base): Promise<ActionOutcome> {
  const body = encodeArgs(args);
  const res = await ctx.post(at, {
    headers: { "Next-Action": id, Origin: origin, Accept: "text/x-component", ...(body.data ? { "Content-Type": "text/plain;charset=UTF-8" } : {}) },
    ...body,
    maxRedirects: 0,
  });
  const text = await res.text();
  const redirect = res.headers()["x-action-redirect"];
  const root = /^0:(.*)$/m.exec(text)?.[1];
  const at_ = root ? /"a":"\$@(\w+)"/.exec(root)?.[1] : undefined;
  const line = at_ ? new RegExp(`^${at_}:(.*)$`, "m").exec(text)?.[1] : undefined;
  let result: ActionOutcome["result"];
  try {
    result = line ? JSON.parse(line) : undefined;
  } catch {
    result = undefined;
  }
  return { status: res.status(), result, redirect };
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

/** The refusal every action returns: nobody signed in / wrong role / not a member (as for no project). */
const SIGN_IN = "Sign in first.";
const NOT_COORDINATOR = "Only a coordinator can do that.";
const NO_PROJECT = "No such project.";
const XSS_GUIDELINES = `Read carefully. <script>alert("xss-5")</script>\n\n<img src=x onerror=alert("xss-6")> is not a substitute.`;

interface ActionCase {
  /** The actions.ts file; an action still being built by others is checked once the build has it. */
  file: string;
  name: string;
  at: () => string;
  args: () => unknown[];
  /** Per actor: "ok" or the message of the refusal (or of the allowed caller's input error, which shows authorization passed). */
  expect: Record<ActorKey, string>;
}

const coordinatorOnly = (allowed: string): Record<ActorKey, string> => ({
  signedOut: SIGN_IN,
  annotatorOfOther: NOT_COORDINATOR,
  annotator: NOT_COORDINATOR,
  coordinatorOfOther: NO_PROJECT,
  coordinator: allowed,
});
const MEMBERS = "app/projects/[projectId]/members/actions.ts";
const GOLD = "app/projects/[projectId]/gold/actions.ts";
const XSS_REASON = 'Garbled: <script>alert("xss-10")</script>';

const ACTIONS: ActionCase[] = [
  { file: MEMBERS, name: "setGuidelinesAction", at: () => `/projects/${sealed}/members`, args: () => [sealed, null, form({ guidelines: XSS_GUIDELINES })], expect: coordinatorOnly("ok") },
  { file: MEMBERS, name: "setRequiredAction", at: () => `/projects/${sealed}/members`, args: () => [sealed, null, form({ requiredAnnotators: "" })], expect: coordinatorOnly("ok") },
  {
    file: MEMBERS,
    name: "createAnnotatorAction",
    at: () => `/projects/${sealed}/members`,
    args: () => [sealed, null, form({ name: `rl-${stamp}`, password: "Right-pass-123" })],
    expect: coordinatorOnly("ok"),
  },
  { file: MEMBERS, name: "addMemberAction", at: () => `/projects/${sealed}/members`, args: () => [sealed, null, form({ userId: "0" })], expect: coordinatorOnly("No such account.") },
  {
    file: MEMBERS,
    name: "setAssignmentAction",
    at: () => `/projects/${sealed}/members`,
    args: () => [sealed, null, form({ userId: "0", scope: "all" })],
    expect: coordinatorOnly("That user is not a member of this project."),
  },
  { file: GOLD, name: "acceptAllAction", at: () => `/projects/${sealed}/gold`, args: () => [sealed, null, form({})], expect: coordinatorOnly("ok") },
  {
    file: GOLD,
    name: "exclusionAction",
    at: () => `/projects/${sealed}/gold`,
    args: () => [sealed, null, form({ instanceId: "x2", op: "exclude", reason: XSS_REASON })],
    expect: coordinatorOnly("ok"),
  },
  {
    file: GOLD,
    name: "correctPosAction",
    at: () => `/projects/${sealed}/gold`,
    args: () => [sealed, null, form({ instanceId: "x9", op: "correct", pos: "n" })],
    expect: coordinatorOnly("No instance x9 in this project."),
  },
  {
    file: GOLD,
    name: "decideLemmaAction",
    at: () => `/projects/${sealed}/gold`,
    args: () => [sealed, null, form({ form: "no-such-form", decision: "kept" })],
    expect: coordinatorOnly('No annotator typed "no-such-form" in this project.'),
  },
  {
    file: "app/projects/actions.ts",
    name: "createProjectAction",
    at: () => "/projects",
    args: () => [null, form({ name: `made ${stamp} ${Math.random().toString(36).slice(2, 8)}` })],
    expect: { signedOut: SIGN_IN, annotatorOfOther: NOT_COORDINATOR, annotator: NOT_COORDINATOR, coordinatorOfOther: "redirect", coordinator: "redirect" },
  },
];

test("server actions × actor: the session decides, whatever ids the request names", async () => {
  for (const a of ACTIONS) {
    const id = actionId(a.file, a.name);
    if (!id) continue; // not in this build yet
    for (const k of ACTORS) {
      const r = await callAction(api[k], a.at(), id, a.args());
      const got = r.redirect ? "redirect" : r.result?.ok ? "ok" : (r.result?.message ?? `HTTP ${r.status}`);
      expect(got, `${a.name} as ${k}`).toBe(a.expect[k]);
      if (k !== "annotator" && k !== "coordinator") for (const m of MARKERS) expect(JSON.stringify(r.result ?? "")).not.toContain(m);
    }
  }
});

test("server actions refuse another site's Origin (Next checks it against Host): nothing changes", async () => {
  const id = actionId(MEMBERS, "setGuidelinesAction")!;
  const at = `/projects/${sealed}/members`;
  expect((await callAction(api.coordinator, at, id, [sealed, null, form({ guidelines: "Before." })])).result).toMatchObject({ ok: true });
  const evil = await callAction(api.coordinator, at, id, [sealed, null, form({ guidelines: "Written by evil.example" })], EVIL);
  expect(evil.status).toBe(500);
  expect(evil.result?.ok).not.toBe(true);
  const page = await (await api.coordinator.get(at)).text();
  expect(page).toContain("Before.");
  expect(page).not.toContain("Written by evil.example");
  // Put back the guidelines the XSS test reads.
  expect((await callAction(api.coordinator, at, id, [sealed, null, form({ guidelines: XSS_GUIDELINES })])).result).toMatchObject({ ok: true });
});

// ---------------------------------------------------------------------------
// Sessions and sign-in

test("the session cookie is HttpOnly and SameSite=Lax (not Secure over plain http), and a wrong password sets none", async ({ playwright }) => {
  const ctx = await playwright.request.newContext({ baseURL: base });
  try {
    const good = await signInApi(ctx, "sealed-coord");
    const cookies = good.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value);
    const session = cookies.find((c) => c.startsWith("next-auth.session-token="));
    expect(session).toBeDefined();
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    expect(session).not.toMatch(/;\s*Secure/i);
    expect(JSON.stringify(await good.json())).not.toContain(passwordOf("sealed-coord"));
    const fresh = await playwright.request.newContext({ baseURL: base });
    const bad = await signInApi(fresh, "sealed-coord", "not-the-password", { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 200) + 1}` });
    expect(bad.headersArray().some((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("next-auth.session-token="))).toBe(false);
    await fresh.dispose();
  } finally {
    await ctx.dispose();
  }
});

test("sign-in is slowed down: after 5 failures from an address, each further check waits longer, even the right password's", async ({ page, playwright }) => {
  // The account made by createAnnotatorAction in the actions matrix. Every request comes from
  // 127.0.0.1 (X-Forwarded-For is not believed), so the slow-down is this address's for this account.
  const name = `rl-${stamp}`;
  const ctx = await playwright.request.newContext({ baseURL: base });
  try {
    for (let i = 1; i <= 5; i++) {
      const r = await signInApi(ctx, name, `wrong-${i}-password`, { "X-Forwarded-For": `203.0.113.${i}` });
      expect((await r.json()).url).toMatch(/error=CredentialsSignin/);
    }
    // Fail on, doing as Retry-After says, until the wait has grown to 8 s (1, 2, 4, 8): time enough for what follows.
    let retryAfter = 0;
    for (let i = 6; retryAfter < 8 && i < 40; i++) {
      const r = await signInApi(ctx, name, `wrong-${i}-password`);
      if (r.status() !== 429) continue;
      retryAfter = Number(r.headers()["retry-after"]);
      expect((await r.json()).url).toMatch(/error=RateLimited/);
      if (retryAfter < 8) await new Promise((done) => setTimeout(done, retryAfter * 1000));
    }
    expect(retryAfter).toBeGreaterThanOrEqual(8);
    const r = await signInApi(ctx, name, "Right-pass-123", { "X-Forwarded-For": "203.0.113.99" });
    expect(r.status()).toBe(429);
    expect((await r.json()).url).toMatch(/error=RateLimited/);
  } finally {
    await ctx.dispose();
  }
  // The sign-in form says so.
  await page.goto("/signin");
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill("Right-pass-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").and(page.locator(".notice"))).toHaveText(/sign-ins are slowed down/);
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
});

// ---------------------------------------------------------------------------
// Markup and script in the data render as text

/** Fail the test on any dialog (alert/confirm/prompt) the page opens; and count injected elements. */
function watchDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (d) => {
    seen.push(d.message());
    void d.dismiss();
  });
  return seen;
}

/**
 * Elements the data could have injected had it been parsed as HTML: an <img src=x>,
 * an <svg>, or any element with an inline event handler. (Next's inline scripts carry
 * the same text as JSON strings for hydration; they are data, and are not counted.)
 */
async function injected(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      // Any SVG but the charts lexgold draws itself (lib/charts, in a [data-chart] box; their text is escaped, and an onload would still be caught).
      ...document.querySelectorAll('img[src="x"], main svg:not([data-chart] svg), [onerror], [onmouseover], [onload], [onclick]'),
      ...[...document.scripts].filter((s) => /^\s*alert\(/.test(s.textContent ?? "")),
    ].map((e) => e.outerHTML.slice(0, 120)),
  );
}

test("sentences and guidelines holding markup are shown as text in the workspace; markup typed as an answer is refused and stays text", async ({ page }) => {
  const dialogs = watchDialogs(page);
  await signIn(page, "sealed-ann");
  await page.goto(`/annotate/${sealed}/${firstRef}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance x1");
  await expect(page.getByText('The zebrafinch <script>alert("xss-1")</script> sat by the', { exact: false })).toBeVisible();

  // The actions matrix saved NIL here: press NIL again to give substitutes instead.
  const nil = page.getByRole("button", { name: /^NIL/ });
  if ((await nil.getAttribute("aria-pressed")) === "true") await nil.click();
  // Type markup as substitutes and as the multiword phrase: refused beside the fields, kept in them as text.
  await page.getByLabel("Substitute 1").fill('<img src=x onerror=alert("xss-7")>');
  await page.getByLabel("Substitute 2").fill('<script>alert("xss-8")</script>');
  await page.getByLabel("Substitute 3").fill("");
  await page.getByLabel("Part of a multiword").check();
  await page.getByLabel("Multiword phrase").fill('<svg onload=alert("xss-9")> bank');
  await page.getByRole("button", { name: "Save & next" }).click();
  await expect(page.locator("#sub1-error")).toContainText("No markup");
  await expect(page.locator("#phrase-error")).toContainText("No markup");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance x1");
  // The unsaved draft comes back after a reload, still as text.
  await page.reload();
  await expect(page.getByLabel("Substitute 1")).toHaveValue('<img src=x onerror=alert("xss-7")>');
  await expect(page.getByLabel("Multiword phrase")).toHaveValue('<svg onload=alert("xss-9")> bank');
  expect(await injected(page)).toEqual([]);
  await page.evaluate(() => window.localStorage.clear());

  await page.goto(`/annotate/${sealed}/${firstRef}`);
  await page.getByRole("link", { name: /Next/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance x2");
  await expect(page.getByText('She paid at the bank <img src=x onerror=alert("xss-2")> before noon.')).toBeVisible();

  // The guidelines (set by the coordinator through the Team action) are text too.
  await page.getByRole("button", { name: "Guidelines" }).click();
  const dlg = page.getByRole("dialog", { name: "Guidelines" });
  await expect(dlg).toContainText('<script>alert("xss-5")</script>');
  await expect(dlg).toContainText('<img src=x onerror=alert("xss-6")> is not a substitute.');

  expect(await injected(page)).toEqual([]);
  expect(dialogs).toEqual([]);
});

test("the coordinator's pages show the same markup as text", async ({ page }) => {
  const dialogs = watchDialogs(page);
  await signIn(page, "sealed-coord");
  for (const p of [`/projects/${sealed}`, `/projects/${sealed}/members`, `/projects/${sealed}/progress`]) {
    await page.goto(p);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await injected(page), p).toEqual([]);
  }
  await page.goto(`/projects/${sealed}/members`);
  await expect(page.getByLabel("Guidelines for annotators")).toHaveValue(XSS_GUIDELINES);
  // Pages still being built by others: checked when present.
  for (const section of ["gold", "agreement"]) {
    if (!built(`/projects/[projectId]/${section}/page`)) continue;
    await page.goto(`/projects/${sealed}/${section}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await injected(page), section).toEqual([]);
    if (section === "gold") {
      // The exclusion reason set by exclusionAction (markup in answers is refused at save and import).
      for (const view of ["instances", "log"]) {
        await page.goto(`/projects/${sealed}/gold?view=${view}`);
        await expect(page.getByText(XSS_REASON).filter({ visible: true }).first(), view).toBeVisible();
        expect(await injected(page), `gold ${view}`).toEqual([]);
      }
    }
  }
  expect(dialogs).toEqual([]);
});
