import path from "node:path";
import { readFile } from "node:fs/promises";
import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const demoXml = path.resolve(import.meta.dirname, "../samples/demo.xml");

/** The coordinator opens a project from the projects list; returns its id. */
async function openProject(page: Page, name: string | RegExp): Promise<number> {
  await page.goto("/projects");
  await page.getByRole("link", { name }).first().click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  return Number(/\/projects\/(\d+)/.exec(page.url())![1]);
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
}

test("the coordinator sees the demo responses on the progress page and downloads them", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await openProject(page, /^demo/);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Progress" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Progress");

  const annotators = page.getByRole("table", { name: "Annotators" });
  // annotator2 answered all 40 demo instances by import: done, but no time per item.
  const row2 = annotators.getByRole("row", { name: /^annotator2\b/ });
  await expect(row2.getByRole("cell").nth(0)).toHaveText("40 / 40");
  await expect(row2.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "100%");
  await expect(row2.getByRole("cell").nth(3)).toHaveText("—");
  await expect(annotators.getByRole("row", { name: /^annotator5\b/ }).getByRole("cell").nth(0)).toHaveText("40 / 40");

  // The lexelt table is one row per lexelt; a lexelt opens its annotators.
  await page.getByRole("table", { name: "By lexelt" }).getByRole("link", { name: "run.n.v" }).click();
  const ofRun = page.getByRole("table", { name: "Annotators of run.n.v" });
  await expect(ofRun.getByRole("row", { name: /^annotator2\b/ }).getByRole("cell").nth(0)).toHaveText("2 / 2");

  await page.goto(`/projects/${id}/members`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: /Download responses/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("demo-responses.tsv");
  const text = await readFile((await download.path())!, "utf8");
  expect(text.split("\n")[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword");
  expect(text).toContain("annotator2\tshell.n\td20\tNAME\t\n");
  expect(text).toContain("annotator2\tlaunch.v\td9\tbegin;start\tlaunch into\n");
});

test("the coordinator creates an annotator, restricts the assignment, sets required annotators and imports responses", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const projectName = `team ${stamp}`;
  const annotator = `ann-${stamp}`;

  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByLabel("Project name").fill(projectName);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(projectName);
  const id = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await page.getByLabel("Lexelt XML file").setInputFiles(demoXml);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/40 instances in 9 lexelts/);

  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Team");

  // A new account with a generated password, shown once.
  await page.getByLabel("User name").fill(annotator);
  await page.getByRole("button", { name: "Create and add" }).click();
  await expect(page.getByRole("status")).toContainText(`Created annotator ${annotator}`);
  const password = (await page.getByRole("status").filter({ hasText: "Initial password for" }).locator("code").textContent())!.trim();
  expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await expect(page.getByRole("table", { name: "Members" }).getByRole("row", { name: new RegExp(`^${annotator}\\b`) })).toContainText("All 9 lexelts");

  // A taken name is refused next to the field.
  await page.getByLabel("User name").fill(annotator);
  await page.getByRole("button", { name: "Create and add" }).click();
  await expect(page.getByText("That name is taken.")).toBeVisible();

  // Restrict the new annotator to quiet.a and shell.n.
  await page.getByRole("list", { name: "By hand" }).getByRole("link", { name: annotator }).click();
  await expect(page).toHaveURL(/\?assign=\d+#editor$/);
  const group = page.getByRole("group", { name: `Lexelts for ${annotator}` });
  await page.getByRole("radio", { name: "Only these lexelts:" }).check();
  await page.getByRole("button", { name: "Select none on this page" }).click();
  for (const box of await group.getByRole("checkbox").all()) await expect(box).not.toBeChecked();
  await page.getByRole("button", { name: `Save assignment for ${annotator}` }).click();
  await expect(page.getByText("Choose at least one lexelt.")).toBeVisible();
  await group.getByRole("checkbox", { name: /quiet\.a/ }).check();
  await group.getByRole("checkbox", { name: /shell\.n/ }).check();
  await page.getByRole("button", { name: `Save assignment for ${annotator}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Assigned 2 lexelts." })).toBeVisible();
  await expect(page.getByRole("table", { name: "Members" }).getByRole("row", { name: new RegExp(`^${annotator}\\b`) })).toContainText("2 of 9: quiet.a, shell.n");
  // The editor searches the lexelts; the ticks follow the saved assignment.
  await page.getByRole("search", { name: "Lexelts" }).getByLabel("Find lexelt").fill("shel");
  await page.getByRole("search", { name: "Lexelts" }).getByRole("button", { name: "Find" }).click();
  await expect(group.getByRole("checkbox")).toHaveCount(1);
  await expect(group.getByRole("checkbox", { name: /shell\.n/ })).toBeChecked();

  // Required annotators: a bad value is refused by the server, a good one saved.
  await page.getByLabel("Annotators per instance").fill("1");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Each instance now needs 1 annotator." })).toBeVisible();

  // Guidelines.
  await page.getByLabel("Guidelines for annotators").fill("Give up to three substitutes.\n\nUse NAME for proper names.");
  await page.getByRole("button", { name: "Save guidelines" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Guidelines saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Guidelines for annotators")).toHaveValue("Give up to three substitutes.\n\nUse NAME for proper names.");
  await expect(page.getByLabel("Annotators per instance")).toHaveValue("1");

  // What the download holds, counted beside its link (and again when an import finishes).
  const counter = page.getByTestId("responses-count");
  const before = (await counter.count()) === 0 ? 0 : Number((await counter.textContent())!.match(/^([\d,]+) response/)![1].replace(/,/g, ""));
  // A bad responses file is refused with its line; a good one is imported.
  const tsv = (body: string) => ({ name: "r.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(`annotator\tlexelt\tinstance\tanswer\tmultiword\n${body}`) });
  await page.getByLabel("Responses TSV file").setInputFiles(tsv(`${annotator}\tquiet.a\td1\tsilent\t\n${annotator}\tquiet.a\td6\tstart\t\n`));
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByRole("alert").and(page.locator(".notice"))).toHaveText(/r\.tsv:3: error: instance "d6" belongs to lexelt launch\.v, not quiet\.a.*nothing was imported/);
  await page.getByLabel("Responses TSV file").setInputFiles(tsv(`${annotator}\tquiet.a\td1\tsilent;hushed\t\n${annotator}\tshell.n\td20\tNAME\t\n`));
  await page.getByRole("button", { name: "Preview import" }).click();
  // Nothing changes before the confirmation: the preview lists the two lines to add.
  const preview = page.getByRole("region", { name: "Import preview" });
  await expect(preview).toContainText("importing would add 2, update 0, leave 0 unchanged");
  await expect(preview.getByRole("table").filter({ hasText: "To add (2)" }).getByRole("row")).toHaveCount(3);
  await preview.getByRole("button", { name: "Import 2 changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "r.tsv: 2 responses; added 2, updated 0, unchanged 0." })).toBeVisible();
  await expect(counter).toHaveText(new RegExp(`^${(before + 2).toLocaleString("en")} responses by \\d+ annotators?`));
  // The import ran as a job: coming back to the page shows how it ended.
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "r.tsv: 2 responses; added 2, updated 0, unchanged 0." })).toBeVisible();

  // The progress page counts them: 2 of the 10 instances of quiet.a and shell.n; one response each is enough.
  await page.goto(`/projects/${id}/progress`);
  await expect(page.getByText(/· each instance needs 1 response$/)).toBeVisible();
  // Nobody is assigned launch.v and six other lexelts: the page says their instances cannot be completed.
  await expect(page.locator(".notice.warn")).toContainText("launch.v (0)");
  const row = page.getByRole("table", { name: "Annotators" }).getByRole("row", { name: new RegExp(`^${annotator}\\b`) });
  await expect(row.getByRole("cell").nth(0)).toHaveText("2 / 10");
  await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "20%");
  await expect(row).toContainText("just now");
  await expect(page.getByRole("region", { name: "Instances complete" })).toContainText("2 of 40");
  const grid = page.getByRole("table", { name: "By lexelt" });
  // Complete, responses, annotators assigned.
  await expect(grid.getByRole("row", { name: /quiet\.a/ }).getByRole("cell")).toHaveText(["1 / 5", "1", "1"]);
  await expect(grid.getByRole("row", { name: /launch\.v/ }).getByRole("cell")).toHaveText(["0 / 5", "0", "0"]);
  // The annotator opens their lexelts: done / instances where assigned, — elsewhere.
  await row.getByRole("link", { name: annotator }).click();
  const mine = page.getByRole("table", { name: `Lexelts of ${annotator}` });
  await expect(mine.getByRole("row", { name: /quiet\.a/ }).getByRole("cell").nth(0)).toHaveText("1 / 5");
  await expect(mine.getByRole("row", { name: /launch\.v/ }).getByRole("cell").nth(0)).toHaveText("—");

  // The new account signs in with the password it was given.
  await signOut(page);
  await signIn(page, annotator, password);
});

test("an annotator is refused every coordinator page and the responses export and import", async ({ page, browser }) => {
  await signIn(page, "coordinator");
  const id = await openProject(page, /^demo/);

  const baseURL = test.info().project.use.baseURL;
  const context = await browser.newContext({ baseURL });
  const ann = await context.newPage();
  await signIn(ann, "annotator2");
  // Let the sign-in's own navigation (home, then the workspace) finish before going elsewhere.
  await expect(ann).toHaveURL(/\/annotate/);
  for (const section of ["members", "progress"]) {
    await ann.goto(`/projects/${id}/${section}`);
    await expect(ann).not.toHaveURL(new RegExp(`/projects/${id}/${section}`));
    await expect(ann.getByRole("heading", { name: section === "members" ? "Team" : "Progress", level: 1 })).toHaveCount(0);
  }
  const exported = await ann.request.get(`/api/projects/${id}/responses`);
  expect(exported.status()).toBe(403);
  expect(await exported.text()).not.toContain("annotator3");
  const imported = await ann.request.post(`/api/projects/${id}/responses`, {
    headers: { Origin: baseURL! },
    multipart: { file: { name: "r.tsv", mimeType: "text/plain", buffer: Buffer.from("annotator\tlexelt\tinstance\tanswer\tmultiword\nannotator3\tquiet.a\td1\tNIL\t\n") } },
  });
  expect(imported.status()).toBe(403);
  await context.close();

  // Signed out: no export either.
  const anon = await browser.newContext({ baseURL });
  const res = await anon.request.get(`/api/projects/${id}/responses`);
  expect(res.status()).toBe(401);
  await anon.close();
});

test("the coordinator splits the lexelts evenly over chosen annotators, previewed then confirmed", async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByLabel("Project name").fill(`split ${stamp}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`split ${stamp}`);
  await page.getByLabel("Lexelt XML file").setInputFiles(demoXml);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/40 instances in 9 lexelts/);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Team" }).click();
  for (const who of ["sa", "sb", "sc"]) {
    await page.getByLabel("User name").fill(`${who}-${stamp}`);
    await page.getByRole("button", { name: "Create and add" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Created annotator ${who}-${stamp}` })).toBeVisible();
  }
  const split = page.getByRole("form", { name: "Split the lexelts evenly" });
  const chosen = split.getByRole("group", { name: "Annotators to split over" });
  // Select all, then search and drop one: sa and sb remain.
  await split.getByRole("button", { name: "Select all" }).click();
  await split.getByLabel("Find annotators").fill(`sc-${stamp}`);
  await split.getByRole("button", { name: "Select none found" }).click();
  await split.getByLabel("Find annotators").fill("");
  await expect(chosen.getByRole("checkbox", { name: `sa-${stamp}` })).toBeChecked();
  await expect(chosen.getByRole("checkbox", { name: `sc-${stamp}` })).not.toBeChecked();
  await expect(split.getByRole("button", { name: "Confirm split" })).toBeDisabled();

  // k larger than the annotators chosen is refused beside the field.
  await split.getByLabel("Annotators for each lexelt (k)").fill("3");
  await split.getByRole("button", { name: "Preview split" }).click();
  await expect(split.getByText("At most 2.")).toBeVisible();

  // k = 1: 40 instances in 9 lexelts between two annotators, 20 each; nothing saved yet.
  await split.getByLabel("Annotators for each lexelt (k)").fill("1");
  await split.getByRole("button", { name: "Preview split" }).click();
  const preview = split.getByRole("table", { name: "Split preview" });
  await expect(preview.getByRole("row", { name: new RegExp(`^sa-${stamp}`) }).getByRole("cell")).toHaveText([/\d/, "20"]);
  await expect(preview.getByRole("row", { name: new RegExp(`^sb-${stamp}`) }).getByRole("cell")).toHaveText([/\d/, "20"]);
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row", { name: new RegExp(`^sa-${stamp}`) })).toContainText("All 9 lexelts");
  await split.getByRole("button", { name: "Confirm split" }).click();
  await expect(split.getByRole("status")).toHaveText("Split 9 lexelts over 2 annotators, 1 per instance.");
  await expect(members.getByRole("row", { name: new RegExp(`^sa-${stamp}`) })).toContainText(/\d of 9/);
  await expect(members.getByRole("row", { name: new RegExp(`^sb-${stamp}`) })).toContainText(/\d of 9/);
  await expect(members.getByRole("row", { name: new RegExp(`^sc-${stamp}`) })).toContainText("All 9 lexelts");
});
