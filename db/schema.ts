/**
 * lexgold's data model. Change it only here, then `npm run db:generate`
 * (drizzle-kit) to write a migration into drizzle/; migrations run on open.
 *
 * Why one file over 600 lines: drizzle-kit reads one schema to write migrations, and
 * the tables' references to each other are easiest to follow side by side.
 */
import { sql } from "drizzle-orm";
import {
  sqliteTable,
  integer,
  real,
  text,
  primaryKey,
  uniqueIndex,
  index,
  blob,
} from "drizzle-orm/sqlite-core";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Unique whatever its case (users_name_nocase): sign-in, the throttle and the device cookie treat "Ann" and "ann" as one account. */
    name: text("name").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    /**
     * admin: manages every account (made from the CLI only); coordinator: their projects; annotator;
     * participant: a crowd worker who joined one study by its link (lib/server/crowd), with no
     * password, an annotator of that study's project only; model: the answers of one sample of a model
     * (lib/server/models, issue #41), never signed in, never a member, out of the gold unless counted.
     */
    role: text("role", { enum: ["coordinator", "annotator", "admin", "participant", "model"] }).notNull(),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    /**
     * The study's own coordinator (the account `lexgold init` makes): a coordinator of every
     * project — made one of each project's coordinators when it is created, however it is
     * created (lib/server/corpus/projects.ts), so its project pages never answer 404.
     */
    administersProjects: integer("administers_projects", { mode: "boolean" }).notNull().default(false),
    /**
     * Bumped by sign-out, a password change or reset, disabling the account and
     * removal from a project: sessions carrying an older version are refused.
     */
    sessionVersion: integer("session_version").notNull().default(0),
    /** A coordinator or admin lifted the sign-in lock here: failed sign-ins before it no longer count (lib/server/people/signin.ts). */
    signInClearedAt: integer("sign_in_cleared_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_name_nocase").on(sql`${t.name} collate nocase`)],
);

export const projects = sqliteTable("projects", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  guidelines: text("guidelines").notNull().default(""),
  /** How many annotators each instance needs; null = everyone assigned annotates it. */
  requiredAnnotators: integer("required_annotators"),
  /** Training (lib/server/quality/training.ts): annotators must pass the training items before real instances. */
  trainingRequired: integer("training_required", { mode: "boolean" }).notNull().default(false),
  /** Pass mark of the training, in percent of training items matched (see lib/lexsub/known-answers.ts). */
  trainingThreshold: integer("training_threshold").notNull().default(60),
  /** Progress flags an annotator whose median time per instance is under this many milliseconds. */
  speedThresholdMs: integer("speed_threshold_ms").notNull().default(4000),
  /** Training items stay in the annotators' queue (off: they are left out of it; lib/server/annotate/queue.ts syncTrainingQueue). */
  trainingInQueue: integer("training_in_queue", { mode: "boolean" }).notNull().default(false),
  createdBy: integer("created_by").references(() => users.id),
  /**
   * Set on a hidden holding project: the rows of an import still being written
   * for project `stagingFor` (lib/server/corpus/lexelt-import.ts). Never listed; its
   * lexelts move to the real project in one short transaction when published.
   */
  stagingFor: integer("staging_for"),
  /** Set when a coordinator archives the project: it leaves annotators' lists and takes no answers, and keeps everything. */
  archivedAt: integer("archived_at", { mode: "timestamp_ms" }),
  /**
   * The language of the sentences and answers, a BCP 47 tag (lib/lexsub/language.ts):
   * the pages' `lang`, case folding and sorting, and whether WordNet proposes lemmas (English only).
   */
  language: text("language").notNull().default("en"),
  /**
   * A model's answers in the workspace (lib/server/models/suggestions.ts, issue #41): off; after (shown
   * once the annotator has saved the instance); assist (shown as candidates to accept with a key).
   */
  suggestionMode: text("suggestion_mode", { enum: ["off", "after", "assist"] }).notNull().default("off"),
  /** The model whose answers are suggested (models.id; no foreign key: models references projects). */
  suggestionModelId: integer("suggestion_model_id"),
  createdAt: createdAt(),
});

