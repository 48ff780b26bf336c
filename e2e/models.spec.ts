/**
 * Models in the loop (issue #41), against a model server on loopback (test/support/model-server.ts; the
 * e2e server allows 127.0.0.1 for models registered on the page, e2e/serve.sh): a coordinator registers a
 * model, runs it over a project, sees it on the Agreement and Scoring tabs, uses it as a judgement round's
 * source; an annotator works with its suggestions in both modes from the keyboard.
 */
import path from "node:path";
import { type Browser, type Page, expect, test } from "@playwright/test";
import { type ModelServer, startModelServer } from "../test/support/model-server";
import { signIn } from "./helpers";

const demoXml = path.resolve(import.meta.dirname, "../samples/demo.xml");
let server: ModelServer;

test.beforeAll(async () => {
  server = await startModelServer({
    answers: {
      quiet: { answer: "substitutes", substitutes: ["silent", "hushed", "still"], multiword: null },
      quieter: { answer: "substitutes", substitutes: ["softer", "calmer"], multiword: null },
    },
    candidates: { quiet: ["silent", "hushed", "still", "calm", "peaceful"] },
  });
});
test.afterAll(() => server.close());

const tsv = (body: string) => ({ name: "r.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(`annotator\tlexelt\tinstance\tanswer\tmultiword\n${body}`) });

/** A new annotator of the project on the Team tab: their generated password. */
async function newAnnotator(page: Page, name: string): Promise<string> {
  await page.getByLabel("User name").fill(name);
  await page.getByRole("button", { name: "Create and add" }).click();
  const status = page.getByRole("status").filter({ hasText: `Initial password for ${name}` });
  await expect(status).toBeVisible();
  return (await status.locator("code").textContent())!.trim();
}

async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

async function annotatorPage(browser: Browser, name: string, password: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await ctx.newPage();
  await signIn(page, name, password);
  return page;
}

test("a coordinator runs a model over a project, measures it, scores it, judges its candidates; an annotator works with its suggestions", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByLabel("Project name").fill(`models ${stamp}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`models ${stamp}`);
  const id = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await page.getByLabel("Lexelt XML file").setInputFiles(demoXml);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/40 instances in 9 lexelts/);

  // Two annotators' answers (imported), and a third who will work with the model's suggestions.
  await page.goto(`/projects/${id}/members`);
  const [a, b, c] = [`ma-${stamp}`, `mb-${stamp}`, `mc-${stamp}`];
  await newAnnotator(page, a);
  await newAnnotator(page, b);
  const cPassword = await newAnnotator(page, c);
  const lines = [
    `${a}\tquiet.a\td1\tsilent;calm\t`,
    `${b}\tquiet.a\td1\tsilent;still\t`,
    `${a}\tquiet.a\td2\treserved;shy\t`,
    `${b}\tquiet.a\td2\tshy\t`,
    `${a}\tquiet.a\td3\tcalm;slow\t`,
    `${b}\tquiet.a\td3\tslow;uneventful\t`,
  ];
  await page.getByLabel("Responses TSV file").setInputFiles(tsv(lines.join("\n") + "\n"));
  await page.getByRole("button", { name: "Preview import" }).click();
  await page.getByRole("region", { name: "Import preview" }).getByRole("button", { name: "Import 6 changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "added 6" })).toBeVisible();

  // Register the model (the key is typed, stored encrypted, never shown again).
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Models" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Models");
  const form = page.getByRole("form", { name: "Register a model" });
  await form.getByLabel("Name").fill("loop");
  await form.getByLabel("Kind").selectOption("openai");
  await form.getByLabel("Base URL").fill(server.openaiBase);
  await form.getByLabel("Model id").fill("lexsub-test");
  await form.getByLabel("API key (optional)").fill("sk-e2e-secret-key");
  await form.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Registered “loop”" })).toBeVisible();
  await expect(page.getByText("key stored encrypted")).toBeVisible();
  await expect(page.locator("body")).not.toContainText("sk-e2e-secret-key");

  // Run it over the project: progress, then the outcome; then its ranked candidates.
  const card = page.getByRole("region", { name: "loop" });
  await card.getByRole("button", { name: "Annotate" }).click();
  await expect(card.getByRole("status").filter({ hasText: /Answers: 40 now/ })).toBeVisible({ timeout: 120_000 });
  await card.getByRole("button", { name: "Ask for ranked candidates" }).click();
  await expect(card.getByRole("status").filter({ hasText: /Candidates: 40 now/ })).toBeVisible({ timeout: 120_000 });
  expect(server.requests.some((r) => r.headers.authorization === "Bearer sk-e2e-secret-key")).toBe(true);
  await shot(page, "models-tab");

  // The Agreement tab's Models section: computed in the background, shown once ready.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Agreement" }).click();
  const models = page.getByRole("region", { name: "Models" });
  await expect(models.getByRole("row", { name: /^loop/ })).toBeVisible({ timeout: 60_000 });
  await expect(models).toContainText(/among 2 people/);
  await models.getByText(/loop: with each person/).click();
  await expect(models.getByRole("table", { name: "loop with each person" }).getByRole("row", { name: new RegExp(`^${a}`) })).toBeVisible();

  // Scoring: its answers as best and oot runs, scored against the people's gold.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Scoring" }).click();
  await page.getByRole("form", { name: "A model's answers as runs" }).getByRole("button", { name: "Add as best and oot runs" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Scoring now has “model:loop”" })).toBeVisible();
  await page.reload();
  await expect(page.getByText("model:loop").first()).toBeVisible();

  // A judgement round with the model as a source: its candidates join the round.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Judgement" }).click();
  const round = page.getByRole("form", { name: "New judgement round" });
  await round.getByLabel(/Any instance with a substitute/).check();
  await round.getByLabel("Sample size").fill("3");
  await round.getByLabel(/Model: loop/).check();
  await round.getByRole("button", { name: "Create round" }).click();
  await expect(page.getByRole("status").filter({ hasText: /asked for candidates now/ })).toBeVisible();

  // Suggestions, assist mode: the annotator accepts them from the keyboard.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Models" }).click();
  const sugg = page.getByRole("form", { name: "Suggestions in the workspace" });
  await sugg.getByLabel(/Assist: as candidates/).check();
  await sugg.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "as candidates to accept" })).toBeVisible();

  const ann = await annotatorPage(browser, c, cPassword);
  await ann.goto(`/annotate/${id}`);
  const offered = ann.getByRole("group", { name: "Suggested by loop" });
  await expect(offered.getByRole("button", { name: /silent/ })).toBeVisible();
  await ann.getByLabel("Substitute 1").focus();
  await ann.keyboard.press("Alt+1");
  await ann.keyboard.press("Alt+3");
  await expect(ann.getByLabel("Substitute 1")).toHaveValue("silent");
  await expect(ann.getByLabel("Substitute 2")).toHaveValue("still");
  await shot(ann, "workspace-assist");
  await ann.keyboard.press("Enter");
  await expect(ann.getByRole("status").filter({ hasText: "Saved d1." })).toBeVisible();

  // After mode: nothing before the save; the answer saved is recalled on the next instance, Alt+R goes back to revise.
  await sugg.getByLabel(/After: once they have saved/).check();
  await sugg.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "after they save an instance" })).toBeVisible();
  await ann.goto(`/annotate/${id}`);
  await expect(ann.getByText("Not answered yet.")).toBeVisible();
  await expect(ann.getByRole("group", { name: "Suggested by loop" })).toHaveCount(0);
  const instance = (await ann.getByText(/instance d\d+/).first().textContent())!.match(/d\d+/)![0];
  await ann.getByLabel("Substitute 1").fill("reserved");
  await ann.keyboard.press("Enter");
  await expect(ann.getByRole("note")).toContainText(`loop on ${instance}, which you just saved`);
  await shot(ann, "workspace-after");
  await ann.keyboard.press("Alt+R");
  await expect(ann.getByRole("group", { name: "Suggested by loop" })).toBeVisible();
  await ann.keyboard.press("Alt+1");
  await ann.keyboard.press("Enter");
  await expect(ann.getByRole("status").filter({ hasText: `Saved ${instance}.` })).toBeVisible();
  await ann.context().close();
});
