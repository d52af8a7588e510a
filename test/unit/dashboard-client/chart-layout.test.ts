import { describe, expect, it } from "vitest";
import { chartLayout, COMPACT_BELOW_PX, shortDay } from "../../../src/dashboard-client/chart-layout.js";

describe("the daily chart's layout at a width", () => {
  it("on a phone: short day labels, as many as fit at about 80 px each, no vertical grid, bars filling their day", () => {
    const phone = chartLayout(350);
    expect(phone).toMatchObject({ compact: true, xTicks: 4, xGrid: false, categoryPercentage: 1 });
    expect(phone.dayLabel("2026-11-16")).toBe("Nov 16");
    expect(chartLayout(200).xTicks).toBe(3);
  });

  it("on a wide screen: full dates, ten ticks, Chart.js's own bar spacing", () => {
    const desktop = chartLayout(COMPACT_BELOW_PX);
    expect(desktop).toMatchObject({ compact: false, xTicks: 10, xGrid: true, categoryPercentage: 0.8 });
    expect(desktop.dayLabel("2026-11-16")).toBe("2026-11-16");
  });

  it("shortens every month's dates, and leaves what is not a date alone", () => {
    expect(["2026-01-01", "2026-02-28", "2026-12-31"].map(shortDay)).toEqual(["Jan 1", "Feb 28", "Dec 31"]);
    expect(shortDay("2026-13-01")).toBe("2026-13-01");
    expect(shortDay("week of 2026-11-16")).toBe("week of 2026-11-16");
  });
});
