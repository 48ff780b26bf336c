import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { CpaOntology, CpaTask } from "../../lib/scorers/cpa";
import { CliError, printDiagnostics, readText } from "./util";

const ONTOLOGY_FILE = "CPA-ontology.json";

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The folder holding a subtask's files: DIR/taskN when it exists (the task's
 * gold layout), else DIR itself (a run folder holding all three kinds).
 */
function taskFolder(dir: string, task: CpaTask): string {
  if (!isDir(dir)) throw new CliError(`cannot read ${dir}: not a folder`);
  const sub = path.join(dir, `task${task}`);
  return isDir(sub) ? sub : dir;
}

/** {file name: text} for the files of one folder with the task's extension. */
function readFolder(dir: string, ext: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (name.endsWith(ext) && fs.statSync(p).isFile()) out[name] = readText(p);
  }
  return out;
}

/** --ontology, else CPA-ontology.json in the gold folder or the folder above it. */
function findOntology(explicit: string | undefined, goldDir: string): string | null {
  if (explicit) return explicit;
  for (const dir of [goldDir, path.dirname(path.resolve(goldDir))]) {
    const p = path.join(dir, ONTOLOGY_FILE);
    if (fs.existsSync(p)) return path.relative(process.cwd(), p) || p;
  }
  return null;
}

export function register(program: Command): void {
  program
    .command("cpa")
    .description("score a SemEval-2015 Task 15 (CPA) run: 1 parsing, 2 clustering, 3 pattern acquisition")
    .argument("<task>", "subtask: 1, 2 or 3")
    .argument("<run-dir>", "folder of the run's per-verb files (or its taskN/ subfolder)")
    .argument("<gold-dir>", "gold folder, holding task1/ task2/ task3/ (or the files themselves)")
    .option("--ontology <file>", `CPA ontology for Task 3's partial credit (default: ${ONTOLOGY_FILE} in or above the gold folder)`)
    .option("--task-scorer", "reproduce the task scorer's accounting where it differs (Task 1; Task 3 without partial credit)")
    .option("--json", "print the figures as JSON")
    .action(async (taskArg: string, runDir: string, goldDir: string, opts: { ontology?: string; taskScorer?: boolean; json?: boolean }) => {
      if (!["1", "2", "3"].includes(taskArg)) throw new CliError(`the subtask is 1, 2 or 3, not "${taskArg}"`);
      const { CPA_EXTENSION, formatCpaResult, parseCpaOntology, scoreCpa } = await import("../../lib/scorers/cpa");
      const { hasErrors } = await import("../../lib/lexsub/diagnostics");
      const task = Number(taskArg) as CpaTask;
      const ext = CPA_EXTENSION[task];
      const runFolder = taskFolder(runDir, task);
      const goldFolder = taskFolder(goldDir, task);
      let ontology: CpaOntology | null = null;
      let ontologyPath: string | null = null;
      if (task === 3) {
        ontologyPath = findOntology(opts.ontology, goldDir);
        if (ontologyPath) ontology = parseCpaOntology(readText(ontologyPath), ontologyPath);
      }
      const result = scoreCpa(task, readFolder(runFolder, ext), readFolder(goldFolder, ext), {
        taskScorer: opts.taskScorer,
        ontology,
        runName: runFolder,
        goldName: goldFolder,
      });
      const diagnostics = [...(ontology?.diagnostics ?? []), ...result.diagnostics];
      printDiagnostics(diagnostics);
      if (opts.json) {
        const { diagnostics: _d, ...figures } = result;
        process.stdout.write(JSON.stringify({ run: runFolder, gold: goldFolder, ontology: ontologyPath, ...figures }, null, 2) + "\n");
      } else {
        process.stdout.write(formatCpaResult(result, { run: runFolder, gold: goldFolder, ontology: ontologyPath }));
      }
      if (hasErrors(diagnostics)) process.exitCode = 1;
    });
}
