import type { WebhookDeliveryView } from "../../shared/webhook-schemas.js";
import type { WebhookEvent } from "../../shared/job-vocabulary.js";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso, toIsoOrNull } from "../store/db.js";
import { notFound } from "../domain/errors.js";
import { queueDeliverySend } from "../domain/jobs/job-webhooks.js";
import { webhookOf, type WebhookRow } from "./endpoints.js";

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
  await queueDeliverySend(tx, deliveryId);
  return toDeliveryView(rows[0]);
}
