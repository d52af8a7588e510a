/**
 * The runner protocol (docs/architecture.md, "Request paths") between the Inkwell Action and the service. Every request
 * carries `Authorization: Bearer <GitHub Actions OIDC token>` whose audience is the service URL.
 */
import { z } from "zod";
import { RELEASE_PATTERN } from "./releases.js";
import { fileChangeSchema, runPhaseSchema, transcriptEntrySchema, validationProblemSchema } from "./job-outcome-schemas.js";
import { storedInt, storedText } from "./stored-values.js";
import { jobTriggerSchema } from "./automation-schemas.js";
import { MAX_PLAN_CHARS, MAX_QUESTION_CHARS } from "./job-vocabulary.js";

/** A run's transcript keeps at most this many entries (the first and the last ones). */
export const MAX_TRANSCRIPT_ENTRIES = 1_000;

const jobRef = { jobId: z.string().regex(/^[a-z0-9]{1,64}$/), runAttempt: storedInt(1) };

export const claimRequestSchema = z
  .object({
    ...jobRef,
    workflowRunId: z.int().min(1).meta({ description: "GITHUB_RUN_ID of the run that claims." }),
    workflowRunUrl: z.url().max(500).optional(),
    ciJobId: z.int().min(1).optional().meta({ description: "GitLab CI only: CI_JOB_ID of the job that claims (workflowRunId is then CI_PIPELINE_ID)." }),
    actionVersion: z.string().regex(RELEASE_PATTERN).optional().meta({ description: "The Action's release; a service serves only Actions of its own major release (else 400 naming the tag to use)." }),
  })
  .meta({ id: "RunnerClaimRequest" });
export type ClaimRequest = z.infer<typeof claimRequestSchema>;

/**
 * Where a job's message came from: an API key (CLI included), a dashboard user, a PR comment, an
 * automation (a merge, an issue, a schedule), the docs repository's own checks (a repair round), or a Slack thread.
 */
export const MESSAGE_SOURCES = ["api", "dashboard", "comment", "automation", "checks", "slack"] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];

export const jobMessageSchema = z.object({
  seq: z.int(),
  prompt: z.string(),
  source: z.enum(MESSAGE_SOURCES),
  author: z.string().nullable(),
  createdAt: z.string(),
});
export type JobMessage = z.infer<typeof jobMessageSchema>;

