/**
 * A long list rendered on the server in two stretches: the first SLICE rows at once, the rest after
 * the event loop has turned once, so that saves the serving process took in meanwhile are answered
 * in between. The HTML is the same, and it is in the page as sent (no Suspense, which would need
 * JavaScript to put streamed content in place).
 *
 * Each further slice is an async server component that waits one turn. They all wait the same turn,
 * so they settle together, and React renders everything that settled before its next task in one
 * go: the rest of the list is one stretch, not one per slice. Slices one turn after another (each
 * waiting for the one before) were tried and taken back: a load's longest hold fell from 57–98 to
 * 20–50 ms (the Agreement page at 100,000 instances), but with annotators saving as fast as they are answered every turn
 * waits behind that turn's saves, so the coordinator's pages took about twice as long (the Scoring
 * page over its 1 s target) and the saves were no faster. bench/RESULTS.md, 2026-11-30.
 */
import type { ReactNode } from "react";

/** Rows per slice. */
const SLICE = 20;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function Later({ children }: { children: ReactNode }) {
  await turn();
  return <>{children}</>;
}

/** `items` rendered by `render`: the first SLICE at once, the rest after one turn of the event loop. */
export function InTurns<T>({ items, render }: { items: readonly T[]; render: (item: T, index: number) => ReactNode }) {
  const slices: ReactNode[] = [];
  for (let at = 0; at < items.length; at += SLICE) {
    const rows = items.slice(at, at + SLICE).map((item, k) => render(item, at + k));
    slices.push(at === 0 ? rows : <Later key={at}>{rows}</Later>);
  }
  return <>{slices}</>;
}
