import type { Timeseries } from "../../../shared/analytics-trend-schemas.js";
import { TIMESERIES_COLUMNS } from "../../analytics/reports/timeseries.js";
import type { PathCounts } from "../../analytics/reports/report-rows.js";
import { csvFields, csvFilename, csvReply, type CsvColumns } from "../../http-kit/csv.js";
import type { Reply } from "../../http-kit/router.js";
import { countingHeader } from "../../http-kit/counting-header.js";
import type { Project } from "../../domain/projects.js";
import { projectLabel } from "../layout.js";
import type { AnalyticsQuery } from "./query.js";

/**
 * The dashboard's CSV downloads, one per table, through the shared writer (http-kit/csv.ts: RFC 4180,
 * formula-safe, streamed). Each has the page's range and filters and every row, not one page. A
 * table that is a report's rows takes the report's own columns (analytics/reports/); only the
 * tables the dashboard composes (pages with their AI arrivals, days beside the compared days,
 * AI kinds) have columns here.
 */

export type PageRow = PathCounts & { fromAi: number };
export type DailyRow = Timeseries["series"][number] & { previousDate?: string };

export const PAGE_COLUMNS: CsvColumns<PageRow> = [...csvFields<PageRow>("path", "human", "ai", "total", "bot"), ["from_ai_answers", (row) => row.fromAi]];
export const AI_KIND_COLUMNS: CsvColumns<{ category: string; views: number }> = [["kind", (row) => row.category], ["views", (row) => row.views]];
const PREVIOUS_COLUMNS: CsvColumns<DailyRow> = [
  ["previous_date", (row) => row.previousDate],
  ["previous_human", (row) => row.previous?.human],
  ["previous_ai", (row) => row.previous?.ai],
  ["previous_bot", (row) => row.previous?.bot],
  ["previous_total", (row) => row.previous?.total],
];
/** A day's visitors; when comparing, the previous period's aligned day beside it. */
export const dailyColumns = (comparing: boolean): CsvColumns<DailyRow> => (comparing ? [...TIMESERIES_COLUMNS, ...PREVIOUS_COLUMNS] : TIMESERIES_COLUMNS);

/**
 * A table's download: `inkwell-<table>-<project>[-<filters>]-<from>-to-<to>.csv`, the rows as they
 * come, and the counting header when views were still being counted.
 */
export function dashboardCsv<Row>(
  table: string,
  project: Project,
  query: Pick<AnalyticsQuery, "range" | "format" | "pathPrefix" | "channel">,
  rows: AsyncIterable<Row> | Iterable<Row>,
  columns: CsvColumns<Row>,
  pending: boolean,
): Reply {
  const filters = [query.format, query.pathPrefix?.replace(/^\//, "").replaceAll("/", "."), query.channel].filter((part): part is string => Boolean(part));
  const filename = csvFilename([`inkwell-${table}`, projectLabel(project), ...filters, query.range.from, "to", query.range.to]);
  return csvReply(rows, columns, { filename, headers: countingHeader(pending) });
}
