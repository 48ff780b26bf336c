"use client";
/**
 * Keeping the coordinator's place in agreement order: a decision changes an instance's agreement,
 * and the refreshed page would sort it elsewhere (off the screen, or onto another page). Before a
 * decision is sent, the instance is added to the URL's `hold` with the agreement it was ranked by,
 * so the page the action refreshes keeps it, and the others, where they were (_views/params.ts).
 */
import { createContext, type ReactNode, useCallback, useContext } from "react";
import { formatHold, parseHold } from "./_views/params";

const KeepPlaceContext = createContext<(() => void) | null>(null);

export function KeepPlace({ instanceId, rank, children }: { instanceId: string; rank: number | null; children: ReactNode }) {
  const hold = useCallback(() => {
    const url = new URL(window.location.href);
    const held = parseHold(url.searchParams.get("hold") ?? "");
    if (Object.hasOwn(held, instanceId)) return;
    held[instanceId] = rank;
    url.searchParams.set("hold", formatHold(held));
    // The app router follows a replaceState of its own making (data null: it copies its state in), so the
    // action's refresh renders this URL; passing its state through would skip that.
    window.history.replaceState(null, "", url);
  }, [instanceId, rank]);
  return <KeepPlaceContext.Provider value={hold}>{children}</KeepPlaceContext.Provider>;
}

/** Hold the instance of the card this form is in (nothing outside a held card). */
export function useKeepPlace(): () => void {
  return useContext(KeepPlaceContext) ?? noop;
}

function noop() {}
