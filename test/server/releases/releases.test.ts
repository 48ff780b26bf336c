/**
 * Releases (issue #42): a release of the demo project holds every file the issue names, each
 * checked by its SHA-256; its gold re-imported (the SWORDS export, through the datasets import)
 * is the project's gold; it is frozen (later edits change neither its rows nor its bytes; the
 * database refuses to change or delete them) and made from one snapshot; pseudonyms are stable
 * across releases and no account name is in it unless asked; left-out and excluded answers are
 * marked; the next release says what changed.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { seedDemo } from "../../../lib/server/ops/demo";
import { createRelease, datasheetAnswers, listReleases, releaseArchive, releaseDetail, saveDatasheet } from "../../../lib/server/releases/releases";
import { readArchive } from "../../../lib/server/releases/archive";
import { importDatasetAsNewProject } from "../../../lib/server/datasets/datasets";
import { projectGold, setExclusion } from "../../../lib/server/gold/gold";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { findProjectByName } from "../../../lib/server/kernel/actor";
import Database from "better-sqlite3";
import { parseGold } from "../../../lib/lexsub/formats/gold";
import { backupDatabase } from "../../../lib/server/ops/backup";
import { testDb } from "../../support/db";
import { openDb } from "../../../db/client";

const samples = path.resolve(__dirname, "../../../samples");
const corpus = { fileName: "demo.xml", bytes: readFileSync(path.join(samples, "demo.xml")) };
const demo = { fileName: "demo-responses.tsv", text: readFileSync(path.join(samples, "demo-responses.tsv"), "utf8") };

function demoDb() {
  const db = testDb();
  seedDemo(db, corpus, demo);
  const project = findProjectByName(db, SYSTEM, "demo", { coordinator: true });
  return { db, projectId: project.id };
}

async function files(db: ReturnType<typeof testDb>, projectId: number, releaseId: number) {
  const a = releaseArchive(db, SYSTEM, projectId, releaseId);
  return { archive: a, files: await readArchive(a.bytes) };
}

const text = (m: Map<string, Buffer>, suffix: string) => {
  const hit = [...m.entries()].find(([p]) => p.endsWith(suffix));
  if (!hit) throw new Error(`no ${suffix} in ${[...m.keys()].join(", ")}`);
  return hit[1].toString("utf8");
};

describe("a release of the demo project", () => {
  it("holds every file, checksummed, in one folder named after the project and version", async () => {
    const { db, projectId } = demoDb();
    const r = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    const { archive, files: f } = await files(db, projectId, r.id);
    expect(crypto.createHash("sha256").update(archive.bytes).digest("hex")).toBe(r.archiveSha256);
    expect(archive.fileName).toBe("demo-1.0.0.tar.gz");
    const names = [...f.keys()].map((p) => p.replace(/^demo-1\.0\.0\//, ""));
    expect([...f.keys()].every((p) => p.startsWith("demo-1.0.0/"))).toBe(true);
    for (const expected of [
      "README.md",
      "CITATION.cff",
      "DATASHEET.md",
      "CHANGES.md",
      "guidelines.md",
      "SHA256SUMS",
      "formats/demo.xml",
      "formats/demo.gold",
      "formats/demo.mwgold",
      "formats/demo.coinco.xml",
      "formats/demo.swords.json",
      "formats/demo.tsar.tsv",
      "data/gold.jsonl",
      "data/instances.jsonl",
      "data/answers.jsonl",
      "agreement/agreement.json",
      "agreement/agreement.txt",
      "agreement/item-agreement.svg",
      "agreement/pair-agreement.svg",
      "agreement/answers-per-day.svg",
    ]) {
      expect(names).toContain(expected);
    }
    // The plots are standalone SVG files with a title and a description, as the pages draw them.
    for (const svg of ["item-agreement", "pair-agreement", "answers-per-day"]) {
      const t = text(f, `agreement/${svg}.svg`);
      expect(t).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(t).toMatch(/<title id="[^"]+-title">[^<]+<\/title><desc id="[^"]+-desc">[^<]+<\/desc>/);
    }
    expect(text(f, "agreement/pair-agreement.svg")).toContain("A001");
    // SHA256SUMS names every other file with its hash, as sha256sum -c reads it.
    const sums = text(f, "SHA256SUMS").trim().split("\n");
    expect(sums).toHaveLength(f.size - 1);
    for (const line of sums) {
      const [hash, name] = line.split("  ");
      expect(crypto.createHash("sha256").update(f.get(`demo-1.0.0/${name}`)!).digest("hex")).toBe(hash);
    }
    expect(releaseDetail(db, SYSTEM, projectId, r.id).manifest.map((m) => m.path).sort()).toEqual(names.filter((n) => n !== "SHA256SUMS").sort());
  });

  it("has the project's gold: read back by the scorer's reader, and its SWORDS file imported back, it is the project's", async () => {
    const { db, projectId } = demoDb();
    const r = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    const { files: f } = await files(db, projectId, r.id);
    const gold = projectGold(db, SYSTEM, projectId);
    expect(text(f, "formats/demo.gold")).toBe(gold.gold);
    expect(text(f, "formats/demo.mwgold")).toBe(gold.mwgold);
    // Read by the scorer's own reader: the same entries as the derived gold, item by item.
    const read = parseGold(text(f, "formats/demo.gold"), "demo.gold");
    expect(read.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const derived = gold.result.items.filter((i) => i.line !== null && i.excluded === null);
    expect(read.lines.map((l) => [l.lexelt, l.id, l.entries])).toEqual(derived.map((i) => [i.lexelt, i.instanceId, [...i.entries]]));
    // Imported back through the datasets import: the same gold, but for what the export said SWORDS cannot carry.
    const swords = f.get("demo-1.0.0/formats/demo.swords.json")!;
    const losses = releaseDetail(db, SYSTEM, projectId, r.id).summary.losses.swords.join(" ");
    importDatasetAsNewProject(db, SYSTEM, "demo-back", { format: "swords", fileName: "demo.swords.json", bytes: swords });
    const again = findProjectByName(db, SYSTEM, "demo-back", { coordinator: true });
    const byId = (t: string) => new Map(parseGold(t, "g").lines.map((l) => [l.id, l.entries.filter((e) => e.substitute !== "pn")]));
    const back = byId(projectGold(db, SYSTEM, again.id).gold);
    for (const [id, entries] of byId(gold.gold)) if (entries.length) expect(back.get(id), id).toEqual(entries);
    expect(losses).toMatch(/NAME|pn/);
    // The JSON Lines gold says the same, line by line.
    const rows = text(f, "data/gold.jsonl").trim().split("\n").map((l) => JSON.parse(l) as { gold_line: string | null });
    expect(rows.map((x) => x.gold_line).filter((l): l is string => l !== null)).toEqual(derived.map((i) => i.line));
  });

  it("names annotators by stable pseudonyms, never by account, unless asked", async () => {
    const { db, projectId } = demoDb();
    const r1 = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    const a1 = text((await files(db, projectId, r1.id)).files, "data/answers.jsonl");
    const all = [...(await files(db, projectId, r1.id)).files.values()].map((b) => b.toString("utf8")).join("\n");
    for (const name of ["annotator1", "annotator2", "annotator3", "annotator4", "annotator5"]) expect(all).not.toContain(name);
    type Row = { annotator: string; name?: string; lexelt: string; instance: string };
    const rows = (s: string) => s.trim().split("\n").map((l) => JSON.parse(l) as Row);
    const rows1 = rows(a1);
    expect([...new Set(rows1.map((x) => x.annotator))].sort()).toEqual(["A001", "A002", "A003", "A004"]);
    expect(rows1.every((x) => !("name" in x))).toBe(true);
    const r2 = await createRelease(db, SYSTEM, projectId, { version: "1.1.0", names: true });
    const rows2 = rows(text((await files(db, projectId, r2.id)).files, "data/answers.jsonl"));
    // Asked for names, the release carries them beside the pseudonyms, which are the same as before.
    const byName = new Map(rows2.map((x) => [x.name, x.annotator]));
    expect(byName.size).toBe(4);
    const key = (x: Row) => `${x.lexelt} ${x.instance} ${x.annotator}`;
    expect(rows2.map(key).sort()).toEqual(rows1.map(key).sort());
    expect([...byName.keys()].sort()).toEqual(["annotator2", "annotator3", "annotator4", "annotator5"]);
  });

  it("marks answers on excluded instances, and is frozen: a later edit changes neither it nor its bytes", async () => {
    const { db, projectId } = demoDb();
    setExclusion(db, SYSTEM, projectId, "d1", "a typo in the sentence");
    const r1 = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    const before = releaseArchive(db, SYSTEM, projectId, r1.id).bytes;
    const answers = text((await files(db, projectId, r1.id)).files, "data/answers.jsonl")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { instance: string; status: string; reason: string | null });
    expect(answers.filter((a) => a.instance === "d1").every((a) => a.status === "excluded instance" && a.reason === "a typo in the sentence")).toBe(true);
    expect(answers.filter((a) => a.instance !== "d1").every((a) => a.status === "counted")).toBe(true);

    // Later edits: another exclusion and a new answer.
    setExclusion(db, SYSTEM, projectId, "d2", "off topic");
    const ann1 = db.$client.prepare("select id from users where name = 'annotator1'").get() as { id: number };
    const d3 = db.$client.prepare("select id from instances where instance_id = 'd3' and project_id = ?").get(projectId) as { id: number };
    saveResponse(db, { kind: "user", userId: ann1.id, name: "annotator1", role: "annotator" }, projectId, d3.id, { kind: "substitutes", substitutes: ["calm"], multiword: false }, { expectedRevision: 0 });
    expect(releaseArchive(db, SYSTEM, projectId, r1.id).bytes.equals(before)).toBe(true);
    expect(() => db.$client.prepare("update releases set version = '9.9.9' where id = ?").run(r1.id)).toThrow(/frozen/);
    expect(() => db.$client.prepare("update release_archives set archive = x'00' where release_id = ?").run(r1.id)).toThrow(/frozen/);
    expect(() => db.$client.prepare("delete from releases where id = ?").run(r1.id)).toThrow(/frozen/);

    // The next release says what changed; the new annotator gets the next pseudonym.
    const r2 = await createRelease(db, SYSTEM, projectId, { version: "1.1.0" });
    const d = releaseDetail(db, SYSTEM, projectId, r2.id);
    expect(d.summary.changes?.previous).toBe("1.0.0");
    expect(d.summary.changes?.goldLines.removed).toBe(1);
    expect(d.summary.changes?.facts.after.excludedInstances).toBe(2);
    const changes = text((await files(db, projectId, r2.id)).files, "CHANGES.md");
    expect(changes).toContain("since 1.0.0");
    const a2 = text((await files(db, projectId, r2.id)).files, "data/answers.jsonl");
    expect(a2).toContain('"annotator":"A005"');
    expect(listReleases(db, SYSTEM, projectId).map((r) => r.version)).toEqual(["1.1.0", "1.0.0"]);
  });

  it("refuses a version already released, or not a version, writing nothing", async () => {
    const { db, projectId } = demoDb();
    await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    await expect(createRelease(db, SYSTEM, projectId, { version: "1.0.0" })).rejects.toThrow(/already has a release 1\.0\.0/);
    await expect(createRelease(db, SYSTEM, projectId, { version: "v1" })).rejects.toThrow(/MAJOR\.MINOR\.PATCH/);
    expect(listReleases(db, SYSTEM, projectId)).toHaveLength(1);
  });

  it("carries the datasheet's answers as they were when it was made, with the facts the app knows", async () => {
    const { db, projectId } = demoDb();
    saveDatasheet(db, SYSTEM, projectId, { authors: "Smith, Ann\nLexgold Lab", licence: "CC-BY-4.0", motivation: "To test the release." });
    expect(() => saveDatasheet(db, SYSTEM, projectId, { licence: "free for all" })).toThrow(/SPDX/);
    const r = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    saveDatasheet(db, SYSTEM, projectId, { motivation: "Changed later." });
    expect(datasheetAnswers(db, SYSTEM, projectId).answers.motivation).toBe("Changed later.");
    const f = (await files(db, projectId, r.id)).files;
    const sheet = text(f, "DATASHEET.md");
    expect(sheet).toContain("To test the release.");
    expect(sheet).toMatch(/40 instances .* in 9 lexelts/);
    expect(sheet).toMatch(/Pairwise|pairwise/);
    const cff = text(f, "CITATION.cff");
    expect(cff).toContain('family-names: "Smith"');
    expect(cff).toContain('- name: "Lexgold Lab"');
    expect(cff).toContain('license: "CC-BY-4.0"');
    const card = text(f, "README.md");
    expect(card.split("\n")[0]).toBe("---");
    expect(card).toMatch(/configs:\n {2}- config_name: "gold"\n {4}default: true\n {4}data_files:\n {6}- split: "test"\n {8}path: "data\/gold\.jsonl"/);
    expect(card).toContain('license: "cc-by-4.0"');
  });

  it("is read by a plain Python script as a dataset loader reads it: checksums, the card's configs, one table per JSON Lines file", async () => {
    const { db, projectId } = demoDb();
    const r = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
    const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-release-"));
    try {
      const file = path.join(dir, "demo-1.0.0.tar.gz");
      writeFileSync(file, releaseArchive(db, SYSTEM, projectId, r.id).bytes);
      const run = spawnSync("python3", [path.resolve(__dirname, "../../../scripts/release/read_release.py"), file], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("gold/test: 40 rows");
      expect(run.stdout).toContain("answers/test: 160 rows");
      expect(run.stdout.trim().split("\n").at(-1)).toBe("ok");
      // A file changed after the release is caught.
      const tampered = spawnSync("python3", ["-c", `import tarfile,io,sys
src=tarfile.open(sys.argv[1]);dst=tarfile.open(sys.argv[2],"w:gz")
for m in src.getmembers():
    data=src.extractfile(m).read() if m.isfile() else None
    if m.name.endswith("data/gold.jsonl"): data=data.replace(b"silent",b"sIlent");m.size=len(data)
    dst.addfile(m,io.BytesIO(data) if data is not None else None)
dst.close()`, file, path.join(dir, "bad.tar.gz")]);
      expect(tampered.status).toBe(0);
      const bad = spawnSync("python3", [path.resolve(__dirname, "../../../scripts/release/read_release.py"), path.join(dir, "bad.tar.gz")], { encoding: "utf8" });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/data\/gold\.jsonl: its SHA-256 is not the one in SHA256SUMS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("goes into backups: a backup of the database holds the release, byte for byte", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-release-backup-"));
    const db = openDb(path.join(dir, "live.db"));
    try {
      seedDemo(db, corpus, demo);
      const projectId = findProjectByName(db, SYSTEM, "demo", { coordinator: true }).id;
      const r = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
      const file = path.join(dir, "copy.db");
      await backupDatabase(db, SYSTEM, file);
      const copy = new Database(file, { readonly: true });
      const row = copy.prepare("select r.archive_sha256 as sha, a.archive as bytes from releases r join release_archives a on a.release_id = r.id where r.id = ?").get(r.id) as { sha: string; bytes: Buffer };
      copy.close();
      expect(row.sha).toBe(r.archiveSha256);
      expect(crypto.createHash("sha256").update(row.bytes).digest("hex")).toBe(r.archiveSha256);
    } finally {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
