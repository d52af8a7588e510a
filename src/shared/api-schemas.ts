/**
 * The public API's request and response shapes: the single source for request validation,
 * the OpenAPI document and the types the CLI and the Action use. Imports neither side.
 */
import { z } from "zod";
import { fileChangeSchema, jobUsageSchema, jobValidationSchema, runPhaseSchema, runUsageSchema } from "./job-outcome-schemas.js";
import { MESSAGE_SOURCES } from "./runner-schemas.js";
import { refName, reviewerName } from "./git-names.js";
import { storedText } from "./stored-values.js";
import { jobTriggerSchema } from "./automation-schemas.js";
import { READ_FORMATS } from "./analytics-vocabulary.js";
import { CHECK_STATES, JOB_STATUSES, JOB_TRIGGER_TYPES, MAX_QUESTIONS_PER_RUN, WAITING_FOR } from "./job-vocabulary.js";
import { parseUtcDay } from "./utc-day.js";

export const MAX_PROMPT_CHARS = 32_000;
export const DEFAULT_MODEL = "anthropic/claude-sonnet-4-5";

export const promptSchema = storedText(MAX_PROMPT_CHARS, { trim: true, min: 1 }).meta({
  description: "The instruction for the agent, 1..32,000 characters after trimming; no NUL or unpaired surrogate characters.",
});

export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, { error: "must be 1..255 visible ASCII characters" })
  .meta({ description: "Same key and prompt, same job: a retry returns the job it created (header Idempotent-Replayed: true)." });

export const promptBodySchema = z.object({ prompt: promptSchema }).meta({ id: "PromptRequest" });

/** Creating a job: the instruction, and options for this job only (without them, the project's settings apply). */
export const createJobBodySchema = z
  .object({
    prompt: promptSchema,
    baseBranch: refName.optional().meta({ description: "The branch the pull request targets (and the job's branch starts from); default: the project's." }),
    draft: z.boolean().optional().meta({ description: "Open the pull request as a draft (it is one anyway while validation fails)." }),
    model: storedText(200, { trim: true, min: 1 }).optional().meta({ description: "provider/model for this job: the project's own or one of its allowedModels, else 400 naming them." }),
    labels: z.array(storedText(50, { trim: true, min: 1 })).max(20).optional().meta({ description: "Labels put on the pull request when it is opened." }),
    reviewers: z.array(reviewerName).max(15).optional().meta({ description: "GitHub logins or org/team-slug, asked to review when the pull request is opened." }),
    planApproval: z
      .boolean()
      .optional()
      .meta({ description: "The first run stops after planning: the job waits (`waitingFor: approval`) with its plan until it is approved; default: the project's setting." }),
    maxQuestions: z
      .int()
      .min(0)
      .max(MAX_QUESTIONS_PER_RUN)
      .optional()
      .meta({ description: `Questions the agent may ask per run instead of guessing (0..${MAX_QUESTIONS_PER_RUN}, default 1); each one makes the job wait (\`waitingFor: answer\`).` }),
  })
  .meta({ id: "CreateJobRequest" });
export type CreateJobBody = z.infer<typeof createJobBodySchema>;

export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

const isoDateTime = z.iso.datetime({ offset: true });

/** What the docs repository's own checks say of the job's pushed commit (check runs and statuses on GitHub, pipelines on GitLab). */
export const jobChecksSchema = z
  .object({
    state: z.enum(CHECK_STATES).meta({ description: "pending: some are still running (or none reported yet); passing: all passed (or none ran within the grace period); failing: at least one failed." }),
    sha: z.string().meta({ description: "The commit they ran on: the head of the job's branch as its last run pushed it." }),
    failing: z.array(z.object({ name: z.string(), url: z.string().nullable() })).meta({ description: "The checks that failed on that commit, with their pages." }),
    rounds: z.int().min(0).meta({ description: "Repair rounds failing checks started for this job so far (at most the project's jobs.checkRepairRounds)." }),
  })
  .meta({ id: "JobChecks" });
export type JobChecks = z.infer<typeof jobChecksSchema>;

