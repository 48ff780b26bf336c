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
 * index.ts; lib/auth/ uses only lib/server/kernel/ and lib/server/people/ (and lib/server/crowd's
 * index, for the study link's sign-in).
 *
 * Tests (test/, e2e/) and benchmarks (bench/) may reach into any layer, but not into a cycle.
 *
 * The scorers are moving into lib/scorers/ from lib/lexsub/score/, lib/lexsub/rank/ and
 * lib/scoring/; the rules name both homes so they hold before, during and after the move.
 *
 * KNOWN lists the violations that the ongoing #28 moves remove, each by name; delete an entry
 * once its cause is gone (depcruise then reports nothing for it; a stale entry is harmless but
 * should go).
 */

/** The pure folders: the domain and every home of a scorer. */
const PURE = "^lib/(lexsub|scorers|scoring)/";
/**
 * The application side: everything outside the pure folders that may do I/O or know about
 * requests: app/, bin/, db/, scripts/ and every other part of lib/ (server, auth, db.ts, net,
 * wordnet, and whatever joins them, such as a config module).
 */
const APP_SIDE = ["^(app|bin|db|scripts)/", "^lib/(?!(lexsub|scorers|scoring)/)"];
/** Exempt from the layer rules (not from the cycle rules). */
const TESTS = "^(test|e2e|bench)/";

/**
 * Known violations, each named, with the reason it is still there (being removed by the #28 move).
 * A dependency entry is one import (from file, to file); a folder-cycle entry lists the folder
 * edges (from folder, to folder) of one cycle. Delete an entry once its cause is gone: the check
 * then holds that edge again.
 */
const KNOWN = [
  {
    name: "scorers-in-three-homes",
    why:
      "lib/lexsub/formats and lib/lexsub/agreement take the diagnostics type from lib/scoring, " +
      "formats/system.ts takes the repairs from lib/lexsub/score, and lib/scoring/files.ts reads " +
      "score/ and formats/: one folder cycle through lib/lexsub, lib/lexsub/formats, " +
      "lib/lexsub/score and lib/scoring (being removed by the #28 move to lib/scorers/).",
    rule: "no-folder-cycle",
    edges: [
      ["lib/lexsub", "lib/scoring"],
      ["lib/lexsub/formats", "lib/lexsub"],
      ["lib/lexsub/formats", "lib/lexsub/score"],
      ["lib/lexsub/formats", "lib/scoring"],
      ["lib/lexsub/score", "lib/lexsub"],
      ["lib/lexsub/score", "lib/lexsub/formats"],
      ["lib/lexsub/score", "lib/scoring"],
      ["lib/scoring", "lib/lexsub/formats"],
      ["lib/scoring", "lib/lexsub/score"],
    ],
  },
  {
    name: "scoring-files-reads-disk",
    why:
      "lib/scoring/files.ts reads gold and system files from disk for the CLI; it belongs in " +
      "bin/ (being removed by the #28 move to lib/scorers/).",
    rule: "pure-no-io",
    edges: [["lib/scoring/files.ts", "fs"]],
  },
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const exactly = (names) => `^(${names.map(escape).join("|")})$`;

/** Module-level entries: dependency-cruiser's own baseline, reported as "known violations". */
const knownViolations = KNOWN.filter((k) => k.rule !== "no-folder-cycle").flatMap((k) =>
  k.edges.map(([from, to]) => ({ type: "dependency", from, to, rule: { name: k.rule, severity: "error" } })),
);

/**
 * Folder cycles: dependency-cruiser's baseline does not cover folder-scope rules, so the rule is
 * split: folders with a known edge get a rule that skips exactly those targets; every other
 * folder gets the plain rule.
 */
const folderExceptions = new Map();
for (const k of KNOWN.filter((k) => k.rule === "no-folder-cycle")) {
  for (const [from, to] of k.edges) folderExceptions.set(from, [...(folderExceptions.get(from) ?? []), to]);
}
const FOLDER_CYCLE = {
  name: "no-folder-cycle",
  comment: "No two folders import each other, directly or through a third.",
  severity: "error",
  scope: "folder",
};
const folderCycleRules = [
  { ...FOLDER_CYCLE, from: { pathNot: exactly([...folderExceptions.keys()]) }, to: { circular: true } },
  ...[...folderExceptions].map(([from, tos]) => ({
    ...FOLDER_CYCLE,
    comment: `${FOLDER_CYCLE.comment} Known, not yet removed: ${from} -> ${tos.join(", ")} (see KNOWN).`,
    from: { path: exactly([from]) },
    to: { circular: true, pathNot: exactly(tos) },
  })),
];

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
    ...folderCycleRules,

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
        "lib/lexsub imports nothing from lib/scorers. (The old homes lib/scoring and " +
        "lib/lexsub/score, /rank are held by the folder-cycle rule until they are gone.)",
      severity: "error",
      from: { path: "^lib/lexsub/", pathNot: "^lib/lexsub/(score|rank)/" },
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
    knownViolations,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
