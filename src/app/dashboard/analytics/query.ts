import { z } from "zod";
import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import { readFormatSchema } from "../../../shared/api-schemas.js";
import { parseUtcDay } from "../../../shared/utc-day.js";
import { channelSchema, pathPrefixSchema } from "../../../shared/analytics-trend-schemas.js";
import type { ReferralChannel } from "../../analytics/ingest/referral.js";
import { dayToIso, epochDay, isoToDay } from "../../../shared/epoch-days.js";
import type { ReportOrder } from "../../analytics/reports/visitors-report.js";
import { HttpError } from "../../http-kit/http-error.js";
import { PRESETS, type AnalyticsRangeView } from "./controls.js";
import { offsetField, parseFields } from "../request.js";

export const MAX_RANGE_DAYS = 731;
const DEFAULT_PRESET = 30;

// The date inputs send days only: a date-time, which parseUtcDay would read as its day, is refused too.
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date (YYYY-MM-DD)" })
  .refine((d) => parseUtcDay(d) === d, { error: "is not a real date" });

const analyticsQuerySchema = z
  .object({
    days: z.enum(PRESETS.map(String) as [string, ...string[]]).optional(),
    from: isoDay.optional(),
    to: isoDay.optional(),
    sort: z.enum(["total", "human", "ai", "path"]).default("total"),
    dir: z.enum(["asc", "desc"]).default("desc"),
    offset: offsetField,
    // The form's "All formats" option sends an empty value.
    format: z.union([z.literal(""), readFormatSchema]).optional().transform((f) => f || undefined),
    // The form's text box: empty is the whole site, and so is `/`; a trailing slash is dropped.
    path: z
      .string()
      .trim()
      .pipe(z.union([z.literal(""), pathPrefixSchema]))
      .optional()
      .transform((p) => p?.replace(/\/+$/, "") || undefined),
    // The checkbox sends `previous` when ticked, nothing otherwise.
    compare: z.enum(["previous"], { error: "must be previous, or left out" }).optional(),
    // The referrals table's "All channels" option sends an empty value.
    channel: z.union([z.literal(""), channelSchema]).optional().transform((c) => c || undefined),
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { error: "give both From and To, or neither", path: ["to"] });

export interface AnalyticsQuery {
  /** What the page shows and links back to. */
  range: AnalyticsRangeView;
  /** The same range in epoch days, `to` exclusive, as the analytics queries take it. */
  days: { from: number; to: number };
  order: ReportOrder;
  offset: number;
  /** Only visitors who read pages in this format (the pages table and its totals). */
  format?: ReadFormat;
  /** Only this section (`/docs`: the page and the pages under it): the chart, the totals and the pages table. */
  pathPrefix?: string;
  /** Show the previous period (as long as the range, just before it) beside the totals and in the chart. */
  compare?: "previous";
  /** Only sources of this channel in the referrals table. */
  channel?: ReferralChannel;
}

/** The query of an analytics page's URL, its presets ending today. */
export const analyticsQueryOf = (url: URL, now = Date.now()) => parseAnalyticsQuery(Object.fromEntries(url.searchParams), epochDay(now));

/**
 * The analytics page's query string: a preset (`?days=7`, 30 by default) ending `today`, or
 * `?from=…&to=…` (whole UTC days, both included, at most MAX_RANGE_DAYS; with the `days` the form
 * showed, dates still equal to that preset keep it), and optionally a read format for the pages
 * table, a path prefix (`path=/docs`, at most two segments), `compare=previous` and a referral
 * `channel`; 400 saying what to fix.
 */
export function parseAnalyticsQuery(params: Record<string, string>, today: number): AnalyticsQuery {
  const q = parseFields(analyticsQuerySchema, params);
  const asked = Number(q.days ?? DEFAULT_PRESET);
  // The range form sends its dates and the preset shown: dates that are still the preset's keep it.
  const preset = !q.from || (q.days !== undefined && q.from === dayToIso(today - (asked - 1)) && q.to === dayToIso(today)) ? asked : null;
  const from = q.from ? isoToDay(q.from) : today - (asked - 1);
  const to = q.to ? isoToDay(q.to) : today;
  if (to < from) throw new HttpError(400, "From must be on or before To");
  if (to - from + 1 > MAX_RANGE_DAYS) throw new HttpError(400, `A range can span at most ${MAX_RANGE_DAYS} days; pick a shorter one`);
  return {
    range: { from: dayToIso(from), to: dayToIso(to), preset },
    days: { from, to: to + 1 },
    order: { by: q.sort, dir: q.dir },
    offset: q.offset,
    ...(q.format ? { format: q.format } : {}),
    ...(q.path ? { pathPrefix: q.path } : {}),
    ...(q.compare ? { compare: q.compare } : {}),
    ...(q.channel ? { channel: q.channel } : {}),
  };
}
