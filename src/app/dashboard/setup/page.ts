import type { Project } from "../../domain/projects.js";
import type { ActionReference } from "../../forges/github/action-reference.js";
import type { PublicUrlCheck } from "../../forges/github/public-url-check.js";
import { codeAndLinks, html, type SafeHtml } from "../html.js";
import { projectPath } from "../layout.js";

export interface SetupView {
  project: Project;
  /** The workflow file with this server's URL, its Action reference and the project's model filled in. */
  workflow: string;
  /** Where the workflow's `uses:` came from. */
  action: ActionReference;
  /** Where to install the App; null when no App is configured. */
  installUrl: string | null;
  /** The operator's steps to register the App, when there is none. */
  appSteps: string[] | null;
  serviceUrl: string;
  /** Whether GitHub's runners can reach serviceUrl, the workflow's inkwell-url. */
  reach: PublicUrlCheck;
  /** Where the operator fixes it (the GitHub App page, with a tunnel recipe). */
  appSetupPath: string;
}

export function setupBody(view: SetupView): SafeHtml {
  const { project } = view;
  const installed = project.installationId !== null;
  const beacon = `<script defer src="${view.serviceUrl}/js/script.js" data-project="${project.id}"></script>`;
  return html`<section aria-labelledby="install-heading">
<h2 id="install-heading">1. Install the GitHub App on ${project.repoName}</h2>
${
  installed
    ? html`<p class="notice notice-ok" role="status">Installed${project.installationSuspended ? " but suspended: an organization owner must unsuspend it" : ""} (installation ${project.installationId}).</p>`
    : view.installUrl
      ? html`<p>The App is not installed on this repository yet. <a class="button" href="${view.installUrl}" rel="noreferrer">Install the App</a></p><p class="help">Choose “Only select repositories” and pick <code>${project.repoName}</code>. This page shows “installed” once GitHub tells Inkwell.</p>`
      : html`<p class="notice notice-error">No GitHub App is configured on this server yet. The operator sets it up:</p><ol>${(view.appSteps ?? []).map((step) => html`<li>${codeAndLinks(step)}</li>`)}</ol>`
}
</section>
<section aria-labelledby="workflow-heading">
<h2 id="workflow-heading">2. Add the workflow</h2>
${
  view.reach.reachable
    ? ""
    : html`<p class="notice notice-error" role="alert">GitHub's runners cannot reach <code>${view.serviceUrl}</code> (${view.reach.reason}), so a run of this workflow could never claim its job. The operator gives this server a public address: see the <a href="${view.appSetupPath}">GitHub App page</a> for a tunnel recipe, then set <code>PUBLIC_URL</code>.</p>`
}
<p>Commit this file to <code>${project.repoName}</code> as <code>.github/workflows/inkwell.yml</code> on the default branch, and add your model provider's key as the repository secret <code>ANTHROPIC_API_KEY</code> (or change <code>api-key</code>).</p>
${actionNote(view.action)}
<p><button type="button" class="secondary" data-copy="workflow-file">Copy workflow</button></p>
<pre class="code"><code id="workflow-file">${view.workflow}</code></pre>
</section>
<section aria-labelledby="beacon-heading">
<h2 id="beacon-heading">3. Count visitors (optional)</h2>
<p>Allow the docs site's origin to send page views (the operator, with the CLI):</p>
<pre class="code"><code>inkwell projects update ${project.id} --allowed-origin https://docs.example.com</code></pre>
<p>and add the beacon to every page of the site:</p>
<p><button type="button" class="secondary" data-copy="beacon-snippet">Copy snippet</button></p>
<pre class="code"><code id="beacon-snippet">${beacon}</code></pre>
<p class="help">Allowed origins now: ${project.analytics.allowedOrigins.length > 0 ? project.analytics.allowedOrigins.join(", ") : "none"}. Server logs and server-side hits work too: see docs/analytics/sending-views.md in Inkwell's repository. Then open <a href="${projectPath(project.id, "analytics")}">Analytics</a>.</p>
</section>`;
}

/** Where the workflow's Action comes from, and, when this server does not know, that it must be set. */
function actionNote(action: ActionReference): SafeHtml {
  if (action.source === "unknown") {
    return html`<p class="notice notice-error" role="alert">This server does not know where its Action is published, so the workflow's <code>uses:</code> is a placeholder. The operator publishes a release of Inkwell (a fork or mirror of this repository, tagged by <code>npm run release</code>) and sets <code>INKWELL_ACTION_REF</code> to it, e.g. <code>acme/inkwell@v1</code> or a commit SHA (the manual's "Releasing the Action").</p>`;
  }
  const from = action.source === "configured" ? html`set by <code>INKWELL_ACTION_REF</code>` : html`this server's own repository at the release tag of its major version; the operator pins another with <code>INKWELL_ACTION_REF</code>`;
  return html`<p class="help">The Action is <code>${action.uses}</code>: ${from}.</p>`;
}

/** The example workflow with this server's URL, its Action and the project's model in place. */
export function workflowFor(template: string, serviceUrl: string, model: string, uses: string): string {
  return template
    .replace(/^\s*# Copy to .*\n/, "")
    // The example's note on what to put in `uses:`, which the page has filled in.
    .replace(/(^[ \t]*#.*\n)+(?=[ \t]*- uses: \S+\/inkwell@)/m, "")
    .replace(/uses: \S+\/inkwell@\S+/, `uses: ${uses}`)
    .replace(/inkwell-url: .*/, `inkwell-url: ${serviceUrl}`)
    .replace(/model: anthropic\/\S+/, `model: ${model}`);
}
