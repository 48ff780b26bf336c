/** The Team tab's forms posted without JavaScript (test/server/native-forms/native-forms.test.ts). */
import { describe, expect, it } from "vitest";
import type { NativeForm } from "../../support/native-form";
import { follow, lexgold, one, post, shows, world } from "../../support/native-world";

/** An account of another project of the coordinator's, to add to the demo project; a second coordinator of the demo project. */
export function seedGuest(): void {
  lexgold(["user", "add", "native-coord2", "--role", "coordinator", "--project", "demo"], "coord2-password-1\n");
  lexgold(["project", "create", "native-other"]);
  lexgold(["member", "add", "coordinator", "--project", "native-other"]);
  lexgold(["user", "add", "native-guest", "--role", "annotator", "--project", "native-other"], "guest-password-1\n");
}

const team = () => `/projects/${world.projectId}/members`;
const userId = (name: string) => one<{ id: number }>("select id from users where name = ?", name).id;
const role = (name: string) => one<{ role: string } | undefined>("select m.role from memberships m join users u on u.id = m.user_id where m.project_id = ? and u.name = ?", world.projectId, name)?.role;
/** The form of one member's row (its hidden userId). */
const forMember = (name: string) => (f: NativeForm) => f.fields.some((x) => x.name === "userId" && x.value === String(userId(name)));

describe("the Team tab (coordinator)", () => {
  it("creates an account and shows its initial password once", async () => {
    const a = await post("coordinator", team(), "Create and add", { set: { name: "native-ann1", password: "native-pass-0001" } });
    shows(a, "Created annotator native-ann1 and added them to the project.");
    shows(a, /Initial password for native-ann1 ?: native-pass-0001/);
    expect(role("native-ann1")).toBe("annotator");
  });

  it("refuses a name already taken, and says why", async () => {
    const a = await post("coordinator", team(), "Create and add", { set: { name: "native-ann1", password: "" } });
    expect(a.status).toBe(200);
    expect(a.html).toMatch(/field-error[^>]*>[^<]*(taken|exists|already)/i);
  });

  it("adds an existing account of another project", async () => {
    shows(await post("coordinator", team(), "Add to project", { set: { userId: String(userId("native-guest")), projectRole: "annotator" } }), "Added native-guest to the project.");
    expect(role("native-guest")).toBe("annotator");
  });

  it("sets a member's role and sets it back", async () => {
    const a = await post("coordinator", team(), "Set", { form: forMember("native-guest"), set: { projectRole: "judge" } });
    expect(a.status).toBe(200);
    expect(role("native-guest")).toBe("judge");
    await post("coordinator", team(), "Set", { form: forMember("native-guest"), set: { projectRole: "annotator" } });
    expect(role("native-guest")).toBe("annotator");
  });

  it("sets the annotators per instance and the guidelines", async () => {
    const required = () => one<{ n: number | null }>("select required_annotators as n from projects where id = ?", world.projectId).n;
    shows(await post("coordinator", team(), "Save", { set: { requiredAnnotators: "2" } }), "Each instance now needs 2 annotators.");
    expect(required()).toBe(2);
    shows(await post("coordinator", team(), "Save", { set: { requiredAnnotators: "" } }), "Each instance now needs everyone assigned to its lexelt.");
    expect(required()).toBeNull();
    shows(await post("coordinator", team(), "Save guidelines", { set: { guidelines: "Native guidelines." } }), "Guidelines saved.");
    expect(one<{ g: string }>("select guidelines as g from projects where id = ?", world.projectId).g).toBe("Native guidelines.");
  });

  it("restricts an annotator to one lexelt by hand, and gives them every lexelt again", async () => {
    const guest = userId("native-guest");
    const lexelt = one<{ id: number }>("select id from lexelts where project_id = ? order by position limit 1", world.projectId).id;
    const assigned = () => (world.db.prepare("select lexelt_id as id from assignments where project_id = ? and user_id = ?").all(world.projectId, guest) as { id: number }[]).map((r) => r.id);
    const editor = `${team()}?assign=${guest}`;
    shows(await post("coordinator", editor, "Save assignment for native-guest", { set: { scope: "some", lexelt: String(lexelt) } }), "Assigned 1 lexelt.");
    expect(assigned()).toEqual([lexelt]);
    shows(await post("coordinator", editor, "Save assignment for native-guest", { set: { scope: "all" } }), "Assigned every lexelt.");
    expect(assigned()).toEqual([]);
  });

  it("splits the lexelts: a preview first, applied only as previewed", async () => {
    const ids = [String(userId("annotator1")), String(userId("native-guest"))];
    const split = () => one<{ n: number }>("select count(*) as n from assignments where project_id = ? and user_id = ?", world.projectId, userId("native-guest")).n;
    const preview = await post("coordinator", team(), "Preview split", { set: { annotator: ids, k: "2" } });
    shows(preview, "Preview: nothing is saved until you confirm.");
    expect(split()).toBe(0);
    // Confirmed for another choice than the one previewed: previewed again, nothing saved.
    const changed = await post("coordinator", team(), "Preview split", { from: preview, button: "Confirm split", set: { annotator: ids, k: "1" } });
    shows(changed, "The choice changed since the preview");
    expect(split()).toBe(0);
    const applied = await post("coordinator", team(), "Preview split", { from: changed, button: "Confirm split" });
    shows(applied, /Split \d+ lexelts over 2 annotators, 1 per instance\./);
    expect(split()).toBeGreaterThan(0);
  });

  it("imports responses: the file previewed, then sent again and applied as previewed", async () => {
    const tsv = () => new File(["annotator\tlexelt\tinstance\tanswer\tmultiword\nnative-guest\tquiet.a\td1\tnoiseless\t\n"], "native.tsv", { type: "text/tab-separated-values" });
    const answers = () => one<{ n: number }>("select count(*) as n from responses where user_id = ?", userId("native-guest")).n;
    const preview = await follow(await post("coordinator", team(), "Preview import", { set: { file: tsv(), acceptUnassigned: "on" } }), "coordinator");
    shows(preview, "1 to add");
    expect(answers()).toBe(0);
    const done = await post("coordinator", preview.location!, "Import the previewed file", { from: preview, set: { file: tsv() } });
    // The job is followed by the page, which loads itself again until it ends.
    for (let i = 0; i < 60 && answers() === 0; i++) await new Promise((r) => setTimeout(r, 250));
    expect(answers()).toBe(1);
    expect((await follow(done, "coordinator")).status).toBe(200);
  });

  it("removes a member; their answers stay", async () => {
    const a = await post("coordinator", team(), "Remove", { form: forMember("native-guest") });
    expect(a.status).toBe(200);
    expect(role("native-guest")).toBeUndefined();
    expect(one<{ n: number }>("select count(*) as n from responses where user_id = ?", userId("native-guest")).n).toBe(1);
  });
});