/** A member's role in one project (memberships.role). */
export const PROJECT_ROLES = ["annotator", "judge", "coordinator"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const memberships = sqliteTable(
  "memberships",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * What the account does in this project (its users.role decides only who may create projects
     * and manage accounts): an annotator answers in the workspace and counts in Progress and the
     * gold; a judge only labels in the judgement rounds they judge; a coordinator runs the project.
     */
    role: text("role", { enum: PROJECT_ROLES }).notNull().default("annotator"),
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
    /** How many of its instances are out of the annotators' queue (training items: instances.in_queue = 0). */
    outOfQueue: integer("out_of_queue").notNull().default(0),
    /** How many instances of the project's lexelts before this one are out of the queue (as instancesBefore). */
    outOfQueueBefore: integer("out_of_queue_before").notNull().default(0),
    /** The coordinator's note and examples for this lexelt (Markdown), shown beside the sentence. */
    note: text("note").notNull().default(""),
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
    /** Gold review: when the coordinator marked the instance reviewed (null = not reviewed). */
    reviewedAt: integer("reviewed_at", { mode: "timestamp_ms" }),
    reviewedBy: integer("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    /** 0 = out of the annotators' queue: a training item while the project leaves them out (lib/server/annotate/queue.ts syncTrainingQueue). */
    inQueue: integer("in_queue", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    uniqueIndex("instances_project_instance").on(t.projectId, t.instanceId),
    index("instances_lexelt").on(t.lexeltId, t.position),
    // The few instances out of the queue, found without reading the project's.
    index("instances_out_of_queue").on(t.projectId).where(sql`in_queue = 0`),
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
    /**
     * JSON, when the project suggested a model's answers (lib/server/models/suggestions.ts): the mode,
     * the model, whether they were shown before this save and which of them the annotator accepted;
     * null when no suggestions were on. Agreement and gold can be split by it.
     */
    suggestions: text("suggestions"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("responses_instance_user").on(t.instanceRef, t.userId),
    index("responses_project_user").on(t.projectId, t.userId),
    // The Progress page's median time per item: a range of this index, read at its middle (lib/server/annotate/progress.ts).
    index("responses_project_user_active").on(t.projectId, t.userId, t.activeMs),
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
    source: text("source", { enum: ["web", "import", "model"] }).notNull(),
    /** The save's suggestions record (responses.suggestions). */
    suggestions: text("suggestions"),
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

/**
 * A project's data version: raised (by triggers, migration 0006) in the same
 * transaction as anything gold, mwgold and agreement are derived from — a
 * response added, revised or removed, an instance or lexelt added, changed or
 * removed, a lemma decision, a gold review log row. Derived results are cached
 * under it (lib/server/jobs/derive-pool.ts).
 */
export const dataVersions = sqliteTable("data_versions", {
  projectId: integer("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  version: integer("version").notNull().default(0),
});

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
    kind: text("kind", { enum: ["lemma", "exclusion", "pos", "strike", "correct", "strike-response", "multiword", "undo", "reviewed", "return", "participant", "participants", "model"] }).notNull(),
    /**
     * The form (lemma) or the instance id (exclusion, pos); a crowd participant's platform id
     * (participant: approve, reject, bonus) or the study's name (participants: left out of the
     * gold or put back, lib/server/crowd/participants.ts).
     */
    target: text("target").notNull(),
    /** The new value: the lemma and decision as JSON, the reason, the PoS; null = reverted. */
    value: text("value"),
    userId: integer("user_id").references(() => users.id),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("gold_review_log_project").on(t.projectId, t.at)],
);

/**
 * Per-response adjudication (issue #15): the coordinator strikes or corrects one
 * substitute of one annotator's response, or strikes the whole response. The
 * response itself is never changed; the gold derivation applies the active
 * decisions (lib/lexsub/adjudication.ts). Undoing sets undone_at/undone_by (and
 * logs a row in gold_review_log): the decision stays, inactive.
 */
export const adjudications = sqliteTable(
  "adjudications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    /** The annotator whose response is adjudicated. */
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * strike: leave one substitute out; correct: write `value` instead of it; strike-response: leave the whole
     * response out; multiword: write `value` instead of the response's multiword phrase (null: not a multiword).
     */
    action: text("action", { enum: ["strike", "correct", "strike-response", "multiword"] }).notNull(),
    /** The substitute as the annotator typed it (null for strike-response); multiword: the phrase as typed. */
    substitute: text("substitute"),
    /** The corrected substitute (correct), the corrected phrase (multiword; null: not a multiword). */
    value: text("value"),
    reason: text("reason").notNull().default(""),
    /** The response's revision the decision was made on. */
    revision: integer("revision").notNull(),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }).notNull(),
    undoneBy: integer("undone_by").references(() => users.id, { onDelete: "set null" }),
    undoneAt: integer("undone_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("adjudications_project").on(t.projectId, t.undoneAt), index("adjudications_instance").on(t.instanceRef, t.annotatorId)],
);

/** Uploaded system files and their scores. */
/**
 * Gold and mwgold files uploaded on the Scoring page, kept with the project so
 * that runs scored against them keep their gold across reloads. A run is ranked
 * only among the runs of its own gold (system_runs.gold_id).
 */
export const scoringGolds = sqliteTable(
  "scoring_golds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    goldName: text("gold_name"),
    goldText: text("gold_text"),
    mwgoldName: text("mwgold_name"),
    mwgoldText: text("mwgold_text"),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("scoring_golds_project_name").on(t.projectId, t.name)],
);

export const systemRuns = sqliteTable(
  "system_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type", { enum: ["best", "oot", "mw"] }).notNull(),
    fileName: text("file_name").notNull(),
    /** The file (runs stored before #39; a run stored since keeps its file in run_texts, and "" here). */
    content: text("content").notNull(),
    /** The content's size in UTF-8 bytes, kept so that listing runs never reads their content. */
    bytes: integer("bytes").notNull().default(0),
    /** The stored gold the run is scored with; null for the project's own gold (derived from the responses). */
    goldId: integer("gold_id").references(() => scoringGolds.id),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: createdAt(),
    /**
     * "stored", or "storing" while its slices are written (#39: the run is read, written and scored a
     * slice at a time; a run not stored yet is in no list, and a killed job's is deleted at the next start),
     * or "deleting" while its rows are taken away a slice at a time.
     */
    state: text("state", { enum: ["storing", "stored", "deleting"] }).notNull().default("stored"),
    /**
     * How its items' outcomes were read ("bytes", "utf8": lib/scorers/semeval2007/rules.ts Reading); null
     * while it has none (a run stored before #39: its items are written by the applier, see run_items).
     */
    reading: text("reading", { enum: ["bytes", "utf8"] }),
    /** Its distinct ids (run_items). */
    items: integer("items").notNull().default(0),
    /** JSON: the groups (PoS) its outcomes name, by code. */
    groups: text("groups").notNull().default("[]"),
    /** JSON: what the system reader found in the file (lines read, matched, refused; its diagnostics). */
    reader: text("reader"),
  },
  (t) => [
    // A save's maintenance finds the runs scored with the project's gold (lib/server/derived/run-items.ts).
    index("system_runs_project_gold").on(t.projectId, t.goldId),
  ],
);

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
      enum: ["create", "password-change", "password-reset", "disable", "enable", "member-remove", "member-add", "member-role", "sign-out", "sign-in-unlock"],
    }).notNull(),
    targetId: integer("target_id").references(() => users.id, { onDelete: "cascade" }),
    projectId: integer("project_id").references(() => projects.id, { onDelete: "set null" }),
  },
  (t) => [index("account_audit_target").on(t.targetId, t.at)],
);

