/**
 * lib/server/kernel/rate-limit.ts: token buckets on a fake clock (no wall time), the
 * address key, the settings, and the per-account / per-address pairing.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  LIMIT_SETTINGS,
  TokenBuckets,
  addressKey,
  limitPage,
  limitSave,
  parseLimit,
  resetRateLimits,
  retryAfterSeconds,
  takeAll,
} from "../../../lib/server/kernel/rate-limit";

function fakeClock(start = 1000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe("TokenBuckets", () => {
  it("allows a burst, then refuses with the time until a token is back", () => {
    const c = fakeClock();
    const b = new TokenBuckets({ rate: 5, burst: 3 }, c.now);
    expect([b.take("a"), b.take("a"), b.take("a")]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(b.take("a")).toEqual({ ok: false, retryAfterMs: 200 });
    c.advance(100);
    expect(b.take("a")).toEqual({ ok: false, retryAfterMs: 100 });
    c.advance(100);
    expect(b.take("a")).toEqual({ ok: true });
    expect(b.take("a").ok).toBe(false);
  });

  it("refills at the rate and never past the burst", () => {
    const c = fakeClock();
    const b = new TokenBuckets({ rate: 2, burst: 4 }, c.now);
    for (let i = 0; i < 4; i++) expect(b.take("a").ok).toBe(true);
    c.advance(1000);
    expect(b.tokens("a")).toBeCloseTo(2);
    c.advance(60_000);
    expect(b.tokens("a")).toBe(4);
    let allowed = 0;
    while (b.take("a").ok) allowed++;
    expect(allowed).toBe(4);
  });

  it("keeps keys apart", () => {
    const c = fakeClock();
    const b = new TokenBuckets({ rate: 1, burst: 1 }, c.now);
    expect(b.take("a").ok).toBe(true);
    expect(b.take("a").ok).toBe(false);
    expect(b.take("b").ok).toBe(true);
  });

  it("a refused take takes nothing: a flood at a steady pace still gets the rate", () => {
    const c = fakeClock();
    const b = new TokenBuckets({ rate: 10, burst: 10 }, c.now);
    let ok = 0;
    // 100 requests a second for 10 s.
    for (let i = 0; i < 1000; i++) {
      if (b.take("a").ok) ok++;
      c.advance(10);
    }
    // The burst, then 10 a second.
    expect(ok).toBeGreaterThanOrEqual(100);
    expect(ok).toBeLessThanOrEqual(111);
  });

  it("holds at most maxKeys buckets, forgetting the one used longest ago", () => {
    const c = fakeClock();
    const b = new TokenBuckets({ rate: 1, burst: 1 }, c.now, 3);
    for (const k of ["a", "b", "c"]) b.take(k);
    b.take("a"); // a is now the latest used (refused, still touched)
    b.take("d"); // b goes
    expect(b.size).toBe(3);
    expect(b.check("b").ok).toBe(true); // forgotten: full again
    expect(b.check("a").ok).toBe(false);
    expect(b.check("c").ok).toBe(false);
  });

  it("refuses a bucket that could never allow anything", () => {
    expect(() => new TokenBuckets({ rate: 0, burst: 5 })).toThrow();
    expect(() => new TokenBuckets({ rate: 1, burst: 0 })).toThrow();
  });
});

describe("takeAll", () => {
  it("takes from every bucket or from none", () => {
    const c = fakeClock();
    const account = new TokenBuckets({ rate: 1, burst: 1 }, c.now);
    const address = new TokenBuckets({ rate: 1, burst: 5 }, c.now);
    expect(takeAll([[account, "u1"], [address, "10.0.0.1"]]).ok).toBe(true);
    expect(address.tokens("10.0.0.1")).toBe(4);
    // The account is empty: refused, and the address keeps its tokens.
    for (let i = 0; i < 10; i++) expect(takeAll([[account, "u1"], [address, "10.0.0.1"]]).ok).toBe(false);
    expect(address.tokens("10.0.0.1")).toBe(4);
    expect(takeAll([[account, "u2"], [address, "10.0.0.1"]]).ok).toBe(true);
    expect(takeAll([])).toEqual({ ok: true });
  });
});

describe("addressKey", () => {
  it("keeps IPv4 whole and counts IPv6 by /64", () => {
    expect(addressKey("192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2::")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("2001:db8:1:3::1")).not.toBe(addressKey("2001:db8:1:2::1"));
  });
});

describe("parseLimit", () => {
  const fallback = { rate: 5, burst: 30 };
  it("reads RATE,BURST and off", () => {
    expect(parseLimit(undefined, "X", fallback)).toBe(fallback);
    expect(parseLimit("", "X", fallback)).toBe(fallback);
    expect(parseLimit("2,10", "X", fallback)).toEqual({ rate: 2, burst: 10 });
    expect(parseLimit(" 0.5 , 3 ", "X", fallback)).toEqual({ rate: 0.5, burst: 3 });
    expect(parseLimit("off", "X", fallback)).toBeNull();
    expect(parseLimit("0", "X", fallback)).toBeNull();
  });
  it("names the variable when the value is wrong", () => {
    for (const bad of ["5", "5,0", "a,b", "0,5", "-1,5"]) expect(() => parseLimit(bad, "LEXGOLD_SAVE_RATE", fallback)).toThrow(/LEXGOLD_SAVE_RATE/);
  });
  it("has defaults a fast annotator does not reach: a few saves a second, pages faster, addresses more", () => {
    const { save, saveAddress, page, pageAddress } = LIMIT_SETTINGS;
    expect(save.fallback.rate).toBeGreaterThanOrEqual(3);
    expect(save.fallback.burst).toBeGreaterThanOrEqual(20);
    expect(page.fallback.burst).toBeGreaterThanOrEqual(50);
    expect(saveAddress.fallback.rate).toBeGreaterThan(save.fallback.rate);
    expect(pageAddress.fallback.burst).toBeGreaterThan(page.fallback.burst);
  });
});

describe("limitSave / limitPage", () => {
  const names = Object.values(LIMIT_SETTINGS).map((s) => s.env);
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  let clock: ReturnType<typeof fakeClock>;
  beforeEach(() => {
    clock = fakeClock();
    process.env.LEXGOLD_SAVE_RATE = "2,3";
    process.env.LEXGOLD_ADDRESS_SAVE_RATE = "10,5";
    process.env.LEXGOLD_PAGE_RATE = "off";
    process.env.LEXGOLD_ADDRESS_PAGE_RATE = "1,2";
    resetRateLimits(clock.now);
  });
  afterEach(() => {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
    resetRateLimits();
  });

  it("an account's saves are limited whatever the address, and another account is not held up", () => {
    for (let i = 0; i < 3; i++) expect(limitSave({ userId: 1, address: `10.0.0.${i}` }).ok).toBe(true);
    expect(limitSave({ userId: 1, address: "10.0.0.9" })).toEqual({ ok: false, retryAfterMs: 500 });
    expect(limitSave({ userId: 2, address: "10.0.0.9" }).ok).toBe(true);
  });

  it("an address's saves are limited across accounts and signed-out requests", () => {
    for (let u = 1; u <= 5; u++) expect(limitSave({ userId: u, address: "2001:db8::1" }).ok).toBe(true);
    // Same /64, another account: the address is empty.
    expect(limitSave({ userId: 6, address: "2001:db8::ffff" })).toEqual({ ok: false, retryAfterMs: 100 });
    // Signed out: a bucket of its own (#38 item 11), untouched by the accounts above.
    expect(limitSave({ userId: null, address: "2001:db8::2" }).ok).toBe(true);
    expect(limitSave({ userId: 6, address: "2001:db8:0:1::1" }).ok).toBe(true);
    clock.advance(100);
    expect(limitSave({ userId: 7, address: "2001:db8::1" }).ok).toBe(true);
  });

  it("a limit set off is not applied; pages and saves have buckets of their own", () => {
    for (let i = 0; i < 2; i++) expect(limitPage({ userId: 1, address: "10.0.0.1" }).ok).toBe(true);
    expect(limitPage({ userId: 1, address: "10.0.0.1" })).toEqual({ ok: false, retryAfterMs: 1000 });
    // Per-account pages are off: from another address the same account goes on.
    expect(limitPage({ userId: 1, address: "10.0.0.2" }).ok).toBe(true);
    expect(limitSave({ userId: 1, address: "10.0.0.1" }).ok).toBe(true);
    expect(limitSave({ userId: null, address: null }).ok).toBe(true);
  });

  it("each of N server processes holds 1/N of every bucket (#38 item 10)", () => {
    process.env.LEXGOLD_SERVER_PROCESSES = "2";
    try {
      resetRateLimits(clock.now);
      // LEXGOLD_SAVE_RATE 2,3: this process holds 1 a second, 1.5 at once.
      expect(limitSave({ userId: 1, address: null }).ok).toBe(true);
      expect(limitSave({ userId: 1, address: null })).toEqual({ ok: false, retryAfterMs: 500 });
    } finally {
      delete process.env.LEXGOLD_SERVER_PROCESSES;
    }
  });

  it("a wrong setting keeps the default and says so", () => {
    process.env.LEXGOLD_SAVE_RATE = "fast";
    resetRateLimits(clock.now);
    const errors: string[] = [];
    const orig = console.error;
    console.error = (m: string) => void errors.push(m);
    try {
      let ok = 0;
      while (limitSave({ userId: 1, address: null }).ok) ok++;
      expect(ok).toBe(LIMIT_SETTINGS.save.fallback.burst);
    } finally {
      console.error = orig;
    }
    expect(errors.join("\n")).toMatch(/LEXGOLD_SAVE_RATE/);
  });

  it("Retry-After is whole seconds, at least one", () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
  });
});
