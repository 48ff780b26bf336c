/**
 * Releases of a project's gold standard (issue #42): `lexgold release create|list|download` and
 * the Releases tab. A release is made from one snapshot (snapshot.ts: one read transaction), its
 * files written (contents.ts) and packed into a .tar.gz (archive.ts), and stored with its SHA-256
 * and every file's in one write transaction, with the pseudonyms first given in it. Stored rows
 * never change (triggers, drizzle/0026): later edits to the project never change a release.
 *
 * Where the archives live, and why: in the database (release_archives), not in files beside it,
 * so a release and its bytes are written in one transaction, every backup and restore carries
 * them with nothing more to copy, and no file outside the database can drift from its row.
 * Coordinators of the project only.
 */
import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { releaseArchives, releaseDatasheets, releasePseudonyms, releases, users } from "../../../db/schema";
import { type Actor, actorUserId, requireProject, SYSTEM } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";
import { packArchive, readArchive } from "./archive";
import { assignPseudonyms, fileStem, releaseFiles } from "./contents";
import { releaseCharts } from "./release-charts";
import { DATASHEET_QUESTIONS, type DatasheetAnswers, MAX_DATASHEET_ANSWER, type ManifestEntry, type ReleaseChanges, type ReleaseFacts, type ReleaseInclude, type ReleaseSummary } from "./release-types";
import { readReleaseSnapshot, type ReleaseSnapshot } from "./snapshot";

/** A semantic version (semver.org): MAJOR.MINOR.PATCH with an optional pre-release. */
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

const createSchema = z.object({
  version: z.string().trim().regex(VERSION, "A version is MAJOR.MINOR.PATCH, e.g. 1.0.0 (semver.org)."),
  names: z.boolean().optional(),
  notes: z.boolean().optional(),
});

export interface ReleaseInfo {
  id: number;
  version: string;
  createdAt: Date;
  createdByName: string | null;
  dataVersion: number;
  archiveSha256: string;
  archiveBytes: number;
  fileName: string;
  facts: ReleaseFacts;
  include: Required<ReleaseInclude>;
}

export interface ReleaseDetail extends ReleaseInfo {
  summary: ReleaseSummary;
  manifest: ManifestEntry[];
}

/** Refuse a version the project has released already (a release never changes). */
function refuseTaken(db: Db, projectId: number, version: string): void {
  if (db.select({ id: releases.id }).from(releases).where(and(eq(releases.projectId, projectId), eq(releases.version, version))).get()) {
    throw new InputError(`This project already has a release ${version}; a release never changes: give a new version.`, { version: "Already released." });
  }
}

const GOLD_KEY = / :: /;

/** lexelt+instance → gold line, from a gold file's text. */
function goldLines(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const at = line.search(GOLD_KEY);
    if (at > 0) out.set(line.slice(0, at), line);
  }
  return out;
}

const EXAMPLES = 20;

/** What changed since the previous release, read from that release's own files. */
async function changesSince(snapshot: ReleaseSnapshot): Promise<ReleaseChanges | null> {
  const prev = snapshot.previous;
  if (!prev) return null;
  const files = await readArchive(prev.archive);
  const text = (suffix: string) => [...files.entries()].find(([p]) => p.startsWith(`${prev.summary.folder}/`) && p.endsWith(suffix))?.[1].toString("utf8") ?? "";
  const before = goldLines(text("formats/" + fileStem(prev.summary.project) + ".gold"));
  const after = goldLines(snapshot.goldText);
  const idsBefore = new Set(
    text("data/instances.jsonl")
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        const r = JSON.parse(l) as { lexelt: string; instance: string };
        return `${r.lexelt} ${r.instance}`;
      }),
  );
  const idsAfter = new Set(snapshot.corpus.flatMap((l) => l.instances.map((i) => `${l.lexelt} ${i.id}`)));
  const added = [...idsAfter].filter((k) => !idsBefore.has(k));
  const removed = [...idsBefore].filter((k) => !idsAfter.has(k));
  const examples: ReleaseChanges["goldLines"]["examples"] = [];
  let addedLines = 0;
  let removedLines = 0;
  let changed = 0;
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(key) ?? null;
    const a = after.get(key) ?? null;
    if (b === a) continue;
    if (b === null) addedLines++;
    else if (a === null) removedLines++;
    else changed++;
    if (examples.length < EXAMPLES) examples.push({ instanceId: key, before: b, after: a });
  }
  return {
    previous: prev.version,
    instances: { added: added.length, removed: removed.length, addedIds: added.slice(0, EXAMPLES), removedIds: removed.slice(0, EXAMPLES) },
    goldLines: { added: addedLines, removed: removedLines, changed, examples },
    facts: { before: prev.summary.facts, after: snapshot.facts },
  };
}

