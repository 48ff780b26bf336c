/** Signing in and starting a study without JavaScript: next-auth's callbacks posted natively (test/server/native-forms/native-forms.test.ts). */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cookieHeader, follow, keep, lexgold, one, post, redirects, shows, textOf, visit, world } from "../../support/native-world";

/** A study by a plain link, with a consent, opened on the demo project; its token. */
export function seedLinkStudy(port: number): string {
  const consent = path.join(world.dir, "consent.md");
  fs.writeFileSync(consent, "# Consent\n\nYou agree to take part.\n");
  const out = lexgold(["study", "create", "--project", "demo", "--platform", "link", "--batch", "2", "--overlap", "3", "--minutes", "30", "--consent", consent, "--name", "native link", "--origin", `http://127.0.0.1:${port}`]);
  return /\/study\/([^/?\s]+)/.exec(out)![1];
}

/** The session's account name, as next-auth tells the browser holding `jar`. */
async function sessionName(jar: Map<string, string>): Promise<string | undefined> {
  const res = await fetch(`${world.server.base}/api/auth/session`, { headers: { Cookie: cookieHeader(jar) } });
  return ((await res.json()) as { user?: { name?: string } }).user?.name;
}

describe("signing in without JavaScript", () => {
  it("the page holds next-auth's CSRF token, and its cookie is set with it", async () => {
    const jar = new Map<string, string>();
    const page = await visit("/signin", jar);
    const token = /name="csrfToken" value="([0-9a-f]{64})"/.exec(page.html)?.[1];
    expect(token).toBeDefined();
    expect(jar.get("next-auth.csrf-token")).toMatch(new RegExp(`^${token}(%7C|\\|)[0-9a-f]{64}$`));
    // The same cookie, the same token: next-auth's client reads it too.
    const again = await visit("/signin", jar);
    expect(again.html).toContain(`value="${token}"`);
  });

  it("signs in and goes back to the page asked for", async () => {
    const jar = new Map<string, string>();
    const back = `/projects/${world.projectId}/gold`;
    const page = await visit(`/signin?next=${encodeURIComponent(back)}`, jar);
    const a = await post(null, "/signin", "Sign in", { from: page, cookie: cookieHeader(jar), set: { username: "coordinator", password: "lexgold-demo" } });
    redirects(a, new RegExp(`^${back}$`));
    keep(jar, a);
    expect(await sessionName(jar)).toBe("coordinator");
    expect((await follow(a, null, cookieHeader(jar))).status).toBe(200);
  });

  it("refuses a wrong password with the reason, on the sign-in page that still goes back", async () => {
    const back = `/projects/${world.projectId}`;
    const jar = new Map<string, string>();
    const page = await visit(`/signin?next=${encodeURIComponent(back)}`, jar);
    const a = await post(null, "/signin", "Sign in", { from: page, cookie: cookieHeader(jar), set: { username: "annotator3", password: "not-the-password" } });
    redirects(a, new RegExp(`^/signin\\?next=${encodeURIComponent(back).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}&error=CredentialsSignin$`));
    keep(jar, a);
    expect(await sessionName(jar)).toBeUndefined();
    const shown = await follow(a, null, cookieHeader(jar));
    shows(shown, "That user name and password do not match.");
    expect(shown.html).toContain(`name="callbackUrl" value="${back}"`);
  });

  it("refuses a sign-in without the CSRF cookie (a form posted from elsewhere)", async () => {
    const jar = new Map<string, string>();
    const page = await visit("/signin", jar);
    const a = await post(null, "/signin", "Sign in", { from: page, cookie: "", set: { username: "coordinator", password: "lexgold-demo" } });
    redirects(a, /^\/signin\?error=Expired$/);
    expect((a.cookies ?? []).some((c) => /session-token=[^;]/.test(c))).toBe(false);
  });

  it.each(["//evil.example/x", "https://evil.example/x", "/\\evil.example", "javascript:alert(1)"])("goes back to no other site: callbackUrl %s leads home", async (evil) => {
    const jar = new Map<string, string>();
    const page = await visit("/signin", jar);
    const b = await post(null, "/signin", "Sign in", { from: page, cookie: cookieHeader(jar), set: { username: "coordinator", password: "lexgold-demo", callbackUrl: evil } });
    redirects(b, /^\/$/);
  });
});

describe("a study's start without JavaScript (a plain link, with a consent)", () => {
  const token = () => one<{ token: string }>("select token from studies where name = 'native link'").token;
  const participant = (id: string) => one<{ user: number } | undefined>("select user_id as user from participants where platform_id = ?", id);
  let resumeCode = "";
  let account: string | undefined;

  it("joins: the page answering is the started page with the resume code", async () => {
    const jar = new Map<string, string>();
    const page = await visit(`/study/${token()}`, jar);
    expect(page.html).toContain('name="consent" value="yes"');
    const a = await post(null, `/study/${token()}`, "Start the study", { from: page, cookie: cookieHeader(jar), set: { id: "native-p1" } });
    redirects(a, new RegExp(`^/study/${token()}\\?started=1$`));
    keep(jar, a);
    expect(participant("native-p1")).toBeDefined();
    const started = await follow(a, null, cookieHeader(jar));
    shows(started, "You have started");
    resumeCode = /[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/.exec(textOf(started.html))?.[0] ?? "";
    expect(resumeCode).not.toBe("");
    account = await sessionName(jar);
    expect(account).toBeDefined();
  });

  it("another browser with the same id is asked for the resume code, and gets in with it", async () => {
    const jar = new Map<string, string>();
    const page = await visit(`/study/${token()}`, jar);
    const refused = await post(null, `/study/${token()}`, "Start the study", { from: page, cookie: cookieHeader(jar), set: { id: "native-p1" } });
    redirects(refused, new RegExp(`^/study/${token()}\\?id=native-p1&outcome=[0-9a-f]{32}$`));
    keep(jar, refused);
    expect(jar.has("next-auth.session-token")).toBe(false);
    const asked = await visit(refused.location!, jar);
    shows(asked, "resume code");
    expect(asked.html).toMatch(/<details[^>]* open=""/);
    // A wrong code: refused again; nobody is signed in.
    const wrong = await post(null, refused.location!, "Start the study", { from: asked, cookie: cookieHeader(jar), set: { resumeCode: "AAAA-BBBB-CCCC" } });
    redirects(wrong, /\?id=native-p1&outcome=/);
    keep(jar, wrong);
    expect(jar.has("next-auth.session-token")).toBe(false);
    const again = await visit(wrong.location!, jar);
    const right = await post(null, wrong.location!, "Start the study", { from: again, cookie: cookieHeader(jar), set: { resumeCode } });
    redirects(right, new RegExp(`^/study/${token()}\\?started=1$`));
    keep(jar, right);
    expect(await sessionName(jar)).toBe(account);
    expect(one<{ n: number }>("select count(*) as n from participants where platform_id = 'native-p1'").n).toBe(1);
  });

  it("refuses a start without the CSRF cookie, saying the page expired", async () => {
    const jar = new Map<string, string>();
    const page = await visit(`/study/${token()}`, jar);
    const a = await post(null, `/study/${token()}`, "Start the study", { from: page, cookie: "", set: { id: "native-p2" } });
    redirects(a, /\?id=native-p2&outcome=/);
    expect(participant("native-p2")).toBeUndefined();
    shows(await visit(a.location!, new Map()), "The page had expired: start again.");
  });
});
