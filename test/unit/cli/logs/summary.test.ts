import { describe, expect, it } from "vitest";
import { emptySummary, formatSummary, progressLine } from "../../../../src/cli/logs/summary.js";

describe("the import's summary", () => {
  it("counts duplicates inside accepted, as the hits API does, and says how many were new", () => {
    const summary = { ...emptySummary(), lines: 3, accepted: 2, alreadyImported: 1 };
    summary.skipped.malformed = 1;
    expect(formatSummary(summary).split("\n").slice(0, 3)).toEqual(["Read 3 lines.", "Accepted 2 page views (1 new, 1 already imported before).", "Skipped 1: malformed 1."]);
    expect(progressLine(summary, 0, null)).toBe("3 lines, 2 accepted (1 new)");
  });

  it("puts one line and one page view in the singular", () => {
    const one = { ...emptySummary(), lines: 1, accepted: 1 };
    expect(formatSummary(one).split("\n").slice(0, 2)).toEqual(["Read 1 line.", "Accepted 1 page view (1 new, 0 already imported before)."]);
    expect(progressLine(one, 0, null)).toBe("1 line, 1 accepted (1 new)");
  });
});
