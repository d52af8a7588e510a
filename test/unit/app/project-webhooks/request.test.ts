import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { WebhookPayload } from "../../../../src/app/domain/jobs/job-webhooks.js";
import type { DeliveryToSend } from "../../../../src/app/project-webhooks/deliveries.js";
import { slackMessage, webhookRequest } from "../../../../src/app/project-webhooks/request.js";
import type { AgentJob } from "../../../../src/shared/api-schemas.js";

const job: AgentJob = {
  id: "abc123",
  status: "failed",
  forge: "github",
  source: { repository: "https://github.com/acme/docs", ref: "inkwell/abc123" },
  model: "anthropic/claude-sonnet-4-5",
  prLink: "https://github.com/acme/docs/pull/3",
  createdAt: "2026-11-24T10:00:00.000Z",
  updatedAt: "2026-11-24T10:05:00.000Z",
  archivedAt: null,
  error: "Validation failed: <script> & friends\nsecond line",
  summary: null,
  files: [],
  validation: null,
  usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 100, turns: 2, durationMs: 3000, estimatedCostUsd: 0.0045 },
  progress: null,
  baseBranch: null,
  draft: false,
  labels: [],
  reviewers: [],
  trigger: { type: "api" },
  waitingFor: null,
  plan: null,
  question: null,
  planApproval: false,
  checks: null,
};
const payload: WebhookPayload = { type: "job.failed", timestamp: "2026-11-24T10:05:00.000Z", data: job };
const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const delivery = (format: "standard" | "slack"): DeliveryToSend => ({ id: "d1", event: "job.failed", payload: JSON.stringify(payload), attempts: 0, webhook: { id: "w1", url: "https://x.test", format, secret } });

describe("a delivery's request", () => {
  it("standard: the stored payload as it is, signed so a Standard Webhooks library verifies it, and a tampered body fails", () => {
    const now = new Date();
    const request = webhookRequest(delivery("standard"), now, "Inkwell-Webhooks/test");
    expect(request.headers).toMatchObject({ "webhook-id": "d1", "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "User-Agent": "Inkwell-Webhooks/test" });
    expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(payload);
    expect(() => new Webhook(secret).verify(request.body.replace("failed", "complete"), request.headers)).toThrow();
  });

  it("slack: a readable message with Slack's three characters escaped and no signature", () => {
    const request = webhookRequest(delivery("slack"), new Date(), "Inkwell-Webhooks/test");
    expect(request.headers["webhook-signature"]).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual(slackMessage(payload));
    expect(slackMessage(payload).text).toBe(
      ":x: Inkwell job `abc123` on acme/docs failed\n<https://github.com/acme/docs/pull/3|Pull request>\n> Validation failed: &lt;script&gt; &amp; friends\nEstimated cost so far: $0.00",
    );
  });
});

describe("slack messages of a job's steps", () => {
  const waiting = (data: Partial<AgentJob>): WebhookPayload => ({ type: "job.waiting", timestamp: payload.timestamp, data: { ...job, status: "active", error: null, prLink: null, usage: null, ...data } });

  it("job.waiting quotes the plan (escaped, line by line) and says how to approve or revise it", () => {
    const text = slackMessage(waiting({ waitingFor: "approval", plan: "Add guides/retries.mdx: <why>\nMove faq.mdx" })).text;
    expect(text).toBe(
      ":raised_hand: Inkwell job `abc123` on acme/docs waits for you\n*Plan to approve:*\n> Add guides/retries.mdx: &lt;why&gt;\n> Move faq.mdx\nApprove it (`inkwell jobs approve`, the dashboard, or `/inkwell approve` on GitHub), or reply to revise it.",
    );
  });

  it("job.waiting with a question asks for an answer; run events name the run and how it ended", () => {
    expect(slackMessage(waiting({ waitingFor: "answer", question: "Which version?" })).text).toContain("*Question:*\n> Which version?\nReply with a message to answer it.");
    const finished: WebhookPayload = { type: "job.run_finished", timestamp: payload.timestamp, data: { ...job, run: { attempt: 2, outcome: "waiting" } } };
    expect(slackMessage(finished).text.split("\n")[0]).toBe(":checkered_flag: Inkwell job `abc123` on acme/docs finished run 2 (stopped to wait for you)");
    const lost: WebhookPayload = { type: "job.run_finished", timestamp: payload.timestamp, data: { ...job, run: { attempt: 3, outcome: "cancelled", reported: false } } };
    expect(slackMessage(lost).text.split("\n")[0]).toBe(":checkered_flag: Inkwell job `abc123` on acme/docs finished run 3 (cancelled, without a report)");
    const started: WebhookPayload = { type: "job.run_started", timestamp: payload.timestamp, data: { ...job, run: { attempt: 1 } } };
    expect(slackMessage(started).text.split("\n")[0]).toBe(":arrow_forward: Inkwell job `abc123` on acme/docs started run 1");
  });
});
