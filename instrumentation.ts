/**
 * Runs once in the server process before requests are served (Next's
 * instrumentation hook): under `next dev` and `next start`, where nothing stamps a request with its
 * socket's address (the production server, scripts/serve.mjs, does it itself), gives the process a
 * peer key no request carries, so that no address a client writes is believed
 * (lib/net/trusted-proxy.ts); recovers jobs a
 * killed server left unfinished (lib/server/jobs/jobs.ts), goes on opening the crowd studies it
 * left half-opened, and starts the applier that brings queued derived figures up to date in the
 * background (lib/server/derived/queue.ts). The save is served before Next by scripts/serve.mjs
 * itself (lib/serve).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // scripts/serve.mjs stamps every request with its key; `next dev` and `next start` stamp none: a key no request carries.
  const { setting } = await import("./lib/config");
  if (setting("LEXGOLD_PEER_KEY") === undefined) {
    const { randomBytes } = await import("node:crypto");
    process.env.LEXGOLD_PEER_KEY = randomBytes(24).toString("base64url");
  }
  // Jobs a killed server left running are marked failed; their unpublished rows are deleted in slices.
  const { getDb } = await import("./lib/db");
  const { recoverJobs } = await import("./lib/server/jobs/jobs");
  void recoverJobs(getDb()).catch((e) => console.error("lexgold: cleaning up unfinished jobs failed:", e));
  // Crowd studies a stopped server left half-opened get the rest of their slots (lib/server/crowd/studies.ts).
  const { resumeOpeningStudies } = await import("./lib/server/crowd/studies");
  resumeOpeningStudies(getDb());
  // Derived figures (#39): this process's connection reads what is kept, catching up a bounded amount per page;
  // the applier works through the rest in the derivation process (after an import, a lemma decision, an upgrade).
  const { markServed, startApplier } = await import("./lib/server/derived/queue");
  const { applyPending } = await import("./lib/server/jobs/derive-pool");
  markServed(getDb());
  startApplier(getDb, applyPending);
  // Runs a stopped server left being stored or deleted are taken away, a slice at a time (lib/server/scoring/runs.ts).
  const { discardUnfinishedRuns } = await import("./lib/server/scoring/runs");
  void discardUnfinishedRuns(getDb()).catch((e) => console.error("lexgold: cleaning up unfinished runs failed:", e));
  // The lemmatiser's data, read now rather than by the first save of an instance holding an accepted lemma decision.
  if (setting("LEXGOLD_WARM")) {
    const { wordnet } = await import("./lib/wordnet/load");
    wordnet();
  }
}
