import { type Page, expect, test } from "@playwright/test";
import { downloadText, openDemoTab, signIn } from "./helpers";

// Every change made here is undone before the test ends, so other specs see the demo as seeded.
test.describe.configure({ mode: "serial" });

let projectId = 0;

/** A gold file as the official ones are written: a blank first line, then `lexelt id :: sub n;…;` lines. */
function expectGoldFile(text: string) {
  const lines = text.split("\n");
  expect(lines[0]).toBe("");
  expect(lines.at(-1)).toBe("");
  const body = lines.slice(1, -1);
  expect(body.length).toBeGreaterThan(0);
  for (const line of body) expect(line).toMatch(/^\S+ \S+ :: (?:[^;]+ \d+;)+$/);
  return body;
}

function instanceCard(page: Page, lexelt: string, id: string) {
  return page.getByRole("article", { name: `${lexelt} ${id}` });
}

test("the coordinator reviews lemmas and instances and downloads the gold and mwgold", async ({ page }) => {
  await signIn(page, "coordinator");
  projectId = await openDemoTab(page, "Gold");

  // The summary of the seeded demo: 40 instances, none excluded.
  const summary = page.getByRole("region", { name: "Summary" });
  await expect(summary.getByRole("definition").first()).toContainText("40");

  // The lemma review: forms the lemmatiser changes come first, the most frequent first.
  const table = page.getByRole("table", { name: "Lemma review" });
  const first = table.getByRole("row").nth(1);
  await expect(first.getByRole("rowheader")).toHaveText("calmer");
  await expect(first.getByRole("cell").nth(2)).toHaveText("calm");
  await expect(first).toContainText("open");

  // Filter to one form, override its lemma with Enter, and see the decision recorded.
  await page.getByLabel("Form contains").fill("seashell");
  await expect(page).toHaveURL(/[?&]q=seashell/);
  await expect(table.getByRole("rowheader")).toHaveText(["seashells", "seashell"]);
  const row = table.getByRole("row", { name: /^seashells\b/ });
  const lemma = row.getByRole("textbox", { name: "Lemma for seashells" });
  await expect(lemma).toHaveValue("seashell");
  await lemma.fill("sea shell");
  await lemma.press("Enter");
  await expect(row).toContainText("Overridden: sea shell");
  await expect(lemma).toBeFocused();
  await expect(row).toContainText("overridden");
  await expect(row).toContainText("coordinator");

  // A refused lemma is shown next to its field, and nothing changes.
  await lemma.fill("sea;shell");
  await lemma.press("Enter");
  await expect(row.getByRole("alert")).toContainText("';'");
  await expect(lemma).toHaveAttribute("aria-invalid", "true");

  // The gold line follows the table: seashells → "sea shell" splits shell.n d16's seashell 4.
  await page.getByRole("navigation", { name: "Gold sections" }).getByRole("link", { name: /Gold review/ }).click();
  await page.getByLabel("Lexelt").selectOption("shell.n");
  await expect(page).toHaveURL(/lexelt=shell\.n/);
  const d16 = instanceCard(page, "shell.n", "d16");
  await expect(d16.locator("code").first()).toHaveText("shell.n d16 :: sea shell 2;seashell 2;conch 1;");
  await expect(d16).toContainText("no mode");

  // Put the lemma back (reset to unreviewed): the form is written as typed again.
  await page.getByRole("navigation", { name: "Gold sections" }).getByRole("link", { name: /Lemma review/ }).click();
  await page.getByLabel("Form contains").fill("seashells");
  await expect(page).toHaveURL(/[?&]q=seashells/);
  await table.getByRole("button", { name: "Reset seashells to open" }).click();
  await expect(table.getByRole("row", { name: /^seashells\b/ })).toContainText("open");
  await expect(table.getByRole("textbox", { name: "Lemma for seashells" })).toHaveValue("seashell");

  // Exclude an instance with a reason, and put it back.
  await page.goto(`/projects/${projectId}/gold?view=instances&lexelt=shell.n`);
  await expect(d16.locator("code").first()).toHaveText("shell.n d16 :: seashell 2;seashells 2;conch 1;");
  await expect(d16).toContainText("no mode");
  // Only the "with proposals applied" download writes the open proposals (seashells → seashell among them).
  const proposed = await downloadText(page, /Gold with proposals applied/);
  expect(proposed.name).toBe("demo.proposals-applied.gold");
  expect(proposed.text).toContain("\nshell.n d16 :: seashell 4;conch 1;\n");
  const d17 = instanceCard(page, "shell.n", "d17");
  await d17.getByRole("button", { name: "Exclude" }).click();
  await expect(d17.getByRole("alert")).toHaveText("Say why the instance is excluded.");
  await d17.getByLabel("Exclude, because").fill("e2e: checking the exclusion");
  await d17.getByRole("button", { name: "Exclude" }).click();
  await expect(d17.getByText("Excluded: e2e: checking the exclusion")).toBeVisible();
  await expect(d17.getByRole("listitem").filter({ hasText: /^excluded$/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Summary" })).toContainText("1 excluded");
  let gold = await downloadText(page, /Download gold/);
  expect(gold.text).not.toContain("shell.n d17 ");
  await d17.getByRole("button", { name: "Put d17 back" }).click();
  await expect(d17.getByText(/^Excluded:/)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Summary" })).toContainText("none excluded");

  // The downloads, as the official files are written.
  gold = await downloadText(page, /Download gold/);
  expect(gold.name).toBe("demo.gold");
  const lines = expectGoldFile(gold.text);
  expect(lines).toContain("quiet.a d1 :: silent 4;hushed 2;still 2;calm 1;peaceful 1;");
  expect(lines).toContain("shell.n d17 :: skeleton 3;frame 2;framework 1;husk 1;ruin 1;");
  expect(lines).toContain("shell.n d20 :: pn 3;");
  const mw = await downloadText(page, /Download mwgold/);
  expect(mw.name).toBe("demo.mwgold");
  // Multiwords go through the lemma review too: "launched into" is written as typed until decided.
  expect(expectGoldFile(mw.text)).toContain("launch.v d9 :: launch into 2;launched into 1;");

  // The review log records each step with who did it.
  const log = await downloadText(page, /Review log \(CSV\)/);
  expect(log.name).toBe("demo-gold-review.csv");
  const rows = log.text.trim().split("\r\n");
  expect(rows[0]).toBe("at,by,kind,target,decision,value,annotator,substitute,reason");
  expect(rows.slice(-4).map((r) => r.split(",").slice(1).join(","))).toEqual([
    "coordinator,lemma,seashells,overridden,sea shell,,,",
    "coordinator,lemma,seashells,reset,,,,",
    "coordinator,exclusion,d17,excluded,e2e: checking the exclusion,,,",
    "coordinator,exclusion,d17,put back,,,,",
  ]);
});

test("an annotator is refused the Gold page and its downloads", async ({ page }) => {
  expect(projectId).toBeGreaterThan(0);
  const anonymous = await page.request.get(`/api/projects/${projectId}/gold?file=gold`);
  expect(anonymous.status()).toBe(401);

  await signIn(page, "annotator1");
  await page.goto(`/projects/${projectId}/gold`);
  await expect(page).toHaveURL(/\/annotate/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Gold");
  for (const file of ["gold", "mwgold", "log"]) {
    const res = await page.request.get(`/api/projects/${projectId}/gold?file=${file}`);
    expect(res.status()).toBe(403);
    expect(res.headers()["content-disposition"]).toBeUndefined();
    const body = await res.text();
    expect(body).not.toContain("::");
    expect(body).toContain("Only a coordinator can do that.");
  }
});
