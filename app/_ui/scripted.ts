"use client";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and until the page's script runs, true after: what needs JavaScript
 * (a button that opens a form, a button that waits for input to be checked) is left out of the
 * page a browser without JavaScript shows, so that its forms can still be reached and sent.
 */
export function useScripted(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
