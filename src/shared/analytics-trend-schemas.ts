import { z } from "zod";
import { MAX_PATH_LENGTH } from "./analytics-schemas.js";
import { AI_CATEGORIES } from "./analytics-vocabulary.js";
import { dateParam, datesInOrder, previousPeriodSchema, rangeQuerySchema, readFormatSchema, reportOutputSchema } from "./api-schemas.js";
import { storedText } from "./stored-values.js";
import { REFERRAL_CHANNELS, TIMESERIES_INTERVALS, TIMESERIES_METRICS } from "./analytics-vocabulary.js";

// Reports over time and by where people came from (docs/architecture.md, "Analytics").

/** Most points one series may have: a daily series of about three years. */
export const MAX_TIMESERIES_POINTS = 1_100;

export const channelSchema = z.enum(REFERRAL_CHANNELS).meta({
  description: "How people arrived: ai (an AI answer: ChatGPT, Perplexity, Claude, Gemini, Copilot…), search, social, direct (no referrer), other.",
});

export const compareSchema = z
  .enum(["previous"])
  .optional()
  .meta({ description: "previous: add the previous period's numbers (the same span just before the range) beside each row and total." });

/** How deep a path prefix may go: prefixes are counted as sections (docs/architecture.md, "Analytics"). */
export const MAX_PREFIX_SEGMENTS = 2;
const SEGMENT = "[^/?#\\u0000-\\u0020\\u007F\\uD800-\\uDFFF]+";
const PATH_PREFIX_PATTERN = `^/(${SEGMENT}(/${SEGMENT}){0,${MAX_PREFIX_SEGMENTS - 1}}/?)?$`;
// By code points, as JSON Schema reads the pattern: an emoji is a character, only a lone surrogate is refused.
const PATH_PREFIX = new RegExp(PATH_PREFIX_PATTERN, "u");

/** A path prefix: the page itself and every page under it (`/guides` is `/guides` and `/guides/…`, never `/guidesx`). */
export const pathPrefixSchema = storedText(MAX_PATH_LENGTH, { min: 1 })
  .refine((value) => PATH_PREFIX.test(value), { error: `must be a URL path of at most ${MAX_PREFIX_SEGMENTS} segments, like /docs or /docs/guides` })
  .meta({
    pattern: PATH_PREFIX_PATTERN,
    description: `Only this page and the pages under it (\`/guides\` covers \`/guides\` and \`/guides/…\`, not \`/guidesx\`); at most ${MAX_PREFIX_SEGMENTS} segments; a trailing slash is ignored; \`/\` is the whole site.`,
  });

/** Whether a path prefix names the whole site (`/`), which every report takes with any other filter. */
const isWholeSite = (pathPrefix: string | undefined) => pathPrefix === undefined || pathPrefix.replace(/\/+$/, "") === "";

// The page reports' filters (docs/architecture.md, "Analytics"). A format is counted per page and on
// the whole site, never per section or per channel; the document says so in each one's description.
export const visitorsQuerySchema = rangeQuerySchema({
  format: readFormatSchema.optional().meta({
    description: "Only visitors who read the page in this format (the counts are distinct visitors of those reads). Not with channel, nor with a pathPrefix other than /.",
  }),
  pathPrefix: pathPrefixSchema.optional(),
  channel: channelSchema.optional().meta({ description: "Only people who arrived from this channel: per page, those who arrived on it from there (all human)." }),
  compare: compareSchema,
  output: reportOutputSchema,
})
  .refine((q) => q.format === undefined || isWholeSite(q.pathPrefix), {
    error: "cannot be combined with pathPrefix: visitors per format are counted per page and on the whole site, not per section",
    path: ["format"],
  })
  .refine((q) => q.format === undefined || q.channel === undefined, { error: "cannot be combined with channel: arrivals are not counted per format", path: ["format"] });

export const viewsQuerySchema = rangeQuerySchema({
  format: readFormatSchema.optional().meta({ description: "Only views of this format. Not with channel." }),
  pathPrefix: pathPrefixSchema.optional(),
  channel: channelSchema.optional().meta({ description: "Only people's views that arrived from this channel (all human)." }),
  compare: compareSchema,
  output: reportOutputSchema,
}).refine((q) => q.format === undefined || q.channel === undefined, { error: "cannot be combined with channel: arrivals are not counted per format", path: ["format"] });

