import { randomBytes } from "node:crypto";
import type { CreateWebhookRequest, CreatedWebhookView, WebhookView } from "../../shared/webhook-schemas.js";
import type { WebhookEvent } from "../../shared/job-vocabulary.js";
import { WEBHOOK_EVENTS } from "../../shared/job-vocabulary.js";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso } from "../store/db.js";
import { InvalidInputError, notFound } from "../domain/errors.js";
import { checkDestination } from "./destination.js";
import { newId } from "../domain/ids.js";

export interface WebhookRow {
  id: string;
  project_id: string;
  url: string;
  format: "standard" | "slack";
  events: string;
  secret: string;
  created_at: unknown;
}

export const toWebhookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  events: row.events.split(",") as WebhookEvent[],
  format: row.format,
  createdAt: toIso(row.created_at),
});

/**
 * A project's new endpoint with a fresh signing secret (Standard Webhooks' `whsec_` + base64 of
 * 32 random bytes). The secret is returned once; it is kept because signing needs it. A URL whose
 * host is, or resolves to, a loopback, private or link-local address is refused (InvalidInputError
 * naming `url`) unless the operator allows those; every delivery checks again as it connects.
 */
export async function createWebhook(db: Queryable, projectId: string, request: CreateWebhookRequest, options: { allowPrivate: boolean }): Promise<CreatedWebhookView> {
  const refused = await checkDestination(request.url, options.allowPrivate);
  if (refused) throw new InvalidInputError(`url: ${refused}`, [{ field: "url", message: refused }]);
  const project = await queryOne(db, `SELECT 1 FROM projects WHERE id = $1`, [projectId]);
  if (!project) throw notFound("Project");
  const events = request.events ? WEBHOOK_EVENTS.filter((event) => request.events?.includes(event)) : [...WEBHOOK_EVENTS];
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const [row] = await db.query<WebhookRow>(
    `INSERT INTO project_webhooks (id, project_id, url, format, events, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [newId(), projectId, request.url, request.format, events.join(","), secret],
  );
  return { ...toWebhookView(row as WebhookRow), secret };
}

export async function listWebhooks(db: Queryable, projectId: string): Promise<WebhookView[]> {
  const rows = await db.query<WebhookRow>(`SELECT * FROM project_webhooks WHERE project_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`, [projectId]);
  return rows.map(toWebhookView);
}

/** The project's endpoint (NotFoundError for another project's, or a deleted one). */
export async function webhookOf(db: Queryable, projectId: string, webhookId: string): Promise<WebhookRow> {
  const row = await queryOne<WebhookRow>(db, `SELECT * FROM project_webhooks WHERE id = $1 AND project_id = $2 AND deleted_at IS NULL`, [webhookId, projectId]);
  if (!row) throw notFound("Webhook");
  return row;
}

/** Stops sending to an endpoint; its delivery log stays readable to nobody (and pending attempts end). */
export async function deleteWebhook(db: Queryable, projectId: string, webhookId: string): Promise<void> {
  await webhookOf(db, projectId, webhookId);
  await db.query(`UPDATE project_webhooks SET deleted_at = now() WHERE id = $1`, [webhookId]);
}
