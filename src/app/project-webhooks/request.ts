import { Webhook } from "standardwebhooks";
import type { WebhookPayload } from "../domain/jobs/job-webhooks.js";
import type { DeliveryToSend } from "./deliveries.js";
import { impactLine } from "../impact/impact-line.js";

export interface OutgoingRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The HTTP request of one delivery. `standard`: the JSON payload with Standard Webhooks' headers
 * (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 by the `standardwebhooks`
 * package), the same id on every attempt. `slack`: a message for a Slack incoming webhook (its
 * URL is its secret; Slack checks no signature).
 */
export function webhookRequest(delivery: DeliveryToSend, now: Date, userAgent: string): OutgoingRequest {
  const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": userAgent };
  if (delivery.webhook.format === "slack") return { body: JSON.stringify(slackMessage(JSON.parse(delivery.payload) as WebhookPayload)), headers };
  const signature = new Webhook(delivery.webhook.secret).sign(delivery.id, now, delivery.payload);
  return {
    body: delivery.payload,
    headers: { ...headers, "webhook-id": delivery.id, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signature },
  };
}

/** Slack's mrkdwn needs these three escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
const escapeSlack = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const HEADLINES: Record<WebhookPayload["type"], [icon: string, what: string]> = {
  "job.completed": [":white_check_mark:", "completed"],
  "job.failed": [":x:", "failed"],
  "job.archived": [":package:", "archived (its pull request was merged or closed)"],
  "job.pull_request_opened": [":memo:", "opened a pull request"],
  "job.impact": [":bar_chart:", "has a week of readers since its pull request was merged"],
  "job.created": [":inbox_tray:", "was created"],
  "job.run_started": [":arrow_forward:", "started run"],
  "job.waiting": [":raised_hand:", "waits for you"],
  "job.run_finished": [":checkered_flag:", "finished run"],
};

const RUN_ENDS = { completed: "completed", failed: "failed", waiting: "stopped to wait for you" } as const;

/** A readable Slack message: what happened to which job of which repository, the PR, and the summary or error. */
export function slackMessage(payload: WebhookPayload): { text: string } {
  const job = payload.data;
  const [icon, what] = HEADLINES[payload.type];
  const repository = job.source.repository.replace(/^https?:\/\/[^/]+\//, "");
  const run = job.run ? ` ${job.run.attempt}${job.run.outcome ? ` (${RUN_ENDS[job.run.outcome]})` : ""}` : "";
  const lines = [`${icon} Inkwell job \`${job.id}\` on ${escapeSlack(repository)} ${what}${run}`];
  if (job.prLink) lines.push(`<${job.prLink}|Pull request>`);
  if (payload.type === "job.waiting") lines.push(waitingLines(job));
  else if (payload.type === "job.impact" && job.impact) lines.push(escapeSlack(impactLine(job.impact)));
  else if (payload.type === "job.failed" && job.error) lines.push(`> ${escapeSlack(job.error.split("\n")[0] as string)}`);
  else if (job.summary) lines.push(`> ${escapeSlack(job.summary.split("\n")[0] as string)}`);
  if (job.usage?.estimatedCostUsd !== null && job.usage?.estimatedCostUsd !== undefined) lines.push(`Estimated cost so far: $${job.usage.estimatedCostUsd.toFixed(2)}`);
  return { text: lines.join("\n") };
}

/** The plan to approve or the question to answer, quoted, and how to reply. */
function waitingLines(job: WebhookPayload["data"]): string {
  const [asks, text, reply] =
    job.waitingFor === "approval"
      ? ["Plan to approve", job.plan ?? "", "Approve it (`inkwell jobs approve`, the dashboard, or `/inkwell approve` on GitHub), or reply to revise it."]
      : ["Question", job.question ?? "", "Reply with a message to answer it."];
  const quoted = escapeSlack(text.length > 2_500 ? `${text.slice(0, 2_500)}…` : text)
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  return `*${asks}:*\n${quoted}\n${reply}`;
}
