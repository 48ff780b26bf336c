import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const sample = (name: string) => path.resolve(import.meta.dirname, "../samples/datasets", name);

async function newProject(page: Page): Promise<number> {
  await page.goto("/projects");
  const name = `datasets ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  return Number(/\/projects\/(\d+)/.exec(page.url())![1]);
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function importFile(page: Page, format: string, file: string) {
  await page.getByLabel("Format").selectOption({ label: format });
  await page.getByLabel("Dataset file").setInputFiles(sample(file));
  await page.getByRole("button", { name: "Import" }).click();
}

test("the coordinator imports SWORDS and TSAR samples on the Datasets page and downloads them back", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await newProject(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Datasets" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Datasets");
  await expect(page.getByText("No dataset imported yet")).toBeVisible();

  // A refused file: the located error, nothing written.
  await page.getByLabel("Format").selectOption({ label: "TSAR / MLSP TSV" });
  await page.getByLabel("Dataset file").setInputFiles({ name: "bad.tsv", mimeType: "text/plain", buffer: Buffer.from("a calm sea\tstorm\trough\n") });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "bad.tsv" })).toContainText('bad.tsv:1: complex word (column 2): "storm" does not occur in the sentence, in any case, nor as a form of its lemma; nothing was imported.');
  await expect(page.getByText("No dataset imported yet")).toBeVisible();
  // An MLSP complexity-prediction file is refused saying what it is (#40); the form offers one language's lines of a combined file.
  await page.getByLabel("Dataset file").setInputFiles({ name: "lcp.tsv", mimeType: "text/plain", buffer: Buffer.from("en_1\tenglish\tA calm sea.\tcalm\nde_1\tgerman\tDer Weg war lang.\tWeg\n") });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "lcp.tsv" })).toContainText("lcp.tsv: file: an MLSP 2024 complexity-prediction (LCP) file, not a substitution file");
  await expect(page.getByLabel("Lines in one language only")).toBeVisible();
  if (process.env.SCREENSHOT_DIR) {
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/datasets-lcp-refused.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/datasets-lcp-refused-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  await importFile(page, "SWORDS JSON", "swords-small.json");
  await expect(page.getByRole("status").filter({ hasText: "swords-small.json" })).toContainText("added 3 instances, 3 lexelts and 6 gold entries");
  await importFile(page, "TSAR / MLSP TSV", "tsar-small.tsv");
  await expect(page.getByRole("status").filter({ hasText: "tsar-small.tsv" })).toContainText("added 2 instances");
  const held = page.getByRole("table");
  await expect(held.getByRole("row", { name: /SWORDS/ })).toContainText("6");
  await expect(held.getByRole("row", { name: /TSAR/ })).toContainText("2");

  // Download SWORDS: the sample comes back whole, under eval.py's ids (the sample's own are not its recipe),
  // each target with its instance id in extra (TSAR lines are no SWORDS targets, so they get new ids too).
  const [swords] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download SWORDS JSON" }).click()]);
  type Doc = {
    targets: Record<string, { target: string; offset: number; pos: string; extra?: { lexgold_instance?: string } }>;
    substitutes: Record<string, { target_id: string; substitute: string }>;
    substitute_labels: Record<string, string[]>;
  };
  const doc = JSON.parse(await readFile((await swords.path())!, "utf8")) as Doc;
  const original = JSON.parse(await readFile(sample("swords-small.json"), "utf8")) as Doc;
  const written = new Map(Object.entries(doc.targets).map(([id, t]) => [t.extra?.lexgold_instance ?? id, { id, t }]));
  for (const [tid, t] of Object.entries(original.targets)) {
    expect(written.get(tid)?.id).toMatch(/^t:[0-9a-f]{40}$/);
    expect(written.get(tid)?.t).toMatchObject({ target: t.target, offset: t.offset, pos: t.pos });
  }
  for (const [sid, l] of Object.entries(original.substitute_labels)) {
    const s = original.substitutes[sid];
    const [id] = Object.entries(doc.substitutes).find(([, w]) => w.target_id === written.get(s.target_id)?.id && w.substitute === s.substitute)!;
    expect(doc.substitute_labels[id]).toEqual(l);
  }

  // Download TSAR: the two sample lines come back column for column.
  const [tsar] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download TSAR / MLSP TSV" }).click()]);
  const lines = (await readFile((await tsar.path())!, "utf8")).trimEnd().split("\n");
  for (const l of (await readFile(sample("tsar-small.tsv"), "utf8")).trimEnd().split("\n")) expect(lines).toContain(l);
  // Cells exactly as the gold has them unless the coordinator asks for spreadsheet-safe ones.
  await expect(page.getByRole("link", { name: "Download TSAR / MLSP TSV" })).not.toHaveAttribute("href", /cells=/);
  await page.getByLabel("Spreadsheet-safe cells").check();
  await expect(page.getByRole("link", { name: "Download TSAR / MLSP TSV" })).toHaveAttribute("href", /[?&]format=tsar&cells=spreadsheet-safe$/);
  await page.getByLabel("Spreadsheet-safe cells").uncheck();

  await page.getByRole("button", { name: "What TSAR / MLSP TSV cannot carry" }).click();
  await expect(page.getByRole("status", { name: "TSAR / MLSP TSV report" })).toContainText("5 instances written");
  await shoot(page, "datasets");

  // The Gold tab shows the imported counts.
  await page.goto(`/projects/${id}/gold?view=instances`);
  await expect(page.getByText("account book").first()).toBeVisible();
});

test("a finished import refreshes what it changed; a format chosen meanwhile stays chosen and is the one uploaded", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await newProject(page);
  await page.goto(`/projects/${id}/datasets`);
  // The page's refresh when the job ends (a request for the page's server components, not a prefetch)
  // is held until the user has chosen the next upload's format: the choice is made while it is on its way.
  let asked!: () => void;
  const refreshAsked = new Promise<void>((r) => (asked = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route(
    (url) => url.pathname === `/projects/${id}/datasets`,
    async (route) => {
      const h = route.request().headers();
      if (h["rsc"] === "1" && !h["next-router-prefetch"]) {
        asked();
        await gate;
      }
      await route.continue();
    },
  );
  await importFile(page, "SWORDS JSON", "swords-small.json");
  await refreshAsked;
  await page.getByLabel("Format").selectOption({ label: "TSAR / MLSP TSV" });
  await expect(page.getByLabel("Format")).toHaveValue("tsar");
  await page.getByLabel("Dataset file").setInputFiles(sample("tsar-small.tsv"));
  await page.getByLabel("Instance id prefix").fill("mine");
  release();

  // The refresh shows the new counts without a reload…
  await expect(page.getByRole("status").filter({ hasText: "swords-small.json" })).toContainText("added 3 instances");
  await expect(page.getByRole("table").getByRole("row", { name: /SWORDS/ })).toContainText("6");
  // …and leaves the form as the user left it: the format shown is the one the upload goes with.
  await expect(page.getByLabel("Format")).toHaveValue("tsar");
  await expect(page.getByLabel("Instance id prefix")).toHaveValue("mine");
  await expect(page.getByLabel("Dataset file")).toHaveValue(/tsar-small\.tsv$/);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status").filter({ hasText: "tsar-small.tsv" })).toContainText("added 2 instances");
  await expect(page.getByRole("table").getByRole("row", { name: /TSAR/ })).toContainText("2");
  await expect(page.getByLabel("Format")).toHaveValue("tsar");
});

test("a large dataset file imports in the background: a progress bar, then the report; the page can be left and come back to", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await newProject(page);
  await page.goto(`/projects/${id}/datasets`);
  // 6,000 TSAR targets of our own making (three distinct substitutes each: "shining" twice).
  const lines: string[] = [];
  for (let i = 0; i < 6000; i++) lines.push(`line ${i} has a bright lamp\tbright\tshining\tshining\tvivid\tluminous`);
  await page.getByLabel("Format").selectOption({ label: "TSAR / MLSP TSV" });
  await page.getByLabel("Dataset file").setInputFiles({ name: "big.tsv", mimeType: "text/plain", buffer: Buffer.from(lines.join("\n") + "\n") });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("progressbar", { name: "Importing big.tsv" })).toBeVisible();
  await shoot(page, "datasets-progress");
  // Leave and come back: the job went on without the page.
  await page.goto(`/projects/${id}`);
  await page.goto(`/projects/${id}/datasets`);
  await expect(page.getByRole("status").filter({ hasText: "big.tsv" })).toContainText("big.tsv: 6000 targets (tsar); added 6000 instances, 1 lexelt and 18000 gold entries", { timeout: 120_000 });
  await expect(page.getByRole("table").getByRole("row", { name: /TSAR/ })).toContainText("6000");
});

test("a CoInCo file with entries the gold cannot hold imports with each listed by line; the strict box refuses it instead", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await newProject(page);
  await page.goto(`/projects/${id}/datasets`);
  // Our own sample with a substitute holding the ";" that separates gold entries, and one that is only ";".
  const xml = (await readFile(sample("coinco-small.xml"), "utf8")).replace('lemma="port"', 'lemma="port ;"').replace('lemma="skipper"', 'lemma=";"');
  const upload = { name: "odd.xml", mimeType: "application/xml", buffer: Buffer.from(xml) };

  await page.getByLabel("Format").selectOption({ label: "CoInCo XML" });
  await page.getByLabel("Dataset file").setInputFiles(upload);
  await page.getByLabel("Refuse the file if any entry cannot be carried").check();
  await page.getByRole("button", { name: "Import" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "odd.xml" });
  await expect(refused).toContainText('odd.xml:31: warning: target 903, substitute "port ;": repaired: kept as "port"');
  await expect(refused).toContainText("refused as asked (strict): nothing was imported.");
  await expect(page.getByText("No dataset imported yet")).toBeVisible();

  await page.getByLabel("Refuse the file if any entry cannot be carried").uncheck();
  await page.getByLabel("Dataset file").setInputFiles(upload);
  await page.getByRole("button", { name: "Import" }).click();
  const done = page.getByRole("status").filter({ hasText: "odd.xml" });
  await expect(done).toContainText("2 entries not carried as written (1 repaired, 1 left out)");
  await expect(done.getByText('odd.xml:59: warning: target 905, substitute ";": left out: nothing is left')).toBeVisible();
  // The report stays with the import: after a reload, in the page's list of import records.
  await page.reload();
  const records = page.getByRole("region", { name: "Entries not carried as written" });
  await records.getByText(/odd\.xml, imported .*: 2 entries \(1 repaired, 1 left out\)/).click();
  await expect(records).toContainText('odd.xml:31: warning: target 903, substitute "port ;": repaired: kept as "port"');
  await expect(records).toContainText('odd.xml:59: warning: target 905, substitute ";": left out');
});
