import type { SlackChannel } from "../../domain/slack/slack-channels.js";
import type { Project } from "../../domain/projects.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, formatTime, projectPath } from "../layout.js";
import type { Session } from "../sessions.js";

export const SLACK_PAGE = "/dashboard/slack";

export interface SlackAppView {
  session: Session;
  settings: { configured: boolean; mode: "http" | "socket" | null; botUserId: string | null; teamId: string | null; requestUrl: string | null; updatedAt: string | null };
  manifests: { http: string; socket: string };
}

/** The operator's Slack page: the app's manifest for either receiver, its tokens, and whether it is set up. */
export function slackAppBody(view: SlackAppView): SafeHtml {
  const { settings } = view;
  return html`<section aria-labelledby="slack-status-heading">
<h2 id="slack-status-heading">Slack app</h2>
${
  settings.configured
    ? html`<p>Set up: bot <code>${settings.botUserId ?? "?"}</code> in workspace <code>${settings.teamId ?? "?"}</code>, receiving over ${settings.mode === "socket" ? "Socket Mode" : html`the Events API at <code>${settings.requestUrl ?? "PUBLIC_URL/api/slack/events"}</code>`} (saved ${formatTime(settings.updatedAt)}).</p>
<form method="post" action="${SLACK_PAGE}/delete">${csrfField(view.session)}<button type="submit" class="danger">Remove the Slack app</button></form>`
    : html`<p>No Slack app yet. Create one from a manifest below, install it to your workspace, then save its tokens here.</p>`
}
<p class="help">Map channels to a project on the project's <em>Slack channels</em> page (from its Webhooks page). <a href="https://api.slack.com/apps">Slack apps</a> · the manual's Slack page explains each step.</p>
</section>
<section aria-labelledby="slack-manifest-heading">
<h2 id="slack-manifest-heading">1. Create the app from a manifest</h2>
<p class="help">On api.slack.com/apps: <strong>Create New App → From a manifest</strong>. Use the Events API when Slack can reach ${settings.requestUrl ? html`<code>${settings.requestUrl}</code>` : "this server's PUBLIC_URL (none is set)"}; Socket Mode when it cannot (a laptop, a private network).</p>
<h3>Events API over HTTP</h3>
<pre id="slack-manifest-http">${view.manifests.http}</pre>
<p><button type="button" data-copy="slack-manifest-http">Copy manifest</button></p>
<h3>Socket Mode</h3>
<pre id="slack-manifest-socket">${view.manifests.socket}</pre>
<p><button type="button" data-copy="slack-manifest-socket">Copy manifest</button></p>
</section>
<section aria-labelledby="slack-tokens-heading">
<h2 id="slack-tokens-heading">2. Save its tokens</h2>
<form method="post" action="${SLACK_PAGE}" class="stack">
${csrfField(view.session)}
<label for="slack-mode">Receiver</label>
<select id="slack-mode" name="mode"><option value="http"${settings.mode === "socket" ? "" : html` selected`}>Events API over HTTP</option><option value="socket"${settings.mode === "socket" ? html` selected` : ""}>Socket Mode</option></select>
<label for="slack-bot-token">Bot User OAuth Token (xoxb-…)</label>
<input type="password" id="slack-bot-token" name="botToken" required autocomplete="off">
<label for="slack-signing-secret">Signing Secret (Basic Information)</label>
<input type="password" id="slack-signing-secret" name="signingSecret" required autocomplete="off">
<label for="slack-app-token">App-level token (xapp-…, connections:write; Socket Mode only)</label>
<input type="password" id="slack-app-token" name="appToken" autocomplete="off">
<button type="submit">Save</button>
</form>
<p class="help">The token is checked with Slack before it is kept; tokens and the secret are never shown again.</p>
</section>`;
}

export interface SlackChannelsView {
  session: Session;
  project: Project;
  channels: SlackChannel[];
  slackConfigured: boolean;
}

/** A project's Slack channels: a mention in one works on this project. */
export function slackChannelsBody(view: SlackChannelsView): SafeHtml {
  const base = projectPath(view.project.id, "slack");
  return html`<section aria-labelledby="slack-channels-heading">
<h2 id="slack-channels-heading">Slack channels</h2>
<p class="help">A mention of the Inkwell bot in one of these channels starts a job on this project; the thread is the job.${view.slackConfigured ? "" : " The server has no Slack app yet: the operator sets it up on the Slack page."}</p>
${
  view.channels.length === 0
    ? html`<p>No channels yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Channel</th><th scope="col">Who may ask</th><th scope="col">Replies</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.channels.map(
        (channel) => html`<tr><td><code>${channel.channelId}</code></td><td>${channel.userGroups.length > 0 ? html`members of ${channel.userGroups.map((group, i) => html`${i > 0 ? ", " : ""}<code>${group}</code>`)}` : "every member of the channel"}</td><td>${channel.anyReply ? "any reply is a follow-up" : "replies that mention the bot, and answers"}</td><td><form method="post" action="${base}/${encodeURIComponent(channel.channelId)}/delete">${csrfField(view.session)}<button type="submit" class="danger">Remove</button></form></td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section aria-labelledby="add-slack-channel-heading">
<h2 id="add-slack-channel-heading">Add or change a channel</h2>
<form method="post" action="${base}" class="stack">
${csrfField(view.session)}
<label for="slack-channel-id">Channel id (C…, from the channel's details)</label>
<input type="text" id="slack-channel-id" name="channelId" required pattern="[CGD][A-Z0-9]{2,30}">
<label for="slack-user-groups">User group ids (S…, comma-separated; empty: every member of the channel)</label>
<input type="text" id="slack-user-groups" name="userGroups">
<label><input type="checkbox" name="anyReply"> Any reply in a job's thread is a follow-up</label>
<button type="submit">Save channel</button>
</form>
</section>`;
}
