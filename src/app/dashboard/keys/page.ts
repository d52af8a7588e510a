import { KEY_SCOPES, SCOPE_MEANINGS, type KeyScope } from "../../../shared/key-scopes.js";
import type { ApiKeyInfo } from "../../domain/api-keys.js";
import type { Project } from "../../domain/projects.js";
import type { ProjectAccess } from "../access.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, formatTime, projectPath } from "../layout.js";
import type { Session } from "../sessions.js";

export interface KeysView {
  session: Session;
  project: Project;
  access: ProjectAccess;
  keys: ApiKeyInfo[];
  /** Only in the response to the create form: the key is never shown again. */
  created?: { key: string; info: ApiKeyInfo } | null;
  /** This server's MCP endpoint as browsers (and so people's assistants) reach it. */
  mcpUrl: string;
  /** Shown right after the keys: the assistants' OAuth grants (dashboard/oauth/page.ts). */
  grants?: SafeHtml;
}

/** The form field of each scope's checkbox. */
export const scopeField = (scope: KeyScope) => `scope-${scope}`;

const scopesText = (scopes: readonly KeyScope[]) => scopes.join(", ");

export function keysBody(view: KeysView): SafeHtml {
  const { project, access, session } = view;
  const base = projectPath(project.id, "keys");
  const active = view.keys.filter((k) => !k.revokedAt);
  const revoked = view.keys.filter((k) => k.revokedAt);
  return html`<section aria-labelledby="project-id-heading">
<h2 id="project-id-heading">Project ID</h2>
<p class="copy-row"><code id="project-id">${project.id}</code> <button type="button" class="secondary" data-copy="project-id">Copy project ID</button></p>
<p class="help">Use it in API paths: <code>/v2/agent/${project.id}/job</code>, <code>/v1/analytics/${project.id}/visitors</code>.</p>
</section>
${
  view.created
    ? html`<section class="new-key" aria-labelledby="new-key-heading">
<h2 id="new-key-heading">New key “${view.created.info.name ?? view.created.info.prefix}”</h2>
<p>Scopes: <strong id="new-key-scopes">${scopesText(view.created.info.scopes)}</strong></p>
<p class="warning" role="alert"><strong>Copy this key now.</strong> It is shown only once; Inkwell keeps only a hash of it. If you lose it, revoke it and create another.</p>
<p class="copy-row"><code id="new-key" class="secret">${view.created.key}</code> <button type="button" data-copy="new-key">Copy key</button></p>
<p class="help">Send it as <code>Authorization: Bearer &lt;key&gt;</code>. In Claude Code: <code id="new-key-mcp">claude mcp add --transport http inkwell ${view.mcpUrl} --header "Authorization: Bearer ${view.created.key}"</code> <button type="button" class="secondary" data-copy="new-key-mcp">Copy command</button></p>
</section>`
    : ""
}
<p class="help">Job events can also go to your own URLs or Slack: <a href="${projectPath(project.id, "webhooks")}" id="webhooks-link">Webhooks</a>.</p>
<section aria-labelledby="mcp-heading">
<h2 id="mcp-heading">AI assistants (MCP)</h2>
<p class="copy-row"><code id="mcp-url">${view.mcpUrl}</code> <button type="button" class="secondary" data-copy="mcp-url">Copy MCP URL</button></p>
<p class="help">Claude Code, Cursor, VS Code and other MCP clients reach this project's jobs and analytics at this URL with one of its keys: <code>claude mcp add --transport http inkwell ${view.mcpUrl} --header "Authorization: Bearer &lt;key&gt;"</code>. See the manual's MCP page for the others. Hosted assistants (claude.ai, ChatGPT) take this URL alone: they ask for access through OAuth, and what you approve is listed under “Assistants with access”.</p>
</section>
<section aria-labelledby="keys-heading">
<h2 id="keys-heading">API keys</h2>
${
  active.length === 0
    ? html`<p>No active keys.</p>`
    : html`<div class="table-wrap"><table id="keys-table">
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th>${access.canAdmin ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ""}</tr></thead>
<tbody>${active.map(
        (key) => html`<tr data-key-id="${key.id}">
<td>${key.name ?? html`<span class="muted">unnamed</span>`}</td>
<td><code>${key.prefix}…</code></td>
<td class="key-scopes">${scopesText(key.scopes)}</td>
<td>${formatTime(key.createdAt)}</td>
<td>${key.lastUsedAt ? formatTime(key.lastUsedAt) : html`<span class="muted">never</span>`}</td>
${access.canAdmin ? html`<td><a class="danger-link" href="${base}/${encodeURIComponent(key.id)}/revoke">Revoke<span class="visually-hidden"> ${key.name ?? key.prefix}</span></a></td>` : ""}
</tr>`,
      )}</tbody></table></div>`
}
${revoked.length > 0 ? html`<details><summary>${revoked.length} revoked</summary><ul>${revoked.map((k) => html`<li><code>${k.prefix}…</code> ${k.name ?? ""} — revoked ${formatTime(k.revokedAt)}</li>`)}</ul></details>` : ""}
</section>
${view.grants ?? ""}
${
  access.canAdmin
    ? html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a key</h2>
<form method="post" action="${base}" class="inline-form">
${csrfField(session)}
<label for="key-name">Name</label>
<input id="key-name" name="name" maxlength="200" placeholder="e.g. docs-site-ci" aria-describedby="key-name-help">
<fieldset aria-describedby="key-scopes-help"><legend>What it may do</legend>${KEY_SCOPES.map(
        (scope) => html`<label><input type="checkbox" name="${scopeField(scope)}"${scope === "all" ? html` checked` : ""}> <code>${scope}</code>: ${SCOPE_MEANINGS[scope]}</label> `,
      )}</fieldset>
<button type="submit">Create key</button>
<p id="key-name-help" class="help">A name helps you tell keys apart when revoking one.</p>
<p id="key-scopes-help" class="help">A docs site's server that only sends page views needs <code>views</code>; uncheck <code>all</code> to give a key less. A request outside its scopes gets 403 naming the scope it needs.</p>
</form>
</section>`
    : html`<p class="help">Creating and revoking keys needs admin permission on <code>${project.repoName}</code>; yours is ${access.role}.</p>`
}`;
}

export function revokeConfirmBody(session: Session, project: Project, key: ApiKeyInfo): SafeHtml {
  const base = projectPath(project.id, "keys");
  return html`<p>Revoke <strong>${key.name ?? "the unnamed key"}</strong> (<code>${key.prefix}…</code>, created ${formatTime(key.createdAt)}, last used ${key.lastUsedAt ? formatTime(key.lastUsedAt) : "never"})?</p>
<p class="warning">Every client using this key gets 401 from its next request. This cannot be undone.</p>
<form method="post" action="${base}/${encodeURIComponent(key.id)}/revoke" class="inline-form">
${csrfField(session)}
<button type="submit" class="danger">Revoke key</button>
<a class="button secondary" href="${base}">Cancel</a>
</form>`;
}
