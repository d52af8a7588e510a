import type { Timeseries } from "../../../shared/analytics-trend-schemas.js";
import type { TimeseriesInterval, TimeseriesMetric } from "../../../shared/analytics-vocabulary.js";
import type { Queryable } from "../../store/db.js";
import { csvFields, withPreviousFields, type CsvColumns } from "../../http-kit/csv.js";
import { dayToIso, windowOf } from "../../../shared/epoch-days.js";
import { windowParts } from "./reach-sql.js";
import { counts } from "./report-rows.js";
import { previousPeriod, type BoundedRange } from "./compared-periods.js";

export type { BoundedRange } from "./compared-periods.js";
import { prefixPathId } from "../rollup/page-sections.js";
import { ALL_SOURCES } from "../rollup/group-plan.js";
import type { ReferralChannel } from "../ingest/referral.js";
import { sourceIdsOf } from "../rollup/referral-groups.js";


type Counts = { human: number; ai: number; bot: number; total: number };

export interface TimeseriesOptions {
  interval: TimeseriesInterval;
  metric: TimeseriesMetric;
  pathPrefix?: string | undefined;
  channel?: ReferralChannel | undefined;
  compare?: "previous" | undefined;
}
type CountRow = { slot: number; human: string | number; ai: string | number; bot: string | number; total: string | number };


/** The range cut into calendar days, ISO weeks or months; the first and last are cut to the range. */
export function intervalsOf(range: BoundedRange, interval: TimeseriesInterval): BoundedRange[] {
  const intervals: BoundedRange[] = [];
  for (let day = range.from; day < range.to; ) {
    const end = Math.min(range.to, interval === "day" ? day + 1 : windowOf(interval, day).end);
    intervals.push({ from: day, to: end });
    day = end;
  }
  return intervals;
}

/**
 * One point per interval of the range, zeros included. Views are sums of the scope's daily counters.
 * Visitors are distinct within each interval, exactly as the visitors export counts a range: the
 * first-visit and return counters (reach.ts) per salt window the interval overlaps, of the site or,
 * under a path prefix, of its section (page-sections.ts): a visitor of two pages is one visitor.
 * With a channel, only people who arrived from it: its referral group's counters, and for views its
 * sources' arrivals (referral-groups.ts).
 */
export async function timeseriesReport(
  db: Queryable,
  projectId: string,
  range: BoundedRange,
  options: TimeseriesOptions,
): Promise<Timeseries> {
  const intervals = intervalsOf(range, options.interval);
  const series = (await countsPerInterval(db, projectId, intervals, options)).map((counts, slot) => ({ date: dayToIso((intervals[slot] as BoundedRange).from), ...counts }));
  if (options.compare !== "previous") return { interval: options.interval, metric: options.metric, series };
  // Each interval shifted back by the range's length into the previous period.
  const span = range.to - range.from;
  const before = await countsPerInterval(db, projectId, intervals.map((i) => ({ from: i.from - span, to: i.to - span })), options);
  const previous = previousPeriod(range);
  return {
    interval: options.interval,
    metric: options.metric,
    series: series.map((point, slot) => ({ ...point, previous: before[slot] as Counts })),
    previous: { dateFrom: dayToIso(previous.from), dateTo: dayToIso(previous.to) },
  };
}

async function countsPerInterval(db: Queryable, projectId: string, intervals: BoundedRange[], options: TimeseriesOptions): Promise<Counts[]> {
  const rows =
    options.metric === "visitors"
      ? await visitorsPerInterval(db, projectId, intervals, await prefixPathId(db, projectId, options.pathPrefix, options.channel))
      : await viewsPerInterval(
          db,
          projectId,
          intervals,
          await prefixPathId(db, projectId, options.pathPrefix),
          options.channel === undefined ? null : await sourceIdsOf(db, projectId, options.channel),
        );
  const bySlot = new Map(rows.map((row) => [Number(row.slot), row]));
  return intervals.map((_, slot) => counts(bySlot.get(slot)));
}


