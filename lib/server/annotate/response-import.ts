/**
 * Bulk import and export of annotators' responses as TSV (lib/lexsub/formats/responses.ts),
 * for moving existing annotation in and out. Coordinators only. Every line is
 * checked against the project (the annotator exists and is an annotator member,
 * the instance is in the project under that lexelt) before one transaction writes
 * anything; each change appends a history row (source "import").
 *
 * The file holds answers people already gave (often elsewhere: CoInCo's crowd
 * answers), so by default an answer that breaks a rule the workspace applies to
 * new typing (substitute-rules.ts: `say` for say.v, one letter, `suppression .`) is
 * stored exactly as written and counted under the rule it breaks; the Gold tab then
 * lists it among the stored answers that break the rules (lib/lexsub/gold.ts).
 * What the format cannot read is handled by kind:
 * - a file that is not UTF-8, or whose header is wrong, or an annotator who is not
 *   in the project (the team is set up first): refused whole, naming file and line;
 * - a few odd lines (wrong number of cells, an empty cell, an unreadable answer, a
 *   second answer by one annotator to one instance, an instance not in the project
 *   or under another lexelt): left out and each listed with its line, the rest
 *   imported — unless more than MAX_SKIPPED lines or a tenth of the file are odd,
 *   when the file is refused whole (it is not the format, or not for this project).
 * `strict` refuses the whole file on any of these, rule breaks included, as the
 * workspace would.
 *
 * Crowd participants (users with role "participant", issue #32) cannot be added to a team:
 * their account belongs to their study's project. Their answers are read as theirs, under
 * their account's name as written (never renamed), when the account exists here and either
 * belongs to this project or to a project the importer coordinates (the command line, as
 * the operator, may carry any); they are not made members of this project, so they gain no
 * access to it. What does not carry is said: their review and payments stay with their study,
 * and the answers of a participant their project left out of the gold are refused (put them
 * back there first). An unknown or foreign participant name refuses the file with the same
 * words whether the account exists or not.
 */
import "server-only";
import { createHash } from "node:crypto";
import { flagsByResponse } from "./flags";
import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { annotatorCounts, assignments, instances, lexelts, memberships, projects, queueCounts, responseHistory, responses, users } from "../../../db/schema";
import { type BrokenField, HEADER_ERROR, parseResponsesTsv, ruleError, writeResponsesTsv } from "../../lexsub/formats/responses";
import { type Rule, type Target, phraseBreak, targetBreak } from "../../lexsub/substitute-rules";
import type { AnnotatorResponse } from "../../lexsub/types";
import { type Diagnostic, diag, formatDiagnostic } from "../../lexsub/diagnostics";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { named } from "../../../db/sql-names";
import { type CarriedParticipants, carried, type Crowd, crowdOf, importerOf, PARTICIPANT_NAME, participantsClause } from "./response-import-crowd";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const ANNOTATOR_COUNTS = named(annotatorCounts);
const QUEUE_COUNTS = named(queueCounts);
const R = named(responses, "r");
const RESPONSES = named(responses);
const RESPONSES_Q = named(responses, "responses");
const RESPONSE_HISTORY = named(responseHistory);
const QI = named(instances, "qi");


/** Refuse response files larger than this before parsing (a million lines is ~40 MB). */
export const MAX_RESPONSES_BYTES = 50 * 1024 * 1024;
/** How many problems an import refusal lists. */
const MAX_LISTED = 50;
/** Odd lines an import leaves out (each listed) before it refuses the file whole; never more than a tenth of the lines. */
const MAX_SKIPPED = 50;
/** Examples of each broken rule a report lists. */
const RULE_EXAMPLES = 5;

/**
 * Decode an uploaded or read responses file: refused whole, naming the line of the
 * first invalid byte, when it is not UTF-8 (read loosely, every non-ASCII answer
 * would be stored wrong).
 */
export function decodeResponsesFile(fileName: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const loose = new TextDecoder("utf-8").decode(bytes);
    const line = loose.slice(0, Math.max(0, loose.indexOf("\uFFFD"))).split("\n").length;
    throw new InputError(`${fileName}:${line}: not UTF-8 text (invalid byte sequence); nothing was imported.`, { file: "Not UTF-8 text." });
  }
}