function nameOf(db: Db, userId: number | null): string | null {
  if (userId === null) return null;
  return db.select({ name: users.name }).from(users).where(eq(users.id, userId)).get()?.name ?? null;
}

/**
 * Make a release: snapshot, files, archive, stored in one transaction. The server runs it as a
 * job (releases/job-kinds.ts "release", started by `startRelease`); the CLI and tests call it here.
 * `createdBy`: the account that asked (null: the command line).
 */
export async function buildRelease(db: Db, projectId: number, createdBy: number | null, input: { version: string; names?: boolean; notes?: boolean }, now = new Date()): Promise<ReleaseInfo> {
  const data = parseOrThrow(createSchema, input, "Cannot make the release");
  refuseTaken(db, projectId, data.version);
  // The caller was checked (the CLI, or the coordinator who started the job).
  const snapshot = readReleaseSnapshot(db, SYSTEM, projectId);
  const { all, added } = assignPseudonyms(snapshot);
  const changes = await changesSince(snapshot);
  const createdByName = nameOf(db, createdBy);
  const contents = releaseFiles(snapshot, {
    version: data.version,
    createdAt: now,
    createdBy: createdByName,
    include: { names: data.names, notes: data.notes },
    pseudonyms: all,
    changes,
    charts: releaseCharts(snapshot, all),
  });
  const archive = await packArchive(contents.files, now);
  return db.$client
    .transaction(() => {
      refuseTaken(db, projectId, data.version);
      for (const p of added) {
        try {
          db.insert(releasePseudonyms).values({ projectId, userId: p.userId, pseudonym: p.pseudonym }).run();
        } catch {
          throw new InputError("Another release of this project was being made at the same time; nothing was stored: make this one again.");
        }
      }
      const row = db
        .insert(releases)
        .values({
          projectId,
          version: data.version,
          createdByName,
          dataVersion: snapshot.dataVersion,
          summary: JSON.stringify(contents.summary),
          manifest: JSON.stringify(contents.manifest),
          archiveSha256: archive.sha256,
          archiveBytes: archive.bytes.length,
          createdAt: now,
        })
        .returning({ id: releases.id })
        .get();
      db.insert(releaseArchives).values({ releaseId: row.id, projectId, archive: archive.bytes }).run();
      return infoOf({ ...row, projectName: snapshot.project.name, version: data.version, createdAt: now, createdByName, dataVersion: snapshot.dataVersion, archiveSha256: archive.sha256, archiveBytes: archive.bytes.length, summary: contents.summary });
    })
    .immediate();
}

/** `lexgold release create` and tests: check the caller, then make the release in this thread. */
export async function createRelease(db: Db, actor: Actor, projectId: number, input: { version: string; names?: boolean; notes?: boolean }): Promise<ReleaseInfo> {
  requireProject(db, actor, projectId, { coordinator: true });
  return buildRelease(db, projectId, actor && actor.kind === "user" ? actorUserId(actor) : null, input);
}

/** Check a release's input before it is queued as a job (the same rules `buildRelease` applies). */
export function checkReleaseInput(db: Db, actor: Actor, projectId: number, input: unknown): { version: string; names: boolean; notes: boolean } {
  requireProject(db, actor, projectId, { coordinator: true });
  const data = parseOrThrow(createSchema, input, "Cannot make the release");
  refuseTaken(db, projectId, data.version);
  return { version: data.version, names: data.names === true, notes: data.notes === true };
}

function infoOf(r: {
  id: number;
  projectName: string;
  version: string;
  createdAt: Date;
  createdByName: string | null;
  dataVersion: number;
  archiveSha256: string;
  archiveBytes: number;
  summary: ReleaseSummary;
}): ReleaseInfo {
  return {
    id: r.id,
    version: r.version,
    createdAt: r.createdAt,
    createdByName: r.createdByName,
    dataVersion: r.dataVersion,
    archiveSha256: r.archiveSha256,
    archiveBytes: r.archiveBytes,
    fileName: `${r.summary.folder}.tar.gz`,
    facts: r.summary.facts,
    include: r.summary.include,
  };
}

const LIST_COLUMNS = {
  id: releases.id,
  version: releases.version,
  createdAt: releases.createdAt,
  createdByName: releases.createdByName,
  dataVersion: releases.dataVersion,
  archiveSha256: releases.archiveSha256,
  archiveBytes: releases.archiveBytes,
  summary: releases.summary,
};

