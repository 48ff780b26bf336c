/**
 * Large and damaged uploads on the Scoring page (issue #29): gzip files (told by their magic bytes)
 * are unzipped in pieces and bounded unzipped, the size limit comes from lib/config and holds a
 * best file of 1,000,000 items of real names, and a gold with a malformed line is refused, naming
 * the line, with nothing stored. (A run with errors asking for confirmation: scoring.test.ts.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { SETTINGS } from "../../../lib/config";
import { InputError } from "../../../lib/server/kernel/errors";
import { listGolds, storeGold } from "../../../lib/server/scoring/golds";
import { listRuns, runFile, uploadRun } from "../../../lib/server/scoring/runs";
import { MAX_RUN_BYTES, type UploadSource, decodeUpload, readUpload, typeFromFileName } from "../../../lib/server/scoring/uploads";
import { projectFixture } from "../../support/db";
import { goldFixture } from "../../support/gold-fixture";
import { run, upload } from "../../support/jobs";

const enc = (s: string) => new TextEncoder().encode(s);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-sup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dbFile = () => path.join(dir, `t${++n}.db`);

const GOLD = ["bright.a 1 :: intelligent 3;clever 2;smart 1;", "bright.a 2 :: luminous 2;light 1;", "keen.a 4 :: sharp 1;eager 1;", ""].join("\n");
const BEST = ["bright.a 1 :: clever;smart", "bright.a 2 :: luminous", ""].join("\n");

/** An InputError (of this module or of one loaded afresh: see `withLimit`). */
const isRefusal = (e: unknown): e is InputError => e instanceof Error && e.constructor.name === "InputError";

/** What an InputError thrown by `f` says, or null. */
function refusal(f: () => unknown): InputError | null {
  try {
    f();
  } catch (e) {
    if (isRefusal(e)) return e;
    throw e;
  }
  return null;
}

async function refusalOf(p: Promise<unknown>): Promise<InputError | null> {
  try {
    await p;
  } catch (e) {
    if (isRefusal(e)) return e;
    throw e;
  }
  return null;
}

/** An upload source handing out `bytes` in pieces of 16 KB as they are asked for, counting them (as a file's stream does). */
function counted(bytes: Uint8Array): { source: UploadSource; pulled: () => number } {
  const blob = new Blob([new Uint8Array(bytes)]);
  let pulled = 0;
  const source: UploadSource = {
    size: blob.size,
    slice: blob.slice.bind(blob),
    stream: () =>
      new ReadableStream<Uint8Array<ArrayBuffer>>({
        pull(c) {
          if (pulled >= bytes.byteLength) return c.close();
          const piece = new Uint8Array(bytes.subarray(pulled, pulled + 16384));
          pulled += piece.byteLength;
          c.enqueue(piece);
        },
      }),
  };
  return { source, pulled: () => pulled };
}