/**
 * Instances imported from a dataset (CoInCo, SWORDS, TSAR/MLSP): the format's own
 * fields for the target that the lexelt model has no place for (JSON), kept so an
 * export writes them back. See docs/datasets.md.
 */
export const datasetInstances = sqliteTable(
  "dataset_instances",
  {
    instanceRef: integer("instance_ref")
      .primaryKey()
      .references(() => instances.id, { onDelete: "cascade" }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    format: text("format", { enum: ["coinco", "swords", "tsar"] }).notNull(),
    meta: text("meta").notNull().default("{}"),
    importedBy: integer("imported_by").references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index("dataset_instances_project").on(t.projectId)],
);

/**
 * A dataset's gold entries per instance, as imported: the substitute, how many
 * annotators gave it, SWORDS's labels (JSON list, in file order) and other fields
 * (JSON). The derived gold adds these counts to the annotators' responses.
 */
export const datasetGold = sqliteTable(
  "dataset_gold",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    substitute: text("substitute").notNull(),
    count: integer("count").notNull(),
    labels: text("labels"),
    meta: text("meta"),
  },
  (t) => [uniqueIndex("dataset_gold_instance_position").on(t.instanceRef, t.position), index("dataset_gold_project").on(t.projectId)],
);

/**
 * Known-answer instances (lib/server/quality/training.ts): training items (shown first, with
 * feedback, answers kept in training_answers) and attention checks (in the queue like
 * any instance; their responses are scored against the accepted substitutes and left
 * out of gold and agreement). A small table keyed by instance: the queue never reads it.
 */
export const knownAnswers = sqliteTable(
  "known_answers",
  {
    instanceRef: integer("instance_ref")
      .primaryKey()
      .references(() => instances.id, { onDelete: "cascade" }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["training", "check"] }).notNull(),
    /** JSON array of the accepted substitutes. */
    accepted: text("accepted").notNull(),
    setBy: integer("set_by").references(() => users.id),
    setAt: integer("set_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("known_answers_project_role").on(t.projectId, t.role)],
);

/** An annotator's answers to training items, per attempt; never part of gold or agreement. */
export const trainingAnswers = sqliteTable(
  "training_answers",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    /** JSON array of the substitutes given. */
    substitutes: text("substitutes").notNull(),
    matched: integer("matched", { mode: "boolean" }).notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.attempt, t.instanceRef] })],
);

/** Each training attempt of an annotator: its order, and when finished its score and outcome. */
export const trainingAttempts = sqliteTable(
  "training_attempts",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** JSON array of instance refs in the order shown. */
    items: text("items").notNull(),
    /** Percent of items matched, once every item is answered. */
    score: integer("score"),
    passed: integer("passed", { mode: "boolean" }).notNull().default(false),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.attempt] })],
);

/**
 * An annotator's flag and note on one instance (issue 15): the current state, one
 * row per (instance, annotator), saved with the response or on its own (an item
 * can be flagged without an answer). flag null = no flag, note "" = no note.
 */
export const instanceFlags = sqliteTable(
  "instance_flags",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    flag: text("flag", { enum: ["unsure", "typo", "name", "other"] }),
    note: text("note").notNull().default(""),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceRef, t.userId] }),
    // The coordinator's Flags list: a project's flagged rows, newest first.
    index("instance_flags_project").on(t.projectId, t.updatedAt),
  ],
);

/**
 * Instances a coordinator returned to one annotator with a comment. Each return is
 * a row, never deleted: resolved_at / resolved_revision record the annotator's
 * save that answered it (the log of returns). Open returns are few, so the
 * workspace finds them on the (project, user, resolved) index.
 */
export const returnedItems = sqliteTable(
  "returned_items",
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
    comment: text("comment").notNull(),
    returnedBy: integer("returned_by").references(() => users.id),
    returnedAt: integer("returned_at", { mode: "timestamp_ms" }).notNull(),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    /** The response revision of the save that resolved it. */
    resolvedRevision: integer("resolved_revision"),
  },
  (t) => [
    index("returned_items_open").on(t.projectId, t.userId, t.resolvedAt, t.id),
    index("returned_items_instance").on(t.instanceRef, t.userId),
  ],
);

/**
 * Heavy work run off the request thread (lib/server/jobs/jobs.ts): imports and the
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

/**
 * A judgement round (task paper §5.1, post-hoc analysis): candidates for sampled instances,
 * judged good/reasonable/bad (or good/bad/abstain) by judges who see no source.
 */
export const judgementRounds = sqliteTable("judgement_rounds", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  projectId: integer("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  scheme: text("scheme", { enum: ["good-reasonable-bad", "good-bad-abstain"] }).notNull().default("good-reasonable-bad"),
  /** "posthoc": the §5.1 filter; "any": any instance. */
  selection: text("selection", { enum: ["posthoc", "any"] }).notNull().default("posthoc"),
  judgesPerCandidate: integer("judges_per_candidate").notNull().default(3),
  escalationCap: integer("escalation_cap").notNull().default(3),
  seed: integer("seed").notNull().default(0),
  allowOwnItems: integer("allow_own_items", { mode: "boolean" }).notNull().default(false),
  controls: integer("controls", { mode: "boolean" }).notNull().default(false),
  /** JSON array of the source tags asked for, e.g. ["annotators","wordnet","run:3"]. */
  sourcesAsked: text("sources_asked").notNull().default("[]"),
  state: text("state", { enum: ["open", "closed"] }).notNull().default("open"),
  createdBy: integer("created_by").references(() => users.id),
  createdAt: createdAt(),
});

