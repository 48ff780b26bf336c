/**
 * The HTTP requests the browser sends to the annotation workspace, rebuilt for
 * the load runs: the server action that saves an answer (POST to the page with
 * a Next-Action header, the arguments serialised as React's encodeReply does
 * for plain JSON values) and the client-side navigation to the next instance
 * (GET with RSC: 1, the router state tree and Next's cache-busting `_rsc`
 * parameter). Shapes follow Next 16 as captured from chromium on the built app;
 * the load run stops with the server's answer when a save is not acknowledged
 * before the load starts, so a Next upgrade that changes them shows at once.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface ActionRef {
  id: string;
  /** The page workers that can run it, e.g. "app/annotate/[projectId]/[instanceId]/page". */
  workers: string[];
}

/** The id of a server action in a build's server-reference-manifest.json. */
export function findActionId(distDir: string, file: string, exportedName: string): ActionRef {
  const manifestPath = path.join(distDir, "server", "server-reference-manifest.json");
  let manifest: { node?: Record<string, { filename?: string; exportedName?: string; workers?: Record<string, unknown> }> };
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
  } catch (e) {
    throw new Error(`${manifestPath}: cannot read the build's server actions (${(e as Error).message}); build first.`);
  }
  for (const [id, entry] of Object.entries(manifest.node ?? {})) {
    if (entry.filename === file && entry.exportedName === exportedName) return { id, workers: Object.keys(entry.workers ?? {}) };
  }
  throw new Error(`${manifestPath}: no server action ${exportedName} from ${file}.`);
}

type Tree = [string | [string, string, string, null], Record<string, unknown>, null, string | null, number];

/** The router state tree of /annotate/P/I, as the browser holds it on that page. */
function workspaceTree(projectId: number, instanceRef: number, refetchLeaf: boolean): unknown {
  const page: Tree = ["__PAGE__", {}, null, null, 0];
  const instance: Tree = [["instanceId", String(instanceRef), "d", null], { children: page }, null, refetchLeaf ? "refetch" : null, 0];
  const project: Tree = [["projectId", String(projectId), "d", null], { children: instance }, null, null, 0];
  const annotate: Tree = ["annotate", { children: project }, null, null, 0];
  return ["", { children: annotate }, null, null, 16];
}

/** Next-Router-State-Tree for a server action posted from /annotate/P/I. */
export function actionStateTree(projectId: number, instanceRef: number): string {
  return encodeURIComponent(JSON.stringify(workspaceTree(projectId, instanceRef, false)));
}

/** Next-Router-State-Tree for the client-side move to /annotate/P/I. */
export function navigationStateTree(projectId: number, instanceRef: number): string {
  return encodeURIComponent(JSON.stringify(workspaceTree(projectId, instanceRef, true)));
}

/**
 * Next's `_rsc` cache-busting parameter: SHA-256 of the prefetch, segment-prefetch,
 * state-tree and Next-Url header values joined by commas ("0" for absent), the
 * first 12 bytes in base64url. The server refuses a mismatch with a redirect.
 */
export function cacheBustingParam(headers: { prefetch?: string; segmentPrefetch?: string; stateTree?: string; nextUrl?: string }): string {
  const { prefetch, segmentPrefetch, stateTree, nextUrl } = headers;
  if ((prefetch === undefined || prefetch === "0") && segmentPrefetch === undefined && stateTree === undefined && nextUrl === undefined) return "";
  const input = [prefetch ?? "0", segmentPrefetch ?? "0", stateTree ?? "0", nextUrl ?? "0"].join(",");
  return createHash("sha256").update(input).digest().subarray(0, 12).toString("base64url");
}

/**
 * Serialise server-action arguments the way React's encodeReply does for plain
 * JSON values (numbers, booleans, null, strings, arrays, plain objects): JSON,
 * with strings starting with "$" escaped as "$$…" and undefined as "$undefined".
 */
export function encodeActionArgs(args: readonly unknown[]): string {
  return JSON.stringify(args, function (this: Record<string, unknown>, key, value: unknown) {
    // A Date (anything with toJSON) arrives here already converted: look at the holder's own value.
    if (this[key] instanceof Date) throw new Error("encodeActionArgs: only plain objects, arrays and scalars");
    if (typeof value === "string" && value.startsWith("$")) return "$" + value;
    if (value === undefined) return "$undefined";
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`encodeActionArgs: ${value} is not sent as plain JSON`);
    if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) {
      throw new Error("encodeActionArgs: only plain objects, arrays and scalars");
    }
    return value;
  });
}

/**
 * The value a server action returned, read from its RSC response: row 0 names
 * the row holding the result ("a": "$@N"), which is a JSON row "N:{…}".
 * Throws when the response holds no readable result.
 */
export function parseActionResult(body: string): unknown {
  const rows = new Map<string, string>();
  for (const line of body.split("\n")) {
    const m = /^([0-9a-f]+):(.*)$/.exec(line);
    if (m && !rows.has(m[1])) rows.set(m[1], m[2]);
  }
  const head = rows.get("0");
  if (head === undefined) throw new Error("action response has no row 0");
  let root: { a?: unknown };
  try {
    root = JSON.parse(head) as { a?: unknown };
  } catch {
    throw new Error("action response row 0 is not JSON");
  }
  const ref = root.a;
  if (typeof ref !== "string") throw new Error("action response carries no result");
  if (!ref.startsWith("$@")) return JSON.parse(JSON.stringify(ref));
  const id = ref.slice(2);
  const row = rows.get(id);
  if (row === undefined) throw new Error(`action response lacks result row ${id}`);
  return JSON.parse(row);
}
