/**
 * No function in app/ (a page, a component, a hook, a route's handler) grows past MAX_LINES: a page
 * is read as named parts, each at a sitting (#43). Counted with the TypeScript compiler's own parse,
 * from the function's first line to its last.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const MAX_LINES = 150;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** Each named function of a file (declarations, and arrow functions or function expressions given to a name) with its length in lines. */
function functionLengths(file: string, text: string): { name: string; lines: number }[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { name: string; lines: number }[] = [];
  const visit = (n: ts.Node) => {
    let name: string | undefined;
    if (ts.isFunctionDeclaration(n) && n.name) name = n.name.text;
    else if (ts.isMethodDeclaration(n) && ts.isIdentifier(n.name)) name = n.name.text;
    else if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent) && ts.isIdentifier(n.parent.name)) name = n.parent.name.text;
    else if (ts.isFunctionDeclaration(n) && !n.name) name = "default";
    if (name !== undefined) {
      const first = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      out.push({ name, lines: last - first + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe("function size", () => {
  it("measures a function from its first line to its last, arrow functions too", () => {
    const text = "export function A() {\n  return 1;\n}\nconst b = () => {\n  const c = function () {\n    return 2;\n  };\n};\n";
    expect(functionLengths("x.ts", text)).toEqual([
      { name: "A", lines: 3 },
      { name: "b", lines: 5 },
      { name: "c", lines: 3 },
    ]);
  });

  it(`keeps every function in app/ under ${MAX_LINES} lines`, () => {
    const over = sources("app").flatMap((file) =>
      functionLengths(file, fs.readFileSync(path.join(ROOT, file), "utf8"))
        .filter((f) => f.lines > MAX_LINES)
        .map((f) => `${file}: ${f.name} (${f.lines} lines)`),
    );
    expect(over).toEqual([]);
  });
});