/** Answers kept as written that break one rule of the workspace: how many, and the first few. */
export interface RuleCount {
  rule: Rule;
  /** Fields (substitutes and phrases) that break it. */
  count: number;
  examples: { line: number; annotator: string; instanceId: string; field: string; value: string }[];
}

export interface ResponseImportReport {
  fileName: string;
  /** Responses in the file. */
  lines: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Lines refused (lexelts the annotator is not assigned; participants left out of the gold in their project). */
  refused: number;
  /** Crowd participants of other projects whose answers were carried as theirs, or null when none. */
  participants: CarriedParticipants | null;
  /** Answers kept as written that break a rule of the workspace, by rule (most first). */
  rules: RuleCount[];
  /** Odd lines left out, each with its line and why (at most MAX_SKIPPED). */
  skipped: Diagnostic[];
  warnings: Diagnostic[];
  /** One sentence saying what happened, for the CLI and the page. */
  message: string;
}

function refuse(problems: Diagnostic[], fileName: string): never {
  const errors = problems.filter((d) => d.severity === "error");
  const details = errors.slice(0, MAX_LISTED).map(formatDiagnostic);
  if (errors.length > MAX_LISTED) details.push(`${fileName}: ${errors.length - MAX_LISTED} more problems not listed (${errors.length} in all)`);
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  throw new InputError(`${details[0]}${more}; nothing was imported.`, { file: "The file was refused." }, details);
}

/** Options of a responses import. */
export interface ResponseImportOptions {
  /** Accept answers of annotators for lexelts they are not assigned (refused by default). */
  acceptUnassigned?: boolean;
  /** The preview's token: the import applies only if it would do exactly what was previewed. */
  expectedToken?: string;
  /** Refuse the whole file on any line that is odd or breaks a rule of the workspace (the rules for new typing). */
  strict?: boolean;
}

/** One line of a preview. */
export interface PreviewRow {
  line: number;
  annotator: string;
  lexelt: string;
  instanceId: string;
  /** The answer in the file, as in the TSV's answer column. */
  answer: string;
  /** For updates: the stored answer it replaces. For refusals: why. */
  was?: string;
  reason?: string;
}

/** What an import would do, before it does anything. */
export interface ResponseImportPreview {
  fileName: string;
  lines: number;
  add: number;
  update: number;
  unchanged: number;
  refuse: number;
  participants: CarriedParticipants | null;
  acceptUnassigned: boolean;
  strict: boolean;
  /** Answers kept as written that break a rule of the workspace, by rule. */
  rules: RuleCount[];
  /** Odd lines the import leaves out, each with its line and why. */
  skipped: Diagnostic[];
  /** What the import reports without leaving anything out (answers to one instance that differ only in spacing, CRLF line ends). */
  warnings: Diagnostic[];
  /** The first rows of each kind. */
  first: { add: PreviewRow[]; update: PreviewRow[]; refuse: PreviewRow[] };
  /** Hands back to the import: it refuses if the file, the options or the stored responses changed since. */
  token: string;
  message: string;
}

/** Rows of each kind a preview lists. */
const PREVIEW_ROWS = 10;

const answerText = (kind: string, substitutes: string[]) => (kind === "substitutes" ? substitutes.join(";") : kind);

/** What an import would do, worked out by `planResponseImport` (opaque outside this module). */
export interface Plan {
  fileName: string;
  lines: number;
  writes: Array<{ ref: number; userId: number; lexeltId: number; r: AnnotatorResponse; current: { id: number; revision: number } | null }>;
  added: PreviewRow[];
  updated: PreviewRow[];
  refused: PreviewRow[];
  /** How many of `refused` are answers of participants left out of the gold in their own project. */
  refusedExcluded: number;
  participants: CarriedParticipants | null;
  unchanged: number;
  rules: RuleCount[];
  skipped: Diagnostic[];
  warnings: Diagnostic[];
  token: string;
}

/**
 * Check a responses TSV against the project and work out what importing it
 * would do: lines to add, to update (with the answer they replace), unchanged,
 * and refused (answers for lexelts the annotator is not assigned, unless
 * accepted). Any other bad line refuses the whole file, naming the line.
 * `importer` is the coordinator's user id (null: the command line), for the crowd
 * participants of other projects they may carry (see the module's comment).
 */
