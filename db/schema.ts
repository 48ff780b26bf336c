/**
 * lexgold's data model. Change it only here, then `npm run db:generate`
 * (drizzle-kit) to write a migration into drizzle/; migrations run on open.
 */
import { sql } from "drizzle-orm";
import {
  sqliteTable,
  integer,
  text,
  primaryKey,
  uniqueIndex,
  index,
} from "drizzle-orm/sqlite-core";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** admin: manages every account (made from the CLI only); coordinator: their projects; annotator. */
  role: text("role", { enum: ["coordinator", "annotator", "admin"] }).notNull(),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
  /**
   * Bumped by sign-out, a password change or reset, disabling the account and
   * removal from a project: sessions carrying an older version are refused.
   */
  sessionVersion: integer("session_version").notNull().default(0),
  createdAt: createdAt(),
});

export const projects = sqliteTable("projects", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  guidelines: text("guidelines").notNull().default(""),
  /** How many annotators each instance needs; null = everyone assigned annotates it. */
  requiredAnnotators: integer("required_annotators"),
  createdBy: integer("created_by").references(() => users.id),
  /**
   * Set on a hidden holding project: the rows of an import still being written
   * for project `stagingFor` (lib/server/lexelt-import.ts). Never listed; its
   * lexelts move to the real project in one short transaction when published.
   */
  stagingFor: integer("staging_for"),
  createdAt: createdAt(),
});

export const memberships = sqliteTable(
  "memberships",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

/** One `<lexelt item="…">` element: the item kept verbatim, e.g. "stand.n.v". */
export const lexelts = sqliteTable(
  "lexelts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    item: text("item").notNull(),
    lemma: text("lemma").notNull(),
    pos: text("pos").notNull(),
    originalPos: text("original_pos"),
    position: integer("position").notNull(),
    /** How many instances the lexelt holds (kept by the XML import; the workspace's counts). */
    instanceCount: integer("instance_count").notNull().default(0),
    /** How many instances the project's lexelts before this one hold (queue positions without a scan). */
    instancesBefore: integer("instances_before").notNull().default(0),
  },
  (t) => [
    uniqueIndex("lexelts_project_item").on(t.projectId, t.item),
    index("lexelts_project_position").on(t.projectId, t.position),
    // Lexelts sharing a lemma are numbered for annotators (who never see the PoS).
    index("lexelts_project_lemma").on(t.projectId, t.lemma, t.position),
  ],
);

/** One `<instance id="…">`: the context split around the head exactly as in the file. */
export const instances = sqliteTable(
  "instances",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    lexeltId: integer("lexelt_id")
      .notNull()
      .references(() => lexelts.id, { onDelete: "cascade" }),
    /** The id as written in the lexelt file (the scorer's key). */
    instanceId: text("instance_id").notNull(),
    before: text("before").notNull(),
    head: text("head").notNull(),
    after: text("after").notNull(),
    position: integer("position").notNull(),
    importId: integer("import_id").references(() => imports.id),
    /** Gold review: excluded from the gold, with the reason. */
    excludedReason: text("excluded_reason"),
    /** Gold review: corrected PoS, written into exports as lemma.ori_pos.pos. */
    correctedPos: text("corrected_pos"),
  },
  (t) => [
    uniqueIndex("instances_project_instance").on(t.projectId, t.instanceId),
    index("instances_lexelt").on(t.lexeltId, t.position),
  ],
);

/** Each accepted lexelt XML import, with what it added and what it repaired. */
export const imports = sqliteTable("imports", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  projectId: integer("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  fileName: text("file_name").notNull(),
  sha256: text("sha256").notNull(),
  lexeltsAdded: integer("lexelts_added").notNull(),
  instancesAdded: integer("instances_added").notNull(),
  instancesAlreadyPresent: integer("instances_already_present").notNull(),
  /** JSON array of the repairs the reader made, each with its line. */
  repairs: text("repairs").notNull().default("[]"),
  importedBy: integer("imported_by").references(() => users.id),
  createdAt: createdAt(),
});

/** Which annotators annotate which lexelts; no rows for a project = everyone annotates everything. */
export const assignments = sqliteTable(
  "assignments",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lexeltId: integer("lexelt_id")
      .notNull()
      .references(() => lexelts.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.lexeltId] })],
);

/** The current response of one annotator to one instance. */
export const responses = sqliteTable(
  "responses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["substitutes", "NAME", "NIL"] }).notNull(),
    /** JSON array of up to three substitutes, in the order given. */
    substitutes: text("substitutes").notNull().default("[]"),
    multiword: text("multiword"),
    revision: integer("revision").notNull().default(1),
    /** Milliseconds the annotator spent on the instance before the first save. */
    activeMs: integer("active_ms"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("responses_instance_user").on(t.instanceRef, t.userId),
    index("responses_project_user").on(t.projectId, t.userId),
  ],
);