export const agentJobSchema = z
  .object({
    id: z.string(),
    status: jobStatusSchema,
    forge: z
      .enum(["github", "gitlab"])
      .meta({ description: "Where the job's repository lives: github (a pull request, a workflow run, the GitHub App) or gitlab (a merge request, a pipeline, the project's access token)." }),
    source: z.object({
      repository: z.string().meta({ description: "Full URL of the repository (on GitHub, or the GitLab project's)." }),
      ref: z.string().meta({ description: "The branch the agent works on: inkwell/<job-id>." }),
    }),
    model: z.string(),
    prLink: z.string().nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    archivedAt: isoDateTime.nullable(),
    error: z.string().nullable().meta({ description: "Why the job failed; null otherwise." }),
    summary: z.string().nullable().meta({ description: "The agent's last message to the requester: what it did, or why it changed nothing; null before a run completes." }),
    files: z.array(fileChangeSchema).meta({ description: "The files the job's branch changes against its base, as of the last run that reported them." }),
    validation: jobValidationSchema.nullable().meta({ description: "The docs checks of the last run that changed files; null before one." }),
    usage: jobUsageSchema.nullable().meta({ description: "Summed over every reported run; null before the first report." }),
    progress: z.string().nullable().meta({ description: "The latest progress line of the run in progress; null when no run is active." }),
    baseBranch: z.string().nullable().meta({ description: "The branch the pull request targets; null: the repository's default branch." }),
    draft: z.boolean().meta({ description: "Asked to open the pull request as a draft." }),
    labels: z.array(z.string()),
    reviewers: z.array(z.string()),
    trigger: jobTriggerSchema.meta({ description: "What started the job: a person (api, dashboard, comment) or an automation (source-merge, issue, schedule, suggestion)." }),
    waitingFor: z
      .enum(WAITING_FOR)
      .nullable()
      .meta({ description: "What the `active` job waits for between runs: `approval` of its plan (POST …/approve) or an `answer` to its question (any message); null when it does not wait." }),
    plan: z.string().nullable().meta({ description: "The agent's plan (pages to add, change, move or delete, and why): waiting for approval, or approved and being carried out; null without plan approval." }),
    question: z.string().nullable().meta({ description: "The question the job waits to have answered; null otherwise." }),
    planApproval: z.boolean().meta({ description: "Whether the job's first run stops after planning, to have its plan approved." }),
    checks: jobChecksSchema
      .nullable()
      .meta({ description: "The docs repository's own checks on the job's pushed commit; the pull request stays a draft until they pass. null when they are not watched (nothing pushed yet, or the project's checkRepairRounds is 0)." }),
  })
  .meta({ id: "AgentJob" });
export type AgentJob = z.infer<typeof agentJobSchema>;

export const jobRunSchema = z
  .object({
    attempt: z.int().meta({ description: "1 for the job's first run, then one more per follow-up run." }),
    workflowRunUrl: z.string().nullable(),
    trigger: z
      .object({ source: z.enum(MESSAGE_SOURCES), author: z.string().nullable() })
      .nullable()
      .meta({ description: "Where the first instruction this run took came from." }),
    claimedAt: isoDateTime,
    lastHeartbeatAt: isoDateTime,
    reportedAt: isoDateTime.nullable(),
    outcome: z.enum(["completed", "failed"]).nullable().meta({ description: "null while the run works, or when it ended without a report (the job's events say why)." }),
    error: z.string().nullable(),
    summary: z.string().nullable(),
    model: z.string().nullable(),
    usage: runUsageSchema.extend({ estimatedCostUsd: z.number().min(0).nullable() }).nullable(),
    validation: jobValidationSchema.nullable(),
    phases: z.array(runPhaseSchema).meta({ description: "Where the run's time went, in order, as its Action reported it; empty for a run without a report or from an older Action." }),
    hasTranscript: z.boolean().meta({ description: "Whether the run sent its transcript (GET …/runs/{attempt}/transcript)." }),
  })
  .meta({ id: "JobRun" });
export type JobRun = z.infer<typeof jobRunSchema>;
export const jobRunListSchema = z.object({ runs: z.array(jobRunSchema) }).meta({ id: "JobRunList" });

export const jobListSchema = z.object({ jobs: z.array(agentJobSchema), hasMore: z.boolean() }).meta({ id: "AgentJobList" });
export type AgentJobList = z.infer<typeof jobListSchema>;

