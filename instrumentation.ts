/**
 * Runs once in the server process before requests are served (Next's
 * instrumentation hook): stamps every request with its socket address so the
 * sign-in throttle and origin checks cannot be fooled by forwarded headers
 * (lib/net/trusted-proxy.ts; only under `next dev` and `next start`: the production server,
 * scripts/serve.mjs, stamps each request itself and patches nothing), recovers jobs a
 * killed server left unfinished (lib/server/jobs/jobs.ts) and goes on opening the crowd studies it
 * left half-opened. The save is served before Next by scripts/serve.mjs itself (lib/serve).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // scripts/serve.mjs stamps every request itself (and names its processes' count); `next dev` and `next start` do not.
  const { setting } = await import("./lib/config");
  if (setting("LEXGOLD_SERVER_PROCESSES") === undefined) {
    const { installPeerHeader } = await import("./lib/net/trusted-proxy");
    installPeerHeader();
  }
  // Jobs a killed server left running are marked failed; their unpublished rows are deleted in slices.
  const { getDb } = await import("./lib/db");
  const { recoverJobs } = await import("./lib/server/jobs/jobs");
  void recoverJobs(getDb()).catch((e) => console.error("lexgold: cleaning up unfinished jobs failed:", e));
  // Crowd studies a stopped server left half-opened get the rest of their slots (lib/server/crowd/studies.ts).
  const { resumeOpeningStudies } = await import("./lib/server/crowd/studies");
  resumeOpeningStudies(getDb());
}