export const agentsQuerySchema = rangeQuerySchema({
  category: z.enum(AI_CATEGORIES).optional().meta({ description: "Only agents of this AI category." }),
  pathPrefix: pathPrefixSchema.optional(),
  compare: compareSchema,
  output: reportOutputSchema,
});

export const timeseriesQuerySchema = z
  .object({
    dateFrom: dateParam.optional().meta({ description: "First UTC day included (default: 30 days before dateTo)." }),
    dateTo: dateParam.optional().meta({ description: "UTC day after the last one included (exclusive; default: tomorrow, so today is the last day)." }),
    interval: z.enum(TIMESERIES_INTERVALS).default("day").meta({ description: "day; week (ISO, Monday first); month (calendar). The first and last intervals are cut to the range." }),
    metric: z.enum(TIMESERIES_METRICS).default("visitors").meta({ description: "visitors: distinct visitors within each interval; views: views in it." }),
    pathPrefix: pathPrefixSchema.optional(),
    channel: channelSchema.optional().meta({ description: "Only people who arrived from this channel: visitors and views are then people's." }),
    compare: compareSchema,
    output: reportOutputSchema,
  })
  .refine((q) => datesInOrder(q), { error: "must not be after dateTo", path: ["dateFrom"] });
export type TimeseriesQuery = z.infer<typeof timeseriesQuerySchema>;

const pointCountsSchema = z.object({
  human: z.int().min(0),
  ai: z.int().min(0),
  bot: z.int().min(0).meta({ description: "Other bots: not in total." }),
  total: z.int().min(0).meta({ description: "visitors: distinct human or AI visitors in the interval; views: human + ai." }),
});
export const timeseriesPointSchema = pointCountsSchema.extend({
  date: z.iso.date().meta({ description: "The first UTC day the point counts (the interval's start, or the range's when it cuts the interval)." }),
  previous: pointCountsSchema.optional().meta({ description: "With compare=previous: the same interval shifted back by the range's length." }),
});
export const timeseriesSchema = z
  .object({
    interval: z.enum(TIMESERIES_INTERVALS),
    metric: z.enum(TIMESERIES_METRICS),
    series: z.array(timeseriesPointSchema).meta({ description: "One point per interval of the range, in order, zeros included." }),
    previous: previousPeriodSchema,
  })
  .meta({ id: "Timeseries" });
export type Timeseries = z.infer<typeof timeseriesSchema>;

export const referrersQuerySchema = rangeQuerySchema({ channel: channelSchema.optional().meta({ description: "Only sources of this channel." }), output: reportOutputSchema });
export const referrerPagesQuerySchema = rangeQuerySchema({
  channel: channelSchema.default("ai").meta({ description: "The channel people arrived from (default ai)." }),
  output: reportOutputSchema,
});

export const referrersSchema = z
  .object({
    referrers: z.array(
      z.object({
        source: z.string().meta({ description: "A referrer's host (never its path or query), a campaign's utm_source, or (direct)." }),
        channel: z.enum(REFERRAL_CHANNELS),
        visitors: z.int().min(0).meta({ description: "Distinct people who arrived from it." }),
        views: z.int().min(0).meta({ description: "Views that arrived from it." }),
      }),
    ),
    hasMore: z.boolean(),
  })
  .meta({ id: "Referrers" });
export type Referrers = z.infer<typeof referrersSchema>;

export const referrerPagesSchema = z
  .object({
    channel: z.enum(REFERRAL_CHANNELS),
    totals: z.object({ visitors: z.int().min(0), views: z.int().min(0) }).meta({ description: "Distinct people who arrived on any page from the channel, and their arrivals." }),
    pages: z.array(z.object({ path: z.string(), visitors: z.int().min(0), views: z.int().min(0) })),
    hasMore: z.boolean(),
  })
  .meta({ id: "ReferrerPages" });
export type ReferrerPages = z.infer<typeof referrerPagesSchema>;
