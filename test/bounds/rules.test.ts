/**
 * The boundary rules (.dependency-cruiser.cjs) catch what they say they catch: a small tree
 * with one offending import per rule, cruised with the project's own configuration.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

const FILES: Record<string, string> = {
  "lib/server/kernel/actor.ts": "export const actor = 1;\n",
  "lib/server/kernel/index.ts": 'export { actor } from "./actor";\n',
  "lib/server/annotate/index.ts": 'export { save } from "./save";\n',
  "lib/server/annotate/save.ts": "export const save = 1;\n",
  "lib/server/annotate/actor-free.ts": 'export { save as saveWithoutActor } from "./save";\n',
  "lib/lexsub/types.ts": "export type T = string;\n",
  // Clean: the domain importing itself; app importing lib/server; a test reaching anywhere.
  "lib/lexsub/clean.ts": 'import type { T } from "./types";\nexport const clean: T = "";\n',
  "app/ok.tsx": 'import { actor } from "@/lib/server/kernel";\nexport const ok = actor;\n',
  "test/reach.ts":
    'import fs from "node:fs";\nimport { actor } from "../lib/server/kernel/actor";\nimport { a } from "../app/page";\nexport const r = [fs, actor, a];\n',
  // One offence each.
  "lib/lexsub/io.ts": 'import fs from "node:fs";\nimport { useState } from "react";\nexport const io = [fs, useState];\n',
  "lib/scorers/x/a.ts": 'import { actor } from "@/lib/server/kernel/actor";\nexport const a = actor;\n',
  "lib/lexsub/uses-scorer.ts": 'import { a } from "../scorers/x/a";\nexport const u = a;\n',
  "db/up.ts": 'import { actor } from "../lib/server/kernel/actor";\nexport const up = actor;\n',
  // db/ may read its settings from lib/config, which itself imports nothing of lexgold.
  "db/settings.ts": 'import { setting } from "../lib/config";\nexport const s = setting;\n',
  "lib/config/index.ts": 'import { actor } from "../server/kernel/actor";\nexport const setting = actor;\n',
  "app/page.tsx": 'import { sql } from "drizzle-orm";\nexport const a = sql;\n',
  "lib/server/back.ts": 'import { a } from "@/app/page";\nexport const back = a;\n',
  "test/cycle-a.ts": 'import { b } from "./cycle-b";\nexport const a = () => b;\n',
  "test/cycle-b.ts": 'import { a } from "./cycle-a";\nexport const b = () => a;\n',
  "lib/net/n.ts": 'import { w } from "../wordnet/w";\nexport const n = () => w;\n',
  "lib/wordnet/w.ts": 'import { n } from "../net/n";\nexport const w = () => n;\n',
  // A feature reaching another: through its index or its actor-free entry, never into its files; the kernel directly.
  "lib/server/ops/reach.ts":
    'import { save } from "../annotate/save";\nimport * as annotate from "../annotate";\nimport { saveWithoutActor } from "../annotate/actor-free";\nimport { actor } from "../kernel/actor";\nexport const r = [save, annotate, saveWithoutActor, actor];\n',
  // app/ reaching a feature: through its index only, not its actor-free entry.
  "app/feature.tsx":
    'import { save } from "@/lib/server/annotate/save";\nimport * as annotate from "@/lib/server/annotate";\nimport { saveWithoutActor } from "@/lib/server/annotate/actor-free";\nexport const f = [save, annotate, saveWithoutActor];\n',
};

type Violation = { from: string; to: string; rule: { name: string } };

let dir: string;

function cruise(config: string): Violation[] {
  const r = spawnSync(
    process.execPath,
    [CLI, "app", "lib", "db", "test", "--config", config, "--output-type", "json"],
    { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (!r.stdout) throw new Error(`dependency-cruiser printed nothing: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const names = (vs: Violation[], from: string) =>
  vs
    .filter((v) => v.from === from)
    .map((v) => v.rule.name)
    .sort();

describe("boundary rules", () => {
  let violations: Violation[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-bounds-"));
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { moduleResolution: "bundler", jsx: "react-jsx", paths: { "@/*": ["./*"] } } }),
    );
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    violations = cruise(path.join(ROOT, ".dependency-cruiser.cjs"));
  }, 60_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps lib/lexsub and the scorers pure: no fs, no React, nothing of the application", () => {
    expect(names(violations, "lib/lexsub/io.ts")).toEqual(["pure-no-io", "pure-no-io"]);
    // Through the @/ alias: the rule sees the real module.
    expect(violations).toContainEqual(
      expect.objectContaining({ from: "lib/scorers/x/a.ts", to: "lib/server/kernel/actor.ts", rule: expect.objectContaining({ name: "pure-not-to-app-side" }) }),
    );
    expect(names(violations, "lib/lexsub/uses-scorer.ts")).toEqual(["lexsub-not-to-scorers"]);
  });

  it("holds the layers: db/ below all, app/ without drizzle, nothing importing app/", () => {
    expect(names(violations, "db/up.ts")).toEqual(["db-not-up"]);
    expect(names(violations, "db/settings.ts")).toEqual([]);
    expect(names(violations, "lib/config/index.ts")).toEqual(["config-is-a-leaf"]);
    expect(names(violations, "app/page.tsx")).toEqual(["app-not-to-db"]);
    expect(names(violations, "lib/server/back.ts")).toEqual(["nothing-to-app"]);
  });

  it("finds module cycles (in tests too) and folder cycles", () => {
    expect(names(violations, "test/cycle-a.ts")).toContain("no-module-cycle");
    expect(violations).toContainEqual(expect.objectContaining({ from: "lib/net", to: "lib/wordnet", rule: expect.objectContaining({ name: "no-folder-cycle" }) }));
  });

  it("lets clean code and the tests' reach through", () => {
    for (const file of ["lib/lexsub/clean.ts", "app/ok.tsx", "test/reach.ts"]) expect(names(violations, file)).toEqual([]);
  });

  it("lets a lib/server feature into another only through its index or its actor-free entry, and into the kernel directly", () => {
    const border = violations.filter((v) => v.rule.name === "feature-to-feature-through-index");
    expect(border.map((v) => `${v.from} -> ${v.to}`)).toEqual(["lib/server/ops/reach.ts -> lib/server/annotate/save.ts"]);
  });

  it("lets app/ into a lib/server feature only through its index", () => {
    const feature = violations.filter((v) => v.rule.name === "app-to-server-through-feature-index");
    expect(feature.map((v) => `${v.from} -> ${v.to}`).sort()).toEqual(["app/feature.tsx -> lib/server/annotate/actor-free.ts", "app/feature.tsx -> lib/server/annotate/save.ts"]);
  });
});
