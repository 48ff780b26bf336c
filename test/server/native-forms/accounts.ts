/** The Accounts page's, Your account's and the sign-out forms posted without JavaScript (test/server/native-forms/native-forms.test.ts). */
import { describe, expect, it } from "vitest";
import type { NativeForm } from "../../support/native-form";
import { cookieHeader, keep, one, post, redirects, shows, signInAs, visit, world } from "../../support/native-world";

const userId = (name: string) => one<{ id: number }>("select id from users where name = ?", name).id;
const forUser = (name: string) => (f: NativeForm) => f.fields.some((x) => x.name === "userId" && x.value === String(userId(name)));
const passwordOf = (name: string) => one<{ h: string }>("select password_hash as h from users where name = ?", name).h;

/** A sign-in as a browser without JavaScript makes it, from the sign-in page; the jar holds the cookies after. */
async function signInNatively(name: string, password: string, jar = new Map<string, string>()) {
  const page = await visit("/signin", jar);
  const a = await post(null, "/signin", "Sign in", { from: page, cookie: cookieHeader(jar), set: { username: name, password } });
  keep(jar, a);
  return { a, jar };
}

describe("Your account (the account's own user)", () => {
  it("refuses a weak new password, then changes it: every session ends, the page still says so", async () => {
    const cookie = await signInAs("native-ann1", "native-pass-0001");
    const before = passwordOf("native-ann1");
    const weak = await post(null, "/account", "Change password", { cookie, set: { current: "native-pass-0001", next: "aaaaaaaaaaaa", confirm: "aaaaaaaaaaaa" } });
    shows(weak, "A password cannot be one character repeated.");
    expect(passwordOf("native-ann1")).toBe(before);
    const done = await post(null, "/account", "Change password", { cookie, set: { current: "native-pass-0001", next: "native-pass-0002", confirm: "native-pass-0002" } });
    shows(done, "Password changed. Every session of yours has ended: sign in again with the new password.");
    expect(passwordOf("native-ann1")).not.toBe(before);
    // The session ended with the change.
    const after = await fetch(`${world.server.base}/account`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(after.status).toBe(307);
    expect(after.headers.get("location")).toMatch(/^\/signin\?next=%2Faccount/);
    await signInAs("native-ann1", "native-pass-0002");
  });
});

describe("the Accounts page (coordinator)", () => {
  it("resets a password: the new one is shown once, the old one stops working", async () => {
    const before = passwordOf("native-ann1");
    shows(await post("coordinator", "/accounts", "Reset password", { form: forUser("native-ann1") }), "New password for native-ann1");
    expect(passwordOf("native-ann1")).not.toBe(before);
  });

  it("disables an account and enables it again", async () => {
    const disabled = () => one<{ d: number }>("select disabled as d from users where name = 'native-ann1'").d;
    const toggle = (button: string) => (f: NativeForm) => forUser("native-ann1")(f) && f.buttons.some((b) => b.text === button);
    shows(await post("coordinator", "/accounts", "Disable", { form: toggle("Disable") }), "native-ann1 is disabled and signed out.");
    expect(disabled()).toBe(1);
    shows(await post("coordinator", "/accounts", "Enable", { form: toggle("Enable") }), "native-ann1 can sign in again.");
    expect(disabled()).toBe(0);
  });

  it("lifts the sign-in lock of an account that failed too often", async () => {
    const jar = new Map<string, string>();
    for (let i = 0; i < 6; i++) {
      const { a } = await signInNatively("native-ann1", `wrong-password-${i}`, jar);
      redirects(a, /^\/signin\?error=(CredentialsSignin|RateLimited)$/);
    }
    shows(await post("coordinator", "/accounts", "Lift lock", { form: forUser("native-ann1") }), "native-ann1 can sign in again at once");
  });
});

describe("signing out without JavaScript", () => {
  it("ends the session and answers with the sign-in page", async () => {
    const cookie = await signInAs("annotator2", "lexgold-demo");
    const a = await post(null, "/annotate", "Sign out", { cookie });
    redirects(a, /^\/signin$/);
    expect((a.cookies ?? []).some((c) => /session-token=;/.test(c))).toBe(true);
    // The copy of the cookie kept opens nothing: the session's version is retired.
    const after = await fetch(`${world.server.base}/annotate`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(after.status).toBe(307);
  });
});