export const jobEventSchema = z
  .object({
    type: z.string().meta({ description: "created, dispatched, message_queued, reactivated, run_succeeded, run_failed, pr_closed, cancelled, run_cancelled, run_not_cancelled, checks_failed, checks_passed, marked_ready, …" }),
    from: jobStatusSchema.nullable(),
    to: jobStatusSchema.nullable(),
    cause: z.string().meta({ description: "What caused it: api, dashboard, comment, automation, checks, dispatcher, runner, github, gitlab, watchdog." }),
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
  trigger: z.enum(JOB_TRIGGER_TYPES).optional().meta({ description: "Only jobs started this way." }),
});
export type JobListQuery = z.infer<typeof jobListQuerySchema>;

// Visitors export (docs/architecture.md, "Analytics"). A date is YYYY-MM-DD or any ISO 8601 date-time; a date-time counts as its UTC date.
export const dateParam = z
  .string()
  .refine((s) => parseUtcDay(s) !== null, { error: "must be YYYY-MM-DD or an ISO 8601 date-time" })
  .meta({
    description: "YYYY-MM-DD or ISO 8601 date-time (its UTC date counts; without an offset it is UTC).",
    // The document states the strict forms; the server also takes a date-time without offset or seconds.
    anyOf: [{ format: "date" }, { format: "date-time" }],
  });

const rangeQueryFields = {
  dateFrom: dateParam.optional().meta({ description: "First UTC day included." }),
  dateTo: dateParam.optional().meta({ description: "UTC day after the last one included (exclusive)." }),
  limit: queryInt(1, 250, 50),
  offset: queryInt(0, 1_000_000_000, 0),
};

export const datesInOrder = (q: { dateFrom?: string; dateTo?: string }) => !q.dateFrom || !q.dateTo || (parseUtcDay(q.dateFrom) ?? "") <= (parseUtcDay(q.dateTo) ?? "");

/** The query of every analytics report: the visitors export's dates and paging, plus the report's own `extra` fields. */
export function rangeQuerySchema<Extra extends z.ZodRawShape>(extra: Extra) {
  return z.object({ ...rangeQueryFields, ...extra }).refine((q) => datesInOrder(q as { dateFrom?: string; dateTo?: string }), {
    error: "must not be after dateTo",
    path: ["dateFrom"],
  });
}

export const readFormatSchema = z.enum(READ_FORMATS).meta({
  description: "html: the page; markdown: its .md/.mdx twin or a markdown-negotiated fetch; llms.txt: llms.txt or llms-full.txt; text: other text files.",
});

/** A report's answer: JSON, or its rows as CSV (`format` already names a read format, so this is `output`). */
export const reportOutputSchema = z
  .enum(["json", "csv"])
  .optional()
  .meta({
    description:
      "csv: the rows as CSV (text/csv; a header line, every row of the range in the report's order unless limit or offset is given, no totals); json: the JSON report. Without it, an Accept header that prefers text/csv to application/json asks for CSV.",
  });


/** Human, AI and their union (or sum, for views); other bots apart, never in total. */
export const countsSchema = z.object({
  human: z.int().min(0),
  ai: z.int().min(0),
  bot: z.int().min(0).meta({ description: "Other bots (search engines, monitors, scrapers, spoofed AI claims): not in total." }),
  total: z.int().min(0),
});
/** A report's counts and, with compare=previous, the previous period's beside them. */
export const comparedCountsSchema = countsSchema.extend({
  previous: countsSchema.optional().meta({ description: "With compare=previous: the same counts over the previous period." }),
});
/** With compare=previous: which period the report is compared with. */
export const previousPeriodSchema = z
  .object({ dateFrom: z.iso.date(), dateTo: z.iso.date() })
  .optional()
  .meta({ description: "With compare=previous: the previous period (dateTo exclusive), as long as the range and just before it." });

export const visitorsSchema = z
  .object({
    totals: comparedCountsSchema.meta({
      description: "Distinct visitors of what the query narrows to: the site, the prefix's pages, the people who arrived from the channel (with a format: its readers on the whole site).",
    }),
    visitors: z.array(comparedCountsSchema.extend({ path: z.string() })),
    hasMore: z.boolean(),
    previous: previousPeriodSchema,
  })
  .meta({ id: "Visitors" });
export type Visitors = z.infer<typeof visitorsSchema>;
