/**
 * lib/server/crowd/join-gate.ts (issue #38, finding 9): a crowd's arrivals queue behind saves. A
 * study page or study sign-in waits while a save is served in the process, one join at a time,
 * and never longer than MAX_DEFER_MS for saves; other requests are never held. Through a real
 * HTTP server on loopback, and the gate's rules with a fake clock.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { holdForTurn, JOIN_CONCURRENCY, JoinGate, MAX_DEFER_MS, MAX_WAITING } from "../../../lib/server/crowd/join-gate";

afterEach(() => vi.useRealTimers());

const TOKEN = "AbCdEfGhIjKlMnOpQrStUv";

describe("through an HTTP server", () => {
  it("a study page asked for while a save is served is answered after the save; pages of the workspace are not held", async () => {
    const gate = new JoinGate();
    const order: string[] = [];
    let releaseSave: () => void = () => {};
    const saveHeld = new Promise<void>((r) => (releaseSave = r));
    const server = http.createServer((req, res) => {
      const handle = async () => {
        if (req.method === "POST") await saveHeld;
        order.push(`${req.method} ${req.url}`);
        res.end("ok");
      };
      if (!holdForTurn(req, res, () => void handle(), gate)) void handle();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const save = fetch(`${base}/api/projects/1/responses/2`, { method: "POST", body: "{}" }).then((r) => r.text());
      await vi.waitFor(() => expect(gate.state.saves).toBe(1));
      const join = fetch(`${base}/study/${TOKEN}?PROLIFIC_PID=x`).then((r) => r.text());
      const signIn = fetch(`${base}/api/auth/callback/study`, { method: "POST", body: "token=x" }).then((r) => r.text());
      const workspace = fetch(`${base}/annotate/1`).then((r) => r.text());
      await workspace;
      await vi.waitFor(() => expect(gate.state.waiting).toBe(2));
      expect(order).toEqual(["GET /annotate/1"]);
      releaseSave();
      await Promise.all([save, join, signIn]);
      expect(order).toEqual(["GET /annotate/1", "POST /api/projects/1/responses/2", `GET /study/${TOKEN}?PROLIFIC_PID=x`, "POST /api/auth/callback/study"]);
      expect(gate.state).toEqual({ saves: 0, joins: 0, waiting: 0 });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("the rules", () => {
  it("one join at a time; the next when it is answered", () => {
    const gate = new JoinGate(() => 0);
    const ran: number[] = [];
    const done: Array<() => void> = [];
    for (let i = 0; i < 3; i++) gate.enter((d) => (ran.push(i), done.push(d)));
    expect(JOIN_CONCURRENCY).toBe(1);
    expect(ran).toEqual([0]);
    done[0]();
    done[0]();
    expect(ran).toEqual([0, 1]);
    done[1]();
    expect(ran).toEqual([0, 1, 2]);
  });

  it("a join waits for saves at most MAX_DEFER_MS: a steady stream of saves does not shut it out", () => {
    vi.useFakeTimers();
    let clock = 0;
    const gate = new JoinGate(() => clock);
    const save = gate.saveStarted();
    const ran: string[] = [];
    gate.enter((d) => {
      ran.push("join");
      d();
    });
    clock = MAX_DEFER_MS - 1;
    vi.advanceTimersByTime(MAX_DEFER_MS - 1);
    expect(ran).toEqual([]);
    clock = MAX_DEFER_MS;
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(["join"]);
    save();
  });

  it("beyond MAX_WAITING waiting, a join is turned away at once (503), nothing queued", () => {
    const gate = new JoinGate(() => 0);
    gate.enter(() => {});
    for (let i = 0; i < MAX_WAITING; i++) expect(gate.enter(() => {})).toBe(true);
    expect(gate.enter(() => {})).toBe(false);
    expect(gate.state.waiting).toBe(MAX_WAITING);
  });
});
