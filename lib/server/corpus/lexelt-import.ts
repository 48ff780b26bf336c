/**
 * The lexelt XML import as a sequence of short transactions, so it never holds
 * SQLite's one writer lock for long (saves keep flowing during a 40 MB import)
 * and still writes nothing visible unless it completes:
 *
 * 1. parse and validate (no writes; a refusal names file and line);
 * 2. create a hidden holding project (projects.staging_for = the project) and
 *    write, a slice of a few hundred instances per transaction, the new lexelts
 *    into the holding project and their instances under the real project id
 *    pointing at those lexelts. Every reader reaches instances through the
 *    project's lexelts (or checks the instance's lexelt belongs to the project),
 *    so these rows are invisible;
 * 3. publish in one short transaction: move the new lexelts (a few thousand rows
 *    at most, not the instances) into the project, insert the few instances that
 *    join lexelts already in the project, fix the counters, drop the holding
 *    project, record the import.
 *
 * A refused, cancelled or killed import leaves only the holding project, which
 * `discardStaging` deletes in slices (by the job, or at the next server start).
 *
 * Written against better-sqlite3 directly and free of `server-only`, so the job
 * worker (lib/server/jobs/jobs-worker.ts) can bundle it; lib/server/corpus/corpus.ts is the
 * authorization-checking entry point for in-process callers.
 */
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { parseLexeltXml } from "../../lexsub/formats/lexelt";
import { decodeTextRepairing } from "../../lexsub/formats/text-bytes";
import { type Diagnostic, formatDiagnostic } from "../../lexsub/diagnostics";
import { InputError } from "../kernel/errors";
import { imports, instances, jobs, lexelts, participants, projects, responseHistory, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const I = named(instances, "i");
const IMPORTS = named(imports);
const INSTANCES = named(instances);
const JOBS = named(jobs);
const L = named(lexelts, "l");
const LEXELTS = named(lexelts);
const LEXELTS_Q = named(lexelts, "lexelts");
const PROJECTS = named(projects);
const HISTORY = named(responseHistory);
const PA = named(participants, "pa");
const U = named(users, "u");
const USERS = named(users);

export interface ImportReport {
  fileName: string;
  lexeltsInFile: number;
  instancesInFile: number;
  lexeltsAdded: number;
  instancesAdded: number;
  instancesAlreadyPresent: number;
  repairs: Diagnostic[];
  /** One sentence saying what happened, for the CLI and the page. */
  message: string;
}

export interface StagedImportInput {
  projectId: number;
  fileName: string;
  bytes: Uint8Array;
  importedBy: number | null;
  maxBytes: number;
  /** The job doing the import: its row records the holding project and the outcome. */
  jobId?: number | null;
}

/** Where the import is, after each step (the job's progress bar). */
export interface ImportProgress {
  phase: "parsed" | "checked" | "writing" | "published";
  done: number;
  total: number;
}

/** How long the last import in this thread held the writer lock at most (benchmarks, tests). */
const timings = { maxSliceMs: 0, publishMs: 0 };

/** Instances written per transaction: a few milliseconds of writer lock each. */
const IMPORT_SLICE = 200;

/** "1 instance", "2 instances". */
export function count(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${n} bytes`;
}

/**
 * The import, one step per `next()`: each step is at most one short
 * transaction. Drive it to the end (`runStagedImport`) or step it from a
 * worker with pauses between slices. Throws InputError on refusal; the caller
 * then discards the holding project (its id is in `state.stagingProjectId`).
 */
export function* stagedLexeltImport(
  sqlite: Database.Database,
  input: StagedImportInput,
  state: { stagingProjectId: number | null } = { stagingProjectId: null },
): Generator<ImportProgress, ImportReport> {
  const { projectId, fileName, bytes, maxBytes } = input;
  timings.maxSliceMs = 0;
  timings.publishMs = 0;
  if (bytes.byteLength > maxBytes) {
    throw new InputError(`${fileName}: ${sizeText(bytes.byteLength)} is over the import limit of ${sizeText(maxBytes)}; nothing was imported.`);
  }
  // A stray byte that is not UTF-8 is read as Windows-1252 and reported; every repair and
  // every problem of the file is listed at once, in one report.
  const decoded = decodeTextRepairing(bytes, fileName);
  const read = parseLexeltXml(decoded.text, fileName, { maxBytes });
  const parsed = { ...read, repairs: [...decoded.repairs, ...read.repairs].sort((a, b) => a.line - b.line), errors: [...decoded.errors, ...read.errors] };
  if (parsed.errors.length > 0 || !parsed.corpus) {
    const details = parsed.errors.map(formatDiagnostic);
    // A sentence that ends in a question ("… is it truncated?") takes no semicolon after it.
    const first = details[0] ?? `${fileName}: cannot be read`;
    throw new InputError(`${first}${first.endsWith("?") ? " Nothing was imported." : "; nothing was imported."}`, {}, details);
  }
  const corpus = parsed.corpus;
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const instancesInFile = corpus.lexelts.reduce((s, l) => s + l.instances.length, 0);
  yield { phase: "parsed", done: 0, total: instancesInFile };

  // Check against the project, reading only: which instances are new, which are
  // already there, and refuse an id present with other text before writing anything.
  const existingLexelt = sqlite.prepare(`select ${LEXELTS.id} from ${LEXELTS.$} where ${LEXELTS.projectId} = ? and ${LEXELTS.item} = ?`);
  const existingInstance = sqlite.prepare(
    `select ${I.lexeltId} as lexeltId, ${I.before}, ${I.head}, ${I.after} from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} and ${L.projectId} = ${I.projectId} where ${I.projectId} = ? and ${I.instanceId} = ?`,
  );
  type Planned = { lx: (typeof corpus.lexelts)[number]; existingId: number | null; fresh: (typeof corpus.lexelts)[number]["instances"] };
  const plan: Planned[] = [];
  const seenIds = new Set<string>();
  let alreadyPresent = 0;
  let checked = 0;
  for (const lx of corpus.lexelts) {
    const existingId = (existingLexelt.get(projectId, lx.item) as { id: number } | undefined)?.id ?? null;
    const fresh: Planned["fresh"] = [];
    for (const inst of lx.instances) {
      const ex = existingInstance.get(projectId, inst.id) as { lexeltId: number; before: string; head: string; after: string } | undefined;
      if (ex) {
        if (ex.lexeltId === existingId && ex.before === inst.before && ex.head === inst.head && ex.after === inst.after) {
          alreadyPresent++;
          continue;
        }
        throw new InputError(`${fileName}:${inst.line}: instance id "${inst.id}" is already in the project with another lexelt or text; nothing was imported.`);
      }
      if (seenIds.has(inst.id)) {
        throw new InputError(`${fileName}:${inst.line}: instance id "${inst.id}" appears twice in the file; nothing was imported.`);
      }
      seenIds.add(inst.id);
      fresh.push(inst);
      if (++checked % 5000 === 0) yield { phase: "checked", done: 0, total: instancesInFile };
    }
    plan.push({ lx, existingId, fresh });
  }
  const toWrite = plan.reduce((s, p) => s + p.fresh.length, 0);
  yield { phase: "checked", done: 0, total: toWrite };

  // The holding project and the import's row (moved to the project when published).
  const importedBy = input.importedBy;
  const staging = sqlite.transaction(() => {
    const holder = sqlite
      .prepare(`insert into ${PROJECTS.$} (${PROJECTS.name}, ${PROJECTS.stagingFor}) values (?, ?) returning ${PROJECTS.id}`)
      .get(`(import in progress) ${projectId} ${sha256.slice(0, 12)} ${process.pid} ${Date.now()} ${Math.random()}`, projectId) as { id: number };
    const imp = sqlite
      .prepare(
        `insert into ${IMPORTS.$} (${IMPORTS.projectId}, ${IMPORTS.fileName}, ${IMPORTS.sha256}, ${IMPORTS.lexeltsAdded}, ${IMPORTS.instancesAdded}, ${IMPORTS.instancesAlreadyPresent}, ${IMPORTS.repairs}, ${IMPORTS.importedBy}) values (?, ?, ?, 0, 0, 0, ?, ?) returning ${IMPORTS.id}`,
      )
      .get(holder.id, fileName, sha256, JSON.stringify(parsed.repairs), importedBy) as { id: number };
    if (input.jobId) sqlite.prepare(`update ${JOBS.$} set ${JOBS.stagingProjectId} = ? where ${JOBS.id} = ?`).run(holder.id, input.jobId);
    return { holder: holder.id, importId: imp.id };
  }).immediate();
  state.stagingProjectId = staging.holder;

  const maxPos = sqlite.prepare(
    `select coalesce((select max(${LEXELTS.position}) from ${LEXELTS.$} where ${LEXELTS.projectId} = ?), 0) as l, coalesce((select max(${INSTANCES.position}) from ${INSTANCES.$} where ${INSTANCES.projectId} = ?), 0) as i`,
  ).get(projectId, projectId) as { l: number; i: number };
  let lexeltPos = maxPos.l + 1;
  let instancePos = maxPos.i + 1;
  const insertLexelt = sqlite.prepare(
    `insert into ${LEXELTS.$} (${LEXELTS.projectId}, ${LEXELTS.item}, ${LEXELTS.lemma}, ${LEXELTS.pos}, ${LEXELTS.originalPos}, ${LEXELTS.position}, ${LEXELTS.instanceCount}) values (?, ?, ?, ?, ?, ?, ?) returning ${LEXELTS.id}`,
  );
  const insertInstance = sqlite.prepare(
    `insert into ${INSTANCES.$} (${INSTANCES.projectId}, ${INSTANCES.lexeltId}, ${INSTANCES.instanceId}, ${INSTANCES.before}, ${INSTANCES.head}, ${INSTANCES.after}, ${INSTANCES.position}, ${INSTANCES.importId}) values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Instances joining a lexelt already in the project wait for the publish
  // transaction (writing them earlier would make them visible).
  const deferred: Array<{ lexeltId: number; inst: Planned["fresh"][number]; position: number }> = [];
  let lexeltsAdded = 0;
  let written = 0;
  let slice: Array<() => void> = [];
  const tx = sqlite.transaction((ops: Array<() => void>) => {
    for (const op of ops) op();
  });
  const flush = (ops: Array<() => void>) => {
    const t = performance.now();
    tx.immediate(ops);
    timings.maxSliceMs = Math.max(timings.maxSliceMs, performance.now() - t);
  };
  for (const p of plan) {
    if (p.existingId !== null) {
      for (const inst of p.fresh) deferred.push({ lexeltId: p.existingId, inst, position: instancePos++ });
      continue;
    }
    // A new lexelt (even one whose instances are all elsewhere in the project is added, as before).
    const lx = p.lx;
    const pos = lexeltPos++;
    const fresh = p.fresh;
    let lexeltId = 0;
    slice.push(() => {
      lexeltId = (insertLexelt.get(staging.holder, lx.item, lx.lemma, lx.pos, lx.originalPos, pos, fresh.length) as { id: number }).id;
    });
    lexeltsAdded++;
    for (const inst of fresh) {
      const position = instancePos++;
      slice.push(() => {
        insertInstance.run(projectId, lexeltId, inst.id, inst.before, inst.head, inst.after, position, staging.importId);
      });
      if (slice.length >= IMPORT_SLICE) {
        flush(slice);
        written += slice.length;
        slice = [];
        yield { phase: "writing", done: Math.min(written, toWrite), total: toWrite };
      }
    }
  }
  if (slice.length > 0) {
    flush(slice);
    written += slice.length;
    slice = [];
  }
  yield { phase: "writing", done: toWrite - deferred.length, total: toWrite };

  const instancesAdded = toWrite;
  const parts = [`${fileName}: ${count(instancesInFile, "instance")} in ${count(corpus.lexelts.length, "lexelt")}`];
  if (instancesAdded === 0 && alreadyPresent > 0) parts.push(`${alreadyPresent === 1 ? "it is" : `all ${alreadyPresent}`} already in the project; nothing added`);
  else {
    parts.push(`added ${count(instancesAdded, "instance")} and ${count(lexeltsAdded, "lexelt")}`);
    if (alreadyPresent > 0) parts.push(`${alreadyPresent} already in the project`);
  }
  if (parsed.repairs.length > 0) parts.push(count(parsed.repairs.length, "repair"));
  const report: ImportReport = {
    fileName,
    lexeltsInFile: corpus.lexelts.length,
    instancesInFile,
    lexeltsAdded,
    instancesAdded,
    instancesAlreadyPresent: alreadyPresent,
    repairs: parsed.repairs,
    message: parts.join("; ") + ".",
  };

  // Publish: one short transaction, O(new lexelts + instances joining old lexelts).
  const publishStart = performance.now();
  sqlite.transaction(() => {
    const project = sqlite.prepare(`select ${PROJECTS.id} from ${PROJECTS.$} where ${PROJECTS.id} = ? and ${PROJECTS.stagingFor} is null`).get(projectId);
    if (!project) throw new InputError(`The project was deleted during the import of ${fileName}; nothing was imported.`);
    checkHolderIntact(sqlite, staging.holder, { lexelts: lexeltsAdded, instances: toWrite - deferred.length }, fileName);
    sqlite.prepare(`update ${LEXELTS.$} set ${LEXELTS.projectId} = ? where ${LEXELTS.projectId} = ?`).run(projectId, staging.holder);
    const touched = new Map<number, number>();
    for (const d of deferred) {
      insertInstance.run(projectId, d.lexeltId, d.inst.id, d.inst.before, d.inst.head, d.inst.after, d.position, staging.importId);
      touched.set(d.lexeltId, (touched.get(d.lexeltId) ?? 0) + 1);
    }
    const bump = sqlite.prepare(`update ${LEXELTS.$} set ${LEXELTS.instanceCount} = ${LEXELTS.instanceCount} + ? where ${LEXELTS.id} = ?`);
    for (const [id, n] of touched) bump.run(n, id);
    if (instancesAdded > 0 || lexeltsAdded > 0) setInstancesBefore(sqlite, projectId);
    finishPublish(sqlite, { projectId, holder: staging.holder, importId: staging.importId, lexeltsAdded, instancesAdded, alreadyPresent, jobId: input.jobId ?? undefined, total: toWrite, report });
  }).immediate();
  timings.publishMs = performance.now() - publishStart;
  state.stagingProjectId = null;
  yield { phase: "published", done: toWrite, total: toWrite };
  return report;
}

