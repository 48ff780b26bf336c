import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lexeltXml } from "../../bench/lib/corpus";
import {
  actionStateTree,
  cacheBustingParam,
  encodeActionArgs,
  findActionId,
  navigationStateTree,
  parseActionResult,
} from "../../bench/lib/next-protocol";
import { parseLexeltXml } from "../../lib/lexsub/formats/lexelt";

// Header values chromium sent to lexgold's own build (Next 16) for a move from
// /annotate/1/2 to /annotate/1/3, with the _rsc value it computed.
const CAPTURED_TREE =
  "%5B%22%22%2C%7B%22children%22%3A%5B%22annotate%22%2C%7B%22children%22%3A%5B%5B%22projectId%22%2C%221%22%2C%22d%22%2Cnull%5D%2C%7B%22children%22%3A%5B%5B%22instanceId%22%2C%223%22%2C%22d%22%2Cnull%5D%2C%7B%22children%22%3A%5B%22__PAGE__%22%2C%7B%7D%2Cnull%2Cnull%2C0%5D%7D%2Cnull%2C%22refetch%22%2C0%5D%7D%2Cnull%2Cnull%2C0%5D%7D%2Cnull%2Cnull%2C0%5D%7D%2Cnull%2Cnull%2C16%5D";

describe("the workspace's requests as the browser sends them", () => {
  it("builds the router state tree of a move and its _rsc parameter", () => {
    expect(navigationStateTree(1, 3)).toBe(CAPTURED_TREE);
    expect(cacheBustingParam({ stateTree: CAPTURED_TREE, nextUrl: "/annotate/1/2" })).toBe("6XIfd-5KjqFeSjY3");
    // A prefetch hashes its own headers.
    const metadataOnly = "%5B%22%22%2C%7B%7D%2Cnull%2C%22metadata-only%22%5D";
    expect(cacheBustingParam({ prefetch: "1", stateTree: metadataOnly, nextUrl: "/annotate/1/3" })).toBe("w9OrqhePhP1tc1Y8");
    expect(cacheBustingParam({})).toBe("");
  });

  it("the action's state tree is the page's, without the refetch marker", () => {
    const tree = JSON.parse(decodeURIComponent(actionStateTree(4, 17)));
    expect(JSON.stringify(tree)).not.toContain("refetch");
    expect(JSON.stringify(tree)).toContain('["instanceId","17","d",null]');
    expect(JSON.stringify(tree)).toContain('["projectId","4","d",null]');
  });

  it("serialises action arguments as React's encodeReply does for plain values", () => {
    expect(encodeActionArgs([1, 2, { kind: "substitutes", substitutes: ["hushed", "", ""], multiword: false, phrase: "" }, { expectedRevision: 0, activeMs: 163 }])).toBe(
      '[1,2,{"kind":"substitutes","substitutes":["hushed","",""],"multiword":false,"phrase":""},{"expectedRevision":0,"activeMs":163}]',
    );
    expect(encodeActionArgs(["$x", undefined])).toBe('["$$x","$undefined"]');
    expect(() => encodeActionArgs([new Date(0)])).toThrow();
    expect(() => encodeActionArgs([Number.NaN])).toThrow();
  });

  it("reads the action's result from its RSC response, wherever the row sits", () => {
    const body = ['2:"$Sreact.fragment"', '0:{"a":"$@1","q":"","i":false,"b":"x"}', 'c:[["children",{}]]', '1:{"ok":true,"revision":3,"next":7}', ""].join("\n");
    expect(parseActionResult(body)).toEqual({ ok: true, revision: 3, next: 7 });
    expect(() => parseActionResult('0:{"a":"$@1"}\n')).toThrow(/result row 1/);
    expect(() => parseActionResult("<html>")).toThrow(/row 0/);
  });

  it("finds a server action's id in a build manifest, and says when it cannot", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-manifest-"));
    try {
      expect(() => findActionId(dir, "app/annotate/actions.ts", "saveResponseAction")).toThrow(/build first/);
      fs.mkdirSync(path.join(dir, "server"));
      fs.writeFileSync(
        path.join(dir, "server", "server-reference-manifest.json"),
        JSON.stringify({
          node: {
            abc123: { workers: { "app/projects/page": {} }, filename: "app/projects/actions.ts", exportedName: "createProjectAction" },
            def456: { workers: { "app/annotate/[projectId]/[instanceId]/page": {} }, filename: "app/annotate/actions.ts", exportedName: "saveResponseAction" },
          },
        }),
      );
      expect(findActionId(dir, "app/annotate/actions.ts", "saveResponseAction")).toEqual({ id: "def456", workers: ["app/annotate/[projectId]/[instanceId]/page"] });
      expect(() => findActionId(dir, "app/annotate/actions.ts", "nope")).toThrow(/no server action nope/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the load's synthetic corpus", () => {
  it("is lexelt XML the importer reads, with the instances asked for", () => {
    const xml = lexeltXml({ lexelts: 12, instancesPerLexelt: 5, idPrefix: "t", seed: 1 });
    const parsed = parseLexeltXml(xml, "load.xml");
    expect(parsed.errors).toEqual([]);
    expect(parsed.corpus!.lexelts).toHaveLength(12);
    expect(parsed.corpus!.lexelts.flatMap((l) => l.instances)).toHaveLength(60);
    expect(new Set(parsed.corpus!.lexelts.map((l) => l.item)).size).toBe(12);
    expect(lexeltXml({ lexelts: 12, instancesPerLexelt: 5, idPrefix: "t", seed: 1 })).toBe(xml);
  });
});
