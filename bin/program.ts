/**
 * The CLI's commands, parsed by commander: every command is one module under
 * bin/commands/ (registered in commands/index.ts). Loaded by the entry
 * (bin/cli.ts) unless the plain score path has already answered.
 */
import { Command, CommanderError } from "commander";
import { commands } from "./commands/index";

export { CommanderError };

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("lexgold")
    .description("Build lexical-substitution gold standards and score systems against them.")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  for (const register of commands) register(program);
  return program;
}
