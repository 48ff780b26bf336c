/**
 * One file of a stored release, read back from its archive (coordinators of the project): the
 * Release page shows the release's plots and opens each file its list names. Only a path the
 * release's manifest lists (and SHA256SUMS) is served, so nothing else in the archive (or beside it) can be asked
 * for. A release is frozen, so its plots, once read, are kept for the next view (a few releases'
 * at most); any other file is read from the archive when it is asked for, that file alone.
 */
import "server-only";
import type { Db } from "../../../db/client";
import type { Actor } from "../kernel/actor";
import { NotFoundError } from "../kernel/errors";
import { readArchive } from "./archive";
import { releaseArchive, releaseDetail } from "./releases";

/** A plot the release carries: its path in the release and the title and description its SVG names it by. */
export interface ReleasePlot {
  path: string;
  title: string;
  description: string;
}

const PLOT = /^agreement\/[^/]+\.svg$/;
const KEPT_RELEASES = 8;
/** Release id and archive SHA-256 → the plots' SVG bytes by path (a frozen archive's never change). */
const keptPlots = new Map<string, Map<string, Buffer>>();

/** What a file of a release is sent as, by its name: text as UTF-8 text, the plots as SVG images. */
export function releaseFileType(path: string): string {
  if (path.endsWith(".svg")) return "image/svg+xml";
  if (path.endsWith(".json")) return "application/json; charset=utf-8";
  return "text/plain; charset=utf-8";
}

async function plotsOf(db: Db, actor: Actor, projectId: number, releaseId: number): Promise<Map<string, Buffer>> {
  const a = releaseArchive(db, actor, projectId, releaseId);
  const key = `${releaseId}:${a.sha256}`;
  const kept = keptPlots.get(key);
  if (kept) return kept;
  const folder = releaseDetail(db, actor, projectId, releaseId).summary.folder;
  const files = await readArchive(a.bytes, (p) => p.startsWith(`${folder}/`) && PLOT.test(p.slice(folder.length + 1)));
  const plots = new Map<string, Buffer>();
  for (const [p, bytes] of files) {
    const path = p.startsWith(`${folder}/`) ? p.slice(folder.length + 1) : null;
    if (path !== null && PLOT.test(path)) plots.set(path, bytes);
  }
  if (keptPlots.size >= KEPT_RELEASES) keptPlots.delete(keptPlots.keys().next().value as string);
  keptPlots.set(key, plots);
  return plots;
}

function textOf(svg: string, tag: "title" | "desc"): string {
  const m = new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`).exec(svg);
  if (!m) return "";
  return m[1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/** The plots the release carries (under agreement/), in the manifest's order, each named as its SVG names itself. */
export async function releasePlots(db: Db, actor: Actor, projectId: number, releaseId: number): Promise<ReleasePlot[]> {
  const detail = releaseDetail(db, actor, projectId, releaseId);
  const listed = detail.manifest.filter((m) => PLOT.test(m.path));
  if (listed.length === 0) return [];
  const plots = await plotsOf(db, actor, projectId, releaseId);
  return listed.flatMap((m) => {
    const svg = plots.get(m.path)?.toString("utf8");
    return svg === undefined ? [] : [{ path: m.path, title: textOf(svg, "title") || m.path, description: textOf(svg, "desc") }];
  });
}

/** One file the release's manifest lists (or SHA256SUMS, the list itself), as stored in its archive; 404 for any other path. */
export async function releaseFile(db: Db, actor: Actor, projectId: number, releaseId: number, path: string): Promise<{ path: string; bytes: Buffer; contentType: string }> {
  const detail = releaseDetail(db, actor, projectId, releaseId);
  if (path !== "SHA256SUMS" && !detail.manifest.some((m) => m.path === path)) throw new NotFoundError(`The release has no file ${path}.`);
  if (PLOT.test(path)) {
    const bytes = (await plotsOf(db, actor, projectId, releaseId)).get(path);
    if (bytes) return { path, bytes, contentType: releaseFileType(path) };
  }
  // Only that file is read out of the archive, and reading stops there.
  const name = `${detail.summary.folder}/${path}`;
  const files = await readArchive(releaseArchive(db, actor, projectId, releaseId).bytes, (p) => p === name, 1);
  const bytes = files.get(name);
  if (!bytes) throw new NotFoundError(`The release has no file ${path}.`);
  return { path, bytes, contentType: releaseFileType(path) };
}
