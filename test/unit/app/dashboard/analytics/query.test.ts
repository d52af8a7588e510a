import { describe, expect, it } from "vitest";
import { epochDay } from "../../../../../src/shared/epoch-days.js";
import { MAX_RANGE_DAYS, parseAnalyticsQuery } from "../../../../../src/app/dashboard/analytics/query.js";
import { HttpError } from "../../../../../src/app/http-kit/http-error.js";

const TODAY = epochDay(Date.UTC(2026, 2, 15));

/** The 400 a query gets, as the dashboard's error page shows it. */
function refusal(params: Record<string, string>): string {
  try {
    parseAnalyticsQuery(params, TODAY);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return (error as HttpError).message;
  }
  throw new Error(`accepted ${JSON.stringify(params)}`);
}

describe("parseAnalyticsQuery", () => {
  it("shows the last 30 days, today included, busiest pages first, when nothing is asked", () => {
    expect(parseAnalyticsQuery({}, TODAY)).toEqual({
      range: { from: "2026-02-14", to: "2026-03-15", preset: 30 },
      days: { from: TODAY - 29, to: TODAY + 1 },
      order: { by: "total", dir: "desc" },
      offset: 0,
    });
  });

  it("takes the 7- and 90-day presets and only those", () => {
    expect(parseAnalyticsQuery({ days: "7" }, TODAY).range).toEqual({ from: "2026-03-09", to: "2026-03-15", preset: 7 });
    expect(parseAnalyticsQuery({ days: "90" }, TODAY).days).toEqual({ from: TODAY - 89, to: TODAY + 1 });
    expect(refusal({ days: "14" })).toBe('days: Invalid option: expected one of "7"|"30"|"90"');
  });

  it("takes a custom range of whole days, both ends included, instead of a preset", () => {
    const query = parseAnalyticsQuery({ days: "7", from: "2024-02-28", to: "2024-03-01" }, TODAY);
    expect(query.range).toEqual({ from: "2024-02-28", to: "2024-03-01", preset: null });
    expect(query.days).toEqual({ from: epochDay(Date.UTC(2024, 1, 28)), to: epochDay(Date.UTC(2024, 2, 2)) });
    expect(parseAnalyticsQuery({ from: "2026-03-15", to: "2026-03-15" }, TODAY).days).toEqual({ from: TODAY, to: TODAY + 1 });
  });

  it("reads the table's order and page", () => {
    const query = parseAnalyticsQuery({ sort: "path", dir: "asc", offset: "50" }, TODAY);
    expect(query.order).toEqual({ by: "path", dir: "asc" });
    expect(query.offset).toBe(50);
    expect(refusal({ sort: "visits", offset: "-1" })).toBe('sort: Invalid option: expected one of "total"|"human"|"ai"|"path"; offset: Too small: expected number to be >=0');
  });

  it("narrows the pages table to one read format; the form's empty choice is every format", () => {
    expect(parseAnalyticsQuery({ format: "markdown" }, TODAY).format).toBe("markdown");
    expect(parseAnalyticsQuery({ format: "llms.txt" }, TODAY).format).toBe("llms.txt");
    expect("format" in parseAnalyticsQuery({ format: "" }, TODAY)).toBe(false);
    expect(refusal({ format: "pdf" })).toMatch(/^format: /);
  });

  it("keeps a preset when the range form sends it with its own dates (other filters applied), not when the dates changed", () => {
    expect(parseAnalyticsQuery({ days: "7", from: "2026-03-09", to: "2026-03-15", compare: "previous" }, TODAY).range).toEqual({ from: "2026-03-09", to: "2026-03-15", preset: 7 });
    expect(parseAnalyticsQuery({ days: "7", from: "2026-03-08", to: "2026-03-15" }, TODAY).range.preset).toBeNull();
    expect(parseAnalyticsQuery({ days: "30", from: "2026-03-09", to: "2026-03-15" }, TODAY).range.preset).toBeNull();
  });

  it("reads a section as a path prefix of at most two segments; empty or / is the whole site, a trailing slash is dropped", () => {
    expect(parseAnalyticsQuery({ path: "/docs" }, TODAY).pathPrefix).toBe("/docs");
    expect(parseAnalyticsQuery({ path: "/docs/guides/" }, TODAY).pathPrefix).toBe("/docs/guides");
    expect(parseAnalyticsQuery({ path: "  /api " }, TODAY).pathPrefix).toBe("/api");
    for (const whole of ["", "/", "  "]) expect("pathPrefix" in parseAnalyticsQuery({ path: whole }, TODAY), JSON.stringify(whole)).toBe(false);
    const twoSegments = "path: must be a URL path of at most 2 segments, like /docs or /docs/guides";
    expect(refusal({ path: "/a/b/c" })).toBe(twoSegments);
    expect(refusal({ path: "docs" })).toBe(twoSegments);
    expect(refusal({ path: "/docs?x=1" })).toBe(twoSegments);
    expect(refusal({ path: "/do cs" })).toBe(twoSegments);
    expect(refusal({ path: "//docs" })).toBe(twoSegments);
  });

  it("compares with the previous period only when asked with compare=previous", () => {
    expect(parseAnalyticsQuery({ compare: "previous" }, TODAY).compare).toBe("previous");
    expect("compare" in parseAnalyticsQuery({}, TODAY)).toBe(false);
    expect(refusal({ compare: "yes" })).toBe("compare: must be previous, or left out");
  });

  it("narrows the referrals to one channel; the form's empty choice is every channel", () => {
    expect(parseAnalyticsQuery({ channel: "ai" }, TODAY).channel).toBe("ai");
    expect("channel" in parseAnalyticsQuery({ channel: "" }, TODAY)).toBe(false);
    expect(refusal({ channel: "email" })).toMatch(/^channel: /);
    // Several bad fields at once are all named.
    expect(refusal({ path: "/a/b/c", compare: "1", channel: "tv" }).split("; ").map((issue) => issue.split(":")[0])).toEqual(["path", "compare", "channel"]);
  });

  it("refuses dates that are not YYYY-MM-DD or not real, naming the field", () => {
    expect(refusal({ from: "2026-02-30", to: "2026-03-01" })).toBe("from: is not a real date");
    expect(refusal({ from: "2025-02-29", to: "2025-03-01" })).toBe("from: is not a real date");
    expect(parseAnalyticsQuery({ from: "2024-02-29", to: "2024-03-01" }, TODAY).range.from).toBe("2024-02-29");
    expect(refusal({ from: "2026-01-01", to: "03/01/2026" })).toBe("to: must be a date (YYYY-MM-DD); to: is not a real date");
    // The API reads a date-time as its day; the dashboard's date inputs send days only.
    expect(refusal({ from: "2026-01-01T00:00:00Z", to: "2026-03-01" })).toBe("from: must be a date (YYYY-MM-DD); from: is not a real date");
  });

  it("wants both ends of a custom range, in order, at most MAX_RANGE_DAYS apart", () => {
    expect(refusal({ from: "2026-01-01" })).toBe("to: give both From and To, or neither");
    expect(refusal({ to: "2026-01-01" })).toBe("to: give both From and To, or neither");
    expect(refusal({ from: "2026-03-02", to: "2026-03-01" })).toBe("From must be on or before To");
    expect(MAX_RANGE_DAYS).toBe(731);
    expect(parseAnalyticsQuery({ from: "2024-01-01", to: "2025-12-31" }, TODAY).days).toEqual({ from: epochDay(Date.UTC(2024, 0, 1)), to: epochDay(Date.UTC(2026, 0, 1)) });
    expect(refusal({ from: "2024-01-01", to: "2026-01-01" })).toBe("A range can span at most 731 days; pick a shorter one");
  });
});