export const judgementItems = sqliteTable(
  "judgement_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    roundId: integer("round_id")
      .notNull()
      .references(() => judgementRounds.id, { onDelete: "cascade" }),
    instanceId: integer("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [uniqueIndex("judgement_items_round_instance").on(t.roundId, t.instanceId)],
);

export const judgementCandidates = sqliteTable(
  "judgement_candidates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    itemId: integer("item_id")
      .notNull()
      .references(() => judgementItems.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    /** JSON array of source tags ("annotators", "wordnet", "run:<name>", "control:target", …). */
    sources: text("sources").notNull().default("[]"),
  },
  (t) => [index("judgement_candidates_item").on(t.itemId)],
);

export const judgementJudges = sqliteTable(
  "judgement_judges",
  {
    roundId: integer("round_id")
      .notNull()
      .references(() => judgementRounds.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.userId] })],
);

export const judgementLabels = sqliteTable(
  "judgement_labels",
  {
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => judgementCandidates.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    label: text("label", { enum: ["good", "reasonable", "bad", "abstain"] }).notNull(),
    labelledAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.candidateId, t.userId] })],
);

/**
 * A crowd study on a project (lib/server/crowd, issue #32): an unguessable link that
 * Prolific, Mechanical Turk or anyone with the link joins by. Each participant gets a
 * batch of `batchSize` instances so that every instance ends with `overlap` answers
 * from distinct participants; a batch not finished within `minutes` is released.
 */
export const studies = sqliteTable(
  "studies",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The link's secret (the study's address is /study/<token>): 128 random bits, base64url. */
    token: text("token").notNull().unique(),
    name: text("name").notNull().default(""),
    platform: text("platform", { enum: ["prolific", "mturk", "link"] }).notNull(),
    batchSize: integer("batch_size").notNull(),
    overlap: integer("overlap").notNull(),
    minutes: integer("minutes").notNull(),
    completionCode: text("completion_code").notNull().default(""),
    screenOutCode: text("screen_out_code").notNull().default(""),
    /** Shown before the first item when not empty (Markdown). */
    consent: text("consent").notNull().default(""),
    /** open: joins and answers; paused: no new joins, those in keep going; closed: no joins, no answers. */
    state: text("state", { enum: ["open", "paused", "closed"] }).notNull().default("open"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /**
     * The study list's counts, kept by triggers (drizzle/0023) in the transaction of every change to
     * participants and study_slots, so the list reads this row and not the study's slots: participants
     * joined, slots (instances the study hands out), places taken (the sum of study_slots.taken) and
     * instances whose every place is taken (taken ≥ overlap).
     */
    participantCount: integer("participant_count").notNull().default(0),
    instanceCount: integer("instance_count").notNull().default(0),
    placesTaken: integer("places_taken").notNull().default(0),
    fullCount: integer("full_count").notNull().default(0),
    /**
     * False while a big study's slots are still being written, in slices (lib/server/crowd/studies.ts):
     * nobody joins until they are all there. `slotsAfter` is then the instance whose slot was written
     * last (null before the first slice), where the next slice goes on from.
     */
    slotsReady: integer("slots_ready", { mode: "boolean" }).notNull().default(true),
    slotsAfter: integer("slots_after"),
    /**
     * Every instance of the project a batch may hold with an id up to this one has its slot (set
     * when the study opens, and by each top-up, lib/server/crowd/allocation.ts): while no instance
     * has a larger id, a top-up has nothing to do and reads nothing (#38). Null: not known yet.
     */
    slotsThrough: integer("slots_through"),
    /** The project's model suggestions are shown to this study's participants too (off: never, whatever the project's mode). */
    allowSuggestions: integer("allow_suggestions", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("studies_project").on(t.projectId)],
);

/**
 * One participant of one study: a users row (role participant, member of the study's
 * project as its annotator) with the platform's ids. One per (study, platform id):
 * arriving again resumes, never starts a second batch.
 */
export const participants = sqliteTable(
  "participants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id, { onDelete: "cascade" }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Prolific's PROLIFIC_PID, Mechanical Turk's workerId, or the id a link participant chose. */
    platformId: text("platform_id").notNull(),
    /** Prolific's STUDY_ID / Mechanical Turk's hitId. */
    platformStudyId: text("platform_study_id"),
    /** Prolific's SESSION_ID / Mechanical Turk's assignmentId (the id to approve or reject). */
    platformSessionId: text("platform_session_id"),
    /** Mechanical Turk's turkSubmitTo (the externalSubmit form's host), checked for shape. */
    submitTo: text("submit_to"),
    /** The client address that joined (per-address join limits). */
    address: text("address"),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }).notNull(),
    /** When the consent was accepted (null while a consent is shown and not yet accepted). */
    consentedAt: integer("consented_at", { mode: "timestamp_ms" }),
    /** When the current batch was given; it is released after studies.minutes from here unless finished. */
    batchAt: integer("batch_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** active: working; finished: batch done (completion code); screened-out: failed training; timed-out: batch released. */
    state: text("state", { enum: ["active", "finished", "screened-out", "timed-out"] }).notNull().default("active"),
    /** Time on task measured on the server (ms): the sum of the gaps between the participant's requests, each capped. */
    activeMs: integer("active_ms").notNull().default(0),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
    review: text("review", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    reviewReason: text("review_reason").notNull().default(""),
    reviewedBy: integer("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: integer("reviewed_at", { mode: "timestamp_ms" }),
    /** A bonus for the payment export, in the platform's currency's hundredths; null = none. */
    bonusCents: integer("bonus_cents"),
    /**
     * SHA-256 (hex) of the resume code shown to the participant when they joined (lib/server/crowd/join.ts):
     * with it they continue from another browser. Null for participants who joined before there were codes.
     */
    resumeCodeHash: text("resume_code_hash"),
  },
  (t) => [
    uniqueIndex("participants_study_platform_id").on(t.studyId, t.platformId),
    index("participants_study_state").on(t.studyId, t.state, t.batchAt),
    index("participants_project").on(t.projectId),
  ],
);

/**
 * The browsers a participant has joined or resumed from (lib/server/crowd/join.ts): each holds a
 * random key in an HttpOnly cookie of the study's; only its SHA-256 (hex) is kept here. A browser
 * with one of these keys resumes as the participant; any other needs the platform session of the
 * first join or the resume code. A few per participant (the oldest dropped beyond them).
 */
export const participantBrowsers = sqliteTable(
  "participant_browsers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id, { onDelete: "cascade" }),
    keyHash: text("key_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("participant_browsers_participant").on(t.participantId)],
);

/**
 * How many places of one instance a study has given out: answered by or held in the
 * batch of a participant. Allocation takes the instances with the fewest places below
 * the overlap first (the index), so it costs the batch, not the project.
 */
export const studySlots = sqliteTable(
  "study_slots",
  {
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id, { onDelete: "cascade" }),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    /** Places held or answered. */
    taken: integer("taken").notNull().default(0),
    /** The instance's corpus order within the project (ties broken in corpus order). */
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.studyId, t.instanceRef] }), index("study_slots_fewest").on(t.studyId, t.taken, t.position)],
);

