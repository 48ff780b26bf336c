/** The upload forms posted without JavaScript, to their routes (test/server/native-forms/native-forms.test.ts). */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../../bench/lib/server";
import { type Answer, follow, one, post, redirects, shows, signInAs, textOf, world } from "../../support/native-world";

const sample = (p: string, name = path.basename(p)) => new File([fs.readFileSync(path.join(ROOT, "samples", p))], name);
const text = (s: string, name: string) => new File([s], name, { type: "text/plain" });
const count = (table: string) => one<{ n: number }>(`select count(*) as n from ${table} where project_id = ?`, world.projectId).n;

/** Wait for the project's newest job of `kind` to end; its state. */
async function jobEnds(kind: string): Promise<string> {
  for (let i = 0; i < 240; i++) {
    const j = one<{ state: string } | undefined>("select state from jobs where project_id = ? and kind = ? order by id desc limit 1", world.projectId, kind);
    if (j && j.state !== "queued" && j.state !== "running") return j.state;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the ${kind} job did not end`);
}

/** The redirect back to `page` with the route's answer kept for it, and that page. */
async function answered(a: Answer, page: RegExp): Promise<Answer> {
  redirects(a, page);
  expect(a.location).toMatch(/[?&]outcome=[0-9a-f]{32}/);
  const p = await follow(a, "coordinator");
  expect(p.status).toBe(200);
  return p;
}

describe("lexelt XML, posted without JavaScript", () => {
  const project = () => `/projects/${world.projectId}`;
  const xml = '<corpus lang="english"><lexelt item="native.n"><instance id="n1"><context>A <head>native</head> speaker.</context></instance></lexelt></corpus>\n';

  it("imports the file as a job the project's page follows", async () => {
    const p = await answered(await post("coordinator", project(), "Import", { set: { file: text(xml, "native.xml") } }), new RegExp(`^/projects/${world.projectId}\\?outcome=`));
    expect(p.html).toContain("native.xml");
    expect(await jobEnds("lexelt-xml")).toBe("done");
    expect(one("select id from lexelts where project_id = ? and item = 'native.n'", world.projectId)).toBeDefined();
  });

  it("refuses an empty upload with the reason, on the page", async () => {
    const before = count("lexelts");
    shows(await answered(await post("coordinator", project(), "Import", { set: { file: text("", "empty.xml") } }), /\?outcome=/), "Choose a lexelt XML file to import.");
    expect(count("lexelts")).toBe(before);
  });

  it("imports nothing for an annotator, who is sent back to their own pages", async () => {
    const before = count("lexelts");
    const res = await fetch(`${world.server.base}/api/projects/${world.projectId}/import`, {
      method: "POST",
      headers: { Cookie: world.cookies.annotator1, Origin: world.server.base, Accept: "text/html", "Sec-Fetch-Mode": "navigate" },
      body: (() => {
        const f = new FormData();
        f.set("file", text(xml.replace(/native/g, "stranger"), "stranger.xml"));
        return f;
      })(),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(count("lexelts")).toBe(before);
    expect(one("select id from lexelts where item = 'stranger.n'")).toBeUndefined();
  });
});

describe("a dataset, posted without JavaScript", () => {
  it("imports a TSAR file as a job the Datasets page follows", async () => {
    const before = count("dataset_instances");
    await answered(await post("coordinator", `/projects/${world.projectId}/datasets`, "Import", { set: { format: "tsar", file: sample("datasets/tsar-small.tsv"), idPrefix: "native" } }), /\/datasets\?outcome=/);
    expect(await jobEnds("dataset")).toBe("done");
    expect(count("dataset_instances")).toBeGreaterThan(before);
  });
});

describe("the Scoring page's uploads, posted without JavaScript", () => {
  const scoring = () => `/projects/${world.projectId}/scoring`;

  it("stores a gold, and the page ranks against it", async () => {
    const res = await fetch(`${world.server.base}/api/projects/${world.projectId}/gold`, { headers: { Cookie: world.cookies.coordinator } });
    const goldText = await res.text();
    expect(res.status).toBe(200);
    const before = count("scoring_golds");
    const p = await answered(await post("coordinator", scoring(), "Store a gold", { set: { gold: text(goldText, "native.gold"), name: "native gold" } }), /\/scoring\?gold=\d+&outcome=/);
    expect(count("scoring_golds")).toBe(before + 1);
    expect(p.html).toContain("native gold");
  });

  it("stores a system run and shows what was read", async () => {
    const before = count("system_runs");
    shows(await answered(await post("coordinator", scoring(), "Upload and score", { set: { file: sample("demo-system.best"), gold: "project" } }), /\/scoring\?outcome=/), "Stored demo-system");
    expect(count("system_runs")).toBe(before + 1);
  });

  it("stores a run with errors only when the box says so", async () => {
    const before = count("system_runs");
    const run = () => text("quiet.a d1 :: silent\nthis line is not a run line\n", "odd.best");
    const asked = await answered(await post("coordinator", scoring(), "Upload and score", { set: { file: run(), gold: "project" } }), /\/scoring\?outcome=/);
    expect(count("system_runs")).toBe(before);
    expect(asked.html).toContain("Store it anyway");
    shows(await answered(await post("coordinator", scoring(), "Upload and score", { set: { file: run(), gold: "project", confirm: "1" } }), /\/scoring\?outcome=/), "Stored odd");
    expect(count("system_runs")).toBe(before + 1);
  });

  it("adds the WordNet baselines as runs", async () => {
    const before = count("system_runs");
    shows(await answered(await post("coordinator", scoring(), "Add the WordNet baselines as runs"), /\/scoring\?outcome=/), "Added the WordNet baseline runs");
    expect(count("system_runs")).toBe(before + 3);
  });

  it("scores SENSEVAL answers against a key and shows scorer2's output", async () => {
    const answers = text("art.n 1 art-1.2\nart.n 2 art-2\n", "answers");
    const key = text("art.n 1 art-1.1\nart.n 2 art-2\nart.n 3 art-1.2\n", "key");
    const p = await answered(await post("coordinator", scoring(), "Score", { set: { answers, key } }), /\/scoring\?outcome=[0-9a-f]+#senseval-heading$/);
    shows(p, 'Fine-grained score for "answers" using key "key"');
  });

  it("ranks TSAR runs on the Ranking page", async () => {
    const p = await answered(
      await post("coordinator", `${scoring()}/ranking`, "Score", { set: { benchmark: "tsar", gold: sample("ranking/tsar-gold.tsv"), runs: sample("ranking/tsar-run-good.tsv") } }),
      /\/scoring\/ranking\?outcome=/,
    );
    shows(p, "TSAR — runs ranked by");
    shows(p, "tsar-run-good.tsv");
  });

  it("keeps each answer for the account that posted: another coordinator of the project sees none of it", async () => {
    const a = await post("coordinator", scoring(), "Upload and score", { set: { gold: "project" } });
    shows(await follow(a, "coordinator"), "Choose a system file to upload.");
    const other = await follow(a, null, await signInAs("native-coord2", "coord2-password-1"));
    expect(other.status).toBe(200);
    expect(textOf(other.html)).not.toContain("Choose a system file to upload.");
  });
});
