/**
 * Long lists and page sections rendered in turns of the event loop (app/_ui/in-turns.tsx): each
 * waits one turn after the one before it, so the slices of a page are rendered one per turn (and
 * the saves a server process took in meanwhile are answered between them), and the HTML is the
 * same as the list rendered at once.
 */
import { createElement, Fragment } from "react";
import { renderToReadableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { afterTurns, InTurn, InTurns } from "../../app/_ui/in-turns";

/** The number of turns of the event loop since it was started (one setImmediate per turn). */
function turnCounter() {
  let turns = 0;
  let on = true;
  const tick = () => {
    turns++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turns, stop: () => (on = false) };
}

async function html(node: ReturnType<typeof createElement>): Promise<string> {
  const stream = await renderToReadableStream(node);
  await stream.allReady;
  return new Response(stream).text();
}

describe("afterTurns", () => {
  it("settles each promise a turn of the event loop after the one before it, never two in the same turn", async () => {
    const queue = { last: Promise.resolve() };
    const counter = turnCounter();
    const settled: number[] = [];
    const gates = Array.from({ length: 6 }, () => afterTurns(queue).then(() => settled.push(counter.now())));
    await Promise.all(gates);
    counter.stop();
    expect(settled).toHaveLength(6);
    for (let k = 1; k < settled.length; k++) expect(settled[k]).toBeGreaterThan(settled[k - 1]);
  });

  it("lets the event loop poll between turns: a timer set in the first turn fires before the second", async () => {
    const queue = { last: Promise.resolve() };
    const order: string[] = [];
    const gates = Array.from({ length: 20 }, (_, k) =>
      afterTurns(queue).then(() => {
        order.push(`turn ${k}`);
        if (k !== 0) return;
        setTimeout(() => order.push("timer"), 0);
        // The timer is due before the next turn: a line whose turns all ran in one pass would keep it waiting to the end.
        const start = Date.now();
        while (Date.now() - start < 3);
      }),
    );
    await Promise.all(gates);
    expect(order.slice(0, 3)).toEqual(["turn 0", "timer", "turn 1"]);
  });
});

describe("InTurns and InTurn", () => {
  const items = Array.from({ length: 47 }, (_, i) => `row ${i}`);
  const list = (slice?: number) =>
    createElement("ol", null, createElement(InTurns<string>, { items, slice, render: (s, k) => createElement("li", { key: s, "data-k": k }, s) }));
  const plain = createElement("ol", null, items.map((s, k) => createElement("li", { key: s, "data-k": k }, s)));

  it("render the same HTML as the list rendered at once, in order, whatever the slice", async () => {
    const expected = await html(plain);
    expect(expected).toContain("row 46");
    for (const slice of [undefined, 1, 4, 20, 100]) expect(await html(list(slice))).toBe(expected);
  });

  it("render a page's sections in their order", async () => {
    const page = createElement(
      Fragment,
      null,
      createElement("h1", null, "Page"),
      createElement(InTurn, null, createElement("section", null, "first")),
      createElement(InTurn, null, createElement("section", null, "second")),
    );
    expect(await html(page)).toBe("<h1>Page</h1><section>first</section><section>second</section>");
  });
});