/**
 * Delete a holding project's rows, a slice per step (its save history, which
 * keeps no foreign key, and its instances first, then its lexelts, its import
 * row and itself). Safe to run again after a crash. A project being deleted is
 * a holding project too (lib/server/corpus/project-lifecycle.ts).
 */
export function* discardStaging(sqlite: Database.Database, stagingProjectId: number, slice = 2000): Generator<number, void> {
  const isHolder = sqlite.prepare(`select 1 from ${PROJECTS.$} where ${PROJECTS.id} = ? and ${PROJECTS.stagingFor} is not null`).get(stagingProjectId);
  if (!isHolder) return;
  const history = sqlite.prepare(`delete from ${HISTORY.$} where ${HISTORY.id} in (select ${HISTORY.id} from ${HISTORY.$} where ${HISTORY.projectId} = ? limit ?)`);
  for (;;) {
    const n = history.run(stagingProjectId, slice).changes;
    if (n === 0) break;
    yield n;
  }
  const del = sqlite.prepare(
    `delete from ${INSTANCES.$} where ${INSTANCES.id} in (select ${I.id} from ${L.$} join ${I.$} on ${I.lexeltId} = ${L.id} where ${L.projectId} = ? limit ?)`,
  );
  for (;;) {
    const n = del.run(stagingProjectId, slice).changes;
    if (n === 0) break;
    yield n;
  }
  sqlite.transaction(() => {
    sqlite.prepare(`delete from ${IMPORTS.$} where ${IMPORTS.projectId} = ?`).run(stagingProjectId);
    sqlite.prepare(`delete from ${LEXELTS.$} where ${LEXELTS.projectId} = ?`).run(stagingProjectId);
    sqlite.prepare(`delete from ${PROJECTS.$} where ${PROJECTS.id} = ? and ${PROJECTS.stagingFor} is not null`).run(stagingProjectId);
    removeOrphanParticipants(sqlite);
  }).immediate();
}

