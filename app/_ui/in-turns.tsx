/**
 * A long list rendered on the server in slices, each after the event loop has turned: React renders
 * an async server component when its promise settles, in a task of its own, so a page of hundreds of
 * rows no longer holds the server process's event loop in one stretch. Saves the same process took in
 * meanwhile are answered between slices. The HTML is the same, and it is in the page as sent (no
 * Suspense, which would need JavaScript to put streamed content in place).
 */
import type { ReactNode } from "react";

/** Rows per slice. */
const SLICE = 20;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function Later({ children }: { children: ReactNode }) {
  await turn();
  return <>{children}</>;
}

/** `items` rendered by `render`, the first SLICE at once, each further SLICE after a turn of the event loop. */
export function InTurns<T>({ items, render }: { items: readonly T[]; render: (item: T, index: number) => ReactNode }) {
  const slices: ReactNode[] = [];
  for (let at = 0; at < items.length; at += SLICE) {
    const rows = items.slice(at, at + SLICE).map((item, k) => render(item, at + k));
    slices.push(at === 0 ? rows : <Later key={at}>{rows}</Later>);
  }
  return <>{slices}</>;
}
