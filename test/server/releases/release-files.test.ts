/**
 * A release's files read back for the Release page (lib/server/releases/release-files.ts): its
 * plots, named as their SVGs name themselves; any file its manifest lists, byte for byte as the
 * archive holds it; nothing it does not list (a path out of its folder included); and only for
 * the project's coordinators.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectByName, SYSTEM } from "../../../lib/server/kernel/actor";
import { NotFoundError } from "../../../lib/server/kernel/errors";
import { seedDemo } from "../../../lib/server/ops/demo";
import { createProject } from "../../../lib/server/corpus/projects";
import { packArchive, readArchive } from "../../../lib/server/releases/archive";
import { releaseFile, releaseFileType, releasePlots } from "../../../lib/server/releases/release-files";
import { createRelease, releaseArchive } from "../../../lib/server/releases/releases";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, testDb } from "../../support/db";

const samples = path.resolve(__dirname, "../../../samples");

async function released() {
  const db = testDb();
  seedDemo(db, { fileName: "demo.xml", bytes: readFileSync(path.join(samples, "demo.xml")) }, { fileName: "demo-responses.tsv", text: readFileSync(path.join(samples, "demo-responses.tsv"), "utf8") });
  const projectId = findProjectByName(db, SYSTEM, "demo", { coordinator: true }).id;
  const r = await createRelease(db, SYSTEM, projectId, { version: "1.0.0" });
  return { db, projectId, releaseId: r.id };
}

describe("a release's files, read back", () => {
  it("lists the plots the archive carries, each with the title and description its SVG gives", async () => {
    const { db, projectId, releaseId } = await released();
    const plots = await releasePlots(db, SYSTEM, projectId, releaseId);
    const archived = [...(await readArchive(releaseArchive(db, SYSTEM, projectId, releaseId).bytes)).keys()].filter((p) => /\/agreement\/[^/]+\.svg$/.test(p));
    expect(plots.map((p) => `demo-1.0.0/${p.path}`).sort()).toEqual(archived.sort());
    expect(plots.length).toBeGreaterThanOrEqual(2);
    for (const p of plots) {
      expect(p.title).not.toBe(p.path);
      expect(p.title).not.toMatch(/[<>]|&amp;/);
      expect(p.description.length).toBeGreaterThan(0);
    }
    expect(plots.find((p) => p.path === "agreement/item-agreement.svg")?.title).toMatch(/^Per-item pairwise agreement over \d+ items?$/);
  });

  it("serves any file the manifest lists byte for byte, with a type by its name", async () => {
    const { db, projectId, releaseId } = await released();
    const all = await readArchive(releaseArchive(db, SYSTEM, projectId, releaseId).bytes);
    for (const p of ["formats/demo.gold", "agreement/pair-agreement.svg", "SHA256SUMS", "data/answers.jsonl"]) {
      const f = await releaseFile(db, SYSTEM, projectId, releaseId, p);
      expect(f.bytes.equals(all.get(`demo-1.0.0/${p}`)!)).toBe(true);
    }
    expect((await releaseFile(db, SYSTEM, projectId, releaseId, "agreement/item-agreement.svg")).contentType).toBe("image/svg+xml");
    expect(releaseFileType("agreement/agreement.json")).toBe("application/json; charset=utf-8");
    expect(releaseFileType("formats/demo.xml")).toBe("text/plain; charset=utf-8");
  });

  it("serves no path the manifest does not list", async () => {
    const { db, projectId, releaseId } = await released();
    for (const p of ["../../demo-1.0.0/README.md", "demo-1.0.0/README.md", "formats", "agreement/../README.md", "", "nope.svg"]) {
      await expect(releaseFile(db, SYSTEM, projectId, releaseId, p)).rejects.toBeInstanceOf(NotFoundError);
    }
  });

  it("answers the project's coordinators only: an annotator and another project's coordinator are refused", async () => {
    const { db, projectId, releaseId } = await released();
    const ann = actorFor(db, "reader", "annotator");
    addMember(db, SYSTEM, projectId, "reader");
    const other = actorFor(db, "other", "coordinator");
    createProject(db, other, { name: "elsewhere" });
    for (const actor of [ann, other]) {
      await expect(releasePlots(db, actor, projectId, releaseId)).rejects.toThrow();
      await expect(releaseFile(db, actor, projectId, releaseId, "formats/demo.gold")).rejects.toThrow();
    }
    const coord = actorFor(db, "second", "coordinator");
    addMember(db, SYSTEM, projectId, "second", "coordinator");
    expect((await releaseFile(db, coord, projectId, releaseId, "formats/demo.gold")).bytes.length).toBeGreaterThan(0);
  });
});

describe("readArchive", () => {
  const files = ["r/a.txt", "r/b.txt", "r/c/d.txt"].map((p, k) => ({ path: p, content: Buffer.from(`${p} `.repeat(1000 * (k + 1))) }));

  it("gives every file, or only those kept, and stops once it has as many as asked for", async () => {
    const { bytes } = await packArchive(files, new Date(0));
    expect([...(await readArchive(bytes)).keys()]).toEqual(files.map((f) => f.path));
    const kept = await readArchive(bytes, (p) => p.endsWith("b.txt"));
    expect([...kept.keys()]).toEqual(["r/b.txt"]);
    expect(kept.get("r/b.txt")).toEqual(files[1].content);
    // Stopping after the first file: what follows it is never read, so damage there does not matter.
    const cut = bytes.subarray(0, bytes.length - 40);
    await expect(readArchive(cut)).rejects.toThrow();
    const first = await readArchive(cut, (p) => p === "r/a.txt", 1);
    expect([...first.entries()]).toEqual([["r/a.txt", files[0].content]]);
  });
});
