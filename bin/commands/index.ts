/**
 * Every CLI command, one module each. Add a command by adding its register
 * function here. A command module imports only commander and ./util at its
 * top; what its action needs (lib/server, db/, lib/scorers, …) it loads
 * inside the action with `await import(…)`, so `lexgold --help` and the other
 * commands do not load it (test/cli/bundle.test.ts checks this for the
 * database layer, Next, zod and the other heavy packages; score.ts imports
 * the pure scorer statically, which --help can afford).
 */
import type { Register } from "./util";
import { register as project } from "./project";
import { register as importXml } from "./import";
import { register as user } from "./user";
import { register as demo } from "./demo";
import { register as responses } from "./responses";
import { register as senseval } from "./senseval";
import { register as cpa } from "./cpa";
import { register as lfi } from "./lfi";
import { register as rank } from "./rank";
import { register as score } from "./score";
import { register as backup } from "./backup";
import { register as gold } from "./gold";
import { register as datasets } from "./datasets";
import { register as init } from "./init";
import { register as start } from "./start";
import { register as doctor } from "./doctor";
import { register as baseline } from "./baseline";
import { register as study } from "./study";
import { register as derive } from "./derive";
import { register as release } from "./release";
import { register as model } from "./model";

export const commands: Register[] = [
  project,
  importXml,
  user,
  demo,
  responses,
  senseval,
  cpa,
  lfi,
  rank,
  score,
  backup,
  gold,
  // After gold: adds coinco/swords/tsar to its export command.
  datasets,
  init,
  start,
  doctor,
  baseline,
  study,
  derive,
  release,
  model,
];
