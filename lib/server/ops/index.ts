/**
 * lib/server/ops: Operating lexgold: backups, lexgold init/start (deploy.ts), the demo, the health check and the load benchmark's bare route.
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
// Without an actor: the load benchmark's bare route: touches no lexgold data, 404 unless the server was started for it.
export { benchBareEnabled } from "./bench-bare";
export { benchBareTransaction } from "./bench-bare";
// Without an actor: the health check reads no table (select 1), so anyone may ask it.
export { databaseAnswers } from "./health";