/** The instances of one participant's batch, in the order shown; released rows gave their place back. */
export const batchItems = sqliteTable(
  "batch_items",
  {
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id, { onDelete: "cascade" }),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** When the place was given back (batch timed out before this item was answered). */
    releasedAt: integer("released_at", { mode: "timestamp_ms" }),
  },
  (t) => [primaryKey({ columns: [t.participantId, t.instanceRef] }), index("batch_items_instance").on(t.instanceRef)],
);

/**
 * A coordinator's decision to leave a rejected participant's answers out of the gold
 * (or to take it back): recorded, never deleted, undoable like an adjudication. The
 * active decision is the latest row per participant with undone_at null.
 */
export const participantExclusions = sqliteTable(
  "participant_exclusions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    participantId: integer("participant_id")
      .notNull()
      .references(() => participants.id, { onDelete: "cascade" }),
    reason: text("reason").notNull().default(""),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }).notNull(),
    undoneBy: integer("undone_by").references(() => users.id, { onDelete: "set null" }),
    undoneAt: integer("undone_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("participant_exclusions_project").on(t.projectId, t.undoneAt)],
);

// ---------------------------------------------------------------------------
// Derived figures kept as answers change (#39; lib/server/derived, docs/derivations.md).

/**
 * Instances whose derived figures are to be brought up to date: a row is put here by triggers
 * (drizzle/0029) in the transaction of every change the gold of an instance is derived from —
 * a response saved, imported or removed, an adjudication, a lemma decision (every instance that
 * holds the form), an exclusion, a PoS correction, a participant left out, a known answer, a
 * dataset's gold, the corpus itself — and taken away by the one maintenance function
 * (lib/server/derived/maintain.ts) when it has brought the instance's figures in line.
 */
