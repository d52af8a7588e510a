import { describe, expect, it } from "vitest";
import { jobListQuerySchema, promptBodySchema } from "../../../src/shared/api-schemas.js";
import { parseUtcDay } from "../../../src/shared/utc-day.js";
import { visitorsQuerySchema } from "../../../src/shared/analytics-trend-schemas.js";

describe("parseUtcDay", () => {
  it.each([
    ["2026-03-01", "2026-03-01"],
    ["2026-03-01T00:00:00Z", "2026-03-01"],
    ["2026-03-01T23:30:00.123456-02:00", "2026-03-02"],
    ["2026-03-01T01:00:00+05:30", "2026-02-28"],
    ["2026-03-01T10:00+0100", "2026-03-01"],
    ["2024-02-29", "2024-02-29"],
    ["0050-01-01", "0050-01-01"],
    ["2026-11-16T00:00:00", "2026-11-16"],
    ["2026-11-16T23:59:59.999", "2026-11-16"],
    ["2026-11-16T23:30", "2026-11-16"],
    ["0099-12-31T12:00:00Z", "0099-12-31"],
    ["2026-03-01 10:00:00Z", "2026-03-01"],
    ["2026-03-01t22:00:00z", "2026-03-01"],
    ["2026-06-30T23:59:60Z", "2026-06-30"],
    ["2026-03-01T23:00:00-03", "2026-03-02"],
    ["0000-01-01T00:00:00+01:00", "0000-01-01"],
    ["9999-12-31T23:00:00-02:00", "9999-12-31"],
  ])("%s → %s", (input, day) => {
    expect(parseUtcDay(input)).toBe(day);
  });

  it("reads a date-time without an offset as UTC whatever the process's time zone", () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ["America/Los_Angeles", "Asia/Kolkata"]) {
        process.env.TZ = tz;
        expect(parseUtcDay("2026-11-16T23:30:00")).toBe("2026-11-16");
        expect(parseUtcDay("2026-11-16T00:10")).toBe("2026-11-16");
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it.each(["2026-02-30", "2025-02-29", "0050-02-29", "2026-13-01", "26-03-01", "2026-03-01T25:00:00Z", "2026-03-01T10:00:00X", "yesterday", "", "2026-03-01T10:61:00Z", "2026-03-01T10:00:00+24:00", "2026-03-01T10:00:00Z "])(
    "refuses %j",
    (input) => {
      expect(parseUtcDay(input)).toBeNull();
    },
  );
});

describe("request schemas", () => {
  it("trims prompts and keeps their inner text", () => {
    expect(promptBodySchema.parse({ prompt: "  hi there \n" })).toEqual({ prompt: "hi there" });
  });

  it("job list query defaults and bounds", () => {
    expect(jobListQuerySchema.parse({})).toEqual({ limit: 20, offset: 0 });
    expect(jobListQuerySchema.parse({ limit: "100", offset: "7", status: "failed" })).toEqual({ limit: 100, offset: 7, status: "failed" });
    expect(jobListQuerySchema.parse({ offset: "1000000000" }).offset).toBe(1_000_000_000);
    expect(jobListQuerySchema.safeParse({ offset: "1000000001" }).success).toBe(false);
    expect(visitorsQuerySchema.parse({ offset: "1000000000" }).offset).toBe(1_000_000_000);
    for (const bad of [{ limit: "0" }, { limit: "101" }, { limit: " 5" }, { offset: "-1" }, { offset: "0x10" }, { status: "ACTIVE" }]) {
      expect(jobListQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("visitors query: whole-day ranges, dateFrom not after dateTo, limit 1..250", () => {
    expect(visitorsQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(visitorsQuerySchema.safeParse({ dateFrom: "2026-03-02", dateTo: "2026-03-02" }).success).toBe(true);
    expect(visitorsQuerySchema.safeParse({ dateFrom: "2026-03-03", dateTo: "2026-03-02" }).success).toBe(false);
    // Compared as UTC dates: 23:30 at -02:00 on the 1st is the 2nd.
    expect(visitorsQuerySchema.safeParse({ dateFrom: "2026-03-01T23:30:00-02:00", dateTo: "2026-03-01" }).success).toBe(false);
    expect(visitorsQuerySchema.safeParse({ limit: "250" }).success).toBe(true);
    expect(visitorsQuerySchema.safeParse({ limit: "251" }).success).toBe(false);
  });
});
