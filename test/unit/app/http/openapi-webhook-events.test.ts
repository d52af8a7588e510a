import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../../../src/app/http/openapi.js";
import { WEBHOOK_EVENTS } from "../../../../src/shared/job-vocabulary.js";
import { webhookPayloadSchema } from "../../../../src/shared/webhook-schemas.js";

describe("the OpenAPI document's webhooks section", () => {
  const document = buildOpenApiDocument("test") as ReturnType<typeof buildOpenApiDocument> & { webhooks: Record<string, any>; components: { schemas: Record<string, any> } };

  it("describes every event a project webhook sends, each with the payload schema", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const event of WEBHOOK_EVENTS) {
      expect(document.webhooks[event].post.requestBody.content["application/json"].schema, event).toEqual({ $ref: "#/components/schemas/WebhookPayload" });
    }
    const data = document.components.schemas.WebhookPayload.properties.data;
    expect(JSON.stringify(data)).toContain("waitingFor");
    expect(JSON.stringify(data)).toContain('"waiting"');
  });

  it("the payload schema takes a job.waiting and a job.run_finished as the service sends them", () => {
    const job = {
      id: "j1", status: "active", forge: "github", source: { repository: "https://github.com/a/b", ref: "inkwell/j1" }, model: "m", prLink: null,
      createdAt: "2026-11-27T10:00:00.000Z", updatedAt: "2026-11-27T10:00:00.000Z", archivedAt: null, error: null, summary: null, files: [], validation: null,
      usage: null, progress: null, baseBranch: null, draft: false, labels: [], reviewers: [], trigger: { type: "api" },
      waitingFor: "approval", plan: "- Add a page", question: null, planApproval: true, checks: null,
    };
    expect(webhookPayloadSchema.safeParse({ type: "job.waiting", timestamp: "2026-11-27T10:00:00.000Z", data: job }).success).toBe(true);
    expect(webhookPayloadSchema.safeParse({ type: "job.run_finished", timestamp: "2026-11-27T10:00:00.000Z", data: { ...job, run: { attempt: 1, outcome: "waiting" } } }).success).toBe(true);
    expect(webhookPayloadSchema.safeParse({ type: "job.run_finished", timestamp: "2026-11-27T10:00:00.000Z", data: { ...job, run: { attempt: 2, outcome: "cancelled", reported: false } } }).success).toBe(true);
    expect(webhookPayloadSchema.safeParse({ type: "job.run_finished", timestamp: "x", data: { ...job, run: { attempt: 1, outcome: "lost" } } }).success).toBe(false);
  });
});
