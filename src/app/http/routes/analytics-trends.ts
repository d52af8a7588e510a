import { MAX_TIMESERIES_POINTS, referrerPagesQuerySchema, referrersQuerySchema, timeseriesQuerySchema } from "../../../shared/analytics-trend-schemas.js";
import { dayToIso, epochDay } from "../../../shared/epoch-days.js";
import { comparedHeaderPattern, csvFilename, csvHeader, csvReply, requestedPage, wantsCsv } from "../../http-kit/csv.js";
import { COMPARED_TIMESERIES_COLUMNS, intervalsOf, TIMESERIES_COLUMNS, timeseriesReport } from "../../analytics/reports/timeseries.js";
import { firstCountedDay } from "../../analytics/reports/compared-periods.js";
import { REFERRER_COLUMNS, REFERRER_PAGE_COLUMNS, referrerPagesReport, referrersReport } from "../../analytics/reports/referral-reports.js";
import { EVERY_ROW } from "../../analytics/reports/report-rows.js";
import { InvalidInputError } from "../../domain/errors.js";
import { authorizedProject } from "../auth.js";
import { queryObject, validate } from "../../http-kit/body.js";
import { reportHeaders } from "../../http-kit/counting-header.js";
import { dayRange, rangeCsvFilename } from "../../analytics/day-range.js";
import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

const DEFAULT_SPAN_DAYS = 30;



/** The header lines of the CSV answers, for the OpenAPI document (the time series' previous columns come with compare=previous). */
export const TREND_CSV_HEADERS = {
  timeseries: comparedHeaderPattern(TIMESERIES_COLUMNS, COMPARED_TIMESERIES_COLUMNS),
  referrers: csvHeader(REFERRER_COLUMNS),
  referrerPages: csvHeader(REFERRER_PAGE_COLUMNS),
};

/** Analytics over time and by where people came from (docs/architecture.md, "Analytics"): the time series and the referrals. */
export function registerAnalyticsTrendRoutes(router: Router, services: Services): void {
  const { analytics, verifier } = services;

  router.on("GET", "/v1/analytics/:projectId/timeseries", async (ctx) => {
    const projectId = await authorizedProject(verifier, ctx);
    const query = validate(timeseriesQuerySchema, queryObject(ctx.url), "query");
    let range = { from: 0, to: 0 };
    const { report, pending } = await analytics.fresh(async (db) => {
      range = await seriesRange(query, () => firstCountedDay(db, projectId));
      const points = intervalsOf(range, query.interval).length;
      if (points > MAX_TIMESERIES_POINTS) {
        throw new InvalidInputError(`The range has ${points} ${query.interval}s; a series has at most ${MAX_TIMESERIES_POINTS} points: use a shorter range or a longer interval`, [
          { field: "dateFrom", message: `must leave at most ${MAX_TIMESERIES_POINTS} intervals` },
        ]);
      }
      return timeseriesReport(db, projectId, range, query);
    });
    if (wantsCsv(ctx.req, query.output)) {
      const columns = report.previous ? COMPARED_TIMESERIES_COLUMNS : TIMESERIES_COLUMNS;
      return csvReply(report.series, columns, { filename: csvFilename(["timeseries", projectId, dayToIso(range.from), dayToIso(range.to)]), headers: reportHeaders(pending) });
    }
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/referrers", async (ctx) => {
    const projectId = await authorizedProject(verifier, ctx);
    const query = validate(referrersQuerySchema, queryObject(ctx.url), "query");
    const csv = wantsCsv(ctx.req, query.output);
    const { report, pending } = await analytics.fresh((db) => referrersReport(db, projectId, dayRange(query), csv ? EVERY_ROW : query, query.channel));
    if (csv) return csvReply(report.referrers, REFERRER_COLUMNS, { filename: rangeCsvFilename("referrers", projectId, query), page: requestedPage(ctx.url, query), headers: reportHeaders(pending) });
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/referrers/pages", async (ctx) => {
    const projectId = await authorizedProject(verifier, ctx);
    const query = validate(referrerPagesQuerySchema, queryObject(ctx.url), "query");
    const csv = wantsCsv(ctx.req, query.output);
    const { report, pending } = await analytics.fresh((db) => referrerPagesReport(db, projectId, dayRange(query), csv ? EVERY_ROW : query, query.channel));
    if (csv) return csvReply(report.pages, REFERRER_PAGE_COLUMNS, { filename: rangeCsvFilename(`referrers-${query.channel}-pages`, projectId, query), page: requestedPage(ctx.url, query), headers: reportHeaders(pending) });
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });
}

/**
 * The days a series covers: from dateFrom (default 30 days before dateTo), where days before the
 * project's first salt window with views are left out unless they are within those 30 days, to
 * dateTo (default and at most tomorrow: today is the last day).
 */
async function seriesRange(query: { dateFrom?: string | undefined; dateTo?: string | undefined }, firstDay: () => Promise<number | null>) {
  const { from: askedFrom, to: askedTo } = dayRange(query);
  const tomorrow = epochDay(Date.now()) + 1;
  const to = Math.max(Math.min(askedTo ?? tomorrow, tomorrow), 0);
  const asked = askedFrom ?? to - DEFAULT_SPAN_DAYS;
  const floor = asked < to - DEFAULT_SPAN_DAYS ? Math.min((await firstDay()) ?? to, to - DEFAULT_SPAN_DAYS) : asked;
  return { from: Math.min(Math.max(asked, floor, 0), to), to };
}