export function planResponseImport(db: Db, projectId: number, input: { fileName: string; text: string }, opts: ResponseImportOptions, importer: number | null): Plan {
  const { fileName, text } = input;
  if (text.length > MAX_RESPONSES_BYTES) {
    throw new InputError(`${fileName}: the file is over the import limit of ${MAX_RESPONSES_BYTES / 1048576} MB; nothing was imported.`);
  }
  const strict = opts.strict === true;
  // Every error is kept (a lenient import lists each line it leaves out); a refusal lists the first MAX_LISTED.
  const parsed = parseResponsesTsv(text, fileName, { maxErrors: Number.MAX_SAFE_INTEGER, rules: strict ? "refuse" : "mark" });
  const readErrors = parsed.diagnostics.filter((d) => d.severity === "error");
  const rows = parsed.responses;
  if (rows.length === 0 && readErrors.length === 0) throw new InputError(`${fileName}: no responses in the file; nothing was imported.`, { file: "The file is empty." });

  // Everyone named in the file, and whether they belong to this project.
  const names = [...new Set(rows.map((r) => r.annotator))];
  const people = new Map<string, { id: number; role: string; member: boolean; crowd: Crowd | null }>();
  for (let k = 0; k < names.length; k += 500) {
    const chunk = names.slice(k, k + 500);
    for (const u of db.select({ id: users.id, name: users.name, role: users.role }).from(users).where(inArray(users.name, chunk)).all()) {
      people.set(u.name, { id: u.id, role: u.role, member: false, crowd: null });
    }
  }
  // Annotator members only: a judge of the project has no answers in it.
  const memberIds = new Set(
    db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.projectId, projectId), eq(memberships.role, "annotator")))
      .all()
      .map((m) => m.userId),
  );
  for (const p of people.values()) p.member = memberIds.has(p.id);
  const crowd = crowdOf(db, [...people.values()].filter((p) => p.role === "participant" && !p.member).map((p) => p.id), importer);
  for (const p of people.values()) p.crowd = crowd.get(p.id) ?? null;

  const language = db.select({ language: projects.language }).from(projects).where(eq(projects.id, projectId)).get()?.language;
  const inProject = new Map(
    db
      .select({ ref: instances.id, instanceId: instances.instanceId, lexeltId: instances.lexeltId, item: lexelts.item, lemma: lexelts.lemma, head: instances.head })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      // Only published instances: an import still being written keeps its lexelts in a holding project.
      .where(and(eq(instances.projectId, projectId), eq(lexelts.projectId, projectId)))
      .all()
      .map((i) => [i.instanceId, i]),
  );
  // No assignment rows: everyone annotates everything (as the queue has it).
  const assignedRows = db.select({ userId: assignments.userId, lexeltId: assignments.lexeltId }).from(assignments).where(eq(assignments.projectId, projectId)).all();
  const assigned = assignedRows.length === 0 ? null : new Set(assignedRows.map((a) => `${a.userId}:${a.lexeltId}`));

  // Refused whole: a wrong header (line 1 of a file that is not this format) and annotators not on the team.
  const fatal: Diagnostic[] = readErrors.filter((d) => d.message.startsWith(HEADER_ERROR));
  // Left out and listed, unless strict or too many: lines the format cannot read, instances not in the project.
  const odd: Diagnostic[] = readErrors.filter((d) => !fatal.includes(d));
  const ruleBreaks: Array<{ r: (typeof rows)[number]; broken: BrokenField }> = [];
  const ok: Array<{ ref: number; userId: number; lexeltId: number; r: (typeof rows)[number]; participant: boolean; crowd: Crowd | null }> = [];
  for (const r of rows) {
    const who = people.get(r.annotator);
    const inst = inProject.get(r.instanceId);
    // One message whether the name is no account, another project's account or a coordinator's:
    // the file's author learns nothing about accounts outside the project. A participant's name
    // (by its shape alone) gets the crowd's reason instead of the Team page.
    const annotates = who && ((who.role === "annotator" && who.member) || (who.role === "participant" && (who.member || who.crowd !== null)));
    if (!annotates) {
      fatal.push(
        diag(
          "error",
          fileName,
          r.line,
          PARTICIPANT_NAME.test(r.annotator)
            ? `"${r.annotator}" is not a crowd participant of this project or of another project you coordinate (a participant's answers are carried only where their account is, and participants cannot be added to a team)`
            : `"${r.annotator}" is not an annotator of this project (add them on the Team page)`,
        ),
      );
      continue;
    }
    let problem: string | null = null;
    if (!inst) problem = `instance "${r.instanceId}" is not in this project`;
    else if (inst.item !== r.lexelt) problem = `instance "${r.instanceId}" belongs to lexelt ${inst.item}, not ${r.lexelt}`;
    if (problem) {
      odd.push(diag("error", fileName, r.line, problem));
      continue;
    }
    const target = targetBreaks(r, { lemma: inst!.lemma, head: inst!.head, language });
    if (strict && target.length > 0) {
      odd.push(diag("error", fileName, r.line, target[0].error));
      continue;
    }
    for (const b of r.broken ?? []) ruleBreaks.push({ r, broken: b });
    for (const t of target) ruleBreaks.push({ r, broken: t.broken });
    ok.push({ ref: inst!.ref, userId: who!.id, lexeltId: inst!.lexeltId, r, participant: who!.role === "participant", crowd: who!.crowd });
  }
  // Lines in the file that hold something: those read, and those the reader could not read.
  const lines = rows.length + new Set(readErrors.filter((d) => d.line > 0).map((d) => d.line)).size;
  const tooOdd = odd.length > MAX_SKIPPED || odd.length * 10 > lines;
  if (fatal.length > 0 || (odd.length > 0 && (strict || tooOdd))) {
    const why =
      fatal.length === 0 && !strict
        ? [
            diag(
              "error",
              fileName,
              0,
              `${odd.length} of ${lines} lines cannot be read as responses of this project (an import leaves out at most ${MAX_SKIPPED} lines, and never more than a tenth of the file): is it a responses TSV for this project?`,
            ),
          ]
        : [];
    refuse(inLineOrder([...fatal, ...odd, ...why]), fileName);
  }

  const currentOf = db.$client.prepare(`select ${RESPONSES.id}, ${RESPONSES.kind}, ${RESPONSES.substitutes}, ${RESPONSES.multiword}, ${RESPONSES.revision} from ${RESPONSES.$} where ${RESPONSES.instanceRef} = ? and ${RESPONSES.userId} = ?`);
  const plan: Plan = {
    fileName,
    // The responses it reads and checks (the lines left out are listed in `skipped`).
    lines: ok.length,
    writes: [],
    added: [],
    updated: [],
    refused: [],
    refusedExcluded: 0,
    participants: carried(ok),
    unchanged: 0,
    rules: countRules(ruleBreaks),
    skipped: inLineOrder(odd),
    warnings: parsed.diagnostics.filter((d) => d.severity !== "error"),
    token: "",
  };
  const hash = createHash("sha256").update(JSON.stringify([fileName, opts.acceptUnassigned === true, strict])).update(text);
  // A later line for the same annotator and instance replaces an earlier one, as the workspace's last save would.
  const last = new Map<string, number>();
  ok.forEach((o, k) => last.set(`${o.userId}:${o.ref}`, k));
  ok.forEach((o, k) => {
    const { r } = o;
    const row: PreviewRow = { line: r.line, annotator: r.annotator, lexelt: r.lexelt, instanceId: r.instanceId, answer: answerText(r.kind, r.substitutes) };
    // What their own project decided stays decided: a participant left out of its gold is not brought into this one.
    if (o.crowd?.excluded) {
      plan.refused.push({ ...row, reason: `left out of the gold in "${o.crowd.project}" (put their answers back there to carry them)` });
      plan.refusedExcluded++;
      return;
    }
    // A participant's queue is their batch, never an assignment: assignments do not refuse their answers.
    if (assigned && !o.participant && !opts.acceptUnassigned && !assigned.has(`${o.userId}:${o.lexeltId}`)) {
      plan.refused.push({ ...row, reason: `${r.annotator} is not assigned lexelt ${r.lexelt}` });
      return;
    }
    if (last.get(`${o.userId}:${o.ref}`) !== k) return;
    const current = currentOf.get(o.ref, o.userId) as { id: number; kind: string; substitutes: string; multiword: string | null; revision: number } | undefined;
    hash.update(`\n${o.ref}:${o.userId}:${current?.revision ?? 0}`);
    const substitutes = JSON.stringify(r.substitutes);
    if (!current) {
      plan.added.push(row);
      plan.writes.push({ ref: o.ref, userId: o.userId, lexeltId: o.lexeltId, r, current: null });
    } else if (current.kind === r.kind && current.substitutes === substitutes && (current.multiword ?? null) === r.multiword) {
      plan.unchanged++;
    } else {
      plan.updated.push({ ...row, was: answerText(current.kind, JSON.parse(current.substitutes) as string[]) });
      plan.writes.push({ ref: o.ref, userId: o.userId, lexeltId: o.lexeltId, r, current: { id: current.id, revision: current.revision } });
    }
  });
  plan.token = hash.digest("hex").slice(0, 32);
  return plan;
}