/**
 * Views per interval of a scope (the site, or a prefix's section; none when no view reached it),
 * from its daily rows (rollup/group-plan.ts, chunkScopeViews): all its views, or with `sources`
 * (a channel's) their arrivals, all human. The intervals are contiguous, so a row's interval is a
 * binary search of their first days (width_bucket).
 */
async function viewsPerInterval(db: Queryable, projectId: string, intervals: BoundedRange[], scopeId: number | null, sources: number[] | null): Promise<CountRow[]> {
  if (intervals.length === 0 || scopeId === null || sources?.length === 0) return [];
  const [human, ai, bot] = sources === null ? ["human", "ai", "bot"] : ["human", "0", "0"];
  return db.query<CountRow>(
    `SELECT width_bucket(v.day, $3::int[]) - 1 AS slot, sum(${human}) AS human, sum(${ai}) AS ai, sum(${bot}) AS bot, sum(${human}) + sum(${ai}) AS total
     FROM analytics_daily_scope_views v
     WHERE v.project_id = $1 AND v.scope_id = $2 AND v.source_id = ANY ($6::int[]) AND v.day >= $4 AND v.day < $5
     GROUP BY 1`,
    [projectId, scopeId, ...intervalBounds(intervals), sources ?? [ALL_SOURCES]],
  );
}

/** Contiguous intervals as width_bucket reads them: their first days in order, and the first and end day of them all. */
const intervalBounds = (intervals: BoundedRange[]) => [intervals.map((i) => i.from), (intervals[0] as BoundedRange).from, (intervals.at(-1) as BoundedRange).to];

/** Each interval's part in each salt window it overlaps, its days relative to the window's start. */
async function intervalParts(db: Queryable, projectId: string, intervals: BoundedRange[]) {
  if (intervals.length === 0) return [];
  const windows = await windowParts(db, projectId, { from: (intervals[0] as BoundedRange).from, to: (intervals.at(-1) as BoundedRange).to });
  return intervals.flatMap((interval, slot) =>
    windows.flatMap((window) => {
      const from = Math.max(interval.from, window.start) - window.start;
      const to = Math.min(interval.to, window.end) - window.start;
      return from < to ? [{ slot, windowStart: window.start, from, to }] : [];
    }),
  );
}

/** Distinct visitors per interval from the reach counters of one path id (the site's or a section's); none when there is none. */
export async function visitorsPerInterval(db: Queryable, projectId: string, intervals: BoundedRange[], pathId: number | null): Promise<CountRow[]> {
  const parts = pathId === null ? [] : await intervalParts(db, projectId, intervals);
  if (parts.length === 0) return [];
  return db.query<CountRow>(
    `WITH parts AS (SELECT * FROM unnest($3::int[], $4::int[], $5::int[], $6::int[]) AS p (slot, window_start, day_from, day_to)),
     reached AS (
       SELECT p.slot, f.human, f.ai, f.bot, f.total FROM parts p
       JOIN analytics_first_visits f ON f.project_id = $1 AND f.window_start = p.window_start AND f.day >= p.day_from AND f.day < p.day_to AND f.path_id = $2
       UNION ALL
       SELECT p.slot, r.human, r.ai, r.bot, r.total FROM parts p
       JOIN analytics_returns r ON r.project_id = $1 AND r.window_start = p.window_start AND r.day >= p.day_from AND r.day < p.day_to AND r.prev < p.day_from AND r.path_id = $2
     )
     SELECT slot, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(total) AS total FROM reached GROUP BY slot`,
    [projectId, pathId, parts.map((p) => p.slot), parts.map((p) => p.windowStart), parts.map((p) => p.from), parts.map((p) => p.to)],
  );
}

/** The CSV columns of the time series: a point's counts; with compare=previous, the previous period's after them. */
export const TIMESERIES_COLUMNS: CsvColumns<Timeseries["series"][number]> = csvFields("date", "human", "ai", "bot", "total");
export const COMPARED_TIMESERIES_COLUMNS = withPreviousFields(TIMESERIES_COLUMNS, "human", "ai", "bot", "total");
