import type { Project } from "../../domain/projects.js";
import type { ProjectAccess } from "../access.js";
import { html, httpUrl, type SafeHtml } from "../html.js";
import { formatTime, projectLabel, projectPath } from "../layout.js";
import type { DashboardUser } from "../sessions.js";

export function projectsBody(user: DashboardUser, projects: { project: Project; access: ProjectAccess }[]): SafeHtml {
  if (projects.length === 0) {
    return user.kind === "operator"
      ? html`<p>No projects yet. Create one for your docs repository with the CLI:</p><pre><code>inkwell projects create your-org/docs</code></pre><p class="help">or <code>POST /admin/projects</code> (see <a href="/openapi.json">the API description</a>). Docs on GitLab: <a href="/dashboard/gitlab">connect a GitLab project</a>.</p>`
      : html`<p>You have no projects here: none of the repositories this Inkwell serves gives you access through its GitHub App installation. Ask your operator to add your docs repository, or ask a repository admin for access.</p>`;
  }
  const connect = user.kind === "operator" ? html`<p class="help">Docs on GitLab? <a href="/dashboard/gitlab">Connect a GitLab project</a>.</p>` : "";
  return html`${connect}<div class="table-wrap"><table>
<caption class="visually-hidden">Projects</caption>
<thead><tr><th scope="col">Project</th><th scope="col">Repository</th><th scope="col">GitHub App</th><th scope="col">Your access</th><th scope="col">Created</th></tr></thead>
<tbody>${projects.map(
    ({ project, access }) => html`<tr>
<td><a href="${projectPath(project.id, "keys")}">${projectLabel(project)}</a></td>
<td>${httpUrl(project.repository) ? html`<a href="${project.repository}" rel="noreferrer">${project.repoName}</a>` : project.repoName}</td>
<td>${project.forge === "gitlab" ? "GitLab project" : project.installationId === null ? html`<a href="${projectPath(project.id, "setup")}">not installed — set up</a>` : project.installationSuspended ? "suspended" : "installed"}</td>
<td>${access.role}</td>
<td>${formatTime(project.createdAt)}</td>
</tr>`,
  )}</tbody></table></div>`;
}
