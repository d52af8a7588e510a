import type { AgentJob } from "../../../shared/api-schemas.js";
import type { ImpactNotice } from "../../../shared/impact-schemas.js";
import type { WebhookEvent } from "../../../shared/job-vocabulary.js";
import type { Queryable } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { newId } from "../ids.js";
import { noteSlackStep } from "../slack/slack-threads.js";

// A job's events for the project's own webhooks, queued here so the commands that move the job
// need nothing above the domain; project-webhooks/ sends them (delivery-task.ts).

export const WEBHOOK_DELIVERY_TASK = "webhook_delivery";

/** What a `standard` endpoint receives (Standard Webhooks' recommended `{type, timestamp, data}`). */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  /** The job; `job.impact` adds the first week's result as `impact`, the run events the run as `run`. */
  data: AgentJob & WebhookExtra;
}

export interface WebhookExtra {
  impact?: ImpactNotice;
  /**
   * `job.run_started` and `job.run_finished`: which run, and how it ended (`waiting`: it stopped for
   * a plan's approval or an answer; `cancelled`: stopped, or its PR closed, before it reported).
   * `reported: false` when the run ended without its report (lost, or stopped).
   */
  run?: { attempt: number; outcome?: "completed" | "failed" | "waiting" | "cancelled"; reported?: boolean };
}

/** The task that sends (and retries) one delivery after commit. */
export const queueDeliverySend = (tx: Queryable, deliveryId: string) => enqueueTask(tx, WEBHOOK_DELIVERY_TASK, `webhook:${deliveryId}`, { deliveryId });

/**
 * Called in the transaction that changes the job: one delivery per endpoint of the project that
 * takes this event, each sent (and retried) by the task worker after commit, and the step for the
 * job's Slack thread, if it has one.
 */
export async function queueJobEvent(tx: Queryable, projectId: string, event: WebhookEvent, job: AgentJob, extra: WebhookExtra = {}): Promise<void> {
  const endpoints = await tx.query<{ id: string; events: string }>(`SELECT id, events FROM project_webhooks WHERE project_id = $1 AND deleted_at IS NULL`, [projectId]);
  const payload: WebhookPayload = { type: event, timestamp: new Date().toISOString(), data: { ...job, ...extra } };
  for (const endpoint of endpoints) {
    if (!endpoint.events.split(",").includes(event)) continue;
    const id = newId();
    await tx.query(`INSERT INTO webhook_deliveries (id, webhook_id, event, payload) VALUES ($1, $2, $3, $4)`, [id, endpoint.id, event, JSON.stringify(payload)]);
    await queueDeliverySend(tx, id);
  }
  // A job asked for in a Slack thread shows the step in its status message there.
  await noteSlackStep(tx, job.id, { event, at: payload.timestamp, attempt: extra.run?.attempt, outcome: extra.run?.outcome });
}