/**
 * Crowd participant accounts left without a study (their project deleted, the participants rows
 * with it): they belonged to it alone and go too (#38). One held by a row that does not let it go
 * stays, disabled (deleteProject disabled it).
 */
function removeOrphanParticipants(sqlite: Database.Database): void {
  const orphans = sqlite
    .prepare(`select ${U.id} as id from ${U.$} where ${U.role} = 'participant' and not exists (select 1 from ${PA.$} where ${PA.userId} = ${U.id})`)
    .all() as { id: number }[];
  const del = sqlite.prepare(`delete from ${USERS.$} where ${USERS.id} = ?`);
  const disable = sqlite.prepare(`update ${USERS.$} set ${USERS.disabled} = 1 where ${USERS.id} = ?`);
  for (const { id } of orphans) {
    try {
      del.run(id);
    } catch {
      disable.run(id);
    }
  }
}

/** Run an import to the end in this thread (the CLI, tests); discards its rows if refused. */
export function runStagedImport(sqlite: Database.Database, input: StagedImportInput): ImportReport {
  const state = { stagingProjectId: null as number | null };
  const steps = stagedLexeltImport(sqlite, input, state);
  try {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  } catch (e) {
    if (state.stagingProjectId !== null) for (const _ of discardStaging(sqlite, state.stagingProjectId)) void _;
    throw e;
  }
}

