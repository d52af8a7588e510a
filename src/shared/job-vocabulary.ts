/**
 * Names the job API, the webhooks and the CLI share: plain constants (the zod schemas build on them),
 * so that what only needs a name, like the CLI's help, does not load a validator.
 */

/** What started a job: a person (API, dashboard, PR comment) or an automation (a merge in a source repository, an issue, a schedule, a suggestion from analytics). */
export const JOB_TRIGGER_TYPES = ["api", "dashboard", "comment", "source-merge", "issue", "schedule", "suggestion"] as const;
export type JobTriggerType = (typeof JOB_TRIGGER_TYPES)[number];

export const JOB_STATUSES = ["active", "completed", "archived", "failed"] as const;

export const WEBHOOK_EVENTS = ["job.completed", "job.failed", "job.archived", "job.pull_request_opened", "job.impact"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_FORMATS = ["standard", "slack"] as const;
