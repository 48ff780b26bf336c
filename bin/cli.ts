/**
 * lexgold CLI entry point. Argument parsing and file I/O only: every command
 * calls into lib/. Commands live one module each under bin/commands/.
 */
import { Command, CommanderError } from "commander";
import { commands } from "./commands/index";
import { CliError } from "./commands/util";

const program = new Command();
program
  .name("lexgold")
  .description("Build lexical-substitution gold standards and score systems against them.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

for (const register of commands) register(program);

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has already printed its message (help, or a usage error).
      process.exit(err.exitCode);
    }
    if (err instanceof CliError) {
      process.stderr.write(`lexgold: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`lexgold: ${msg.split("\n")[0]}\n`);
    if (process.env.LEXGOLD_DEBUG) console.error(err);
    process.exit(1);
  }
}

void main();
