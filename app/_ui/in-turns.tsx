/**
 * A long list rendered on the server in two stretches: the first FIRST rows at once, the rest after
 * the event loop has turned once, so that saves the serving process took in meanwhile are answered
 * in between. The HTML is the same, and it is in the page as sent (no Suspense, which would need
 * JavaScript to put streamed content in place).
 *
 * Two stretches, not one per slice of rows: slices that each wait a turn all wait the same turn, and
 * React renders everything that settled before its next task in one go. Slices one turn after
 * another (each waiting for the one before) were tried and taken back: a load's longest hold fell
 * (the Agreement page at 100,000 instances: a median of 73 to 30 ms), but with annotators saving as
 * fast as they are answered every turn waits behind that turn's saves, so the coordinator's pages
 * took about twice as long (the Scoring page over its 1 s target) and the saves were no faster.
 * bench/RESULTS.md, 2026-11-30.
 */
import type { ReactNode } from "react";

/** Rows rendered at once; the rest wait a turn of the event loop. */
const FIRST = 20;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function Later({ children }: { children: ReactNode }) {
  await turn();
  return <>{children}</>;
}

/** `items` rendered by `render`: the first FIRST at once, the rest after one turn of the event loop. */
export function InTurns<T>({ items, render }: { items: readonly T[]; render: (item: T, index: number) => ReactNode }) {
  const first = items.slice(0, FIRST).map((item, k) => render(item, k));
  if (items.length <= FIRST) return <>{first}</>;
  return (
    <>
      {first}
      <Later>{items.slice(FIRST).map((item, k) => render(item, FIRST + k))}</Later>
    </>
  );
}