/**
 * In a publish transaction: refuse when the holding project no longer holds every row written
 * to it. A server starting meanwhile discards the holding projects it finds (recoverJobs) — a
 * CLI import's among them — and publishing what is left would make a half-written import
 * visible. One indexed count.
 */
export function checkHolderIntact(sqlite: Database.Database, holder: number, expected: { lexelts: number; instances: number }, fileName: string): void {
  const held = sqlite
    .prepare(
      `select (select count(*) from ${LEXELTS.$} where ${LEXELTS.projectId} = ?) as lexelts, (select count(*) from ${I.$} join ${L.$} on ${I.lexeltId} = ${L.id} where ${L.projectId} = ?) as instances`,
    )
    .get(holder, holder) as { lexelts: number; instances: number };
  if (held.lexelts !== expected.lexelts || held.instances !== expected.instances) {
    throw new InputError(
      `The rows written for ${fileName} were removed before it was published (a server started during the import and cleared unfinished imports); nothing was imported. Run the import again.`,
    );
  }
}

/** The project's lexelts' running sums of instances (instances_before), after their counts changed: thousands of rows, not the instances. */
export function setInstancesBefore(sqlite: Database.Database, projectId: number): void {
  sqlite
    .prepare(
      `update ${LEXELTS.$} set ${LEXELTS.instancesBefore} = w.before from (
         select ${LEXELTS.id}, coalesce(sum(${LEXELTS.instanceCount}) over (order by ${LEXELTS.position} rows between unbounded preceding and 1 preceding), 0) as before
         from ${LEXELTS.$} where ${LEXELTS.projectId} = ?) w
       where ${LEXELTS_Q.id} = w.id`,
    )
    .run(projectId);
}