export const claimResponseSchema = z
  .object({
    job: z.object({
      id: z.string(),
      runAttempt: z.int(),
      repository: z.string().meta({ description: "owner/repo" }),
      branch: z.string().meta({ description: "inkwell/<job-id>: create it, or continue it when it exists." }),
      baseRef: z.string().nullable().meta({ description: "Base branch of the PR; null = the repository's default branch." }),
      prNumber: z.int().nullable(),
      model: z.string(),
      requestedModel: z.string().nullable().optional().meta({ description: "The model this job asked for: it wins over the workflow's model input." }),
      draft: z.boolean().optional().meta({ description: "Open the pull request as a draft." }),
      draftUntilChecksPass: z
        .boolean()
        .optional()
        .meta({ description: "The project watches the docs repository's own checks on the pushed commit: open (or keep) the pull request a draft; Inkwell marks it ready for review once they pass." }),
      labels: z.array(z.string()).optional().meta({ description: "Put on the pull request when it is opened." }),
      reviewers: z.array(z.string()).optional().meta({ description: "Logins or org/team-slug, asked to review when the pull request is opened." }),
      messages: z.array(jobMessageSchema).meta({ description: "Every message of the job, oldest first; the last ones are new for this run." }),
      newMessagesFrom: z.int().meta({ description: "seq of the first message this run is the first to see." }),
      trigger: jobTriggerSchema.optional().meta({ description: "What started the job, for the pull request body." }),
      closesIssue: z.int().nullable().optional().meta({ description: "The docs repository's issue this job was started from: the pull request says `Fixes #n`." }),
      stage: z
        .enum(["plan", "work"])
        .optional()
        .meta({ description: "`plan`: read, plan and report the plan without changing files (the job waits for its approval); `work` (default): carry out the instructions." }),
      plan: z.string().nullable().optional().meta({ description: "The job's plan: to revise by the new messages (stage plan), or approved, to carry out (stage work)." }),
      question: z.string().nullable().optional().meta({ description: "The question the job's previous run asked: the new messages answer it." }),
      maxQuestions: z.int().optional().meta({ description: "Questions this run may ask instead of guessing (default 0: an older service takes none)." }),
      limits: z.object({
        timeoutMinutes: z.int(),
        heartbeatSeconds: z.int(),
        contextWindow: z.int().nullable().optional().meta({ description: "Context window in tokens of the job's model (requestedModel, else model), when known: the Action's default prompt budget is 80% of it." }),
      }),
    }),
    serviceVersion: z.string().optional().meta({ description: "The service's release: an Action of another major release stops at once." }),
    appSlug: z.string().nullable().meta({ description: "The App's slug: commits are authored as <slug>[bot]. null when GitHub did not say." }),
    jobPageUrl: z.string().nullable().optional().meta({ description: "The job's page on the dashboard, for the pull request body; null without PUBLIC_URL." }),
    token: z
      .object({
        value: z.string().meta({ description: "Installation token for this repository only: contents, pull requests and issues write." }),
        expiresAt: z.string(),
      })
      .nullable()
      .meta({ description: "null on GitLab: the job pushes with its own CI_JOB_TOKEN and Inkwell opens the merge request." }),
    forge: z.enum(["github", "gitlab"]).optional().meta({ description: "Where the docs repository lives; absent means github." }),
    gitlab: z
      .object({
        projectId: z.int(),
        projectUrl: z.url().meta({ description: "The docs project's web URL." }),
        serverUrl: z.url().meta({ description: "The GitLab instance's URL." }),
      })
      .optional()
      .meta({ description: "The GitLab project of the job (forge gitlab only)." }),
    source: z
      .object({
        repository: z.string().meta({ description: "owner/repo of the code repository whose merge started the job." }),
        sha: z.string().meta({ description: "The merge commit the agent reads." }),
        pullRequestUrl: z.string().nullable(),
        token: z.object({
          value: z.string().meta({ description: "Installation token for that repository only, contents read: nothing can be written there." }),
          expiresAt: z.string(),
        }),
      })
      .nullable()
      .optional()
      .meta({ description: "A code repository the agent may read (list, read, search), never write; null for most jobs." }),
  })
  .meta({ id: "RunnerClaimResponse" });
export type ClaimResponse = z.infer<typeof claimResponseSchema>;

export const heartbeatRequestSchema = z
  .object({ ...jobRef, progress: storedText(300, { trim: true }).optional().meta({ description: "A short line for the tracking comment." }) })
  .meta({ id: "RunnerHeartbeatRequest" });
export type HeartbeatRequest = z.infer<typeof heartbeatRequestSchema>;

export const heartbeatResponseSchema = z
  .object({ status: z.enum(["active", "completed", "failed", "archived"]), cancel: z.boolean().meta({ description: "Stop: the job no longer wants this run." }) })
  .meta({ id: "RunnerHeartbeatResponse" });
export type HeartbeatResponse = z.infer<typeof heartbeatResponseSchema>;

