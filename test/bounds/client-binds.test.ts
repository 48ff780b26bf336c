/**
 * No client component binds a function with `.bind(` (#38 item 2). A server action bound in the
 * browser's code (`action.bind(null, id)` in a "use client" file) makes a new bound-arguments
 * promise on every render; when the page answers a form posted without JavaScript (or before
 * hydration), React's server render of `useActionState` suspends on that promise, renders again,
 * binds again — for ever, in microtasks, so the server process never serves anything else and
 * ignores SIGTERM. Actions are bound in server components and handed down as props (a bound
 * reference that comes from the server resolves once), or wrapped in a closure when they are only
 * ever called from script. test/server/native-forms/native-forms.test.ts posts every such form natively.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

const clientFiles = sources("app").filter((f) => /^\s*["']use client["']/.test(fs.readFileSync(path.join(ROOT, f), "utf8")));

describe("client components bind no server action", () => {
  it("finds the client components", () => {
    expect(clientFiles.length).toBeGreaterThan(10);
  });

  it.each(clientFiles)("%s calls no .bind(", (file) => {
    const lines = fs
      .readFileSync(path.join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (/\.bind\s*\(/.test(line.replace(/\/\/.*$/, "")) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    expect(lines).toEqual([]);
  });
});