export const deriveQueue = sqliteTable(
  "derive_queue",
  {
    instanceRef: integer("instance_ref").primaryKey(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
  },
  (t) => [index("derive_queue_project").on(t.projectId)],
);

/**
 * One instance's derived figures, as the maintenance function last computed them from the
 * instance's own inputs through lib/lexsub/gold.ts (no reference to instances: the row of an
 * instance that went is taken away, and its sums with it, by the maintenance that finds it gone).
 */
export const goldItems = sqliteTable(
  "gold_items",
  {
    instanceRef: integer("instance_ref").primaryKey(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    lexeltId: integer("lexelt_id").notNull(),
    /** Corpus order: the lexelt's position, then the instance's. */
    lexeltPosition: integer("lexelt_position").notNull(),
    position: integer("position").notNull(),
    instanceId: text("instance_id").notNull(),
    /** The lexelt item as loaded (the Gold tab filters by it). */
    lexelt: text("lexelt").notNull(),
    inQueue: integer("in_queue", { mode: "boolean" }).notNull(),
    /** Excluded from the gold (by the coordinator, or as an attention check). */
    excluded: integer("excluded", { mode: "boolean" }).notNull(),
    reviewed: integer("reviewed", { mode: "boolean" }).notNull(),
    /** The gold line (responses and imported dataset counts), null when none. */
    line: text("line"),
    mwLine: text("mw_line"),
    inT: integer("in_t", { mode: "boolean" }).notNull(),
    hasMode: integer("has_mode", { mode: "boolean" }).notNull(),
    /** The review queue's order: the item's pairwise agreement, 2 when it has none (after every figure). */
    rank: real("rank").notNull(),
    /** The annotators whose answers count in its gold, each between line breaks ("\nann\nbea\n"): the Gold tab's filter by annotator. */
    annotators: text("annotators").notNull().default(""),
    /** Its gold line as the official scorer reads it (the project's reading): in T, with a mode, the group (PoS) of its lexelt. */
    keyInT: integer("key_in_t", { mode: "boolean" }).notNull().default(false),
    keyMode: integer("key_mode", { mode: "boolean" }).notNull().default(false),
    keyGroup: text("key_group").notNull().default(""),
    /** Pairs of annotators who both gave substitutes (the lowest items' tie-break: more pairs first). */
    pairs: integer("pairs").notNull().default(0),
    /** Problems of the item's derivation (JSON), null when none. */
    problems: text("problems"),
    /** The item as the agreement measures read it (JSON, lib/lexsub/agreement AgreementItem); null when excluded. */
    item: text("item"),
    /** What the item added to the project's sums (JSON), taken away again when the item changes. */
    sums: text("sums").notNull(),
  },
  (t) => [
    // In corpus order, with the lines (#39): the gold and mwgold files are read from this index alone, not
    // from the rows (each about a page of 4 KB with its sums: 84,000 pages read for 6 MB of gold at 100,000 instances).
    index("gold_items_order").on(t.projectId, t.lexeltPosition, t.position, t.excluded, t.line, t.mwLine),
    index("gold_items_rank").on(t.projectId, t.rank, t.lexeltPosition, t.position),
    index("gold_items_lowest").on(t.projectId, t.rank, sql`${t.pairs} desc`, t.lexeltPosition, t.position),
    index("gold_items_lexelt").on(t.projectId, t.lexelt),
    index("gold_items_instance").on(t.projectId, t.instanceId),
    // The scoring key's groups in the key's order: each group's first item in T.
    index("gold_items_key_group").on(t.projectId, t.keyGroup, t.keyInT, t.lexeltPosition, t.position),
    // The review queue: instances not reviewed yet, lowest agreement first (counted and cut without reading every row).
    index("gold_items_review_queue").on(t.projectId, t.reviewed, t.rank, t.lexeltPosition, t.position),
    // The problems in corpus order (lib/server/derived/read.ts problemsInOrder), the instances' own apart: the
    // Gold page lists the first few without reading every item (each row carries its item and sums).
    index("gold_items_problems")
      .on(t.projectId, t.lexeltPosition, t.position)
      .where(sql`${t.problems} is not null`),
    index("gold_items_instance_problems")
      .on(t.projectId, t.lexeltPosition, t.position)
      .where(sql`${t.problems} is not null and instr(${t.problems}, '"annotator":null') > 0`),
  ],
);

/**
 * The project's derived counts, one row per name (lib/server/derived/counts.ts): the gold's
 * summary, the problems, the histogram of per-item agreement, the scoring key's totals, each
 * stored run's counts. Kept by adding each item's part and taking it away again.
 */
export const derivedCounts = sqliteTable(
  "derived_counts",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);

/** The agreement sums of one group of items (overall, a PoS, a lexelt): lib/lexsub/agreement/item.ts GroupSums. */
export const agreementSums = sqliteTable(
  "agreement_sums",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** "all", "pos" or "lexelt". */
    scope: text("scope").notNull(),
    /** The PoS or the lexelt item ("" for all). */
    key: text("key").notNull(),
    /** A lexelt's PoS. */
    pos: text("pos").notNull().default(""),
    present: integer("present").notNull().default(0),
    items: integer("items").notNull().default(0),
    itemsWithMode: integer("items_with_mode").notNull().default(0),
    pairs: integer("pairs").notNull().default(0),
    pairUnits: integer("pair_units").notNull().default(0),
    modeResponses: integer("mode_responses").notNull().default(0),
    modeHits: integer("mode_hits").notNull().default(0),
    mwInstances: integer("mw_instances").notNull().default(0),
    mwDetectionPairs: integer("mw_detection_pairs").notNull().default(0),
    mwDetectionAgree: integer("mw_detection_agree").notNull().default(0),
    mwIdentificationPairs: integer("mw_identification_pairs").notNull().default(0),
    mwIdentificationAgree: integer("mw_identification_agree").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.scope, t.key] })],
);

/** One annotator's agreement sums in a project: lib/lexsub/agreement/item.ts AnnotatorSums. */
export const annotatorSums = sqliteTable(
  "annotator_sums",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    annotator: text("annotator").notNull(),
    answered: integer("answered").notNull().default(0),
    names: integer("names").notNull().default(0),
    nils: integer("nils").notNull().default(0),
    substituteAnswers: integer("substitute_answers").notNull().default(0),
    substitutesGiven: integer("substitutes_given").notNull().default(0),
    multiwords: integer("multiwords").notNull().default(0),
    items: integer("items").notNull().default(0),
    pairs: integer("pairs").notNull().default(0),
    pairUnits: integer("pair_units").notNull().default(0),
    modeResponses: integer("mode_responses").notNull().default(0),
    modeHits: integer("mode_hits").notNull().default(0),
    dItems: integer("d_items").notNull().default(0),
    dItemsWithMode: integer("d_items_with_mode").notNull().default(0),
    dPairs: integer("d_pairs").notNull().default(0),
    dPairUnits: integer("d_pair_units").notNull().default(0),
    dModeResponses: integer("d_mode_responses").notNull().default(0),
    dModeHits: integer("d_mode_hits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.annotator] })],
);

/**
 * The forms typed in one instance (normalised, the lemma table's key), under the PoS they were
 * typed under, and in how many of its responses: what a lemma decision on a form touches, and
 * the lemma review's counts.
 */
export const goldForms = sqliteTable(
  "gold_forms",
  {
    instanceRef: integer("instance_ref").notNull(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    form: text("form").notNull(),
    pos: text("pos").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceRef, t.form, t.pos] }), index("gold_forms_form").on(t.projectId, t.form)],
);

/** The lemma review's rows: each form typed in the project, how often under each PoS, and the lemmatiser's proposals. */
export const lemmaForms = sqliteTable(
  "lemma_forms",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    form: text("form").notNull(),
    /** How often it was typed, in all. */
    count: integer("count").notNull(),
    /** JSON: PoS → how often. */
    byPos: text("by_pos").notNull(),
    /** JSON: PoS → the lemmatiser's proposal. */
    proposals: text("proposals").notNull(),
    /** JSON: PoS → the reading offered as a choice (a participle's verb), null when none. */
    choices: text("choices").notNull().default("{}"),
    /** JSON: spelling imported with other spacing than the form's → how often met. */
    spacing: text("spacing").notNull().default("{}"),
    /** A proposal differs from the form, a spelling has other spacing, or a choice is offered (the review's "changed"). */
    changed: integer("changed", { mode: "boolean" }).notNull(),
    /**
     * The proposals the form's row applies while nobody decides it (lib/lexsub/gold.ts proposalsOfRow): how
     * many, the answers they rewrite, and the most any one rewrites — the Gold page's notice of open
     * proposals is summed and its first ones read in order from these, whatever the number of forms.
     */
    proposalCount: integer("proposal_count").notNull().default(0),
    proposalUses: integer("proposal_uses").notNull().default(0),
    proposalTop: integer("proposal_top").notNull().default(0),
    /**
     * How many spellings with other spacing the form has (the keys of `spacing`): while nobody decides the
     * form, the "with proposals applied" download writes each of them tidied, and the Gold page's notice
     * says how many such spellings are open.
     */
    spacingCount: integer("spacing_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.form] }),
    index("lemma_forms_order").on(t.projectId, t.changed, t.count),
    index("lemma_forms_proposals")
      .on(t.projectId, t.proposalTop)
      .where(sql`${t.proposalCount} > 0`),
    index("lemma_forms_spacing")
      .on(t.projectId)
      .where(sql`${t.spacingCount} > 0`),
  ],
);