describe("gzip uploads", () => {
  it("a gzip file is read by its magic bytes, stored unzipped under its name without .gz, typed by the name under it", () => {
    const f = projectFixture();
    const goldId = storeGold(f.db, f.coord, f.project.id, { gold: { name: "g.gold", text: GOLD }, mwgold: null }).id!;
    expect(decodeUpload("KU.best.gz", gzipSync(BEST))).toEqual({ name: "KU.best", text: BEST });
    // The magic bytes decide, not the name.
    expect(decodeUpload("KU.best", gzipSync(BEST))).toEqual({ name: "KU.best", text: BEST });
    expect(typeFromFileName("KU.oot.gz")).toBe("oot");
    const r = uploadRun(f.db, f.coord, f.project.id, { fileName: "KU.best.gz", bytes: gzipSync(BEST), gold: goldId });
    expect(r.run).toMatchObject({ name: "KU", type: "best", fileName: "KU.best", bytes: enc(BEST).byteLength });
    expect(runFile(f.db, f.coord, f.project.id, r.run.id).content).toBe(BEST);
    // A gzip gold is stored unzipped too.
    expect(decodeUpload("g.gold.gz", gzipSync(GOLD), "gold")).toEqual({ name: "g.gold", text: GOLD });
  });

  it("read in pieces, a file of several MB with multi-byte characters split across pieces is the text sent, gzip or not", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 60_000; i++) lines.push(`café.n ${i} :: crème brûlée;naïve`);
    const text = lines.join("\n") + "\n";
    const plain = enc(text);
    expect(plain.byteLength).toBeGreaterThan(2_000_000);
    expect(await readUpload("c.best", new Blob([new Uint8Array(plain)]))).toEqual({ name: "c.best", text });
    expect(await readUpload("c.best.gz", new Blob([new Uint8Array(gzipSync(plain))]))).toEqual({ name: "c.best", text });
    // From disk, as the job that stores runs reads it.
    const p = path.join(dir, "c.best.gz");
    fs.writeFileSync(p, gzipSync(plain));
    expect((await readUpload("c.best.gz", await fs.openAsBlob(p))).text).toBe(text);
  });

  it("refuses, naming the file and the field, a gzip file that is not readable, not UTF-8 unzipped, empty unzipped or holding a NUL", async () => {
    const cases: [string, Uint8Array, RegExp, string][] = [
      ["broken", new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02, 0x03]), /^b\.best\.gz: not a readable gzip file \(.*\); nothing was saved\.$/, "Not a readable gzip file."],
      ["cut off", gzipSync(enc(BEST)).subarray(0, 20), /^b\.best\.gz: not a readable gzip file/, "Not a readable gzip file."],
      ["latin-1", gzipSync(new Uint8Array([0x61, 0x0a, 0x62, 0xe9, 0x0a])), /^b\.best\.gz:2: unzipped, not UTF-8 text; nothing was saved\.$/, "Not UTF-8 text."],
      ["empty", gzipSync(new Uint8Array()), /^b\.best\.gz: unzipped, the file is empty/, "The file is empty."],
      ["binary", gzipSync(enc("a\nb\nc\0")), /^b\.best\.gz:3: a NUL character/, "Not a text file."],
    ];
    for (const [why, bytes, message, field] of cases) {
      for (const e of [refusal(() => decodeUpload("b.best.gz", bytes)), await refusalOf(readUpload("b.best.gz", new Blob([new Uint8Array(bytes)])))]) {
        expect(isRefusal(e), why).toBe(true);
        expect(e!.message, why).toMatch(message);
        expect(e!.fieldErrors, why).toEqual({ file: field });
      }
    }
    const f = projectFixture();
    expect(refusal(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "b.best.gz", bytes: cases[0][1] }))).toBeInstanceOf(InputError);
    expect(listRuns(f.db, f.coord, f.project.id)).toEqual([]);
  });

  it("the jobs worker stores a gzip run and gold unzipped, and refuses a file that is not gzip but not text either", async () => {
    const f = goldFixture(dbFile());
    const text = "long.a d1 :: lengthy\n";
    const job = await run(f, "scoring-run", { path: upload(gzipSync(text)), fileName: "sys.best.gz", type: "", name: "", gold: "" });
    expect(job.state).toBe("done");
    expect((job.report as { run: { name: string; fileName: string; bytes: number } }).run).toMatchObject({ name: "sys", fileName: "sys.best", bytes: text.length });
    const g = await run(f, "scoring-gold", { name: "", gold: { path: upload(gzipSync(GOLD)), fileName: "z.gold.gz" }, mwgold: null });
    expect(g.state).toBe("done");
    expect(listGolds(f.db, f.coord, f.project.id).map((x) => [x.name, x.goldName])).toEqual([
      ["p (derived)", null],
      ["z", "z.gold"],
    ]);
    const bad = await run(f, "scoring-run", { path: upload(new Uint8Array([0x62, 0xff, 0x0a])), fileName: "bin.best", type: "", name: "", gold: "" });
    expect([bad.state, bad.message]).toEqual(["failed", "bin.best:1: not UTF-8 text; nothing was saved."]);
    expect(listRuns(f.db, f.coord, f.project.id)).toHaveLength(1);
    f.db.$client.close();
  });
});

