/**
 * The layers of lexgold, checked by `npm run check:bounds` (scripts/test-all.sh runs it
 * right after the type check). Data flows one way:
 *
 *   app/ ──> lib/server/ ──> lib/lexsub/, lib/scorers/      (pure: no fs, no db, no next)
 *     │          │
 *     └─> lib/auth/, lib/db.ts ──> db/                      (the only place that opens SQLite)
 *   bin/ ──> lib/server/, lib/lexsub/, lib/scorers/
 *
 * app/ reaches a feature of lib/server (kernel/, people/, annotate/, gold/, ...) only through its
 * index.ts; a feature reaches another through its index.ts or its actor-free.ts (kernel/ directly),
 * with no exceptions; lib/auth/ uses only lib/server/kernel/ and lib/server/people/ (and lib/server/crowd's
 * index, for the study link's sign-in).
 *
 * Tests (test/, e2e/) and benchmarks (bench/) may reach into any layer, but not into a cycle.
 */

/** The pure folders: the domain and the scorers. */
const PURE = "^lib/(lexsub|scorers)/";
/**
 * The application side: everything outside the pure folders that may do I/O or know about
 * requests: app/, bin/, db/, scripts/ and every other part of lib/ (server, auth, db.ts, net,
 * wordnet, and whatever joins them, such as a config module).
 */
const APP_SIDE = ["^(app|bin|db|scripts)/", "^lib/(?!(lexsub|scorers)/)"];
/** Exempt from the layer rules (not from the cycle rules). */
const TESTS = "^(test|e2e|bench)/";

const FOLDER_CYCLE = {
  name: "no-folder-cycle",
  comment: "No two folders import each other, directly or through a third.",
  severity: "error",
  scope: "folder",
  from: {},
  to: { circular: true },
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    /* ---------------------------------------------------------------- cycles */
    {
      name: "no-module-cycle",
      comment: "No module imports itself through others (tests and bench included).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    FOLDER_CYCLE,

    /* ---------------------------------------------------------- pure folders */
    {
      name: "pure-not-to-app-side",
      comment:
        "lib/lexsub and the scorers are the pure domain: they import nothing of the application " +
        "(app/, bin/, db/, scripts/, lib/server, lib/auth, lib/db.ts, lib/net, lib/wordnet, ...).",
      severity: "error",
      from: { path: PURE },
      to: { path: APP_SIDE },
    },
    {
      name: "pure-no-io",
      comment:
        "lib/lexsub and the scorers take strings and return records: no file system, no database, " +
        "no Next, no React.",
      severity: "error",
      from: { path: PURE },
      to: {
        path: [
          "^(node:)?fs(/|$)",
          "^(node:)?(child_process|worker_threads|net|http|https|cluster)$",
          "(^|/)node_modules/(better-sqlite3|drizzle-orm|next|next-auth|react|react-dom|server-only)/",
        ],
      },
    },

    {
      name: "lexsub-not-to-scorers",
      comment:
        "The scorers build on the domain (formats, normalisation), never the other way round: " +
        "lib/lexsub imports nothing from lib/scorers.",
      severity: "error",
      from: { path: "^lib/lexsub/" },
      to: { path: "^lib/scorers/" },
    },

    /* ----------------------------------------------------------- the layers */
    {
      name: "nothing-to-app",
      comment: "app/ is the top: only app/ imports app/.",
      severity: "error",
      from: { pathNot: ["^app/", TESTS] },
      to: { path: "^app/" },
    },
    {
      name: "nothing-to-bin",
      comment: "bin/ is a top too (the command line): only bin/ imports bin/.",
      severity: "error",
      from: { pathNot: ["^bin/", TESTS] },
      to: { path: "^bin/" },
    },
    {
      name: "app-not-to-db",
      comment:
        "app/ is thin: no SQL, no drizzle, no db/ internals. It gets the handle from lib/db.ts and " +
        "passes it to lib/server.",
      severity: "error",
      from: { path: "^app/" },
      to: {
        path: ["^db/", "(^|/)node_modules/(better-sqlite3|drizzle-orm)/"],
      },
    },
    {
      name: "db-not-up",
      comment: "db/ (schema, client, migrations) knows nothing of the layers above it (its settings come from lib/config, a leaf).",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(app|lib|bin|scripts)/", pathNot: "^lib/config/" },
    },
    {
      name: "config-is-a-leaf",
      comment:
        "lib/config (the environment's settings) imports nothing of lexgold, so every layer, db/ " +
        "included, may read its settings there.",
      severity: "error",
      from: { path: "^lib/config/" },
      to: { path: "^(app|lib|db|bin|scripts)/", pathNot: "^lib/config/" },
    },
    {
      name: "server-not-to-auth-glue",
      comment:
        "lib/auth is the next-auth glue on top of lib/server (kernel, people); lib/server does not " +
        "import it back.",
      severity: "error",
      from: { path: "^lib/server/" },
      to: { path: "^lib/auth/" },
    },
    {
      name: "app-to-server-through-feature-index",
      comment:
        "lib/server is split by feature (lib/server/<feature>/index.ts exports the functions that " +
        "take the actor, and the few that do not say why); app/ imports a feature only through its " +
        "index, never a module that takes `db` and no actor. bin/ (the operator's CLI) may.",
      severity: "error",
      from: { path: "^app/" },
      to: {
        path: "^lib/server/",
        pathNot: "^lib/server/[^/]+/index\\.tsx?$",
      },
    },
    {
      name: "feature-to-feature-through-index",
      comment:
        "A feature of lib/server reaches another feature only through its index.ts (#43), or its " +
        "actor-free.ts where it has one (what it offers other features and the derivations without an " +
        "actor, out of app/'s reach: lib/server/derived/actor-free.ts); kernel/, what every feature is " +
        "built on, is reached directly. No exceptions: job and derivation kinds come from registries each " +
        "feature fills (its job-kinds.ts and derive-kinds.ts, exported by its index).",
      severity: "error",
      from: { path: "^lib/server/([^/]+)/" },
      to: {
        path: "^lib/server/[^/]+/",
        pathNot: ["^lib/server/$1/", "^lib/server/[^/]+/(index|actor-free)\\.ts$", "^lib/server/kernel/"],
      },
    },
    {
      name: "auth-only-kernel-and-people",
      comment:
        "lib/auth (the next-auth glue) builds on lib/server's kernel and people only (the actor, " +
        "sign-in, accounts, the session secret, the request limits), and on the crowd studies' " +
        "index for the study link's sign-in (joinStudy).",
      severity: "error",
      from: { path: "^lib/auth/" },
      to: {
        path: "^lib/server/",
        pathNot: ["^lib/server/(kernel|people)/", "^lib/server/crowd/index\\.ts$"],
      },
    },

    /* ------------------------------------------------------------- hygiene */
    {
      name: "not-to-unresolvable",
      comment: "An import that resolves to nothing is a typo or a missing dependency.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "not-to-dev-dep",
      comment:
        "What the running app and the CLI load must be a production dependency (tests, bench, " +
        "e2e and the config files may use dev dependencies).",
      severity: "error",
      from: {
        path: "^(app|lib|db|bin)/",
      },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    exclude: { path: ["^(\\.next[^/]*|dist-cli|test-results|playwright-report|data)/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
