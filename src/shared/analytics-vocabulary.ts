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