/** Per lexelt, how many instances in the queue have each number of answers that count toward "complete" (the Progress tab). */
export const lexeltAnswerCounts = sqliteTable(
  "lexelt_answer_counts",
  {
    /** No reference: the rows of a lexelt that went are taken to 0 (and away) with its instances' figures. */
    lexeltId: integer("lexelt_id").notNull(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    answers: integer("answers").notNull(),
    instances: integer("instances").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lexeltId, t.answers] }), index("lexelt_answer_counts_project").on(t.projectId)],
);

/**
 * Figures global by nature (#39), computed in the background over the kept ones and shown with
 * their age: Krippendorff's α and the bootstrap intervals of the Agreement tab ("agreement"), and
 * the Scoring tab's other readings of stored runs ("scoring:…"). One row per project and kind, with
 * the project's data version it was computed at (stale once the version moves on).
 */
export const derivedSnapshots = sqliteTable(
  "derived_snapshots",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    version: integer("version").notNull(),
    computedAt: integer("computed_at", { mode: "timestamp_ms" }).notNull(),
    computeMs: integer("compute_ms").notNull(),
    /** JSON. */
    body: text("body").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.kind] })],
);

/** How many responses to instances in the queue one annotator has given in one lexelt, and their last save: the Progress tab's counters, kept with the derived figures. */
export const annotatorLexeltCounts = sqliteTable(
  "annotator_lexelt_counts",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    lexeltId: integer("lexelt_id").notNull(),
    responses: integer("responses").notNull(),
    /** The latest save among them (ms). */
    lastAt: integer("last_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId, t.lexeltId] }),
    // The Progress page's lexelts: each one's responses summed for the rows it shows, not for every lexelt (#39).
    index("annotator_lexelt_counts_lexelt").on(t.projectId, t.lexeltId),
  ],
);

/**
 * Each person's responses to instances in the queue and their latest save (#39): annotator_lexelt_counts
 * summed per person by triggers on it (migration 0036_annotator_totals), so the Progress page reads a
 * row per person, not one per (person, lexelt) pair.
 */
export const annotatorTotals = sqliteTable(
  "annotator_totals",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    responses: integer("responses").notNull(),
    /** The latest save among them (ms). */
    lastAt: integer("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

/**
 * The annotators whose answers are left out of a project's gold (#39): today the crowd participants
 * the coordinator left out (kept by triggers from participant_exclusions, drizzle/0029) and a model's pseudo-annotators while the model is not counted (from model_samples and model_decisions). The one
 * place the derived figures ask who counts (lib/server/derived/inputs.ts countsInGold), so that a
 * save reads one small table and never the study tables; another reason to leave someone's answers
 * out goes here too.
 */
export const goldLeftOut = sqliteTable(
  "gold_left_out",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Why: "participant" (left out by the coordinator on the Crowd tab) or "model" (a model not counted as an annotator). */
    reason: text("reason").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.reason] })],
);

/** A stored run's file, in slices of about 256 KB (#39): never one row of tens of MB. */
export const runTexts = sqliteTable(
  "run_texts",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => systemRuns.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    text: text("text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * The ids a stored run answers (#39): for each, the first line that answers it (what a run counts:
 * lib/scorers/semeval2007/items.ts), how many lines answer it, and its place among the ids in the
 * order of their first lines (its outcome's place in run_outcomes).
 */
export const runItems = sqliteTable(
  "run_items",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => systemRuns.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    seq: integer("seq").notNull(),
    line: integer("line").notNull(),
    lines: integer("lines").notNull(),
    text: text("text").notNull(),
  },
  // By place: a run's figures page reads a page of its items by their places (lib/server/scoring/run-page.ts).
  (t) => [primaryKey({ columns: [t.runId, t.itemId] }), index("run_items_seq").on(t.runId, t.seq)],
);

/**
 * The outcomes of a stored run's ids, in blocks of 256 by their place (lib/server/derived/run-items.ts
 * packs them): the scoring board adds them up in order, and an id's outcome is written again when
 * its gold line changes.
 */
export const runOutcomes = sqliteTable(
  "run_outcomes",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => systemRuns.id, { onDelete: "cascade" }),
    block: integer("block").notNull(),
    data: blob("data", { mode: "buffer" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.block] })],
);

/**
 * A release of a project's gold standard (lib/server/releases, issue #42): frozen once made. Every
 * file in it was derived from one read transaction; the archive (release_archives) is the .tar.gz
 * as made, with its SHA-256. Triggers refuse any change to a row, and its deletion while its
 * project exists (a project's deletion takes its releases with it).
 */
