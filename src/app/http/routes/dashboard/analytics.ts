import { dayToIso } from "../../../analytics/days.js";
import { analyticsQueryOf } from "../../../dashboard/analytics-query.js";
import type { DashboardController } from "../../../dashboard/controller.js";
import { layout, projectLabel } from "../../../dashboard/layout.js";
import { analyticsBody } from "../../../dashboard/pages/analytics.js";
import { htmlReply } from "../../../dashboard/request.js";
import { visitorsCsv } from "../../../dashboard/visitors-csv.js";
import { countingHeader } from "../../counting-header.js";
import type { Router } from "../../router.js";

/** Like the API's `limit`. */
const ROWS_PER_PAGE = 50;

/** A project's analytics page and its CSV download (every row of the same range and order). */
export function registerAnalyticsPages(router: Router, dashboard: DashboardController): void {
  const { analytics } = dashboard.services;

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const overview = await analytics.overview(project.id, query.days, { limit: ROWS_PER_PAGE, offset: query.offset }, query.order, query.format);
      const daily = overview.daily.map(({ day, ...visitors }) => ({ date: dayToIso(day), ...visitors }));
      const body = analyticsBody({ project, ...query, limit: ROWS_PER_PAGE, totals: overview.totals, report: overview.report, daily, aiCategories: overview.aiCategories, pending: overview.pending });
      return htmlReply(200, layout({ title: "Analytics", session: r.session, project: { project, access, tab: "analytics" }, body }), countingHeader(overview.pending));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const rows = await analytics.allVisitorRows(project.id, query.days, query.order, query.format);
      const label = [projectLabel(project), query.format].filter(Boolean).join(" ").replace(/[^A-Za-z0-9_-]+/g, "-");
      const filename = `inkwell-visitors-${label}-${query.range.from}-to-${query.range.to}.csv`;
      return {
        status: 200,
        raw: { contentType: "text/csv; charset=utf-8", content: visitorsCsv(rows) },
        headers: { "Content-Disposition": `attachment; filename="${filename}"` },
      };
    }),
  );
}
