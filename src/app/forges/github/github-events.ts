import type { EmitterWebhookEventName } from "@octokit/webhooks";

/**
 * The GitHub events the App subscribes to: app.yml's `default_events`, which GitHub registers
 * the App with (a test holds the two lists equal). Each one's meaning is in webhook-events.ts.
 */
export const SUBSCRIBED_EVENTS = [
  "installation_repositories",
  "issues",
  "issue_comment",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "workflow_run",
  "check_run",
  "check_suite",
  "status",
] as const satisfies readonly EmitterWebhookEventName[];

/** Every event Inkwell handles: the subscribed ones, and `installation`, which GitHub sends every App unasked. */
export const EVENTS = ["installation", ...SUBSCRIBED_EVENTS] as const satisfies readonly EmitterWebhookEventName[];

export type HandledEvent = (typeof EVENTS)[number];

export const isHandledEvent = (name: string): name is HandledEvent => (EVENTS as readonly string[]).includes(name);
