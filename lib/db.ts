/** The app's database handle (re-exported so app/ never imports db/ internals directly). */
import "server-only";
export { getDb, type Db } from "../db/client";