/**
 * `refuse 2 (lexelts the annotator is not assigned)` (the preview) or `refused 2 for lexelts the
 * annotator is not assigned` (the report); with participants left out of the gold in their
 * project, `refuse 3 (2 for lexelts the annotator is not assigned, 1 of participants left out of
 * the gold in their project)`; "" when nothing is refused.
 */
function refusedClause(plan: Pick<Plan, "refused" | "refusedExcluded">, verb: "refuse" | "refused"): string {
  const n = plan.refused.length;
  if (n === 0) return "";
  const unassigned = n - plan.refusedExcluded;
  if (plan.refusedExcluded === 0) return verb === "refuse" ? `refuse ${n} (lexelts the annotator is not assigned)` : `refused ${n} for lexelts the annotator is not assigned`;
  const why = [unassigned > 0 ? `${unassigned} for lexelts the annotator is not assigned` : "", `${plan.refusedExcluded} of participants left out of the gold in their project`].filter((x) => x !== "");
  return `${verb} ${n} (${why.join(", ")})`;
}

/** Answers kept as written, by rule: most broken first, then by rule name. */
function countRules(breaks: readonly { r: AnnotatorResponse & { line: number }; broken: BrokenField }[]): RuleCount[] {
  const by = new Map<Rule, RuleCount>();
  for (const { r, broken } of breaks) {
    let c = by.get(broken.rule);
    if (!c) by.set(broken.rule, (c = { rule: broken.rule, count: 0, examples: [] }));
    c.count++;
    if (c.examples.length < RULE_EXAMPLES) c.examples.push({ line: r.line, annotator: r.annotator, instanceId: r.instanceId, field: broken.field, value: broken.value });
  }
  return [...by.values()].sort((a, b) => b.count - a.count || (a.rule < b.rule ? -1 : 1));
}

