import type { AgentPages, Agents, Failures } from "../../../shared/analytics-schemas.js";
import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { Referrers, Timeseries } from "../../../shared/analytics-trend-schemas.js";
import type { PathCounts } from "../../analytics/reports/report-rows.js";
import { csvFields, csvFilename, csvReply, type CsvColumns } from "../../http-kit/csv.js";
import type { Reply } from "../../http-kit/router.js";
import { countingHeader } from "../../http-kit/counting-header.js";
import type { Project } from "../../domain/projects.js";
import { projectLabel } from "../layout.js";
import type { AnalyticsQuery } from "./query.js";

/**
 * The dashboard's CSV downloads, one per table, through the shared writer (http-kit/csv.ts: RFC 4180,
 * formula-safe, streamed). Each has the page's range and filters and every row, not one page.
 */

export type PageRow = PathCounts & { fromAi: number };
export type DailyRow = Timeseries["series"][number] & { previousDate?: string };

export const PAGE_COLUMNS: CsvColumns<PageRow> = [...csvFields<PageRow>("path", "human", "ai", "total", "bot"), ["from_ai_answers", (row) => row.fromAi]];
export const REFERRER_COLUMNS: CsvColumns<Referrers["referrers"][number]> = csvFields("source", "channel", "visitors", "views");
export const AI_KIND_COLUMNS: CsvColumns<{ category: string; views: number }> = [["kind", (row) => row.category], ["views", (row) => row.views]];
const DAILY_COLUMNS: CsvColumns<DailyRow> = csvFields("date", "human", "ai", "bot", "total");
const PREVIOUS_COLUMNS: CsvColumns<DailyRow> = [
  ["previous_date", (row) => row.previousDate],
  ["previous_human", (row) => row.previous?.human],
  ["previous_ai", (row) => row.previous?.ai],
  ["previous_bot", (row) => row.previous?.bot],
  ["previous_total", (row) => row.previous?.total],
];
/** A day's visitors; when comparing, the previous period's aligned day beside it. */
export const dailyColumns = (comparing: boolean): CsvColumns<DailyRow> => (comparing ? [...DAILY_COLUMNS, ...PREVIOUS_COLUMNS] : DAILY_COLUMNS);

export const AGENT_COLUMNS: CsvColumns<Agents["agents"][number]> = [
  ...csvFields<Agents["agents"][number]>("agent", "operator", "category"),
  ["verified", (a) => a.verification.verified],
  ["spoofed", (a) => a.verification.spoofed],
  ["unverifiable", (a) => a.verification.unverifiable],
  ...csvFields<Agents["agents"][number]>("views", "visitors", "pages"),
];
export const FORMAT_COLUMNS: CsvColumns<{ format: ReadFormat; human: number; ai: number; bot: number }> = csvFields("format", "human", "ai", "bot");
export const FAILURE_COLUMNS: CsvColumns<Failures["failures"][number]> = [...csvFields<Failures["failures"][number]>("path", "status", "views"), ["agents", (f) => f.agents.join("; ")]];
export const AGENT_PAGE_COLUMNS: CsvColumns<AgentPages["pages"][number]> = csvFields("path", "views", "visitors", "failed");
export const AGENT_DAY_COLUMNS: CsvColumns<{ date: string; views: number; spoofed: number }> = csvFields("date", "views", "spoofed");

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