describe("the size limit (LEXGOLD_MAX_RUN_BYTES)", () => {
  const saved = process.env.LEXGOLD_MAX_RUN_BYTES;
  afterEach(() => {
    if (saved === undefined) delete process.env.LEXGOLD_MAX_RUN_BYTES;
    else process.env.LEXGOLD_MAX_RUN_BYTES = saved;
    vi.resetModules();
  });

  /** uploads.ts loaded afresh with the limit set to `bytes` (it reads the setting when loaded, as a server does at start). */
  async function withLimit(bytes: number) {
    process.env.LEXGOLD_MAX_RUN_BYTES = String(bytes);
    vi.resetModules();
    return import("../../../lib/server/scoring/uploads");
  }

  it("comes from lib/config, and its default holds a best file of 1,000,000 items with CoInCo's longest names on every line", async () => {
    if (saved === undefined) expect(MAX_RUN_BYTES).toBe(SETTINGS.LEXGOLD_MAX_RUN_BYTES.default);
    // The worst realistic line: CoInCo's longest lexelt (the lemma "confidence inspiring", as the CoInCo
    // import names it), a seven-digit id, CoInCo's longest substitute (36 bytes) and a CRLF.
    const line = `confidence_inspiring.a 1000000 :: ${"x".repeat(36)}\r\n`;
    expect(line.length).toBe(72);
    expect(1_000_000 * line.length).toBeLessThanOrEqual(SETTINGS.LEXGOLD_MAX_RUN_BYTES.default);
    const u = await withLimit(1000);
    expect(u.MAX_RUN_BYTES).toBe(1000);
    expect(refusal(() => u.decodeUpload("a.best", new Uint8Array(1001).fill(0x61)))?.message).toBe("a.best: 1001 bytes is over the limit of 1000 bytes; nothing was saved.");
    expect(u.decodeUpload("a.best", new Uint8Array(1000).fill(0x61)).text).toHaveLength(1000);
    expect((await refusalOf(u.readUpload("a.best", new Blob([new Uint8Array(1001).fill(0x61)]))))?.fieldErrors).toEqual({ file: "Over the 1000 bytes limit." });
  });

  it("holds for the unzipped text: a file unzipping past it is refused, and reading stops soon after the limit (a gzip bomb)", async () => {
    const limit = 1024 * 1024;
    const u = await withLimit(limit);
    // Exactly the limit unzipped is taken; one byte more is not.
    const atLimit = gzipSync(new Uint8Array(limit).fill(0x61));
    expect(u.decodeUpload("a.best.gz", atLimit).text).toHaveLength(limit);
    expect((await u.readUpload("a.best.gz", new Blob([new Uint8Array(atLimit)]))).text).toHaveLength(limit);
    const over = gzipSync(new Uint8Array(limit + 1).fill(0x61));
    expect(refusal(() => u.decodeUpload("a.best.gz", over))?.message).toBe("a.best.gz: unzips to more than the limit of 1 MB; nothing was saved.");
    // A bomb: 400 gzip members of 1 MB each (they unzip one after another), some 400 KB sent, 400 MB unzipped.
    const member = gzipSync(new Uint8Array(limit).fill(0x61), { level: 9 });
    const bomb = new Uint8Array(member.byteLength * 400);
    for (let i = 0; i < 400; i++) bomb.set(member, i * member.byteLength);
    expect(bomb.byteLength).toBeLessThan(limit);
    expect(refusal(() => u.decodeUpload("bomb.best.gz", bomb))?.fieldErrors).toEqual({ file: "Unzips to more than 1 MB." });
    const source = counted(bomb);
    const e = await refusalOf(u.readUpload("bomb.best.gz", source.source));
    expect(e?.message).toBe("bomb.best.gz: unzips to more than the limit of 1 MB; nothing was saved.");
    // Read in pieces, it stopped long before the end of what was sent.
    expect(source.pulled()).toBeLessThan(bomb.byteLength / 2);
  });
});

