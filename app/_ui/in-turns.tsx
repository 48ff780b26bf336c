/**
 * A long page rendered on the server in slices, one slice per turn of the event loop, so that a page
 * of hundreds of rows no longer holds the server process's loop in one stretch: saves the same
 * process took in meanwhile are answered between slices. The HTML is the same, and it is in the page
 * as sent (no Suspense, which would need JavaScript to put streamed content in place).
 *
 * React renders an async server component when its promise settles, and renders every component
 * that settled before its next task together. So the slices wait in a line, one turn after the
 * other (`afterTurns`): slices that all waited one turn of their own would settle in the same turn
 * and be rendered in one stretch again. The line is the request's (React's `cache`), so the slices of
 * every list and section on a page take their turns one after another, in the order React reaches
 * them.
 *
 * A page may start with `await afterTurns()`, so that its reads take a turn of their own too.
 */
import { cache, type ReactNode } from "react";

/** Rows per slice, unless a list says otherwise. */
const SLICE = 20;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The request's line of turns (one per request under React's server renderer; a new one per call elsewhere). */
const line = cache((): { last: Promise<void> } => ({ last: Promise.resolve() }));

/**
 * A promise that settles one turn of the event loop after the one handed out before it in `queue`
 * (the request's line by default): the n-th settles n turns from now, each in a turn of its own.
 */
export function afterTurns(queue: { last: Promise<void> } = line()): Promise<void> {
  queue.last = queue.last.then(turn);
  return queue.last;
}

/** `children`, rendered when the request's line reaches them. */
async function Later({ children }: { children: ReactNode }) {
  await afterTurns();
  return <>{children}</>;
}

/** `items` rendered by `render`: the first `slice` at once, each further `slice` when its turn comes. */
export function InTurns<T>({ items, render, slice = SLICE }: { items: readonly T[]; render: (item: T, index: number) => ReactNode; slice?: number }) {
  const slices: ReactNode[] = [];
  for (let at = 0; at < items.length; at += slice) {
    const rows = items.slice(at, at + slice).map((item, k) => render(item, at + k));
    slices.push(at === 0 ? rows : <Later key={at}>{rows}</Later>);
  }
  return <>{slices}</>;
}

/** A part of a page (a section, a chart) rendered when its turn comes, after what the page queued before it. */
export function InTurn({ children }: { children: ReactNode }) {
  return <Later>{children}</Later>;
}
