/** The workspace's answer as typed (the three substitute fields, NAME / NIL, the multiword phrase), and how it is kept and shown. */
import type { OwnResponse, ResponseKind } from "@/lib/server/annotate";
import { listAnswers } from "@/app/_ui/answer-text";

export type Subs = [string, string, string];

export interface Draft {
  kind: ResponseKind;
  subs: Subs;
  multiword: boolean;
  phrase: string;
}

export interface StoredDraft {
  draft: Draft;
  /** The revision the draft was started from: saving it against a newer one is a conflict. */
  baseRevision: number;
}

export function fromResponse(r: OwnResponse | null): Draft {
  if (!r) return { kind: "substitutes", subs: ["", "", ""], multiword: false, phrase: "" };
  const subs: Subs = ["", "", ""];
  r.substitutes.slice(0, 3).forEach((v, i) => (subs[i] = v));
  return { kind: r.kind, subs, multiword: r.multiword !== null, phrase: r.multiword ?? "" };
}

export function sameDraft(a: Draft, b: Draft): boolean {
  const norm = (d: Draft) =>
    JSON.stringify([d.kind, d.kind === "substitutes" ? d.subs.map((x) => x.trim()) : [], d.multiword, d.multiword ? d.phrase.trim() : ""]);
  return norm(a) === norm(b);
}

/** Where a draft not yet saved is kept in the browser (localStorage), until the server acknowledges a save. */
export function draftKey(userId: number, projectId: number, ref: number) {
  return `lexgold:draft:${userId}:${projectId}:${ref}`;
}

export function readDraft(key: string): StoredDraft | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as StoredDraft;
    if (!v?.draft || !Array.isArray(v.draft.subs) || typeof v.baseRevision !== "number") return null;
    return v;
  } catch {
    return null;
  }
}

export function describe(d: { kind: ResponseKind; substitutes: string[]; multiword: string | null }): string {
  const answer = d.kind === "substitutes" ? listAnswers(d.substitutes) || "(nothing)" : d.kind;
  return d.multiword ? `${answer} · multiword “${d.multiword}”` : answer;
}

export function draftAsResponse(d: Draft) {
  return {
    kind: d.kind,
    substitutes: d.kind === "substitutes" ? d.subs.map((x) => x.trim()).filter(Boolean) : [],
    multiword: d.multiword ? d.phrase.trim() : null,
  };
}