/** `kept 120 answers as written that break the workspace's rules (target 100, letters 20)`, or "". */
function rulesClause(rules: readonly RuleCount[]): string {
  const n = rules.reduce((k, c) => k + c.count, 0);
  if (n === 0) return "";
  return `kept ${n === 1 ? "1 answer" : `${n} answers`} as written that break${n === 1 ? "s" : ""} the workspace's rules (${rules.map((c) => `${c.rule} ${c.count}`).join(", ")})`;
}

/** `left out 2 lines the format cannot read (listed)`, or "". */
function skippedClause(skipped: readonly Diagnostic[]): string {
  return skipped.length === 0 ? "" : `left out ${skipped.length === 1 ? "1 line" : `${skipped.length} lines`} it cannot read (each listed)`;
}

/** The preview of a plan (the coordinator's view of it, with its token). */
export function previewOf(plan: Plan, acceptUnassigned: boolean, strict = false): ResponseImportPreview {
  const { fileName } = plan;
  const parts = [`add ${plan.added.length}`, `update ${plan.updated.length}`, `leave ${plan.unchanged} unchanged`];
  const refused = refusedClause(plan, "refuse");
  if (refused) parts.push(refused);
  const crowd = participantsClause(plan.participants);
  if (crowd) parts.push(crowd);
  const kept = rulesClause(plan.rules);
  if (kept) parts.push(kept);
  const skipped = skippedClause(plan.skipped);
  if (skipped) parts.push(skipped);
  return {
    fileName,
    lines: plan.lines,
    add: plan.added.length,
    update: plan.updated.length,
    unchanged: plan.unchanged,
    refuse: plan.refused.length,
    participants: plan.participants,
    acceptUnassigned,
    strict,
    rules: plan.rules,
    skipped: plan.skipped,
    warnings: plan.warnings,
    first: { add: plan.added.slice(0, PREVIEW_ROWS), update: plan.updated.slice(0, PREVIEW_ROWS), refuse: plan.refused.slice(0, PREVIEW_ROWS) },
    token: plan.token,
    message: `${fileName}: ${plan.lines} ${plan.lines === 1 ? "response" : "responses"}; importing would ${parts.join(", ")}. Nothing has changed yet.`,
  };
}