describe("a gold with a malformed line", () => {
  it.each<[string, string, number, RegExp]>([
    ["cut off in an entry", "bright.a 1 :: intelligent 3;clever 2;\nbright.a 2 :: luminous 2;li", 2, /entry "li" has no count/],
    ["cut off before its entries", "bright.a 1 :: intelligent 3;clever 2;\nbright.a 2 :: luminous 2;\nkeen.a", 3, /not a gold line/],
    ["a line in no format", "bright.a 1 :: intelligent 3;\nthis is not a gold line\nbright.a 2 :: luminous 2;\n", 2, /not a gold line/],
  ])("is refused when %s, naming the line; nothing is stored and the golds stay as they were", (_why, text, line, what) => {
    const f = projectFixture();
    const before = listGolds(f.db, f.coord, f.project.id);
    const e = refusal(() => storeGold(f.db, f.coord, f.project.id, { gold: { name: "t.gold", text }, mwgold: null }));
    expect(e).toBeInstanceOf(InputError);
    expect(e!.message).toMatch(new RegExp(`^t\\.gold: the gold file has a malformed line, the first at line ${line}: `));
    expect(e!.message).toMatch(what);
    expect(e!.message).toMatch(/Nothing was stored\.$/);
    expect(e!.fieldErrors).toEqual({ gold: `Malformed line ${line}.` });
    expect(e!.details).toHaveLength(1);
    expect(e!.details[0]).toMatch(new RegExp(`^t\\.gold:${line}: error: `));
    expect(listGolds(f.db, f.coord, f.project.id)).toEqual(before);
    expect((f.db.$client.prepare("select count(*) as n from scoring_golds").get() as { n: number }).n).toBe(0);
  });

  it("an mwgold with a malformed line is refused too, with the gold beside it; many such lines are listed up to a point", () => {
    const f = projectFixture();
    const e = refusal(() =>
      storeGold(f.db, f.coord, f.project.id, { gold: { name: "t.gold", text: GOLD }, mwgold: { name: "t.mwgold", text: "take.v 1 :: take place 3;\ntake.v 2 :: take pl" } }),
    );
    expect(e?.message).toMatch(/^t\.mwgold: the mwgold file has a malformed line, the first at line 2: entry "take pl" has no count/);
    expect(e?.fieldErrors).toEqual({ mwgold: "Malformed line 2." });
    const many = Array.from({ length: 30 }, (_, i) => `junk ${i}`).join("\n");
    const m = refusal(() => storeGold(f.db, f.coord, f.project.id, { gold: { name: "m.gold", text: `${GOLD}${many}\n` }, mwgold: null }));
    expect(m?.message).toMatch(/^m\.gold: the gold file has malformed lines, the first at line 4:/);
    expect(m?.details).toHaveLength(21);
    expect(m?.details[20]).toBe("m.gold: error: and 10 more malformed lines");
    expect(listGolds(f.db, f.coord, f.project.id)).toHaveLength(1);
  });

  it("entries score.pl reads oddly but that have their count are real data: stored, with their warnings", () => {
    const f = projectFixture();
    // One-letter substitutes, a comma before the count, a number in a substitute, an empty field, a CRLF.
    const odd = "x.n 1 :: x 1;, 5;here , 1;11.27 kilograms 1;\ny.n 2 :: a b 2;;c 1\r\nz.n 3 :: glad 2;\n";
    const g = storeGold(f.db, f.coord, f.project.id, { gold: { name: "odd.gold", text: odd }, mwgold: null });
    expect(g.name).toBe("odd");
  });
});