const usageSchema = z.object({
  inputTokens: z.int().min(0).meta({ description: "Every prompt token, cached ones included." }),
  cachedInputTokens: z.int().min(0).optional().meta({ description: "Of those, read from the provider's prompt cache." }),
  outputTokens: z.int().min(0),
});
// Older Actions send problems as `file:line: message` lines.
const reportedProblemsSchema = z.array(z.union([validationProblemSchema, storedText(1000)])).max(200);
const validationSchema = z.object({
  passed: z.boolean(),
  problems: reportedProblemsSchema,
  alreadyOnSite: reportedProblemsSchema.optional().meta({ description: "Problems the checked pages had before the run and still have: the site's, never blocking." }),
  alreadyOnSiteCount: z.int().min(0).optional(),
});
const callUsageSchema = z.object({
  inputTokens: z.int().min(0).meta({ description: "Every prompt token, cached or not." }),
  cachedInputTokens: z.int().min(0).optional().meta({ description: "Prompt tokens read from the provider's cache (billed at a discount)." }),
  cacheWriteInputTokens: z.int().min(0).optional().meta({ description: "Prompt tokens written to the provider's cache (Anthropic bills them above plain input)." }),
  outputTokens: z.int().min(0),
});
const runFacts = {
  model: storedText(200).optional().meta({ description: "The model actually used." }),
  usage: usageSchema.optional(),
  calls: z.array(callUsageSchema).max(5_000).optional().meta({ description: "Each model call's tokens: prices can depend on a call's size (long-context tiers)." }),
  turns: z.int().min(0).optional(),
  durationMs: z.int().min(0).optional(),
  phases: z
    .array(runPhaseSchema)
    .max(100)
    .optional()
    .meta({ description: "Where the run's time went, in order: claim, checkout, each agent and validation round, commit, push, pull request; background work marked." }),
  filesChanged: z.array(storedText(500)).max(1000).optional().meta({ description: "Paths this run changed." }),
  files: z.array(fileChangeSchema).max(1000).optional().meta({ description: "The branch's files against its base after this run." }),
  validation: validationSchema.optional(),
};

export const reportRequestSchema = z
  .discriminatedUnion("outcome", [
    z.object({
      ...jobRef,
      ...runFacts,
      outcome: z.literal("completed"),
      pr: z.object({ number: storedInt(1), url: z.url({ protocol: /^https?$/ }).max(500) }).nullable().meta({ description: "null when nothing changed." }),
      summary: storedText(10_000).optional(),
      pushed: z
        .object({
          sha: z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/).meta({ description: "The commit at the head of the job's branch after the push." }),
          draft: z.boolean().meta({ description: "The change request stays a draft whatever the repository's checks say: the job or the workflow asked for one, or validation problems remain." }),
        })
        .optional()
        .meta({ description: "What this run pushed; absent when it pushed nothing (or from an older Action): the repository's checks on that commit are the job's." }),
      mergeRequest: z
        .object({ title: storedText(255, { trim: true, min: 1 }), description: storedText(100_000), draft: z.boolean() })
        .optional()
        .meta({ description: "GitLab only: the runner pushed the job's branch; Inkwell opens or updates the merge request with this title, description and draft state." }),
      waiting: z
        .discriminatedUnion("for", [
          z.object({ for: z.literal("approval"), plan: storedText(MAX_PLAN_CHARS, { trim: true, min: 1 }) }),
          z.object({ for: z.literal("answer"), question: storedText(MAX_QUESTION_CHARS, { trim: true, min: 1 }) }),
        ])
        .optional()
        .meta({ description: "The run stopped to wait for the user (nothing was pushed): a plan to approve or a question to answer; pr is then null." }),
    }),
    z.object({ ...jobRef, ...runFacts, outcome: z.literal("failed"), error: storedText(4_000, { trim: true, min: 1 }) }),
  ])
  .meta({ id: "RunnerReportRequest" });
export type ReportRequest = z.infer<typeof reportRequestSchema>;


/** A run's transcript, sent by the Action before its report (and when it stops early). */
export const transcriptRequestSchema = z
  .object({ ...jobRef, entries: z.array(transcriptEntrySchema).max(MAX_TRANSCRIPT_ENTRIES), elided: z.int().min(0).max(1_000_000) })
  .meta({ id: "RunnerTranscriptRequest" });
export type TranscriptRequest = z.infer<typeof transcriptRequestSchema>;
