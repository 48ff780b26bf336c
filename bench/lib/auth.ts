/**
 * Sign in through next-auth's real credentials flow, as the sign-in page's
 * signIn("credentials", { redirect: false }) does: fetch the CSRF token (and
 * its cookie), post the form to /api/auth/callback/credentials, keep the
 * session cookie. Returns the Cookie header value to send afterwards.
 */

/** name=value pairs from Set-Cookie headers, later ones replacing earlier ones. */
export function mergeCookies(jar: Map<string, string>, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(";")[0];
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
  }
}

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

export async function signIn(base: string, name: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  if (!csrfRes.ok) throw new Error(`sign-in ${name}: GET /api/auth/csrf answered ${csrfRes.status}`);
  mergeCookies(jar, csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken?: string };
  if (!csrfToken) throw new Error(`sign-in ${name}: no CSRF token`);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookieHeader(jar), Origin: base },
    body: new URLSearchParams({ username: name, password, csrfToken, callbackUrl: `${base}/`, json: "true" }),
  });
  mergeCookies(jar, res);
  const session = [...jar.keys()].find((k) => k.endsWith("next-auth.session-token"));
  if (!session) throw new Error(`sign-in ${name}: no session cookie (status ${res.status}: ${(await res.text()).slice(0, 200)})`);
  await res.body?.cancel();
  // Confirm the session is the user's.
  const check = await fetch(`${base}/api/auth/session`, { headers: { Cookie: cookieHeader(jar) } });
  const body = (await check.json()) as { user?: { name?: string } };
  if (body.user?.name !== name) throw new Error(`sign-in ${name}: the session names ${JSON.stringify(body.user?.name)}`);
  return cookieHeader(jar);
}
