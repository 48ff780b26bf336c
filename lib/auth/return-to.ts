/**
 * Where the sign-in page sends someone back to: only a path of this site
 * ("/annotate/3/17?x=1"), never another origin ("//evil.example", "https://…",
 * "/\\evil"), so the link cannot be used to send people elsewhere. Pure.
 */
export function safeReturnTo(next: unknown): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2000) return "/";
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\\]/.test(next)) return "/";
  if (next === "/signin" || next.startsWith("/signin?") || next.startsWith("/api/")) return "/";
  return next;
}

/** The sign-in page's address that comes back to `path` afterwards. */
export function signInHref(path: string): string {
  const back = safeReturnTo(path);
  return back === "/" ? "/signin" : `/signin?next=${encodeURIComponent(back)}`;
}
