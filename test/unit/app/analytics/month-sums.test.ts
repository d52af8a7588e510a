import { describe, expect, it } from "vitest";
import { epochDay } from "../../../../src/app/analytics/days.js";
import { monthlySums, wholeMonths } from "../../../../src/app/analytics/month-sums.js";

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
    expect(monthlySums([pageRow("2026-10-01", 2), pageRow("2026-10-31", 3), pageRow("2026-11-01", 5), pageRow("2026-10-02", 7, 4)])).toEqual([
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 3, human: 5, ai: 2, bot: 4 },
      { projectId: "p", monthStart: day("2026-11-01"), pathId: 3, human: 5, ai: 1, bot: 2 },
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 4, human: 7, ai: 1, bot: 2 },
    ]);
    const row = (iso: string, human: number, format = 1) => ({ projectId: "p", day: day(iso), pathId: 3, format, human, ai: 1, bot: 0 });
    expect(monthlySums([row("2026-10-01", 2), row("2026-10-31", 3), row("2026-11-01", 5), row("2026-10-02", 7, 2)])).toEqual([
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 3, format: 1, human: 5, ai: 2, bot: 0 },
      { projectId: "p", monthStart: day("2026-11-01"), pathId: 3, format: 1, human: 5, ai: 1, bot: 0 },
      { projectId: "p", monthStart: day("2026-10-01"), pathId: 3, format: 2, human: 7, ai: 1, bot: 0 },
    ]);
  });
});