export const releases = sqliteTable(
  "releases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** A semantic version, e.g. 1.0.0: unique in the project. */
    version: text("version").notNull(),
    /** Who made it, by name as it was then (a release never changes, whatever happens to the account). */
    createdByName: text("created_by_name"),
    /** The project's data version (data_versions) the snapshot was read at. */
    dataVersion: integer("data_version").notNull(),
    /** What the release holds and says, as JSON (lib/server/releases/release-types.ts ReleaseSummary). */
    summary: text("summary").notNull(),
    /** Every file in the archive: path, bytes, SHA-256 (JSON). */
    manifest: text("manifest").notNull(),
    archiveSha256: text("archive_sha256").notNull(),
    archiveBytes: integer("archive_bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("releases_project_version").on(t.projectId, t.version)],
);

/** A release's .tar.gz, in the database so that backups and restores carry it (kept apart so listing releases never reads it). */
export const releaseArchives = sqliteTable("release_archives", {
  releaseId: integer("release_id")
    .primaryKey()
    .references(() => releases.id, { onDelete: "cascade" }),
  projectId: integer("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  archive: blob("archive", { mode: "buffer" }).notNull(),
});

/** The pseudonym each annotator has in a project's releases (A001, A002, …): given once, the same in every release. */
export const releasePseudonyms = sqliteTable(
  "release_pseudonyms",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pseudonym: text("pseudonym").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), uniqueIndex("release_pseudonyms_name").on(t.projectId, t.pseudonym)],
);

/** The coordinator's own answers to the datasheet's questions (motivation, licence, collection, uses, …), copied into each release. */
export const releaseDatasheets = sqliteTable("release_datasheets", {
  projectId: integer("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** JSON: question key → answer text. */
  answers: text("answers").notNull(),
  updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * A model connection of a project (lib/server/models, issue #41): an OpenAI-compatible chat
 * completions server or Ollama's /api/chat, called only at `baseUrl`. The key is never stored in
 * clear: the name of an environment variable (registered from the CLI), or the key encrypted with
 * the server's secret (registered on the page; lib/server/models/keys.ts).
 */
export const models = sqliteTable(
  "models",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["openai", "ollama"] }).notNull(),
    baseUrl: text("base_url").notNull(),
    /** The model's id on the server (e.g. gpt-4o-mini, llama3.1:8b). */
    model: text("model").notNull(),
    apiKeyEnv: text("api_key_env"),
    apiKeyEncrypted: text("api_key_encrypted"),
    maxConcurrency: integer("max_concurrency").notNull().default(4),
    timeoutS: integer("timeout_s").notNull().default(60),
    /** cli: the operator's (any address); page: a coordinator's (private addresses only as LEXGOLD_MODEL_PRIVATE_HOSTS allows). */
    registeredFrom: text("registered_from", { enum: ["cli", "page"] }).notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("models_project_name").on(t.projectId, t.name)],
);

/** A model's samples: sample k's answers are the responses of one pseudo-annotator (users.role "model"). */
export const modelSamples = sqliteTable(
  "model_samples",
  {
    modelId: integer("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    sample: integer("sample").notNull(),
    userId: integer("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.sample] })],
);

/**
 * The prompt template of a project's model calls, versioned: the current one is the highest version
 * (none: the built-in template, version 0). Every call records the version it was built with.
 */
export const modelTemplates = sqliteTable(
  "model_templates",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** annotate: the workspace's answer; candidates: up to ten ranked candidates (model_calls.purpose). */
    purpose: text("purpose", { enum: ["annotate", "candidates"] }).notNull(),
    version: integer("version").notNull(),
    text: text("text").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.purpose, t.version] })],
);

/**
 * Every call to a model, with its outcome: the record (tokens, latency, what failed) and the cache
 * (an ok call's validated answer is reused for the same model, settings, prompt, instance and sample).
 */
export const modelCalls = sqliteTable(
  "model_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    modelId: integer("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    /** annotate: the workspace's answer; candidates: up to ten ranked candidates (oot runs, judgement rounds). */
    purpose: text("purpose", { enum: ["annotate", "candidates"] }).notNull(),
    instanceRef: integer("instance_ref")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    sample: integer("sample").notNull(),
    settingsHash: text("settings_hash").notNull(),
    promptHash: text("prompt_hash").notNull(),
    templateVersion: integer("template_version").notNull(),
    /** JSON: the settings sent (temperature, seed). */
    settings: text("settings").notNull(),
    outcome: text("outcome", { enum: ["ok", "malformed", "schema", "rate-limited", "server-error", "http-error", "timeout", "too-large", "network", "refused", "cancelled"] }).notNull(),
    httpStatus: integer("http_status"),
    /** What went wrong, in one line (never the reply's text). */
    detail: text("detail").notNull().default(""),
    /** JSON: the validated answer (ok only). */
    answer: text("answer"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    latencyMs: integer("latency_ms").notNull(),
    jobId: integer("job_id"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("model_calls_cache").on(t.modelId, t.instanceRef, t.sample, t.promptHash),
    index("model_calls_job").on(t.jobId),
  ],
);

/**
 * A coordinator's decision to count a model as an annotator (its answers join the gold, mwgold and
 * agreement): recorded, never deleted, undoable. The active decision is a row with undone_at null.
 */
export const modelDecisions = sqliteTable(
  "model_decisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    modelId: integer("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    reason: text("reason").notNull().default(""),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }).notNull(),
    undoneBy: integer("undone_by").references(() => users.id, { onDelete: "set null" }),
    undoneAt: integer("undone_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("model_decisions_project").on(t.projectId, t.undoneAt)],
);

/** The Agreement tab's Models section, computed in the background (lib/server/models/measures.ts) and shown with its age. */
export const modelMeasures = sqliteTable("model_measures", {
  projectId: integer("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** The project's data version the figures were computed at. */
  dataVersion: integer("data_version").notNull(),
  /** JSON: the figures. */
  report: text("report").notNull(),
  computeMs: integer("compute_ms").notNull(),
  computedAt: integer("computed_at", { mode: "timestamp_ms" }).notNull(),
});
