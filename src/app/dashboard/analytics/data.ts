import type { Visitors } from "../../../shared/api-schemas.js";
import type { Referrers, Timeseries } from "../../../shared/analytics-trend-schemas.js";
import { dayToIso } from "../../../shared/epoch-days.js";
import { prefixTotals } from "../../analytics/reports/prefix-totals.js";
import { referrerPagesReport, referrersReport } from "../../analytics/reports/referral-reports.js";
import { visitorsReport } from "../../analytics/reports/visitors-report.js";
import { aiCategoryViews } from "../../analytics/reports/views-report.js";
import { EVERY_ROW, type Page } from "../../analytics/reports/report-rows.js";
import { timeseriesReport } from "../../analytics/reports/timeseries.js";
import { previousPeriod, type BoundedRange } from "../../analytics/reports/compared-periods.js";
import type { Queryable } from "../../store/db.js";
import type { AnalyticsQuery } from "./query.js";


export type Counts = Omit<Visitors["totals"], "previous">;

/** What the analytics page shows (page.ts), read by readAnalyticsPage. */
export interface AnalyticsData {
  /** The site's distinct visitors, or the section's under a path prefix (every format). */
  totals: Counts;
  /** With compare=previous: the same for the period as long as the range, just before it. */
  previous?: { from: string; to: string; totals: Counts };
  /** The pages table: the rows of the format's readers under the prefix; its totals are the format's readers on the whole site. */
  report: Visitors;
  /** Per page, the people who arrived on it from an AI answer. */
  fromAi: ReadonlyMap<string, number>;
  /** Everyone who arrived from an AI answer (each person once), and their arrivals; the whole site. */
  aiArrivals: { visitors: number; views: number };
  /** One point per day (of the section under a prefix), each with the previous period's when comparing. */
  daily: Timeseries["series"];
  aiCategories: { category: string; views: number }[];
  referrers: Referrers;
}

/** People who arrived on each page from an AI answer over the range (referral-reports.ts). */
export async function aiArrivalsByPage(db: Queryable, projectId: string, range: BoundedRange) {
  const report = await referrerPagesReport(db, projectId, range, EVERY_ROW, "ai");
  return { byPath: new Map(report.pages.map((p) => [p.path, p.visitors])), totals: report.totals };
}

/**
 * Everything the analytics page shows, its independent queries in parallel. Totals are distinct
 * visitors, so a section's are its own reach counters (prefix-totals.ts), never a sum of its pages or days.
 */
export async function readAnalyticsPage(db: Queryable, projectId: string, query: AnalyticsQuery, shown: { rows: number; referrers: number }): Promise<AnalyticsData> {
  const range = query.days;
  const { format, pathPrefix, compare } = query;
  const page: Page = { limit: shown.rows, offset: query.offset };
  const totalsOf = async (r: BoundedRange): Promise<Counts> =>
    pathPrefix ? prefixTotals(db, projectId, r, pathPrefix) : (await visitorsReport(db, projectId, r, { limit: 0, offset: 0 })).totals;
  const before = previousPeriod(range);
  const [report, ownTotals, previous, daily, aiCategories, referrers, ai] = await Promise.all([
    visitorsReport(db, projectId, range, page, query.order, { format, pathPrefix }),
    // Without a format or prefix, the pages table's totals are the site's.
    format || pathPrefix ? totalsOf(range) : null,
    compare ? totalsOf(before) : null,
    timeseriesReport(db, projectId, range, { interval: "day", metric: "visitors", pathPrefix, compare }),
    aiCategoryViews(db, projectId, range),
    referrersReport(db, projectId, range, { limit: shown.referrers, offset: 0 }, query.channel),
    aiArrivalsByPage(db, projectId, range),
  ]);
  return {
    totals: ownTotals ?? report.totals,
    ...(previous ? { previous: { from: dayToIso(before.from), to: dayToIso(before.to - 1), totals: previous } } : {}),
    report,
    fromAi: ai.byPath,
    aiArrivals: ai.totals,
    daily: daily.series,
    aiCategories,
    referrers,
  };
}
