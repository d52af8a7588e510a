import type { PublicUrlCheck } from "../../forges/github/public-url-check.js";
import { html, type SafeHtml } from "../html.js";
import type { Session } from "../sessions.js";

export interface GitHubAppView {
  session: Session;
  /** The address GitHub and the runners use (PUBLIC_URL, else what this server guesses). */
  serviceUrl: string;
  publicUrlCheck: PublicUrlCheck;
  tunnelRecipe: string[];
  /** The configured App, when there is one. */
  configured: { appId: string; installUrl: string | null } | null;
  /** Step 1's fields as typed, with what is wrong with them. */
  form: { name: string; organization: string; error: string | null };
  /** Step 2: the manifest ready to post to GitHub. */
  ready: { name: string; organization?: string | undefined; formUrl: string; manifest: string } | null;
}

export function gitHubAppBody(view: GitHubAppView): SafeHtml {
  return html`${reachabilitySection(view)}
<section aria-labelledby="app-heading">
<h2 id="app-heading">GitHub App</h2>
${view.configured ? configuredApp(view.configured) : view.ready ? confirmStep(view.ready) : nameStep(view)}
</section>`;
}

function reachabilitySection(view: GitHubAppView): SafeHtml {
  const check = view.publicUrlCheck;
  return html`<section aria-labelledby="reach-heading">
<h2 id="reach-heading">Where GitHub reaches this server</h2>
<dl class="facts facts-rows">
<div><dt>Public URL</dt><dd><code>${view.serviceUrl}</code></dd></div>
<div><dt>Webhooks</dt><dd><code>${view.serviceUrl}/api/github/webhooks</code></dd></div>
<div><dt>Runners</dt><dd><code>${view.serviceUrl}/v1/runner/…</code> (the workflow's <code>inkwell-url</code>)</dd></div>
</dl>
${
  check.reachable
    ? html`<p class="notice notice-ok" role="status">GitHub can reach this address, if its name resolves and nothing blocks it.</p>`
    : html`<div class="notice notice-error" role="alert"><p><strong>GitHub's runners and webhooks cannot reach this server:</strong> ${check.reason}.</p>
<p>Jobs would be dispatched but never claimed. For a trial on this machine, give it a public address with a tunnel and restart with it:</p>
<pre class="code"><code>${view.tunnelRecipe.join("\n")}</code></pre>
<p class="help">In production, set <code>PUBLIC_URL</code> to the HTTPS address of your reverse proxy (docs/deploy.md).</p></div>`
}
</section>`;
}

function configuredApp(app: NonNullable<GitHubAppView["configured"]>): SafeHtml {
  return html`<p class="notice notice-ok" role="status">GitHub App ${app.appId} is configured.</p>
${app.installUrl ? html`<p><a class="button" href="${app.installUrl}" rel="noreferrer">Install the App on a docs repository</a></p>` : ""}
<p class="help">Each repository it is installed on becomes a project. To use another App, change <code>APP_ID</code>, <code>PRIVATE_KEY</code> and <code>WEBHOOK_SECRET</code> and restart.</p>`;
}

function nameStep(view: GitHubAppView): SafeHtml {
  return html`<p>No GitHub App is configured: the API and analytics work, but agent jobs fail until there is one. Register it on GitHub from here: GitHub asks you to confirm, then sends you back and Inkwell saves its credentials.</p>
${view.form.error ? html`<p class="notice notice-error" role="alert">${view.form.error}</p>` : ""}
<form method="get" action="/dashboard/github-app" class="stack">
<label for="app-name">App name <span class="help">(unique on GitHub, at most 34 characters)</span></label>
<input id="app-name" name="name" required maxlength="34" value="${view.form.name}">
<label for="app-org">Organization <span class="help">(optional: register it under an organization you own instead of your account)</span></label>
<input id="app-org" name="organization" value="${view.form.organization}" placeholder="your-org">
<button type="submit">Continue</button>
</form>`;
}

function confirmStep(ready: NonNullable<GitHubAppView["ready"]>): SafeHtml {
  const owner = ready.organization ? `the organization ${ready.organization}` : "your GitHub account";
  return html`<p>Register <strong>${ready.name}</strong> under ${owner}, with the permissions and events in <code>app.yml</code> and its webhook on this server's public URL.</p>
<form method="post" action="${ready.formUrl}">
<input type="hidden" name="manifest" value="${ready.manifest}">
<button type="submit">Register on GitHub</button>
<a href="/dashboard/github-app">Change the name</a>
</form>`;
}

/** After GitHub sent the operator back: what was saved and what to do next. */
export function registeredBody(app: { name: string; htmlUrl: string; installUrl: string }, file: string): SafeHtml {
  return html`<p class="notice notice-ok" role="status">GitHub registered <a href="${app.htmlUrl}" rel="noreferrer">${app.name}</a>. Its credentials are saved in <code>${file}</code> (mode 0600).</p>
<ol>
<li><strong>Restart Inkwell</strong> so it uses the App (on several instances, give each the variables in that file).</li>
<li><a href="${app.installUrl}" rel="noreferrer">Install the App</a> on your docs repository: it becomes a project.</li>
<li>Add the workflow from the project's Setup tab.</li>
</ol>`;
}