/** Append-only: every save of every response, never updated or deleted. */
export const responseHistory = sqliteTable(
  "response_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    responseId: integer("response_id").notNull(),
    projectId: integer("project_id").notNull(),
    instanceRef: integer("instance_ref").notNull(),
    userId: integer("user_id").notNull(),
    kind: text("kind").notNull(),
    substitutes: text("substitutes").notNull(),
    multiword: text("multiword"),
    revision: integer("revision").notNull(),
    source: text("source", { enum: ["web", "import"] }).notNull(),
    savedAt: integer("saved_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("response_history_response").on(t.responseId),
    // The annotator's last save (where the workspace resumes): the index ends in the rowid.
    index("response_history_user").on(t.projectId, t.userId),
  ],
);

/**
 * How many responses one annotator has given in one lexelt, kept in the
 * transaction that adds a response (web save, TSV import), so the workspace's
 * progress never counts the queue.
 */
export const queueCounts = sqliteTable(
  "queue_counts",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lexeltId: integer("lexelt_id")
      .notNull()
      .references(() => lexelts.id, { onDelete: "cascade" }),
    done: integer("done").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lexeltId] }), index("queue_counts_project_user").on(t.projectId, t.userId)],
);

/** How many responses one annotator has given in one project (every lexelt), kept with queue_counts. */
export const annotatorCounts = sqliteTable(
  "annotator_counts",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    done: integer("done").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

/** Coordinator's lemmatisation decisions: raw form → lemma (null lemma = keep as typed). */
export const lemmaOverrides = sqliteTable(
  "lemma_overrides",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    form: text("form").notNull(),
    lemma: text("lemma").notNull(),
    /** accepted = the lemmatiser's proposal, overridden = another lemma, kept = the form as typed. */
    decision: text("decision", { enum: ["accepted", "overridden", "kept"] }).notNull().default("overridden"),
    decidedBy: integer("decided_by").references(() => users.id),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.form] })],
);

/**
 * Append-only log of the coordinator's gold review: lemma decisions, exclusions and
 * PoS corrections, each with who and when (the current state lives in
 * lemma_overrides and instances; this is the record of how it got there).
 */
export const goldReviewLog = sqliteTable(
  "gold_review_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["lemma", "exclusion", "pos"] }).notNull(),
    /** The form (lemma) or the instance id (exclusion, pos). */
    target: text("target").notNull(),
    /** The new value: the lemma and decision as JSON, the reason, the PoS; null = reverted. */
    value: text("value"),
    userId: integer("user_id").references(() => users.id),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("gold_review_log_project").on(t.projectId, t.at)],
);

/** Uploaded system files and their scores. */
export const systemRuns = sqliteTable("system_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  projectId: integer("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  type: text("type", { enum: ["best", "oot", "mw"] }).notNull(),
  fileName: text("file_name").notNull(),
  content: text("content").notNull(),
  createdBy: integer("created_by").references(() => users.id),
  createdAt: createdAt(),
});

/**
 * Failed sign-ins, for the throttle and for coordinators to see (kept in the db so
 * restarts don't reset it): the name typed (lower-cased), the client address, and
 * the device cookie's id when the browser presented a valid one for that name.
 */
export const signInFailures = sqliteTable(
  "sign_in_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The user name as typed, lower-cased. */
    key: text("key").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    /** The client's address (the socket's, or the trusted proxy's X-Forwarded-For). */
    client: text("client").notNull().default(""),
    /** The id of a valid device cookie for this account that the browser presented, if any. */
    device: text("device"),
    /** Refused by the throttle before the password was checked. */
    throttled: integer("throttled", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("sign_in_failures_key").on(t.key, t.at), index("sign_in_failures_client").on(t.client, t.at)],
);

/** Append-only record of account changes: who did what to whom, when. */
export const accountAudit = sqliteTable(
  "account_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    /** The signed-in user who acted; null = the CLI. */
    actorId: integer("actor_id").references(() => users.id),
    action: text("action", {
      enum: ["create", "password-change", "password-reset", "disable", "enable", "member-remove", "member-add", "sign-out"],
    }).notNull(),
    targetId: integer("target_id").references(() => users.id, { onDelete: "cascade" }),
    projectId: integer("project_id").references(() => projects.id, { onDelete: "set null" }),
  },
  (t) => [index("account_audit_target").on(t.targetId, t.at)],
);

/**
 * Heavy work run off the request thread (lib/server/jobs.ts): imports and the
 * like, with their progress as they go and their report when done.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    state: text("state", { enum: ["queued", "running", "done", "failed", "cancelled"] }).notNull().default("queued"),
    /** A cancel was asked for; the job stops at its next slice. */
    cancelRequested: integer("cancel_requested", { mode: "boolean" }).notNull().default(false),
    /** What the job works through (instances, lines) and how far it is. */
    done: integer("done").notNull().default(0),
    total: integer("total").notNull().default(0),
    /** The phase or outcome in one sentence. */
    message: text("message").notNull().default(""),
    /** JSON: the job's input (file name, temp path, options). */
    input: text("input").notNull().default("{}"),
    /** JSON: the report when done, or the error details when failed. */
    report: text("report"),
    /** The hidden holding project of rows written but not yet published (see projects.stagingFor). */
    stagingProjectId: integer("staging_project_id"),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: createdAt(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("jobs_project").on(t.projectId, t.id)],
);
