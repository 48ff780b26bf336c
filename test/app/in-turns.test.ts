/**
 * Long lists rendered in two stretches (app/_ui/in-turns.tsx): the HTML is the same as the list
 * rendered at once, in order, whatever its length.
 */
import { createElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InTurns } from "../../app/_ui/in-turns";

async function html(node: ReturnType<typeof createElement>): Promise<string> {
  const stream = await renderToReadableStream(node);
  await stream.allReady;
  return new Response(stream).text();
}

describe("InTurns", () => {
  it("renders the same HTML as the list rendered at once, in order", async () => {
    for (const length of [0, 1, 20, 21, 47, 100]) {
      const items = Array.from({ length }, (_, i) => `row ${i}`);
      const row = (s: string, k: number) => createElement("li", { key: s, "data-k": k }, s);
      const expected = await html(createElement("ol", null, items.map(row)));
      if (length > 0) expect(expected).toContain(`row ${length - 1}`);
      expect(await html(createElement("ol", null, createElement(InTurns<string>, { items, render: row })))).toBe(expected);
    }
  });
});