/** The project's releases, newest first (coordinator of the project). */
export function listReleases(db: Db, actor: Actor, projectId: number): ReleaseInfo[] {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select(LIST_COLUMNS)
    .from(releases)
    .where(eq(releases.projectId, projectId))
    .orderBy(desc(releases.id))
    .all()
    .map((r) => infoOf({ ...r, projectName: project.name, summary: JSON.parse(r.summary) as ReleaseSummary }));
}

/** One release with its files and what changed (coordinator of the project); 404 for another project's. */
export function releaseDetail(db: Db, actor: Actor, projectId: number, releaseId: number): ReleaseDetail {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const r = db
    .select({ ...LIST_COLUMNS, manifest: releases.manifest })
    .from(releases)
    .where(and(eq(releases.projectId, projectId), eq(releases.id, releaseId)))
    .get();
  if (!r) throw new NotFoundError("No such release.");
  const summary = JSON.parse(r.summary) as ReleaseSummary;
  return { ...infoOf({ ...r, projectName: project.name, summary }), summary, manifest: JSON.parse(r.manifest) as ManifestEntry[] };
}

/** A release found by its version (the CLI's `release download --version`). */
export function releaseByVersion(db: Db, actor: Actor, projectId: number, version: string): ReleaseInfo {
  const all = listReleases(db, actor, projectId);
  const r = all.find((x) => x.version === version);
  if (!r) throw new NotFoundError(`No release ${version} in this project${all.length ? ` (there are ${all.map((x) => x.version).join(", ")})` : ""}.`);
  return r;
}

/** The release's .tar.gz as stored, with its name and SHA-256 (coordinator of the project). */
export function releaseArchive(db: Db, actor: Actor, projectId: number, releaseId: number): { fileName: string; sha256: string; bytes: Buffer } {
  const d = releaseDetail(db, actor, projectId, releaseId);
  const row = db.select({ archive: releaseArchives.archive }).from(releaseArchives).where(eq(releaseArchives.releaseId, releaseId)).get();
  if (!row) throw new NotFoundError("No such release.");
  return { fileName: d.fileName, sha256: d.archiveSha256, bytes: Buffer.from(row.archive) };
}

/** The coordinator's datasheet answers as saved (coordinator of the project). */
export function datasheetAnswers(db: Db, actor: Actor, projectId: number): { answers: DatasheetAnswers; updatedAt: Date | null; updatedBy: string | null } {
  requireProject(db, actor, projectId, { coordinator: true });
  const row = db
    .select({ answers: releaseDatasheets.answers, updatedAt: releaseDatasheets.updatedAt, by: users.name })
    .from(releaseDatasheets)
    .leftJoin(users, eq(users.id, releaseDatasheets.updatedBy))
    .where(eq(releaseDatasheets.projectId, projectId))
    .get();
  return row ? { answers: JSON.parse(row.answers) as DatasheetAnswers, updatedAt: row.updatedAt, updatedBy: row.by } : { answers: {}, updatedAt: null, updatedBy: null };
}

const datasheetSchema = z.object(
  Object.fromEntries(DATASHEET_QUESTIONS.map((q) => [q.key, z.string().max(MAX_DATASHEET_ANSWER, `At most ${MAX_DATASHEET_ANSWER.toLocaleString("en-US")} characters.`).optional()])) as Record<
    keyof DatasheetAnswers,
    z.ZodOptional<z.ZodString>
  >,
);

/**
 * Save the coordinator's answers to the datasheet's questions (coordinator of the project): used
 * by the next release (a release made before keeps the answers it was made with). Empty answers
 * are dropped; the licence must look like an SPDX identifier.
 */
export function saveDatasheet(db: Db, actor: Actor, projectId: number, input: unknown): DatasheetAnswers {
  requireProject(db, actor, projectId, { coordinator: true });
  const data = parseOrThrow(datasheetSchema, input, "Cannot save the datasheet");
  const answers: DatasheetAnswers = {};
  for (const q of DATASHEET_QUESTIONS) {
    const v = data[q.key]?.replace(/\r\n/g, "\n").trim();
    if (v) answers[q.key] = v;
  }
  if (answers.licence && !/^[A-Za-z0-9.+-]+$/.test(answers.licence)) {
    throw new InputError("The licence is an SPDX identifier, e.g. CC-BY-4.0 (spdx.org/licenses); nothing was saved.", { licence: "An SPDX identifier, e.g. CC-BY-4.0." });
  }
  const row = { answers: JSON.stringify(answers), updatedBy: actor && actor.kind === "user" ? actorUserId(actor) : null, updatedAt: new Date() };
  db.insert(releaseDatasheets).values({ projectId, ...row }).onConflictDoUpdate({ target: releaseDatasheets.projectId, set: row }).run();
  return answers;
}
