/** The Gold page's URL: which view, the lemma and instance filters, the pages. */
import type { InstanceOrder } from "@/lib/server/gold";

export type Search = Record<string, string | string[] | undefined>;
export type View = "lemmas" | "instances" | "queue" | "log";

export const VIEWS: { view: View; label: string }[] = [
  { view: "lemmas", label: "Lemma review" },
  { view: "instances", label: "Gold review" },
  { view: "queue", label: "Review queue" },
  { view: "log", label: "Review log" },
];

/** The instance filters as the URL carries them. */
export interface InstanceParams {
  lexelt: string;
  noMode: boolean;
  notInT: boolean;
  excluded: boolean;
  multiword: boolean;
  annotator: string;
  reviewed: "yes" | "no" | "";
  order: InstanceOrder;
  /** "" (no filter), "any", or a flag kind. */
  flag: string;
}

function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}
const flag = (v: string | string[] | undefined) => one(v) === "1";

/**
 * The instances held in place in agreement order (lib/server/gold/gold-review.ts, InstanceQuery.hold),
 * as the URL carries them: `id:agreement` entries (id URI-encoded, agreement empty for none) joined by commas.
 */
const HOLD_MAX = 200;

export function parseHold(v: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const entry of v.split(",").slice(0, HOLD_MAX)) {
    const at = entry.lastIndexOf(":");
    if (at <= 0) continue;
    let id: string;
    try {
      id = decodeURIComponent(entry.slice(0, at));
    } catch {
      continue;
    }
    const raw = entry.slice(at + 1);
    const n = raw === "" ? null : Number(raw);
    if (n === null || Number.isFinite(n)) out[id] = n;
  }
  return out;
}

export function formatHold(hold: Readonly<Record<string, number | null>>): string {
  return Object.entries(hold)
    .slice(-HOLD_MAX)
    .map(([id, n]) => `${encodeURIComponent(id)}:${n === null ? "" : n}`)
    .join(",");
}

/** The page's own URL with these query parameters (empty ones left out). */
export function href(base: string, params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === "" || v === false) continue;
    q.set(k, v === true ? "1" : String(v));
  }
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

/** The lemma review's filter and page as the URL carries them. */
export interface LemmaParams {
  contains: string;
  open: boolean;
  changed: boolean;
  page: string;
}

/** What the URL asks of the Gold page: the view, both filters with their pages, the review log's page. */
export function goldQuery(sp: Search): { view: View; lemmaQuery: LemmaParams; instanceQuery: InstanceParams & { page: string; instance: string; hold: Record<string, number | null> }; logPage: string } {
  const view: View = (["lemmas", "instances", "queue", "log"] as const).find((v) => v === one(sp.view)) ?? "lemmas";
  // The review queue: lowest agreement first, unreviewed instances, unless the URL says otherwise.
  const queue = view === "queue";
  const reviewedParam = one(sp.reviewed);
  const lemmaQuery: LemmaParams = { contains: one(sp.q), open: flag(sp.open), changed: flag(sp.changed), page: one(sp.lp) };
  const instanceQuery: InstanceParams & { page: string; instance: string; hold: Record<string, number | null> } = {
    lexelt: one(sp.lexelt).trim(),
    noMode: flag(sp.nomode),
    notInT: flag(sp.notint),
    excluded: flag(sp.excluded),
    multiword: flag(sp.mw),
    annotator: one(sp.annotator),
    reviewed: reviewedParam === "yes" || reviewedParam === "no" ? reviewedParam : queue && reviewedParam !== "any" ? "no" : "",
    order: one(sp.order) === "agreement" || (queue && one(sp.order) !== "corpus") ? "agreement" : "corpus",
    flag: one(sp.flag),
    page: one(sp.ip),
    instance: one(sp.instance),
    hold: parseHold(one(sp.hold)),
  };
  return { view, lemmaQuery, instanceQuery, logPage: one(sp.gp) };
}
