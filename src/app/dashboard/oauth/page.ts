import { NEEDED_SCOPES, SCOPE_MEANINGS, type NeededScope } from "../../../shared/key-scopes.js";
import { redirectHostOf, type GrantInfo, type PendingAuthorization } from "../../domain/oauth-grants.js";
import type { Project } from "../../domain/projects.js";
import type { ProjectAccess } from "../access.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, formatTime, projectLabel, projectPath } from "../layout.js";
import type { Session } from "../sessions.js";

/** The form field of each scope's checkbox on the consent page. */
export const grantScopeField = (scope: NeededScope) => `scope-${scope}`;

export interface ConsentView {
  session: Session;
  pending: PendingAuthorization;
  projects: { project: Project; access: ProjectAccess }[];
}

/** The scopes the client asked for that Inkwell knows; every scope when it named none of them. */
export function requestedScopes(asked: readonly string[]): NeededScope[] {
  const known = NEEDED_SCOPES.filter((scope) => asked.includes(scope));
  return known.length > 0 ? known : [...NEEDED_SCOPES];
}

/**
 * The consent page: which client asks (its name, where it sends the person back, whether its
 * metadata document vouches for that), for which project and scopes; approve or deny.
 */
export function consentBody(view: ConsentView): SafeHtml {
  const { pending, session } = view;
  const client = pending.client;
  const name = client.clientName ?? "An unnamed client";
  const verified = client.kind === "metadata_document";
  const checked = requestedScopes(pending.scopes);
  const redirectHost = redirectHostOf(pending.redirectUri) ?? pending.redirectUri;
  return html`<section aria-labelledby="consent-heading">
<h2 id="consent-heading"><span id="consent-client">${name}</span> asks to use Inkwell for you</h2>
<dl class="facts facts-rows">
<div><dt>Client</dt><dd><code id="consent-client-id">${client.clientId}</code></dd></div>
<div><dt>Sends you back to</dt><dd><code id="consent-redirect-host">${redirectHost}</code></dd></div>
<div><dt>Identity</dt><dd id="consent-verified">${
    verified
      ? html`<strong>Verified</strong>: its metadata document at its own address names it and lists this redirect.`
      : html`<strong>Not verified</strong>: this client registered itself; its name is its own claim. Approve only if you started this from an assistant you trust.`
  }</dd></div>
</dl>
${
  view.projects.length === 0
    ? html`<p class="warning">You have no project in Inkwell to give it. Deny, or ask an operator to add you to a project's repository.</p>`
    : ""
}
<form method="post" action="/dashboard/oauth/authorize" class="inline-form">
${csrfField(session)}
<input type="hidden" name="request" value="${pending.id}">
<label for="consent-project">Project</label>
<select id="consent-project" name="project">${view.projects.map(({ project, access }) => html`<option value="${project.id}">${projectLabel(project)} (${access.role})</option>`)}</select>
<fieldset><legend>What it may do</legend>${NEEDED_SCOPES.map(
    (scope) => html`<label><input type="checkbox" name="${grantScopeField(scope)}"${checked.includes(scope) ? html` checked` : ""}> <code>${scope}</code>: ${SCOPE_MEANINGS[scope]}</label> `,
  )}</fieldset>
<p class="help">It acts on that project only, with these scopes, like an API key that has them, until you or a project admin revoke it on the project's API keys page.</p>
<button type="submit" name="decision" value="approve"${view.projects.length === 0 ? html` disabled` : ""}>Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
</section>`;
}

/** Who approved, as a grant records it: `operator` or `github:<login>`. */
export const approverOf = (session: Session) => (session.user.kind === "github" ? `github:${session.user.login}` : "operator");

/** A project admin may revoke any grant of the project; anyone the grant they approved themselves. */
export const mayRevoke = (session: Session, access: ProjectAccess, grant: Pick<GrantInfo, "grantedBy">) => access.canAdmin || grant.grantedBy === approverOf(session);

/** The grants section of a project's API keys page: the assistants people let in, beside the keys. */
export function grantsSection(session: Session, project: Project, access: ProjectAccess, grants: GrantInfo[]): SafeHtml {
  const active = grants.filter((g) => !g.revokedAt);
  const anyRevocable = active.some((grant) => mayRevoke(session, access, grant));
  const base = projectPath(project.id, "grants");
  return html`<section aria-labelledby="grants-heading">
<h2 id="grants-heading">Assistants with access (OAuth)</h2>
${
  active.length === 0
    ? html`<p>No assistant has access. Hosted assistants (claude.ai, ChatGPT…) ask for it when someone adds this server's MCP URL to them.</p>`
    : html`<div class="table-wrap"><table id="grants-table">
<thead><tr><th scope="col">Client</th><th scope="col">Sends back to</th><th scope="col">Scopes</th><th scope="col">Approved</th><th scope="col">Last used</th>${anyRevocable ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ""}</tr></thead>
<tbody>${active.map(
        (grant) => html`<tr data-grant-id="${grant.id}">
<td>${grant.clientName ?? html`<span class="muted">unnamed</span>`} ${grant.clientKind === "metadata_document" ? html`<span class="muted">(verified)</span>` : html`<span class="muted">(self-registered)</span>`}</td>
<td><code>${grant.redirectHost ?? ""}</code></td>
<td class="grant-scopes">${grant.scopes.join(", ")}</td>
<td>${formatTime(grant.createdAt)} by ${grant.grantedBy}</td>
<td>${grant.lastUsedAt ? formatTime(grant.lastUsedAt) : html`<span class="muted">never</span>`}</td>
${
  mayRevoke(session, access, grant)
    ? html`<td><form method="post" action="${base}/${encodeURIComponent(grant.id)}/revoke" class="inline-form">${csrfField(session)}<button type="submit" class="danger">Revoke<span class="visually-hidden"> ${grant.clientName ?? grant.clientId}</span></button></form></td>`
    : anyRevocable
      ? html`<td></td>`
      : ""
}
</tr>`,
      )}</tbody></table></div>`
}
</section>`;
}
