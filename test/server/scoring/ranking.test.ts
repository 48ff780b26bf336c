import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../lib/server/kernel/errors";
import { scoreRankingUpload } from "../../../lib/server/scoring/ranking";
import { world } from "../../security/world";

const enc = (s: string) => new TextEncoder().encode(s);
const samples = path.resolve(__dirname, "../../../samples/ranking");
const fixtures = path.resolve(__dirname, "../../fixtures/ranking");

describe("scoreRankingUpload", () => {
  it("ranks TSAR runs, best first", () => {
    const w = world();
    const r = scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, {
      benchmark: "tsar",
      gold: { name: "tsar-gold.tsv", bytes: readFileSync(path.join(samples, "tsar-gold.tsv")) },
      runs: ["tsar-run-weak.tsv", "tsar-run-good.tsv"].map((n) => ({ name: n, bytes: readFileSync(path.join(samples, n)) })),
    });
    expect(r.table.rows.map((x) => x.run)).toEqual(["tsar-run-good.tsv", "tsar-run-weak.tsv"]);
    expect(r.table.rows[1].values[0]).toBe(0.3333);
  });
  it("reads a gzipped SWORDS dataset", () => {
    const w = world();
    const r = scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, {
      benchmark: "swords",
      gold: { name: "sample.json.gz", bytes: gzipSync(readFileSync(path.join(fixtures, "swords-sample.json"))) },
      runs: [{ name: "result.json", bytes: readFileSync(path.join(fixtures, "swords-sample-result.json")) }],
    });
    expect(r.table.rows[0].values[r.table.columns.indexOf("strict_c_p@1")]).toBeCloseTo(200 / 3, 10);
  });
  it("refuses with the file and line when nothing can be scored, and asks for a gold where one is needed", () => {
    const w = world();
    const call = (gold: boolean) =>
      scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, {
        benchmark: "tsar",
        gold: gold ? { name: "g.tsv", bytes: enc("A cat sat.\tsat\trested\n") } : null,
        runs: [{ name: "r.tsv", bytes: enc("A dog ran.\tran\tsped\n") }],
      });
    expect(() => call(true)).toThrow(/r\.tsv:1/);
    expect(() => call(false)).toThrow(InputError);
  });
  it("TSAR files are read as tsar_eval.py's Python reads them: a lone CR ends a line; bytes that are not UTF-8 are refused with line and offset", () => {
    const w = world();
    const gold = { name: "g.tsv", bytes: enc("the cat sat\tcat\tdog\na red car\tcar\tauto\n") };
    const call = (run: Uint8Array) => scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, { benchmark: "tsar", gold, runs: [{ name: "r.tsv", bytes: run }] });
    // two instances, the first right at rank 1: ACC@1 0.5
    expect(call(enc("the cat sat\tcat\tdog\ra red car\tcar\tbus\r")).table.rows[0].values[0]).toBe(0.5);
    // 20 bytes on line 1, then "x\ty": the 0xff is byte 23, on line 2
    expect(() => call(new Uint8Array([...enc("the cat sat\tcat\tdog\nx\ty"), 0xff]))).toThrow(/r\.tsv:2: error: not UTF-8: byte 0xff at byte offset 23/);
  });
  it("GAP against the project's gold when none is uploaded", () => {
    const w = world();
    const r = scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, { benchmark: "gap", gold: null, runs: [{ name: "r.oot", bytes: enc("x.n 1 ::: a;b\n") }] });
    expect(r.table.gold).toMatch(/\.gold$/);
    expect(r.table.columns).toEqual(["GAP", "P@1", "P@3", "R@10"]);
  });
});

describe("scoreRankingUpload in a project of another language (#40)", () => {
  it("reads an oot run's lexelts as UTF-8 there, so Plünderung.n is matched whole; in an English project it is not", () => {
    const gold = { name: "g.gold", bytes: enc("Plünderung.n 1 :: Raub 2;Beutezug 1;\n") };
    const runs = [{ name: "r.oot", bytes: enc("Plünderung.n 1 ::: Raub;Beutezug\n") }];
    const w = world();
    // Read as bytes (score.pl), the run's lexelt is `nderung.n`: lst_gap.py would stop (KeyError), so nothing is scored.
    expect(() => scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, { benchmark: "gap", gold, runs })).toThrow(/"Plünderung\.n 1" is not in r\.oot/);
    w.db.$client.prepare("update projects set language = 'de' where id = ?").run(w.p.id);
    const german = scoreRankingUpload(w.db, w.actor("coordinator"), w.p.id, { benchmark: "gap", gold, runs });
    expect(german.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(german.table.rows[0].values[0]).toBe(1);
  });
});
