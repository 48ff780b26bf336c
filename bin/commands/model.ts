import type { Command } from "commander";
import { CliError, dbOption, openCliDb, run } from "./util";

/** Run an async data-access call, turning its errors into one-line CLI errors. */
async function runAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof Error && "status" in e) throw new CliError(e.message);
    throw e;
  }
}

async function projectOf(opts: { project: string; db?: string }) {
  const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
  const db = await openCliDb(opts);
  return { db, SYSTEM, project: run(() => findProjectByName(db, SYSTEM, opts.project)) };
}

export function register(program: Command): void {
  const model = program.command("model").description("models in the loop: connections, a model's answers beside people's, their measures (docs/models.md)");
  dbOption(
    model
      .command("add")
      .argument("<name>", "a name for the model in this project (letters, digits, . _ -)")
      .requiredOption("--project <name>", "the project")
      .requiredOption("--kind <kind>", "openai (OpenAI-compatible chat completions: OpenAI, vLLM, llama.cpp, LM Studio, Ollama's /v1) or ollama (Ollama's /api/chat)")
      .requiredOption("--base-url <url>", "the server's base URL, e.g. http://127.0.0.1:11434 (ollama) or http://127.0.0.1:8000/v1 (openai)")
      .requiredOption("--model <id>", "the model's id on its server, e.g. llama3.1:8b or gpt-4o-mini")
      .option("--api-key-env <var>", "the environment variable that holds the key (read where a call is made; never stored)")
      .option("--max-concurrency <n>", "calls at once, at most (1-32)", "4")
      .option("--timeout <s>", "seconds one call may take (1-600)", "60")
      .description("register a model for a project"),
  ).action(async (name: string, opts: { project: string; kind: string; baseUrl: string; model: string; apiKeyEnv?: string; maxConcurrency: string; timeout: string; db?: string }) => {
    const { db, SYSTEM, project } = await projectOf(opts);
    const { addModel } = await import("../../lib/server/models/connections");
    const m = await runAsync(() =>
      addModel(db, SYSTEM, project.id, { name, kind: opts.kind, baseUrl: opts.baseUrl, model: opts.model, apiKeyEnv: opts.apiKeyEnv, maxConcurrency: opts.maxConcurrency, timeoutS: opts.timeout }),
    );
    console.log(`registered model "${m.name}" in "${project.name}": ${m.kind} ${m.model} at ${m.baseUrl}${m.key.how === "env" ? ` (key from $${m.key.name})` : ""}, ${m.maxConcurrency} at once, ${m.timeoutS} s a call`);
  });
  dbOption(model.command("list").requiredOption("--project <name>", "the project").description("list a project's models")).action(async (opts: { project: string; db?: string }) => {
    const { db, SYSTEM, project } = await projectOf(opts);
    const { listModels } = await import("../../lib/server/models/connections");
    for (const m of run(() => listModels(db, SYSTEM, project.id))) {
      const key = m.key.how === "env" ? `key $${m.key.name}` : m.key.how === "stored" ? "key stored encrypted" : "no key";
      console.log([m.name, m.kind, m.model, m.baseUrl, key, `${m.maxConcurrency} at once`, `${m.timeoutS} s`, `${m.samples} samples`, `${m.answers} answers`, `${m.calls} calls`, m.counted ? "counted as an annotator" : "not counted"].join("\t"));
    }
  });
  dbOption(model.command("remove").argument("<name>", "the model").requiredOption("--project <name>", "the project").description("remove a model with its calls and answers")).action(
    async (name: string, opts: { project: string; db?: string }) => {
      const { db, SYSTEM, project } = await projectOf(opts);
      const { removeModel } = await import("../../lib/server/models/connections");
      const r = run(() => removeModel(db, SYSTEM, project.id, name));
      console.log(`removed model "${r.name}" from "${project.name}" with its ${r.answers} answers and ${r.calls} calls`);
    },
  );
  dbOption(
    model
      .command("annotate")
      .requiredOption("--project <name>", "the project")
      .requiredOption("--model <name>", "the model (model list)")
      .option("--samples <k>", "answers per instance, each a pseudo-annotator of its own (1-10)", "1")
      .option("--temperature <t>", "sampling temperature (0-2)", "0")
      .option("--instances <n>", "all, or the first N instances of the queue", "all")
      .option("--candidates", "ask for up to ten ranked candidates instead (oot runs, judgement rounds)")
      .description("run a model over a project: its answers beside the people's, measured on the Agreement tab (Ctrl-C stops it; run again to go on)"),
  ).action(async (opts: { project: string; model: string; samples: string; temperature: string; instances: string; candidates?: boolean; db?: string }) => {
    const { db, SYSTEM, project } = await projectOf(opts);
    const { modelRunInput } = await import("../../lib/server/models/run-input");
    const input = run(() => modelRunInput(db, SYSTEM, project.id, { model: opts.model, samples: opts.samples, temperature: opts.temperature, instances: opts.instances, purpose: opts.candidates ? "candidates" : "annotate" }));
    const { jobs } = await import("../../db/schema");
    const { eq } = await import("drizzle-orm");
    const { runJobOn } = await import("../../lib/server/jobs/jobs-run");
    const job = db.insert(jobs).values({ projectId: project.id, kind: "model-run", input: JSON.stringify(input), message: "Starting…" }).returning({ id: jobs.id }).get();
    const row = () => db.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
    // Ctrl-C: the run stops its calls in flight and keeps what was answered.
    const stop = () => db.update(jobs).set({ cancelRequested: true }).where(eq(jobs.id, job.id)).run();
    process.once("SIGINT", stop);
    const tty = process.stderr.isTTY;
    const tick = setInterval(() => {
      const r = row();
      if (tty && r.total > 0) process.stderr.write(`\r${r.message}   `);
    }, 1000);
    try {
      await runJobOn(db.$client, job.id);
    } finally {
      clearInterval(tick);
      process.off("SIGINT", stop);
      if (tty) process.stderr.write("\n");
    }
    const r = row();
    if (r.state === "cancelled") throw new CliError(r.message, 130);
    if (r.state !== "done") throw new CliError(r.message);
    const rep = JSON.parse(r.report ?? "{}") as import("../../lib/server/models/run").RunReport;
    for (const f of rep.failures.slice(0, 20)) process.stderr.write(`${f.lexelt} ${f.instanceId}${rep.samples > 1 ? ` (sample ${f.sample})` : ""}: ${f.outcome}: ${f.detail}\n`);
    if (rep.failed > 20) process.stderr.write(`… and ${rep.failed - 20} more failures\n`);
    console.log(
      `${rep.model}: ${rep.answered} answered (${rep.cached} from the cache), ${rep.skipped} answered before, ${rep.failed} failed, of ${rep.total}; ${rep.tokensIn} tokens in, ${rep.tokensOut} out; template version ${rep.templateVersion}`,
    );
    if (input.purpose === "annotate") {
      const { computeModelMeasures, storeModelMeasures } = await import("../../lib/server/models/measures");
      const { dataVersion } = await import("../../lib/server/kernel/data-version");
      const version = dataVersion(db, project.id);
      const t0 = performance.now();
      const m = computeModelMeasures(db, project.id);
      storeModelMeasures(db, project.id, version, m, performance.now() - t0);
      const f = m.models.find((x) => x.name === rep.model);
      const pct = (v: number | null | undefined) => (v == null ? "–" : (100 * v).toFixed(1) + "%");
      if (f) console.log(`agreement with the people: ${pct(f.withPool.value)} pairwise (people: ${pct(m.people.pairwise)}), ${pct(f.withMode.value)} with their mode (people: ${pct(m.people.modeAgreement)})`);
    }
  });
  dbOption(
    model
      .command("export")
      .requiredOption("--project <name>", "the project")
      .requiredOption("--model <name>", "the model")
      .requiredOption("-t, --type <type>", "best (its first answer) or oot (its ranked candidates: annotate --candidates first)")
      .option("--sample <i>", "which sample's answers (best)", "1")
      .description("write a model's answers as a system file in the task's format (score it with lexgold score)"),
  ).action(async (opts: { project: string; model: string; type: string; sample: string; db?: string }) => {
    const { db, SYSTEM, project } = await projectOf(opts);
    const { modelSystemFile } = await import("../../lib/server/models/exports");
    const f = run(() => modelSystemFile(db, SYSTEM, project.id, opts.model, opts.type, opts.sample));
    process.stdout.write(f.text);
    if (f.dropped > 0) process.stderr.write(`${f.dropped} guesses left out: a ; , a tab or a line break in them cannot be written in a ${opts.type} file\n`);
  });
  for (const [verb, counted, description] of [
    ["count", true, "count a model as an annotator: its answers join the gold, mwgold and agreement (logged, undoable)"],
    ["uncount", false, "stop counting a model as an annotator"],
  ] as const) {
    dbOption(model.command(verb).argument("<name>", "the model").requiredOption("--project <name>", "the project").option("--reason <text>", "why, for the review log").description(description)).action(
      async (name: string, opts: { project: string; reason?: string; db?: string }) => {
        const { db, SYSTEM, project } = await projectOf(opts);
        const { setModelCounted } = await import("../../lib/server/models/decisions");
        const r = run(() => setModelCounted(db, SYSTEM, project.id, name, counted, opts.reason));
        console.log(`"${r.name}" ${r.counted ? "counts as an annotator now: its answers are in the gold" : "no longer counts as an annotator"}`);
      },
    );
  }
  dbOption(model.command("discard").argument("<name>", "the model").requiredOption("--project <name>", "the project").description("delete a model's answers (its calls stay cached), to run it again")).action(
    async (name: string, opts: { project: string; db?: string }) => {
      const { db, SYSTEM, project } = await projectOf(opts);
      const { discardModelAnswers } = await import("../../lib/server/models/decisions");
      const r = run(() => discardModelAnswers(db, SYSTEM, project.id, name));
      console.log(`discarded the answers of "${r.name}" (${r.samples} samples)`);
    },
  );
}