/**
 * What importing a responses TSV would do (coordinators only): counts and the
 * first rows to add, update (with the answer replaced) and refuse, and a token
 * for `importResponses` to apply exactly that. Writes nothing.
 */
export function previewResponses(db: Db, actor: Actor, projectId: number, input: { fileName: string; text: string }, opts: ResponseImportOptions = {}): ResponseImportPreview {
  requireProject(db, actor, projectId, { coordinator: true });
  return previewOf(planResponseImport(db, projectId, input, opts, importerOf(actor)), opts.acceptUnassigned === true, opts.strict === true);
}

/**
 * Import a responses TSV into a project. Lines equal to the stored response are
 * counted as unchanged and write nothing, so importing the same file twice is
 * harmless; answers for lexelts the annotator is not assigned are refused
 * (skipped and counted) unless `acceptUnassigned`. With `expectedToken` (from
 * `previewResponses`) it refuses, writing nothing, unless it would do exactly
 * what was previewed.
 */
export function importResponses(
  db: Db,
  actor: Actor,
  projectId: number,
  input: { fileName: string; text: string },
  opts: ResponseImportOptions = {},
): ResponseImportReport {
  requireProject(db, actor, projectId, { coordinator: true });
  return writeResponsePlan(db, projectId, planResponseImport(db, projectId, input, opts, importerOf(actor)), opts);
}

/**
 * Write a plan in one transaction (the import's second step; the jobs worker
 * runs both steps off the request thread, and saves may come in between).
 * Refused, writing nothing, when `opts.expectedToken` is not the plan's, or
 * when a response the plan writes changed since it was planned.
 *
 * The rows are first staged, outside the transaction, in a temporary table of
 * this connection (SQLite's temp database: staging takes no lock on the
 * project's database); the transaction then checks the revisions and writes
 * responses, history and counters set-based, in SQL, in the plan's order — it
 * holds the write lock, which every save waits for, as short a time as it can.
 */
