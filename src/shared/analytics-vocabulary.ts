/** Names the analytics API and the server share (docs/architecture.md, "Analytics"). */

/**
 * AI sub-categories: `assistant` fetches a page because a person asked; `crawler` collects
 * training or dataset content; `search` indexes pages for an AI search product.
 */
export const AI_CATEGORIES = ["assistant", "crawler", "search"] as const;
export type AiCategory = (typeof AI_CATEGORIES)[number];

/** What kind of document a view read (app/analytics/read-format.ts decides). */
export const READ_FORMATS = ["html", "markdown", "llms.txt", "text"] as const;
export type ReadFormat = (typeof READ_FORMATS)[number];

/** How long one person stays one visitor: the life of the secret their visitor id is made with. */
export const SALT_WINDOWS = ["day", "week", "month"] as const;
export type SaltWindow = (typeof SALT_WINDOWS)[number];

/** The reports over time: a point per interval, counting visitors or views. */
export const TIMESERIES_INTERVALS = ["day", "week", "month"] as const;
export type TimeseriesInterval = (typeof TIMESERIES_INTERVALS)[number];
export const TIMESERIES_METRICS = ["visitors", "views"] as const;
export type TimeseriesMetric = (typeof TIMESERIES_METRICS)[number];

/** How people arrived at a page, from its referrer (app/analytics/ingest/referral.ts decides). */
export const REFERRAL_CHANNELS = ["ai", "search", "social", "direct", "other"] as const;

/** Most hits one `POST …/hits` batch may hold. */
export const MAX_HITS_PER_BATCH = 1_000;