/** The end of a publish transaction: the import's row moves to the project, the holding project goes, the job (if any) is done. */
export function finishPublish(
  sqlite: Database.Database,
  p: { projectId: number; holder: number; importId: number; lexeltsAdded: number; instancesAdded: number; alreadyPresent: number; jobId?: number; total: number; report: { message: string } },
): void {
  sqlite
    .prepare(`update ${IMPORTS.$} set ${IMPORTS.projectId} = ?, ${IMPORTS.lexeltsAdded} = ?, ${IMPORTS.instancesAdded} = ?, ${IMPORTS.instancesAlreadyPresent} = ? where ${IMPORTS.id} = ?`)
    .run(p.projectId, p.lexeltsAdded, p.instancesAdded, p.alreadyPresent, p.importId);
  sqlite.prepare(`delete from ${PROJECTS.$} where ${PROJECTS.id} = ?`).run(p.holder);
  if (p.jobId) {
    sqlite
      .prepare(
        `update ${JOBS.$} set ${JOBS.state} = 'done', ${JOBS.done} = ?, ${JOBS.total} = ?, ${JOBS.message} = ?, ${JOBS.report} = ?, ${JOBS.stagingProjectId} = null, ${JOBS.finishedAt} = cast(unixepoch('subsec') * 1000 as integer) where ${JOBS.id} = ?`,
      )
      .run(p.total, p.total, p.report.message, JSON.stringify(p.report), p.jobId);
  }
}
