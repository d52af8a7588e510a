/**
 * The closed loop (docs/analytics/impact.md): what a merged job's change did for the readers of
 * the pages it changed, before and after the merge, beside the whole site's change.
 */
import { z } from "zod";
import { FILE_CHANGES } from "./job-outcome-schemas.js";
import { rangeQuerySchema, reportOutputSchema } from "./api-schemas.js";

const count = z.int().min(0);

export const readerNumbersSchema = z
  .object({
    humanVisitors: count.meta({ description: "Distinct human visitors." }),
    aiVisitors: count.meta({ description: "Distinct AI visitors (an agent's address and User-Agent); failed fetches not counted." }),
    aiReads: z
      .object({ assistant: count, crawler: count, search: count, total: count })
      .meta({ description: "AI views the site answered (not 4xx/5xx), per agent category (assistants and agents, crawlers, AI search) and in all." }),
    aiFailures: count.meta({ description: "AI views the site answered with a 4xx or 5xx." }),
    arrivalsFromAi: count.meta({ description: "Distinct people who arrived from an AI answer (a referrer or utm_source of the ai channel)." }),
    markdownReads: count.meta({ description: "Views of the Markdown version (a .md twin or a Markdown-negotiated fetch), people's and AI's." }),
    llmsTxtReads: count.meta({ description: "Views of llms.txt or llms-full.txt, people's and AI's (on a page: only when the page is one of them)." }),
  })
  .meta({ id: "ReaderNumbers", description: "What readers did over one side of a window. Counts are exact." });
export type ReaderNumbersView = z.infer<typeof readerNumbersSchema>;

const windowDays = z.union([z.literal(7), z.literal(14), z.literal(28)]);

export const impactWindowSchema = z
  .object({
    days: windowDays,
    before: z.object({ dateFrom: z.iso.date(), dateTo: z.iso.date().meta({ description: "Exclusive: the merge day." }) }),
    after: z.object({
      dateFrom: z.iso.date().meta({ description: "The day after the merge day." }),
      dateTo: z.iso.date().meta({ description: "Exclusive: where the whole window ends." }),
      daysCounted: z.int().min(0).max(28).meta({ description: "Whole days of the window that have ended and are counted; `days` once complete." }),
      complete: z.boolean(),
    }),
  })
  .meta({ id: "ImpactWindow", description: "The N days before the merge day and the N days after it (the merge day is on neither side)." });

const sidesSchema = z.object({ days: windowDays, before: readerNumbersSchema, after: readerNumbersSchema });

export const pageImpactSchema = z
  .object({
    path: z.string().meta({ description: "Where the site serves the page now, or served it (a deleted page), as analytics counts pages." }),
    fromPath: z.string().optional().meta({ description: "A moved page: where it was served before; its `before` numbers are that path's." }),
    change: z.enum(FILE_CHANGES).meta({ description: "deleted: read at the path it was served at, before and after the merge (after it: readers a redirect sent on, agents failing there)." }),
    files: z.array(z.string()).meta({ description: "The repository files of the PR served at this path." }),
    windows: z.array(
      sidesSchema.extend({
        fromPathAfter: readerNumbersSchema.optional().meta({ description: "A moved page: its old path after the merge (readers sent through a redirect, or failing on it)." }),
      }),
    ),
  })
  .meta({ id: "PageImpact" });

export const JOB_IMPACT_STATES = ["measured", "not_merged", "no_pages"] as const;

export const jobImpactSchema = z
  .object({
    jobId: z.string(),
    prLink: z.string().nullable(),
    mergedAt: z.iso.datetime({ offset: true }).nullable(),
    state: z.enum(JOB_IMPACT_STATES).meta({ description: "measured; not_merged (no PR yet, open, or closed without merging); no_pages (the PR changed no page the site serves)." }),
    reason: z.string().optional().meta({ description: "Why there is no impact to show (not an error)." }),
    windows: z.array(impactWindowSchema),
    site: z.array(sidesSchema).meta({ description: "The whole site over the same windows: the baseline a page's change is read against." }),
    pages: z.array(pageImpactSchema),
    otherFiles: z.array(z.string()).meta({ description: "Files of the PR that are no page (config, images)." }),
  })
  .meta({ id: "JobImpact" });
export type JobImpact = z.infer<typeof jobImpactSchema>;

export const jobImpactQuerySchema = z.object({ output: reportOutputSchema });

const beforeAfter = z.object({ before: count, after: count });
const totalsSchema = z.object({ humanVisitors: beforeAfter, aiReads: beforeAfter, aiFailures: beforeAfter, arrivalsFromAi: beforeAfter });

export const impactTotalsSchema = z.object({
  changedPages: totalsSchema.meta({
    description: "Summed over the changed pages (a visitor of two pages counts on each); a moved page's old path adds its AI failures after the merge.",
  }),
  site: totalsSchema,
});
export type ImpactTotals = z.infer<typeof impactTotalsSchema>;

/** The first week's result, as the `job.impact` webhook and the PR's tracking comment give it. */
export const impactNoticeSchema = z
  .object({
    days: z.literal(7),
    mergedAt: z.iso.datetime({ offset: true }),
    before: z.object({ dateFrom: z.iso.date(), dateTo: z.iso.date() }),
    after: z.object({ dateFrom: z.iso.date(), dateTo: z.iso.date() }),
    pages: z.int().min(0).meta({ description: "Changed pages measured." }),
    ...impactTotalsSchema.shape,
  })
  .meta({ id: "ImpactNotice" });
export type ImpactNotice = z.infer<typeof impactNoticeSchema>;

export const IMPACT_ORDERS = ["aiFailures", "aiReads", "humanVisitors"] as const;
export type ImpactOrder = (typeof IMPACT_ORDERS)[number];

/** How merged jobs are ranked: the window and the order (the API's query and the dashboard's page). */
export const rankingFields = {
  days: z
    .enum(["7", "14", "28"], { error: "must be 7, 14 or 28" })
    .transform(Number)
    .pipe(windowDays)
    .default(7)
    .meta({ description: "The window each job is measured over: its N days before the merge day and N days after." }),
  order: z
    .enum(IMPACT_ORDERS)
    .default("aiFailures")
    .meta({ description: "aiFailures: the largest fall in AI fetch failures first; aiReads, humanVisitors: the largest rise first." }),
};

export const impactRankingQuerySchema = rangeQuerySchema({ ...rankingFields, output: reportOutputSchema });

export const impactRankingSchema = z
  .object({
    days: windowDays,
    order: z.enum(IMPACT_ORDERS),
    jobs: z.array(
      z.object({
        jobId: z.string(),
        prLink: z.string().nullable(),
        mergedAt: z.iso.datetime({ offset: true }),
        summary: z.string().nullable().meta({ description: "The first line of the agent's summary." }),
        pages: z.int().min(0),
        ...impactTotalsSchema.shape,
      }),
    ),
    hasMore: z.boolean(),
    pending: z
      .array(z.object({ jobId: z.string(), mergedAt: z.iso.datetime({ offset: true }), completesOn: z.iso.date().meta({ description: "The first day after the window: it is ranked from then." }) }))
      .meta({ description: "Jobs merged in the range whose window after the merge is not over yet." }),
    truncated: z.boolean().meta({ description: "More jobs were merged in the range than one ranking measures (the latest are measured): narrow dateFrom/dateTo." }),
  })
  .meta({ id: "ImpactRanking", description: "Merged jobs whose PR changed pages, ranked by the change in their pages' readers over one window." });
export type ImpactRanking = z.infer<typeof impactRankingSchema>;
