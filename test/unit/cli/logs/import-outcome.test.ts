import { describe, expect, it } from "vitest";
import { importFailure, parseMaxRejected } from "../../../../src/cli/logs/import-outcome.js";
import { emptySummary, type ImportSummary } from "../../../../src/cli/logs/summary.js";

const summary = (lines: number, accepted: number, skipped: Partial<ImportSummary["skipped"]> = {}): ImportSummary => {
  const empty = emptySummary();
  return { ...empty, lines, accepted, skipped: { ...empty.skipped, ...skipped } };
};

describe("whether an import failed", () => {
  it("fails a one-off import that read lines and accepted none, but not an empty input or a quiet --follow", () => {
    expect(importFailure(summary(4, 0, { "not-a-page-view": 4 }), undefined, { follow: false })).toBe("nothing imported: no page view accepted from 4 lines");
    expect(importFailure(summary(0, 0), undefined, { follow: false })).toBeUndefined();
    expect(importFailure(summary(3, 0, { rejected: 3 }), undefined, { follow: true })).toBeUndefined();
    expect(importFailure(summary(3, 0, { rejected: 3 }), { count: 2 }, { follow: true })).toMatch(/more than --max-rejected allows \(2 lines\)$/);
  });

  it("counts malformed lines and the server's refusals, not lines that are no page view, against the limit", () => {
    const mostlyAssets = summary(1_000, 10, { "not-a-page-view": 980, method: 5, status: 4, malformed: 1 });
    expect(importFailure(mostlyAssets, { count: 1 }, { follow: false })).toBeUndefined();
    expect(importFailure(mostlyAssets, { percent: 10 }, { follow: false })).toBeUndefined();
    expect(importFailure(mostlyAssets, { percent: 9 }, { follow: false })).toBe(
      "1 line malformed: 9.1% of 11 lines that were page views or unreadable, more than --max-rejected allows (9%)",
    );
    expect(importFailure(summary(100_000, 99_999, { malformed: 1 }), { percent: 0 }, { follow: false })).toMatch(/^1 line malformed: 0\.001% of 100,000 lines/);
  });

  it("reads --max-rejected as a whole number of lines or a percentage up to 100", () => {
    expect(parseMaxRejected(undefined)).toBeUndefined();
    expect(parseMaxRejected("0")).toEqual({ count: 0 });
    expect(parseMaxRejected("250")).toEqual({ count: 250 });
    expect(parseMaxRejected("0.5%")).toEqual({ percent: 0.5 });
    expect(parseMaxRejected("100%")).toEqual({ percent: 100 });
    for (const bad of ["", "1.5", "-1", "101%", "5 %", "%"]) expect(() => parseMaxRejected(bad), bad).toThrow(/--max-rejected must be/);
  });
});
