import { describe, expect, it } from "vitest";
import { dayToIso, epochDay, isoToDay, windowOf } from "../../../../../src/shared/epoch-days.js";
import { normalizePagePath } from "../../../../../src/app/analytics/ingest/page-path.js";
import { normalizeIp, visitorId } from "../../../../../src/app/analytics/ingest/visitor-id.js";

describe("visitor identity", () => {
  it("normalizes IPv4-mapped IPv6 to IPv4 and IPv6 to one canonical form", () => {
    expect(normalizeIp("192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeIp("::FFFF:C000:0201")).toBe("192.0.2.1");
    expect(normalizeIp("0:0:0:0:0:ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeIp("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(normalizeIp(" 2001:db8::1 ")).toBe("2001:db8::1");
    expect(normalizeIp("not an ip")).toBeNull();
    expect(normalizeIp("1.2.3.256")).toBeNull();
  });

  it("derives one id per secret, address and User-Agent, and another under another secret", () => {
    const secret = Buffer.alloc(32, 1);
    const ua = "Mozilla/5.0";
    const id = visitorId(secret, "192.0.2.1", ua);
    expect(id).toMatch(/^-?\d+$/);
    expect(visitorId(secret, normalizeIp("::ffff:192.0.2.1") as string, ua)).toBe(id);
    expect(visitorId(secret, "192.0.2.2", ua)).not.toBe(id);
    expect(visitorId(secret, "192.0.2.1", `${ua} x`)).not.toBe(id);
    expect(visitorId(Buffer.alloc(32, 2), "192.0.2.1", ua)).not.toBe(id);
  });
});

describe("salt windows and days", () => {
  const day = (iso: string) => isoToDay(iso);
  it("finds the day, the ISO week (Monday first) and the calendar month of a day", () => {
    expect(windowOf("day", day("2026-11-21"))).toEqual({ start: day("2026-11-21"), end: day("2026-11-22") });
    expect(windowOf("week", day("2026-11-21"))).toEqual({ start: day("2026-11-16"), end: day("2026-11-23") });
    expect(windowOf("week", day("2026-11-16"))).toEqual({ start: day("2026-11-16"), end: day("2026-11-23") });
    expect(windowOf("week", day("1970-01-01"))).toEqual({ start: day("1969-12-29"), end: day("1970-01-05") });
    expect(windowOf("month", day("2026-02-28"))).toEqual({ start: day("2026-02-01"), end: day("2026-03-01") });
    expect(windowOf("month", day("2026-12-31"))).toEqual({ start: day("2026-12-01"), end: day("2027-01-01") });
    expect(dayToIso(epochDay(Date.parse("2026-11-21T23:59:59.999Z")))).toBe("2026-11-21");
  });
});

describe("page paths", () => {
  it.each([
    ["/guide", "/guide"],
    ["/guide/", "/guide"],
    ["/", "/"],
    ["//", "/"],
    ["/guide?tab=curl#install", "/guide"],
    ["https://docs.example.com/api/auth/?x=1", "/api/auth"],
    ["/caf%C3%A9", "/caf%C3%A9"],
    ["HTTPS://docs.example.com", "/"],
    ["http://docs.example.com?utm=x", "/"],
    ["https://xn--bad-punycode/guide/", "/guide"],
    ["https://docs.example.com/café", "/café"],
    ["guide", null],
    ["https://docs.example.com/with space", null],
    ["/with space", null],
    ["", null],
  ])("%s → %s", (input, expected) => {
    expect(normalizePagePath(input)).toBe(expected);
  });
});
