import { describe, expect, it } from "vitest";
import { epochDay } from "../../../../../src/shared/epoch-days.js";
import { monthlySums, monthsAndDays, wholeMonths } from "../../../../../src/app/analytics/rollup/month-sums.js";
import { AGENT_PAGES, DAILY_REFERRALS, DAILY_VIEWS, FORMAT_VIEWS } from "../../../../../src/app/analytics/rollup/tables.js";

const day = (iso: string) => epochDay(Date.parse(`${iso}T00:00:00Z`));

describe("month sums", () => {
  it("finds the whole months inside a range, open ends included", () => {
    expect(wholeMonths({ from: day("2026-10-01"), to: day("2026-11-01") })).toEqual({ from: day("2026-10-01"), to: day("2026-11-01") });
    expect(wholeMonths({ from: day("2026-09-15"), to: day("2026-12-10") })).toEqual({ from: day("2026-10-01"), to: day("2026-12-01") });
    expect(wholeMonths({ from: day("2026-10-02"), to: day("2026-11-01") })).toBeNull();
    expect(wholeMonths({ from: day("2026-10-05"), to: day("2026-10-09") })).toBeNull();
    expect(wholeMonths({ from: null, to: day("2026-10-09") })).toEqual({ from: null, to: day("2026-10-01") });
    expect(wholeMonths({ from: day("2026-10-09"), to: null })).toEqual({ from: day("2026-11-01"), to: null });
    expect(wholeMonths({ from: null, to: null })).toEqual({ from: null, to: null });
  });

  it("sums daily rows into their calendar month, per page and per page and format", () => {
    const pageRow = (iso: string, human: number, pathId = 3) => ({ projectId: "p", day: day(iso), pathId, human, ai: 1, bot: 2 });
    expect(monthlySums(DAILY_VIEWS, [pageRow("2026-10-01", 2), pageRow("2026-10-31", 3), pageRow("2026-11-01", 5), pageRow("2026-10-02", 7, 4)])).toEqual([
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 3, human: 5, ai: 2, bot: 4 },
      { projectId: "p", monthStart: day("2026-11-01"), pathId: 3, human: 5, ai: 1, bot: 2 },
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 4, human: 7, ai: 1, bot: 2 },
    ]);
    const row = (iso: string, human: number, format = 1) => ({ projectId: "p", day: day(iso), pathId: 3, format, human, ai: 1, bot: 0 });
    expect(monthlySums(FORMAT_VIEWS, [row("2026-10-01", 2), row("2026-10-31", 3), row("2026-11-01", 5), row("2026-10-02", 7, 2)])).toEqual([
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 3, format: 1, human: 5, ai: 2, bot: 0 },
      { projectId: "p", monthStart: day("2026-11-01"), pathId: 3, format: 1, human: 5, ai: 1, bot: 0 },
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 3, format: 2, human: 7, ai: 1, bot: 0 },
    ]);
  });

  it("sums any daily counter table by its own key: a source's arrivals per page, an agent's reads per page", () => {
    const arrival = (iso: string, sourceId: number, views: number) => ({ projectId: "p", day: day(iso), sourceId, pathId: 3, views });
    expect(monthlySums(DAILY_REFERRALS, [arrival("2026-10-01", 1, 2), arrival("2026-10-09", 2, 3), arrival("2026-10-30", 1, 4), arrival("2026-11-01", 1, 1)])).toEqual([
      { projectId: "p", monthStart: day("2026-10-01"), sourceId: 1, pathId: 3, views: 6 },
      { projectId: "p", monthStart: day("2026-10-01"), sourceId: 2, pathId: 3, views: 3 },
      { projectId: "p", monthStart: day("2026-11-01"), sourceId: 1, pathId: 3, views: 1 },
    ]);
    const read = (iso: string, agentId: number, views: number, failed: number) => ({ projectId: "p", day: day(iso), agentId, pathId: 5, views, failed, verified: views - 1, spoofed: 1 });
    expect(monthlySums(AGENT_PAGES, [read("2026-10-03", 7, 4, 1), read("2026-10-04", 7, 2, 0), read("2026-10-04", 8, 5, 2)])).toEqual([
      { projectId: "p", monthStart: day("2026-10-01"), agentId: 7, pathId: 5, views: 6, failed: 1, verified: 4, spoofed: 2 },
      { projectId: "p", monthStart: day("2026-10-01"), agentId: 8, pathId: 5, views: 5, failed: 2, verified: 4, spoofed: 1 },
    ]);
  });

  it("splits a range into its whole months and at most two runs of days outside them", () => {
    const range = (from: string | null, to: string | null) => ({ from: from === null ? null : day(from), to: to === null ? null : day(to) });
    expect(monthsAndDays(range("2026-09-15", "2026-12-10"))).toEqual({ months: range("2026-10-01", "2026-12-01"), days: [range("2026-09-15", "2026-10-01"), range("2026-12-01", "2026-12-10")] });
    expect(monthsAndDays(range("2026-10-01", "2026-11-01"))).toEqual({ months: range("2026-10-01", "2026-11-01"), days: [] });
    expect(monthsAndDays(range("2026-10-05", "2026-10-09"))).toEqual({ months: null, days: [range("2026-10-05", "2026-10-09")] });
    expect(monthsAndDays(range(null, "2026-10-09"))).toEqual({ months: range(null, "2026-10-01"), days: [range("2026-10-01", "2026-10-09")] });
    expect(monthsAndDays(range("2026-10-09", null))).toEqual({ months: range("2026-11-01", null), days: [range("2026-10-09", "2026-11-01")] });
    expect(monthsAndDays(range(null, null))).toEqual({ months: range(null, null), days: [] });
  });
});
