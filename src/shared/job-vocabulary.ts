/**
 * Names the job API, the webhooks and the CLI share: plain constants (the zod schemas build on them),
 * so that what only needs a name, like the CLI's help, does not load a validator.
 */

/** What started a job: a person (API, dashboard, PR comment, a Slack mention) or an automation (a merge in a source repository, an issue, a schedule, a suggestion from analytics). */
export const JOB_TRIGGER_TYPES = ["api", "dashboard", "comment", "source-merge", "issue", "schedule", "suggestion", "slack"] as const;
export type JobTriggerType = (typeof JOB_TRIGGER_TYPES)[number];

export const JOB_STATUSES = ["active", "completed", "archived", "failed"] as const;

export const WEBHOOK_EVENTS = [
  "job.completed",
  "job.failed",
  "job.archived",
  "job.pull_request_opened",
  "job.impact",
  "job.created",
  "job.run_started",
  "job.waiting",
  "job.run_finished",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_FORMATS = ["standard", "slack"] as const;

/** What an `active` job may wait for between runs: its plan approved, or its question answered. */
export const WAITING_FOR = ["approval", "answer"] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];

/** What the docs repository's own checks say of a job's pushed commit. */
export const CHECK_STATES = ["pending", "passing", "failing"] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** The longest plan and question a run may leave for the user. */
export const MAX_PLAN_CHARS = 10_000;
export const MAX_QUESTION_CHARS = 2_000;
/** Questions one run may ask, at most, when a job allows more than the default one. */
export const MAX_QUESTIONS_PER_RUN = 5;
