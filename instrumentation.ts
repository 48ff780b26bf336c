/**
 * Runs once in the server process before requests are served (Next's
 * instrumentation hook): stamps every request with its socket address so the
 * sign-in throttle and origin checks cannot be fooled by forwarded headers
 * (lib/net/trusted-proxy.ts), refuses saves past the request limit and serves the
 * others before Next runs (lib/auth/save-gate.ts, lib/server/annotate/save-request.ts), recovers jobs a killed server left unfinished
 * (lib/server/jobs/jobs.ts), goes on opening the crowd studies it left half-opened, and starts the applier
 * that brings queued derived figures up to date in the background (lib/server/derived/queue.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerHeader } = await import("./lib/net/trusted-proxy");
  installPeerHeader();
  // Saves past their account's or address's bucket are refused before Next runs (lib/auth/save-gate.ts),
  // and the others served there too (lib/server/annotate/save-request.ts), unless LEXGOLD_SAVE_BEFORE_NEXT=0.
  const { installSaveGate } = await import("./lib/auth/save-gate");
  const { setting } = await import("./lib/config");
  if (setting("LEXGOLD_SAVE_BEFORE_NEXT")) {
    const { serveSave } = await import("./lib/server/annotate");
    const { getDb } = await import("./lib/db");
    const { EVERY_ANSWER, NOT_FRAMED } = await import("./lib/net/security-headers");
    const headers = { ...EVERY_ANSWER, ...NOT_FRAMED };
    installSaveGate({ serve: (req, res, actor) => serveSave(req, res, { db: getDb, actor, headers }) });
  } else installSaveGate();
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
