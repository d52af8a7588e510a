import { dayToIso, isoToDay } from "../../../shared/epoch-days.js";
import { REFERRER_COLUMNS, referrersReport } from "../../analytics/reports/referral-reports.js";
import { visitorRows } from "../../analytics/reports/visitors-report.js";
import { aiCategoryViews } from "../../analytics/reports/views-report.js";
import { EVERY_ROW } from "../../analytics/reports/report-rows.js";
import { timeseriesReport } from "../../analytics/reports/timeseries.js";
import { aiArrivalsByPage, readAnalyticsPage } from "./data.js";
import { analyticsQueryOf } from "./query.js";
import type { DashboardController } from "../controller.js";
import { AI_KIND_COLUMNS, dailyColumns, dashboardCsv, PAGE_COLUMNS, type DailyRow, type PageRow } from "./csv-exports.js";
import { layout } from "../layout.js";
import { analyticsBody } from "./page.js";
import { htmlReply } from "../request.js";
import { countingHeader } from "../../http-kit/counting-header.js";
import type { Router } from "../../http-kit/router.js";

/** Like the API's `limit`. */
const ROWS_PER_PAGE = 50;
/** Sources the referrals table shows; its CSV has every one. */
const REFERRERS_SHOWN = 20;

/** A project's analytics page and the CSV of each of its tables (every row of the same range and filters). */
export function registerAnalyticsPages(router: Router, dashboard: DashboardController): void {
  const { analytics } = dashboard.services;

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const { report, pending } = await analytics.fresh((db) => readAnalyticsPage(db, project.id, query, { rows: ROWS_PER_PAGE, referrers: REFERRERS_SHOWN }));
      const body = analyticsBody({ project, ...query, ...report, limit: ROWS_PER_PAGE, pending });
      return htmlReply(200, layout({ title: "Analytics", session: r.session, project: { project, access, tab: "analytics" }, body }), countingHeader(pending));
    }),
  );

  // The pages table: every page of the range (under the section), in the page's order, with the people who came from AI answers.
  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const { rows, pending } = await analytics.freshRows(async (db) => {
        const fromAi = (await aiArrivalsByPage(db, project.id, query.days)).byPath;
        return withFromAi(visitorRows(db, project.id, query.days, query.order, { format: query.format, pathPrefix: query.pathPrefix }), fromAi);
      });
      return dashboardCsv("visitors", project, query, rows, PAGE_COLUMNS, pending);
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics/referrers.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const { report, pending } = await analytics.fresh((db) => referrersReport(db, project.id, query.days, EVERY_ROW, query.channel));
      return dashboardCsv("referrers", project, { range: query.range, channel: query.channel }, report.referrers, REFERRER_COLUMNS, pending);
    }),
  );

  // The chart's numbers: each day (of the section), and the previous period's aligned day when comparing.
  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics/daily.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const { days, pathPrefix, compare } = query;
      const { report, pending } = await analytics.fresh((db) => timeseriesReport(db, project.id, days, { interval: "day", metric: "visitors", pathPrefix, compare }));
      const span = days.to - days.from;
      const rows: DailyRow[] = report.series.map((point) => (compare ? { ...point, previousDate: dayToIso(isoToDay(point.date) - span) } : point));
      return dashboardCsv("daily-visitors", project, { range: query.range, pathPrefix }, rows, dailyColumns(compare !== undefined), pending);
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics/ai-kinds.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const { report, pending } = await analytics.fresh((db) => aiCategoryViews(db, project.id, query.days));
      return dashboardCsv("ai-kinds", project, { range: query.range }, report, AI_KIND_COLUMNS, pending);
    }),
  );
}

async function* withFromAi(rows: AsyncIterable<Omit<PageRow, "fromAi">>, fromAi: ReadonlyMap<string, number>): AsyncGenerator<PageRow> {
  for await (const row of rows) yield { ...row, fromAi: fromAi.get(row.path) ?? 0 };
}
