import type { Command } from "commander";
import { dbOption, openCliDb, readText, run } from "./util";

/** The server's public address: --origin, else LEXGOLD_PUBLIC_URL or NEXTAUTH_URL, else the quick start's. */
async function originOf(given: string | undefined): Promise<string> {
  if (given) return given;
  const { setting } = await import("../../lib/config");
  return setting("LEXGOLD_PUBLIC_URL") ?? setting("NEXTAUTH_URL") ?? "http://localhost:3000";
}

const ORIGIN_HELP = "the server's public address the link starts with (default: $LEXGOLD_PUBLIC_URL, $NEXTAUTH_URL or http://localhost:3000)";

export function register(program: Command): void {
  const study = program.command("study").description("crowd studies: a link Prolific, Mechanical Turk or anyone joins by (docs/crowdsourcing.md)");
  dbOption(
    study
      .command("create")
      .requiredOption("--project <name>", "the project")
      .requiredOption("--platform <platform>", "prolific, mturk or link")
      .requiredOption("--batch <n>", "instances in each participant's batch")
      .requiredOption("--overlap <k>", "answers each instance gets, from distinct participants")
      .requiredOption("--minutes <m>", "minutes a batch is kept; after that its unanswered items go to others")
      .option("--completion-code <code>", "the code a participant who finishes gets (Prolific: the study's completion code)")
      .option("--screen-out-code <code>", "the code a participant who fails the training gets")
      .option("--consent <file>", "consent text (Markdown) shown before the first item")
      .option("--name <name>", "a name for the study")
      .option("--origin <url>", ORIGIN_HELP)
      .description("open a study on a project and print its link"),
  ).action(async (opts: { project: string; platform: string; batch: string; overlap: string; minutes: string; completionCode?: string; screenOutCode?: string; consent?: string; name?: string; origin?: string; db?: string }) => {
    const consent = opts.consent === undefined ? undefined : readText(opts.consent);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { createStudy, platformLink, studySlotsWritten } = await import("../../lib/server/crowd/studies");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project));
    const s = run(() =>
      createStudy(db, SYSTEM, p.id, {
        platform: opts.platform,
        batchSize: opts.batch,
        overlap: opts.overlap,
        minutes: opts.minutes,
        completionCode: opts.completionCode,
        screenOutCode: opts.screenOutCode,
        consent,
        name: opts.name,
      }),
    );
    // A big study's slots are written in slices: the command returns once it takes participants.
    const instances = await studySlotsWritten(db, s.id);
    const plural = (n: number, w: string) => `${n.toLocaleString("en")} ${w}${n === 1 ? "" : "s"}`;
    console.log(
      `opened study ${s.id}${s.name ? ` "${s.name}"` : ""} on "${p.name}" (${s.platform}): ${plural(instances, "instance")}, batches of ${s.batchSize}, ${plural(s.overlap, "answer")} each, ${s.minutes} minutes a batch`,
    );
    console.log(platformLink(await originOf(opts.origin), s.token, s.platform));
  });
  dbOption(study.command("list").requiredOption("--project <name>", "the project").option("--origin <url>", ORIGIN_HELP).description("list a project's studies with their links and counts")).action(
    async (opts: { project: string; origin?: string; db?: string }) => {
      const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
      const { listStudies, platformLink } = await import("../../lib/server/crowd/studies");
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, opts.project));
      const origin = await originOf(opts.origin);
      for (const s of run(() => listStudies(db, SYSTEM, p.id))) {
        console.log(
          [s.id, s.state, s.platform, s.name || "-", `${s.participants} participants`, `${s.full}/${s.instances} instances full`, `${s.placesTaken}/${s.instances * s.overlap} places taken`, platformLink(origin, s.token, s.platform)].join("\t"),
        );
      }
    },
  );
  const changes = [
    ["pause", "paused", "pause a study: no one new joins, those in go on"],
    ["open", "open", "open a paused or closed study again"],
    ["close", "closed", "close a study: no one joins, no answers are taken"],
  ] as const;
  for (const [verb, state, description] of changes) {
    dbOption(study.command(verb).argument("<id>", "the study's id (study list)").description(description)).action(async (id: string, opts: { db?: string }) => {
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const { setStudyState } = await import("../../lib/server/crowd/studies");
      const db = await openCliDb(opts);
      const s = run(() => setStudyState(db, SYSTEM, id, state));
      console.log(`study ${s.id}${s.name ? ` "${s.name}"` : ""}: ${s.state}`);
    });
  }
}
