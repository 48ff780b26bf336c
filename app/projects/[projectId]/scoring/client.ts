/** The Scoring page's calls to its route handlers (app/api/projects/[projectId]/scoring/…). */
export type GoldChoice = { kind: "project" } | { kind: "uploaded"; gold: File | null; mwgold: File | null };

/** Which figures the page shows: score.pl's (the default) or the documented repairs'. */
export type FiguresMode = "official" | "repaired";

/** The query parameter that carries the mode (in the page's URL and the routes'). */
export const FIGURES_PARAM = "figures";

/** `url` asking for the mode's figures (the default needs no parameter). */
export function withFigures(url: string, mode: FiguresMode): string {
  if (mode === "official") return url;
  return `${url}${url.includes("?") ? "&" : "?"}${FIGURES_PARAM}=repaired`;
}

export type ApiError = { ok: false; message: string; errors?: Record<string, string>; details?: string[] };

export function base(projectId: number): string {
  return `/api/projects/${projectId}/scoring`;
}

export function goldForm(gold: GoldChoice): FormData | null {
  if (gold.kind === "project") return null;
  const f = new FormData();
  if (gold.gold) f.set("gold", gold.gold);
  if (gold.mwgold) f.set("mwgold", gold.mwgold);
  return f;
}

/** GET (the project's gold) or POST (uploaded gold) a JSON route; errors come back as `{ ok: false }`. */
export async function call<T>(url: string, gold: GoldChoice | null, init: RequestInit = {}): Promise<({ ok: true } & T) | ApiError> {
  try {
    const form = gold ? goldForm(gold) : null;
    const res = await fetch(url, form ? { method: "POST", body: form } : init);
    const json = (await res.json().catch(() => null)) as (({ ok: true } & T) | ApiError) | null;
    if (!json) return { ok: false, message: `The server answered ${res.status} without a reason.` };
    return json;
  } catch {
    return { ok: false, message: "The request did not reach the server." };
  }
}

/** Download what a POST returns (downloads against uploaded gold). */
export async function postDownload(url: string, form: FormData, fallbackName: string): Promise<string | null> {
  try {
    const res = await fetch(url, { method: "POST", body: form });
    if (!res.ok) {
      const j = (await res.json().catch(() => null)) as ApiError | null;
      return j?.message ?? `The server answered ${res.status}.`;
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
    const blob = await res.blob();
    const href = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = href;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
    return null;
  } catch {
    return "The download did not reach the server.";
  }
}
