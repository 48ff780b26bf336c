import { readFile } from "node:fs/promises";
import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// Issue #15's walk, on a project of its own: the coordinator sets up a training item and an attention
// check; an annotator fails the training, passes it, flags an item and answers; the coordinator strikes
// one substitute and returns one instance with a comment; the annotator fixes it; the exported gold
// holds exactly what those decisions leave, line by line. Sentences written for this test.

const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="glad.a">
<instance id="g1"><context>She was <head>glad</head> to see the rain stop .</context></instance>
<instance id="g2"><context>We are <head>glad</head> of the long evenings .</context></instance>
<instance id="g3"><context>A <head>glad</head> shout came from the garden .</context></instance>
<instance id="g4"><context>He gave a <head>glad</head> wave from the boat .</context></instance>
</lexelt>
</corpus>
`;

// wb and wc answer through the responses import; wa through the workspace. Names get a suffix per run.
const RUN = String(Date.now() % 100000);
const [WA, WB, WC] = ["wa", "wb", "wc"].map((n) => `${n}${RUN}`);
const TSV = [
  "annotator\tlexelt\tinstance\tanswer\tmultiword",
  "wb\tglad.a\tg2\tjoyful\t",
  "wb\tglad.a\tg3\tcheerful\t",
  "wb\tglad.a\tg4\tmerry;pleased\t",
  "wc\tglad.a\tg2\tjoyful;happy\t",
  "wc\tglad.a\tg3\tcontent\t",
  "wc\tglad.a\tg4\tpleased\t",
].join("\n").replace(/^wb\t/gm, `${WB}\t`).replace(/^wc\t/gm, `${WC}\t`);

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const sub = (page: Page, n: number) => page.getByLabel(`Substitute ${n}`);

/** A gold line as lexelt, id and its entries (substitute → count). */
function entries(line: string): { key: string; counts: Record<string, number> } {
  const m = /^(\S+) (\S+) :: (.*)$/.exec(line)!;
  const counts: Record<string, number> = {};
  for (const e of m[3].split(";").filter(Boolean)) {
    const k = e.lastIndexOf(" ");
    counts[e.slice(0, k)] = Number(e.slice(k + 1));
  }
  return { key: `${m[1]} ${m[2]}`, counts };
}

test("training, an attention check, a flag, a strike and a return: the exported gold reflects exactly those decisions", async ({ browser }) => {
  test.setTimeout(300_000);
  const coord = await (await browser.newContext()).newPage();
  const ann = await (await browser.newContext()).newPage();
  const name = `walk ${Date.now()}`;

  // The coordinator: a project, its corpus, three annotators, wb's and wc's answers (previewed, then confirmed).
  await signIn(coord, "coordinator");
  await coord.goto("/projects");
  await coord.getByLabel("Project name").fill(name);
  await coord.getByRole("button", { name: "Create project" }).click();
  await expect(heading(coord)).toHaveText(name);
  const pid = Number(/\/projects\/(\d+)/.exec(coord.url())![1]);
  await coord.getByLabel("Lexelt XML file").setInputFiles({ name: "glad.xml", mimeType: "application/xml", buffer: Buffer.from(XML) });
  await coord.getByRole("button", { name: "Import" }).click();
  await expect(coord.getByRole("status")).toHaveText(/4 instances in 1 lexelt\b/);
  await coord.goto(`/projects/${pid}/members`);
  const passwords: Record<string, string> = {};
  for (const who of [WA, WB, WC]) {
    await coord.getByLabel("User name").fill(who);
    await coord.getByRole("button", { name: "Create and add" }).click();
    const shown = coord.getByRole("status").filter({ hasText: `Initial password for ${who}` });
    await expect(shown).toBeVisible();
    passwords[who] = (await shown.locator("code").textContent())!.trim();
  }
  await coord.getByLabel("Responses TSV file").setInputFiles({ name: "wbwc.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(TSV + "\n") });
  await coord.getByRole("button", { name: "Preview import" }).click();
  const preview = coord.getByRole("region", { name: "Import preview" });
  await expect(preview).toContainText("importing would add 6, update 0");
  await preview.getByRole("button", { name: "Import 6 changes" }).click();
  await expect(preview).toHaveCount(0);
  await expect(coord.getByRole("status").filter({ hasText: /added 6, updated 0/ })).toBeVisible();

  // Training: g1 a training item, g2 an attention check; annotators must pass (60 %).
  await coord.goto(`/projects/${pid}/training`);
  await coord.getByLabel("Instance id", { exact: true }).fill("g1");
  await coord.getByLabel("Accepted substitutes (separate with ;)").fill("happy; pleased");
  await coord.getByRole("button", { name: "Save item" }).click();
  await expect(coord.getByRole("status")).toHaveText("g1 is now a training item.");
  await coord.getByLabel("Instance id", { exact: true }).fill("g2");
  await coord.locator("#role-one").selectOption("check");
  await coord.getByLabel("Accepted substitutes (separate with ;)").fill("joyful");
  await coord.getByRole("button", { name: "Save item" }).click();
  await expect(coord.getByRole("status")).toHaveText(/g2 is now an attention check/);
  await coord.getByLabel("Annotators must pass the training before real instances").check();
  await coord.getByLabel("Pass mark (% of training items matched)").fill("60");
  await coord.getByRole("button", { name: "Save settings" }).click();
  await expect(coord.getByRole("status")).toHaveText("Settings saved.");

  // The annotator: training first, failed, then passed.
  await signIn(ann, WA, passwords[WA]);
  await ann.goto(`/annotate/${pid}`);
  await expect(ann).toHaveURL(new RegExp(`/annotate/${pid}/training$`));
  await sub(ann, 1).fill("sad");
  await ann.getByRole("button", { name: "Check my answer" }).click();
  await expect(ann.getByTestId("training-feedback")).toContainText("No match");
  await ann.getByRole("button", { name: "See your score" }).click();
  await expect(ann.getByTestId("training-result").getByRole("heading")).toHaveText("Your score: 0 % — not passed yet");
  await ann.getByRole("button", { name: "Try the same items again" }).click();
  await sub(ann, 1).fill("happy");
  await ann.getByRole("button", { name: "Check my answer" }).click();
  await expect(ann.getByTestId("training-feedback")).toContainText("Matched");
  await ann.getByRole("button", { name: "See your score" }).click();
  await expect(ann.getByTestId("training-result").getByRole("heading")).toHaveText("Your score: 100 % — passed");
  await ann.getByRole("link", { name: "Start annotating" }).click();
  await expect(ann).toHaveURL(/\/annotate\/\d+\/\d+$/);
  await expect(heading(ann)).toContainText(/instance g\d /);

  // Real instances: the check looks like any other; g3 is flagged with a note.
  const answers: Record<string, string[]> = { g1: ["happy"], g2: ["joyful"], g3: ["content", "jolly"], g4: ["delighted"] };
  const seen: string[] = [];
  for (let k = 0; k < 4; k++) {
    const text = (await heading(ann).textContent()) ?? "";
    const id = /instance (g\d)\b/.exec(text)?.[1];
    if (!id || seen.includes(id)) break;
    seen.push(id);
    await expect(ann.getByText(/attention check|known answer/i)).toHaveCount(0);
    for (const [i, s] of answers[id].entries()) await sub(ann, i + 1).fill(s);
    if (id === "g3") {
      await heading(ann).click();
      await ann.keyboard.press("Alt+f");
      await ann.getByRole("combobox", { name: "Reason for the flag" }).selectOption("unsure");
      await ann.getByRole("textbox", { name: "Note for the coordinator" }).fill("Is a shout glad or merely loud?");
    }
    await sub(ann, 1).focus();
    await ann.keyboard.press("Enter");
    // Saved: the status says so, or after the last instance the page says all is done.
    await expect(ann.getByRole("status").filter({ hasText: `Saved ${id}.` }).or(ann.getByText("All done."))).toBeVisible();
    // On to the next instance, or after the last one to the project's "All done." page (headed by its name).
    await expect(heading(ann)).not.toContainText(`instance ${id} `);
  }
  expect(seen).toEqual(expect.arrayContaining(["g2", "g3", "g4"]));

  // The coordinator: the check report, the flag, a strike, a return.
  await coord.goto(`/projects/${pid}/training`);
  const report = coord.getByRole("region", { name: "Per-annotator report" }).getByRole("row", { name: new RegExp(`^${WA} `) });
  await expect(report.getByRole("cell").nth(1)).toHaveText("1");
  await expect(report.getByRole("cell").nth(2)).toHaveText("1");
  await expect(report).toContainText("passed");
  await coord.goto(`/projects/${pid}/gold?view=instances&lexelt=glad.a&flag=any`);
  await expect(coord.getByRole("article")).toHaveCount(1);
  const g3 = coord.getByRole("article", { name: "glad.a g3" });
  await expect(g3.getByRole("table", { name: "Answers for g3" }).getByRole("row", { name: new RegExp(`^${WA}`) })).toContainText("flag: unsure");
  await g3.getByText("Return to an annotator…").click();
  await g3.getByRole("combobox", { name: "Annotator" }).selectOption(WA);
  await g3.getByRole("textbox", { name: "Comment for them" }).fill("Jolly is too strong: think of a happy shout.");
  await g3.getByRole("button", { name: "Return with comment" }).click();
  await expect(g3.getByText(`Returned g3 to ${WA}.`)).toBeVisible();

  await coord.goto(`/projects/${pid}/gold?view=instances&lexelt=glad.a`);
  const g4 = coord.getByRole("article", { name: "glad.a g4" });
  // A return sent by mistake is withdrawn (the coordinator's undo): it leaves the annotator's list.
  await g4.getByText("Return to an annotator…").click();
  await g4.getByRole("combobox", { name: "Annotator" }).selectOption(WA);
  await g4.getByRole("textbox", { name: "Comment for them" }).fill("Sent by mistake.");
  await g4.getByRole("button", { name: "Return with comment" }).click();
  await expect(g4.getByText(`Returned g4 to ${WA}.`)).toBeVisible();
  const g4wa = g4.getByRole("table", { name: "Answers for g4" }).getByRole("row", { name: new RegExp(`^${WA}`) });
  await expect(g4wa).toContainText("returned");
  await g4wa.getByRole("form", { name: `Withdraw the return of g4 to ${WA}` }).getByRole("button", { name: "Withdraw" }).click();
  await expect(g4wa).not.toContainText("returned");
  await g4.getByLabel(`Adjudicate merry (${WB})`).click();
  await g4.getByRole("form", { name: `Adjudicate merry of ${WB}` }).getByRole("button", { name: `Strike merry (${WB})` }).click();
  await expect(g4.locator("dd code").first()).toHaveText(/^glad\.a g4 :: /);
  await expect(g4.getByRole("deletion").filter({ hasText: "merry" })).toBeVisible();

  // The annotator finds the returned item first, with the comment, and fixes it.
  await ann.goto("/annotate");
  await expect(ann.getByText("1 returned to you")).toBeVisible();
  await ann.getByRole("link", { name: `Open returned ${name}` }).click();
  await expect(heading(ann)).toContainText("instance g3 ");
  await expect(ann.getByRole("region", { name: "Returned to you" })).toContainText("Jolly is too strong");
  await sub(ann, 1).fill("cheerful");
  await sub(ann, 2).fill("");
  await sub(ann, 1).focus();
  await ann.keyboard.press("Enter");
  await expect(ann.getByRole("status").filter({ hasText: "Saved g3." })).toBeVisible();

  // The exported gold, line by line: g2 (the attention check) is left out; g3 counts wa's fixed answer;
  // g4 lacks wb's struck "merry"; g1 (the training item) holds only what wa answered in the queue, if anything.
  await coord.goto(`/projects/${pid}/gold?view=instances&lexelt=glad.a`);
  const downloading = coord.waitForEvent("download");
  await coord.getByRole("link", { name: /Download gold/ }).click();
  const gold = (await readFile((await (await downloading).path())!, "utf8")).split("\n").filter(Boolean);
  const byId = Object.fromEntries(gold.map((l) => [entries(l).key, entries(l).counts]));
  expect(Object.keys(byId).every((k) => ["glad.a g1", "glad.a g3", "glad.a g4"].includes(k))).toBe(true);
  expect(byId["glad.a g2"]).toBeUndefined();
  expect(byId["glad.a g3"]).toEqual({ cheerful: 2, content: 1 });
  expect(byId["glad.a g4"]).toEqual({ pleased: 2, delighted: 1 });
  if (byId["glad.a g1"]) expect(byId["glad.a g1"]).toEqual(seen.includes("g1") ? { happy: 1 } : {});
  expect(gold.find((l) => l.startsWith("glad.a g3 ")), "g3's mode first").toMatch(/^glad\.a g3 :: cheerful 2;content 1;$/);
  expect(gold.find((l) => l.startsWith("glad.a g4 ")), "g4's mode first").toMatch(/^glad\.a g4 :: pleased 2;delighted 1;$/);

  // The review log holds both decisions: the strike and the return with its comment.
  await coord.goto(`/projects/${pid}/gold?view=log`);
  await expect(coord.getByRole("main")).toContainText("merry");
  await expect(coord.getByRole("main")).toContainText("Jolly is too strong: think of a happy shout.");
  await expect(coord.getByRole("main")).toContainText("return withdrawn");
});