export function writeResponsePlan(db: Db, projectId: number, plan: Plan, opts: ResponseImportOptions = {}): ResponseImportReport {
  const { fileName } = plan;
  const changedSince = () =>
    new InputError(`${fileName}: the file, the options or the project's responses changed since the preview; preview it again. Nothing was imported.`, {
      file: "Preview again.",
    });
  if (opts.expectedToken !== undefined && opts.expectedToken !== plan.token) throw changedSince();
  const c = db.$client;
  const now = Date.now();
  c.exec(
    "create temp table if not exists response_import_stage (seq integer primary key, ref integer not null, user_id integer not null, lexelt_id integer not null, kind text not null, substitutes text not null, multiword text, current_id integer, current_revision integer not null)",
  );
  const stage = c.prepare(
    "insert into temp.response_import_stage (seq, ref, user_id, lexelt_id, kind, substitutes, multiword, current_id, current_revision) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const clear = () => c.exec("delete from temp.response_import_stage");
  clear();
  try {
    c.transaction(() => {
      plan.writes.forEach(({ ref, userId, lexeltId, r, current }, k) =>
        stage.run(k, ref, userId, lexeltId, r.kind, JSON.stringify(r.substitutes), r.multiword, current?.id ?? null, current?.revision ?? 0),
      );
    })();
    return c.transaction(() => {
      // A save since the plan: the import would overwrite what the preview did not show.
      const moved = c
        .prepare(
          `select count(*) as n from temp.response_import_stage s left join ${R.$} on ${R.instanceRef} = s.ref and ${R.userId} = s.user_id where coalesce(${R.revision}, 0) <> s.current_revision or (${R.id} is not null and s.current_id is not null and ${R.id} <> s.current_id)`,
        )
        .get() as { n: number };
      if (moved.n > 0) throw changedSince();
      const updated = c
        .prepare(
          `update ${RESPONSES.$} set ${RESPONSES.kind} = s.kind, ${RESPONSES.substitutes} = s.substitutes, ${RESPONSES.multiword} = s.multiword, ${RESPONSES.revision} = ${RESPONSES_Q.revision} + 1, ${RESPONSES.updatedAt} = ? from temp.response_import_stage s where ${RESPONSES_Q.id} = s.current_id`,
        )
        .run(now).changes;
      const added = c
        .prepare(
          `insert into ${RESPONSES.$} (${RESPONSES.projectId}, ${RESPONSES.instanceRef}, ${RESPONSES.userId}, ${RESPONSES.kind}, ${RESPONSES.substitutes}, ${RESPONSES.multiword}, ${RESPONSES.revision}, ${RESPONSES.updatedAt}) select ?, ref, user_id, kind, substitutes, multiword, 1, ? from temp.response_import_stage where current_id is null order by seq`,
        )
        .run(projectId, now).changes;
      c.prepare(
        `insert into ${RESPONSE_HISTORY.$} (${RESPONSE_HISTORY.responseId}, ${RESPONSE_HISTORY.projectId}, ${RESPONSE_HISTORY.instanceRef}, ${RESPONSE_HISTORY.userId}, ${RESPONSE_HISTORY.kind}, ${RESPONSE_HISTORY.substitutes}, ${RESPONSE_HISTORY.multiword}, ${RESPONSE_HISTORY.revision}, ${RESPONSE_HISTORY.source}, ${RESPONSE_HISTORY.savedAt}) select ${R.id}, ?, s.ref, s.user_id, s.kind, s.substitutes, s.multiword, ${R.revision}, 'import', ? from temp.response_import_stage s join ${R.$} on ${R.instanceRef} = s.ref and ${R.userId} = s.user_id order by s.seq`,
      ).run(projectId, now);
      // The counters a save keeps (queue.ts countNewResponse), for the responses added to instances in the queue.
      const queued = `current_id is null and exists (select 1 from ${QI.$} where ${QI.id} = ref and ${QI.inQueue} = 1)`;
      c.prepare(
        `insert into ${QUEUE_COUNTS.$} (${QUEUE_COUNTS.projectId}, ${QUEUE_COUNTS.userId}, ${QUEUE_COUNTS.lexeltId}, ${QUEUE_COUNTS.done}) select ?, user_id, lexelt_id, count(*) from temp.response_import_stage where ${queued} group by user_id, lexelt_id on conflict (${QUEUE_COUNTS.userId}, ${QUEUE_COUNTS.lexeltId}) do update set ${QUEUE_COUNTS.done} = ${QUEUE_COUNTS.done} + excluded.${QUEUE_COUNTS.done}`,
      ).run(projectId);
      c.prepare(
        `insert into ${ANNOTATOR_COUNTS.$} (${ANNOTATOR_COUNTS.projectId}, ${ANNOTATOR_COUNTS.userId}, ${ANNOTATOR_COUNTS.done}) select ?, user_id, count(*) from temp.response_import_stage where ${queued} group by user_id on conflict (${ANNOTATOR_COUNTS.projectId}, ${ANNOTATOR_COUNTS.userId}) do update set ${ANNOTATOR_COUNTS.done} = ${ANNOTATOR_COUNTS.done} + excluded.${ANNOTATOR_COUNTS.done}`,
      ).run(projectId);
      const unchanged = plan.unchanged;
      const n = plan.lines;
      const what = n === 1 ? "1 response" : `${n} responses`;
      const refused = refusedClause(plan, "refused");
      const refusedText = refused ? `, ${refused}` : "";
      const extra = [participantsClause(plan.participants), rulesClause(plan.rules), skippedClause(plan.skipped)].filter((x) => x !== "").map((x) => `; ${x}`).join("");
      const message =
        added + updated === 0 && plan.refused.length === 0
          ? `${fileName}: ${what}, ${n === 1 ? "already" : "all already"} stored as given; nothing changed${extra}.`
          : `${fileName}: ${what}; added ${added}, updated ${updated}, unchanged ${unchanged}${refusedText}${extra}.`;
      return { fileName, lines: n, added, updated, unchanged, refused: plan.refused.length, participants: plan.participants, rules: plan.rules, skipped: plan.skipped, warnings: plan.warnings, message };
    }).immediate(); // it reads, then writes: deferred, the write fails "database is locked" after another process's commit
  } finally {
    clear();
  }
}

/** Diagnostics by line; those about the whole file (line 0, e.g. "N more errors not listed") last. */
function inLineOrder(ds: Diagnostic[]): Diagnostic[] {
  return ds.map((d, k) => ({ d, k })).sort((a, b) => (a.d.line || Infinity) - (b.d.line || Infinity) || a.k - b.k).map(({ d }) => d);
}

/**
 * The rules of the workspace that need the instance's target and that the line
 * breaks (a substitute is the target word; a phrase without it), each as a
 * broken field and as its error. A phrase the reader already marked is not
 * checked again.
 */
function targetBreaks(r: AnnotatorResponse & { broken?: BrokenField[] }, target: Target): { broken: BrokenField; error: string }[] {
  const out: { broken: BrokenField; error: string }[] = [];
  for (let k = 0; k < r.substitutes.length; k++) {
    const broken = targetBreak(r.substitutes[k], target);
    if (broken) out.push({ broken: { field: `substitute ${k + 1}`, value: r.substitutes[k], rule: broken.rule }, error: ruleError(`answer, substitute ${k + 1}`, r.substitutes[k], broken) });
  }
  const marked = r.broken?.some((b) => b.field === "multiword") === true;
  const broken = r.multiword === null || marked ? null : phraseBreak(r.multiword, target);
  if (broken) out.push({ broken: { field: "multiword", value: r.multiword!, rule: broken.rule }, error: ruleError("multiword", r.multiword!, broken) });
  return out;
}

/** Every current response in the project as AnnotatorResponse records, in corpus order, then by annotator. */
export function listProjectResponses(db: Db, actor: Actor, projectId: number): AnnotatorResponse[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return projectResponseRecords(db, projectId);
}

/**
 * The query behind listProjectResponses, for data-access functions that have already checked the actor
 * (gold derivation reads it inside its own transaction). People's answers only: a model's have their own export.
 */
export function projectResponseRecords(db: Db, projectId: number): AnnotatorResponse[] {
  return db
    .select({
      annotator: users.name,
      lexelt: lexelts.item,
      instanceId: instances.instanceId,
      kind: responses.kind,
      substitutes: responses.substitutes,
      multiword: responses.multiword,
    })
    .from(responses)
    .innerJoin(instances, eq(instances.id, responses.instanceRef))
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .innerJoin(users, eq(users.id, responses.userId))
    .where(and(eq(responses.projectId, projectId), ne(users.role, "model")))
    .orderBy(asc(lexelts.position), asc(instances.position), asc(users.name))
    .all()
    .map((r) => ({ ...r, substitutes: JSON.parse(r.substitutes) as string[], multiword: r.multiword || null }));
}

/** The project's responses as TSV text (coordinators only); with `flags`, each annotator's flag and note in two more columns. */
export function exportResponses(db: Db, actor: Actor, projectId: number, opts: { flags?: boolean } = {}): string {
  const rows = listProjectResponses(db, actor, projectId);
  if (!opts.flags) return writeResponsesTsv(rows);
  // With flags: two more columns, the annotator's flag and note (the import reads and ignores them).
  const flags = flagsByResponse(db, actor, projectId);
  return writeResponsesTsv(rows, { flags: (r) => flags.get(`${r.annotator}\t${r.instanceId}`) });
}
