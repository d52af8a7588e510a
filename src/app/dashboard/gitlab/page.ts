import type { Project } from "../../domain/projects.js";
import { ciConfigWithInputs } from "../../forges/gitlab/pipeline-inputs.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField } from "../layout.js";
import type { Session } from "../sessions.js";

/** The operator's form to connect a GitLab project (the same fields as POST /admin/gitlab/projects). */
export function gitLabConnectBody(session: Session, values: { gitlabUrl?: string; project?: string } = {}, error: string | null = null): SafeHtml {
  return html`${error ? html`<p class="notice notice-error" role="alert">${error}</p>` : ""}
<p>Connect a docs project on gitlab.com or a self-managed GitLab. Inkwell reads the project with the token and registers its project webhook (merge request, note, pipeline and issue events) at this server's public URL; the token is kept by the server and never shown again.</p>
<form method="post" action="/dashboard/gitlab" class="stack">
${csrfField(session)}
<label for="gitlab-url">GitLab URL</label>
<input id="gitlab-url" name="gitlabUrl" type="url" required placeholder="https://gitlab.com" value="${values.gitlabUrl ?? "https://gitlab.com"}">
<label for="gitlab-project">Docs project</label>
<input id="gitlab-project" name="project" required placeholder="group/docs, its URL or its id" value="${values.project ?? ""}">
<label for="gitlab-token">Project access token</label>
<input id="gitlab-token" name="token" type="password" required autocomplete="off">
<p class="help">A project access token of the docs project with the Maintainer role and the <code>api</code> scope: Inkwell registers the webhook, starts pipelines and opens merge requests with it (docs/gitlab.md says why nothing less works).</p>
<button type="submit">Connect</button>
</form>`;
}

/** A GitLab project's setup: the component in its pipeline, the model's key, and what Inkwell registered. */
export function gitLabSetupBody(project: Project, serviceUrl: string): SafeHtml {
  // Every input the component requires, and the pipeline inputs Inkwell's runs arrive through (GitLab.com lets no one set pipeline variables by default).
  const include = ciConfigWithInputs("$CI_SERVER_FQDN/<group>/inkwell/inkwell-agent@<release>", {
    "inkwell-url": serviceUrl,
    "runner-repository": "https://<your GitLab>/<group>/inkwell.git",
    model: project.model,
  }).trimEnd();
  return html`<section aria-labelledby="gitlab-connected-heading">
<h2 id="gitlab-connected-heading">1. Connected</h2>
<p class="notice notice-ok" role="status">${project.repository} is connected: Inkwell registered its project webhook and starts a pipeline for each run.</p>
</section>
<section aria-labelledby="gitlab-component-heading">
<h2 id="gitlab-component-heading">2. Add the component to the project's pipeline</h2>
<p>Commit this to <code>.gitlab-ci.yml</code> on the default branch, with <code>runner-repository</code> set to the Git URL of your Inkwell fork or mirror (an instance without the CI/CD catalog includes <code>templates/inkwell-agent.yml</code> with <code>include: project:</code>; docs/gitlab.md has both), and add the model provider's key as the masked CI/CD variable <code>INKWELL_MODEL_API_KEY</code>. The header's two inputs are how Inkwell hands each run to the pipeline; the job runs only in the pipelines Inkwell starts. If the file has a <code>spec:</code> header already, add the two inputs to it.</p>
<p><button type="button" class="secondary" data-copy="gitlab-include">Copy</button></p>
<pre class="code"><code id="gitlab-include">${include}</code></pre>
<p class="help">Allow the job to push its branch: Settings → CI/CD → Job token permissions → “Allow Git push requests to the repository” (GitLab 17.2 or later).</p>
</section>`;
}
