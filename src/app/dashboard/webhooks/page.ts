import type { CreatedWebhookView, WebhookDeliveryView, WebhookView } from "../../../shared/webhook-schemas.js";
import { WEBHOOK_EVENTS } from "../../../shared/job-vocabulary.js";
import type { Project } from "../../domain/projects.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, formatTime, projectPath } from "../layout.js";
import type { Session } from "../sessions.js";

export interface WebhooksView {
  session: Session;
  project: Project;
  webhooks: { webhook: WebhookView; deliveries: WebhookDeliveryView[] }[];
  /** Only in the reply to the add form: the signing secret is never shown again. */
  created?: CreatedWebhookView | null;
}

/** The form field of each event's checkbox. */
export const eventField = (event: string) => `event-${event.replace(/[^a-z]+/g, "-")}`;

function deliveriesTable(view: WebhooksView, webhook: WebhookView, deliveries: WebhookDeliveryView[]): SafeHtml {
  if (deliveries.length === 0) return html`<p class="help">No deliveries yet.</p>`;
  const base = `${projectPath(view.project.id, "webhooks")}/${encodeURIComponent(webhook.id)}`;
  return html`<div class="table-wrap"><table class="deliveries">
<thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col" class="num">Attempts</th><th scope="col">Last answer</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${deliveries.map(
    (d) => html`<tr><td>${d.event}</td><td>${d.state}</td><td class="num">${d.attempts}</td><td>${d.lastStatus ?? d.lastError ?? "—"}</td><td>${d.lastAttemptAt ? formatTime(d.lastAttemptAt) : "—"}</td><td><form method="post" action="${base}/deliveries/${encodeURIComponent(d.id)}/redeliver">${csrfField(view.session)}<button type="submit" class="secondary">Send again</button></form></td></tr>`,
  )}</tbody>
</table></div>`;
}

/** A project's webhook endpoints: add one (its secret shown once), each one's recent deliveries, delete. */
export function webhooksBody(view: WebhooksView): SafeHtml {
  const base = projectPath(view.project.id, "webhooks");
  return html`${
    view.created
      ? html`<section class="new-key" aria-labelledby="new-webhook-heading">
<h2 id="new-webhook-heading">Webhook added</h2>
${
  view.created.format === "slack"
    ? html`<p>Events go to the Slack channel of that incoming webhook.</p>`
    : html`<p class="warning" role="alert"><strong>Copy the signing secret now.</strong> It is shown only once. Receivers verify each delivery with it (Standard Webhooks).</p>
<p class="copy-row"><code id="webhook-secret" class="secret">${view.created.secret}</code> <button type="button" data-copy="webhook-secret">Copy secret</button></p>`
}
</section>`
      : ""
  }
<section aria-labelledby="webhooks-heading">
<h2 id="webhooks-heading">Webhooks</h2>
<p class="help">Job events (completed, failed, archived, pull request opened) are POSTed with the job as data, signed per Standard Webhooks, and retried for about a day.</p>
<p class="help">To start and follow jobs from Slack threads, map channels on the <a href="${projectPath(view.project.id, "slack")}">Slack channels</a> page.</p>
${
  view.webhooks.length === 0
    ? html`<p>No webhooks yet.</p>`
    : view.webhooks.map(
        ({ webhook, deliveries }) => html`<article class="webhook" id="webhook-${webhook.id}">
<h3><code>${webhook.url}</code></h3>
<p class="help">${webhook.format === "slack" ? "Slack messages" : "Standard Webhooks JSON"} · ${webhook.events.join(", ")} · added ${formatTime(webhook.createdAt)}</p>
${deliveriesTable(view, webhook, deliveries)}
<form method="post" action="${base}/${encodeURIComponent(webhook.id)}/delete">${csrfField(view.session)}<button type="submit" class="danger">Delete webhook</button></form>
</article>`,
      )
}
</section>
<section aria-labelledby="add-webhook-heading">
<h2 id="add-webhook-heading">Add a webhook</h2>
<form method="post" action="${base}" class="stack">
${csrfField(view.session)}
<label for="webhook-url">URL</label>
<input type="url" id="webhook-url" name="url" required placeholder="https://ci.example.com/inkwell">
<label for="webhook-format">Format</label>
<select id="webhook-format" name="format"><option value="standard">Standard Webhooks (signed JSON)</option><option value="slack">Slack incoming webhook</option></select>
<fieldset><legend>Events</legend>${WEBHOOK_EVENTS.map(
    (event) => html`<label><input type="checkbox" name="${eventField(event)}" checked> ${event}</label> `,
  )}</fieldset>
<button type="submit">Add webhook</button>
</form>
</section>`;
}
