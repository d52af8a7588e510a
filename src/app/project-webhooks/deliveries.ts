import type { AgentJob } from "../../shared/api-schemas.js";
import type { WebhookDeliveryView } from "../../shared/webhook-schemas.js";
import type { WebhookEvent } from "../../shared/job-vocabulary.js";
import type { ImpactNotice } from "../../shared/impact-schemas.js";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso, toIsoOrNull } from "../store/db.js";
import { enqueueTask } from "../tasks/tasks.js";
import { notFound } from "../domain/errors.js";
import { newId } from "../domain/ids.js";
import { webhookOf, type WebhookRow } from "./endpoints.js";

export const WEBHOOK_DELIVERY_TASK = "webhook_delivery";

/** What a `standard` endpoint receives (Standard Webhooks' recommended `{type, timestamp, data}`). */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  /** The job; `job.impact` adds the first week's result as `impact`. */
  data: AgentJob & { impact?: ImpactNotice };
}

const queueSend = (tx: Queryable, deliveryId: string) => enqueueTask(tx, WEBHOOK_DELIVERY_TASK, `webhook:${deliveryId}`, { deliveryId });

/**
 * Called in the transaction that changes the job: one delivery per endpoint of the project that
 * takes this event, each sent (and retried) by the task worker after commit.
 */
export async function queueJobEvent(tx: Queryable, projectId: string, event: WebhookEvent, job: AgentJob, extra: { impact?: ImpactNotice } = {}): Promise<void> {
  const endpoints = await tx.query<{ id: string; events: string }>(`SELECT id, events FROM project_webhooks WHERE project_id = $1 AND deleted_at IS NULL`, [projectId]);
  const payload: WebhookPayload = { type: event, timestamp: new Date().toISOString(), data: { ...job, ...extra } };
  for (const endpoint of endpoints) {
    if (!endpoint.events.split(",").includes(event)) continue;
    const id = newId();
    await tx.query(`INSERT INTO webhook_deliveries (id, webhook_id, event, payload) VALUES ($1, $2, $3, $4)`, [id, endpoint.id, event, JSON.stringify(payload)]);
    await queueSend(tx, id);
  }
}

export interface DeliveryToSend {
  id: string;
  event: WebhookEvent;
  payload: string;
  attempts: number;
  webhook: Pick<WebhookRow, "id" | "url" | "format" | "secret">;
}

/** A delivery still to be sent, with its endpoint; null once delivered, or when its endpoint was deleted. */
export async function deliveryToSend(db: Queryable, deliveryId: string): Promise<DeliveryToSend | null> {
  const row = await queryOne<{ id: string; event: WebhookEvent; payload: string; attempts: number; webhook_id: string; url: string; format: "standard" | "slack"; secret: string }>(
    db,
    `SELECT d.id, d.event, d.payload, d.attempts, w.id AS webhook_id, w.url, w.format, w.secret
     FROM webhook_deliveries d JOIN project_webhooks w ON w.id = d.webhook_id
     WHERE d.id = $1 AND d.state <> 'delivered' AND w.deleted_at IS NULL`,
    [deliveryId],
  );
  if (!row) return null;
  return { id: row.id, event: row.event, payload: row.payload, attempts: row.attempts, webhook: { id: row.webhook_id, url: row.url, format: row.format, secret: row.secret } };
}

/** One attempt's result, for the delivery log. `final`: no more attempts will be made. */
export async function recordAttempt(db: Queryable, deliveryId: string, attempt: { status: number | null; error: string | null; delivered: boolean; final: boolean }): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = $2, last_error = $3, last_attempt_at = now(),
       state = CASE WHEN $4::boolean THEN 'delivered' WHEN $5::boolean THEN 'failed' ELSE 'pending' END,
       delivered_at = CASE WHEN $4::boolean THEN now() ELSE delivered_at END
     WHERE id = $1`,
    [deliveryId, attempt.status, attempt.error, attempt.delivered, attempt.final],
  );
}

interface DeliveryRow {
  id: string;
  event: WebhookEvent;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: unknown;
  delivered_at: unknown;
  created_at: unknown;
}

const toDeliveryView = (row: DeliveryRow): WebhookDeliveryView => ({
  id: row.id,
  event: row.event,
  state: row.state,
  attempts: row.attempts,
  lastStatus: row.last_status,
  lastError: row.last_error,
  lastAttemptAt: toIsoOrNull(row.last_attempt_at),
  deliveredAt: toIsoOrNull(row.delivered_at),
  createdAt: toIso(row.created_at),
});

/** An endpoint's deliveries, newest first. */
export async function listDeliveries(db: Queryable, projectId: string, webhookId: string, limit: number): Promise<WebhookDeliveryView[]> {
  await webhookOf(db, projectId, webhookId);
  const rows = await db.query<DeliveryRow>(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [webhookId, limit]);
  return rows.map(toDeliveryView);
}

/** Sends one delivery again, with the same webhook-id (receivers that already have it can tell), whatever its state. */
export async function redeliver(tx: Queryable, projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  await webhookOf(tx, projectId, webhookId);
  const rows = await tx.query<DeliveryRow>(`UPDATE webhook_deliveries SET state = 'pending' WHERE id = $1 AND webhook_id = $2 RETURNING *`, [deliveryId, webhookId]);
  if (!rows[0]) throw notFound("Delivery");
  await queueSend(tx, deliveryId);
  return toDeliveryView(rows[0]);
}
