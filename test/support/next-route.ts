/**
 * Run an App Router route handler the way `next start` does, inside Next's
 * request scope, so that next/headers (which next-auth's route handler reads)
 * answers for the request. Import this module before anything that loads Next.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";

// Next's server sets this before its async storages load (node-environment.js).
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;

const require = createRequire(import.meta.url);

interface Storage {
  run<T>(store: unknown, fn: () => T): T;
}

export async function inRequestScope<T>(req: Request, fn: () => Promise<T>): Promise<T> {
  const { workAsyncStorage } = require("next/dist/server/app-render/work-async-storage.external.js") as { workAsyncStorage: Storage };
  const { workUnitAsyncStorage } = require("next/dist/server/app-render/work-unit-async-storage.external.js") as { workUnitAsyncStorage: Storage };
  const { createRequestStoreForAPI } = require("next/dist/server/async-storage/request-store.js") as {
    createRequestStoreForAPI: (req: { headers: Record<string, string> }, url: { pathname: string; search: string }, ...rest: unknown[]) => unknown;
  };
  const url = new URL(req.url);
  const workStore = { route: url.pathname, forceStatic: false, dynamicShouldError: false, isStaticGeneration: false };
  const requestStore = createRequestStoreForAPI({ headers: Object.fromEntries(req.headers) }, { pathname: url.pathname, search: url.search }, undefined, undefined, undefined, undefined);
  return workAsyncStorage.run(workStore, () => workUnitAsyncStorage.run(requestStore, fn));
}
