import { describe, expect, it } from "vitest";
import { cliRange } from "../../../src/cli/date-range.js";

describe("the CLI's report range", () => {
  it("--through is the last day included, --to the day after it (the API's dateTo)", () => {
    expect(cliRange({ from: "2026-02-01", through: "2026-02-28" })).toEqual({ dateFrom: "2026-02-01", dateTo: "2026-03-01", label: "Range: 2026-02-01 through 2026-02-28 (UTC days, first and last included)" });
    expect(cliRange({ from: "2026-02-01", to: "2026-03-01" })).toEqual(cliRange({ from: "2026-02-01", through: "2026-02-28" }));
    expect(cliRange({ through: "2026-12-31" })).toMatchObject({ dateTo: "2027-01-01", label: expect.stringContaining("every day through 2026-12-31") });
    expect(cliRange({ from: "2026-11-24T23:30:00-02:00" })).toMatchObject({ dateFrom: "2026-11-25", label: expect.stringContaining("2026-11-25 onwards") });
  });

  it("refuses, in its own flags' words, what the API would refuse", () => {
    expect(() => cliRange({ to: "2026-01-02", through: "2026-01-01" })).toThrow("Give --to (excluded) or --through (included), not both");
    expect(() => cliRange({ from: "2026-13-01" })).toThrow(/^--from must be a date/);
    expect(() => cliRange({ from: "2026-01-05", through: "2026-01-03" })).toThrow("--from 2026-01-05 is after --through 2026-01-03: no day is in that range");
    expect(() => cliRange({ from: "2026-01-05", to: "2026-01-04" })).toThrow("--from 2026-01-05 is after --to 2026-01-04 (excluded): no day is in that range");
  });

  it("sends an empty range (dateFrom = dateTo) as the API takes it, and says why it holds no day", () => {
    expect(cliRange({ from: "2026-01-05", to: "2026-01-05" })).toEqual({
      dateFrom: "2026-01-05",
      dateTo: "2026-01-05",
      label: "Range: no day (--to 2026-01-05 is excluded; --through 2026-01-05 is that one day)",
    });
    expect(cliRange({ from: "2026-01-05", through: "2026-01-04" })).toEqual({
      dateFrom: "2026-01-05",
      dateTo: "2026-01-05",
      label: "Range: no day (--through 2026-01-04 is the day before --from 2026-01-05)",
    });
  });
});
