import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { ReferralChannel } from "../ingest/referral.js";
import { csvFields, withPreviousFields, type CsvColumns } from "../../http-kit/csv.js";

// What the per-page reports answer with: paging, counts as numbers, the previous period beside them.

export interface Page {
  limit: number;
  offset: number;
}

export interface CountRow {
  path: string | null;
  human: string | number;
  ai: string | number;
  bot: string | number;
  total: string | number;
}

/** Rows an export reads from the store at once (query-batches.ts): its memory, not its length. */
export const EXPORT_BATCH_ROWS = 1_000;

/** Every row of a report read at once (sources, AI-arrival pages, a CSV of them): far above any site's number of them. */
export const EVERY_ROW: Page = { limit: 10_000_000, offset: 0 };

/** One page's counts, as the visitors and views reports list it; with compare=previous, the previous period's beside them. */
export type PathCounts = { path: string } & ReturnType<typeof counts> & { previous?: ReturnType<typeof counts> };

/** The numbers a compared report adds: the previous period's, from the `prev_` columns of its rows. */
export type PreviousColumns = { prev_human?: string | number; prev_ai?: string | number; prev_bot?: string | number; prev_total?: string | number };

/** The counts of a row and, when the report compares, the previous period's. */
export const countsOf = (row: (Omit<CountRow, "path"> & PreviousColumns) | undefined, compared: boolean) => ({
  ...counts(row),
  ...(compared ? { previous: counts(row && { human: row.prev_human ?? 0, ai: row.prev_ai ?? 0, bot: row.prev_bot ?? 0, total: row.prev_total ?? 0 }) } : {}),
});

/** What narrows the visitors and views reports, and the period they are compared with. */
export interface PageReportOptions {
  format?: ReadFormat | undefined;
  /** Only the pages under this prefix (`/docs`: `/docs` and `/docs/…`). */
  pathPrefix?: string | undefined;
  /** Only people who arrived from this channel (referral-groups.ts): their visitors, or their arrivals for views. */
  channel?: ReferralChannel | undefined;
  /** previous: the previous period's numbers beside each row and total (compared-periods.ts). */
  compare?: "previous" | undefined;
}

/** A counts row as the store returns it (bigint sums as text), as numbers; zeros for none. */
export const counts = (row: Omit<CountRow, "path"> | undefined) => ({
  human: Number(row?.human ?? 0),
  ai: Number(row?.ai ?? 0),
  bot: Number(row?.bot ?? 0),
  total: Number(row?.total ?? 0),
});

/** The count columns of a per_path row, and the previous period's when compared. */
export const countNames = (compared: boolean) => ["human", "ai", "bot", "total", ...(compared ? ["prev_human", "prev_ai", "prev_bot", "prev_total"] : [])];

export const countColumns = (alias: string, compared: boolean) => countNames(compared).map((column) => `${alias}${column}`).join(", ");

export async function* pathRows(batches: AsyncIterable<(CountRow & PreviousColumns)[]>, compared: boolean): AsyncGenerator<PathCounts> {
  for await (const batch of batches) for (const row of batch) yield { path: row.path as string, ...countsOf(row, compared) };
}

export function shape<T>(
  rows: (CountRow & PreviousColumns & { site: boolean })[],
  page: Page,
  compared: boolean,
  build: (rows: PathCounts[], hasMore: boolean, totals: ReturnType<typeof countsOf>) => T,
): T {
  const site = rows.find((r) => r.site);
  const paths = rows.filter((r) => !r.site).map((r) => ({ path: r.path as string, ...countsOf(r, compared) }));
  return build(paths.slice(0, page.limit), paths.length > page.limit, countsOf(site, compared));
}

/** The CSV columns of the page reports (visitors, views): a row's own counts. */
export const PAGE_COUNT_COLUMNS: CsvColumns<PathCounts> = csvFields("path", "human", "ai", "bot", "total");
/** With compare=previous, the previous period's counts after the row's own. */
export const COMPARED_PAGE_COUNT_COLUMNS = withPreviousFields(PAGE_COUNT_COLUMNS, "human", "ai", "bot", "total");
