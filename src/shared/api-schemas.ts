/**
 * The public API's request and response shapes: the single source for request validation,
 * the OpenAPI document and the types the CLI and the Action use. Imports neither side.
 */
import { z } from "zod";
import { storedText } from "./stored-values.js";

export const JOB_STATUSES = ["active", "completed", "archived", "failed"] as const;
export const MAX_PROMPT_CHARS = 32_000;
export const DEFAULT_MODEL = "anthropic/claude-sonnet-4-5";

export const promptSchema = storedText(MAX_PROMPT_CHARS, { trim: true, min: 1 }).meta({
  description: "The instruction for the agent, 1..32,000 characters after trimming; no NUL or unpaired surrogate characters.",
});

export const promptBodySchema = z.object({ prompt: promptSchema }).meta({ id: "PromptRequest" });

export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

const isoDateTime = z.iso.datetime({ offset: true });

export const agentJobSchema = z
  .object({
    id: z.string(),
    status: jobStatusSchema,
    source: z.object({
      repository: z.string().meta({ description: "Full URL of the GitHub repository." }),
      ref: z.string().meta({ description: "The branch the agent works on: inkwell/<job-id>." }),
    }),
    model: z.string(),
    prLink: z.string().nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    archivedAt: isoDateTime.nullable(),
    error: z.string().nullable().meta({ description: "Why the job failed; null otherwise." }),
  })
  .meta({ id: "AgentJob" });
export type AgentJob = z.infer<typeof agentJobSchema>;

export const jobListSchema = z.object({ jobs: z.array(agentJobSchema), hasMore: z.boolean() }).meta({ id: "AgentJobList" });
export type AgentJobList = z.infer<typeof jobListSchema>;

export const jobEventSchema = z
  .object({
    type: z.string().meta({ description: "created, dispatched, message_queued, reactivated, run_succeeded, run_failed, pr_closed, …" }),
    from: jobStatusSchema.nullable(),
    to: jobStatusSchema.nullable(),
    cause: z.string().meta({ description: "What caused it: api, dashboard, comment, dispatcher, runner, github, watchdog." }),
    detail: z.string().nullable(),
    at: isoDateTime,
  })
  .meta({ id: "JobEvent" });
export type JobEvent = z.infer<typeof jobEventSchema>;
export const jobEventListSchema = z.object({ events: z.array(jobEventSchema) }).meta({ id: "JobEventList" });

export const errorSchema = z
  .object({
    error: z.string(),
    details: z.array(z.object({ message: z.string(), field: z.string().optional().meta({ description: "The offending field or header, when there is one." }) })).optional(),
  })
  .meta({ id: "Error" });

/** A query-string integer: digits only, so "1.5", "1e2", "" and " 3" are all refused. */
export function queryInt(min: number, max: number, fallback: number) {
  const error = `must be an integer between ${min} and ${max}`;
  return z
    .string()
    .regex(/^\d{1,10}$/, { error })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error })
        .max(max, { error }),
    )
    .default(fallback);
}

export const jobListQuerySchema = z.object({
  limit: queryInt(1, 100, 20).meta({ description: "Page size, 1..100." }),
  offset: queryInt(0, 1_000_000_000, 0).meta({ description: "Rows to skip." }),
  status: jobStatusSchema.optional().meta({ description: "Only jobs in this status." }),
});
export type JobListQuery = z.infer<typeof jobListQuerySchema>;

// Visitors export (docs/architecture.md, "Analytics"). A date is YYYY-MM-DD or any ISO 8601 date-time; a date-time counts as its UTC date.
const dateParam = z
  .string()
  .refine((s) => parseUtcDay(s) !== null, { error: "must be YYYY-MM-DD or an ISO 8601 date-time" })
  .meta({ description: "YYYY-MM-DD or ISO 8601 date-time (its UTC date counts; without an offset it is UTC)." });

export const visitorsQuerySchema = z
  .object({
    dateFrom: dateParam.optional().meta({ description: "First UTC day included." }),
    dateTo: dateParam.optional().meta({ description: "UTC day after the last one included (exclusive)." }),
    limit: queryInt(1, 250, 50),
    offset: queryInt(0, 1_000_000_000, 0),
  })
  .refine((q) => !q.dateFrom || !q.dateTo || (parseUtcDay(q.dateFrom) ?? "") <= (parseUtcDay(q.dateTo) ?? ""), {
    error: "dateFrom must not be after dateTo",
    path: ["dateFrom"],
  });

/** Human, AI and their union (or sum, for views). */
export const countsSchema = z.object({ human: z.int().min(0), ai: z.int().min(0), total: z.int().min(0) });
export const visitorsSchema = z
  .object({
    totals: countsSchema,
    visitors: z.array(countsSchema.extend({ path: z.string() })),
    hasMore: z.boolean(),
  })
  .meta({ id: "Visitors" });
export type Visitors = z.infer<typeof visitorsSchema>;

const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/** The UTC day (YYYY-MM-DD) a date parameter stands for, or null when it is not a valid date. */
export function parseUtcDay(value: string): string | null {
  const day = DAY_ONLY.exec(value);
  if (day) {
    const [, y, m, d] = day;
    return utcMidnight(Number(y), Number(m), Number(d)).toISOString().slice(0, 10) === value ? value : null;
  }
  if (!DATE_TIME.test(value)) return null;
  const local = DAY_ONLY.exec(value.slice(0, 10));
  if (!local) return null;
  const [, y, m, d] = local;
  if (utcMidnight(Number(y), Number(m), Number(d)).toISOString().slice(0, 10) !== value.slice(0, 10)) return null;
  // A date-time without an offset is UTC (JavaScript would read it as local time).
  const ms = Date.parse(ZONE.test(value) ? value : `${value}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of a calendar date; unlike Date.UTC, years 0–99 stay themselves (not 1900–1999). */
function utcMidnight(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}
