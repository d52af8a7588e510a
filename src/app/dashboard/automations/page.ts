import type { Automation } from "../../../shared/automation-schemas.js";
import { SUGGESTION_DAYS, type Suggestion } from "../../analytics/reports/suggestion.js";
import type { Project } from "../../domain/projects.js";
import type { ProjectAccess } from "../access.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, formatTime, projectPath } from "../layout.js";
import type { Session } from "../sessions.js";
import type { SuggestionOutcome } from "../../impact/suggestion-outcomes.js";
import { forgeWords, type ForgeWords } from "../../../shared/forge-words.js";

export interface AutomationsView {
  session: Session;
  project: Project;
  access: ProjectAccess;
  automations: Automation[];
  suggestions: { missing: Suggestion[]; mostRead: Suggestion[]; robots: Suggestion[] };
  /** The job started from each suggested page, and whether its failures stopped since the merge. */
  outcomes: ReadonlyMap<string, SuggestionOutcome>;
  /** One per suggestion form: a double submit is one job. */
  idempotencyKey: (index: number) => string;
}

function what(automation: Automation, words: ForgeWords): SafeHtml {
  const c = automation.config;
  if (c.kind === "source") {
    const only = [c.label ? html`labelled <code>${c.label}</code>` : "", c.paths?.length ? html`changing <code>${c.paths.join(", ")}</code>` : ""].filter((part) => part !== "");
    return html`Merges into <code>${c.repository}</code>${only.length ? html` ${only[0]}${only[1] ? html` and ${only[1]}` : ""}` : ""}${c.followUps ? ` (follow-ups on the open ${words.change})` : ""}`;
  }
  if (c.kind === "issues") return html`Issues labelled <code>${c.label}</code>${c.mention ? html` or addressing the agent (a mention or the command)` : ""}`;
  return html`<code>${c.cron}</code> (UTC): ${c.instruction.length > 120 ? `${c.instruction.slice(0, 119)}…` : c.instruction}`;
}

function automationRows(view: AutomationsView): SafeHtml {
  if (view.automations.length === 0) {
    return html`<p>No automations yet. The operator adds them with the CLI, e.g. <code>inkwell automations create --project ${view.project.id} --source acme/api --label docs</code> (see docs/automations.md).</p>`;
  }
  const base = projectPath(view.project.id, "automations");
  return html`<div class="table-wrap"><table id="automations-table">
<thead><tr><th scope="col">Starts a job on</th><th scope="col">State</th><th scope="col">Last firing</th><th scope="col">Next</th>${view.access.canWrite ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ""}</tr></thead>
<tbody>${view.automations.map(
    (a) => html`<tr data-automation-id="${a.id}"><td>${what(a, forgeWords(view.project.forge))}</td><td>${a.paused ? "paused" : "on"}</td><td>${a.lastFiredAt ? html`${formatTime(a.lastFiredAt)}<div class="muted">${a.lastOutcome ?? ""}</div>` : "—"}</td><td>${a.nextRunAt ? formatTime(a.nextRunAt) : "—"}</td>${
      view.access.canWrite
        ? html`<td><form method="post" action="${base}/${encodeURIComponent(a.id)}/${a.paused ? "resume" : "pause"}">${csrfField(view.session)}<button type="submit" class="secondary">${a.paused ? "Resume" : "Pause"}</button></form></td>`
        : ""
    }</tr>`,
  )}</tbody></table></div>`;
}

const ACTION_OF: Record<Suggestion["kind"], string> = { redirect: "Add a redirect", refresh: "Refresh it", robots: "Edit robots.txt" };

function suggestionTable(view: AutomationsView, id: string, caption: string, rows: Suggestion[], offset: number): SafeHtml {
  if (rows.length === 0) return html`<p class="help" id="${id}">${caption}: none in the last ${SUGGESTION_DAYS} days.</p>`;
  const jobs = projectPath(view.project.id, "jobs");
  return html`<div class="table-wrap"><table id="${id}"><caption>${caption}</caption>
<thead><tr><th scope="col">Page</th><th scope="col">Last ${SUGGESTION_DAYS} days</th><th scope="col">Addressed by</th>${view.access.canWrite ? html`<th scope="col">Job</th>` : ""}</tr></thead>
<tbody>${rows.map(
    (s, i) => html`<tr><td><code>${s.path}</code></td><td>${s.detail}</td><td class="suggestion-outcome">${outcomeCell(view.outcomes.get(s.path), jobs, forgeWords(view.project.forge))}</td>${
      view.access.canWrite
        ? html`<td><form method="post" action="${jobs}" class="suggestion">${csrfField(view.session)}<input type="hidden" name="idempotencyKey" value="${view.idempotencyKey(offset + i)}"><input type="hidden" name="suggestion" value="${s.path}"><details><summary>${ACTION_OF[s.kind]}</summary><textarea name="prompt" rows="5" required maxlength="32000" aria-label="Instruction for ${s.kind === "robots" ? s.detail : s.path}">${s.prompt}</textarea></details><button type="submit">Start a job</button></form></td>`
        : ""
    }</tr>`,
  )}</tbody></table></div>`;
}

/** The job a suggestion started, and (merged) whether AI agents still fail on the page since. */
function outcomeCell(outcome: SuggestionOutcome | undefined, jobs: string, words: ForgeWords): SafeHtml | string {
  if (!outcome) return html`<span class="muted">—</span>`;
  const link = html`<a href="${jobs}/${encodeURIComponent(outcome.job.id)}">job ${outcome.job.id}</a>`;
  if (!outcome.merged) return html`${link}, ${outcome.job.status === "archived" ? "closed without merging" : outcome.job.prLink ? `${words.change} open` : outcome.job.status}`;
  const since = `since the merge on ${outcome.mergedAt.slice(0, 10)} (${outcome.days} ${outcome.days === 1 ? "day" : "days"})`;
  return outcome.failuresSince === 0
    ? html`${link}: <span class="change-up">failures stopped</span>, none ${since}`
    : html`${link}: <span class="change-down">still failing</span>, ${outcome.failuresSince} failed AI fetches ${since}`;
}

/** The three ways to add one (project admins): each its own small form. */
function addForms(view: AutomationsView): SafeHtml {
  const base = projectPath(view.project.id, "automations");
  const words = forgeWords(view.project.forge);
  const form = (kind: string, title: string, fields: SafeHtml) =>
    html`<form method="post" action="${base}" class="stack" id="add-${kind}">${csrfField(view.session)}<input type="hidden" name="kind" value="${kind}"><h3>${title}</h3>${fields}<button type="submit">Add</button></form>`;
  return html`<section aria-labelledby="add-automation-heading">
<h2 id="add-automation-heading">Add an automation</h2>
${form(
  "source",
  "Merges in a code repository",
  html`<label for="source-repository">${words.sourceRepository}</label><input id="source-repository" name="repository" required placeholder="acme/api">
<label for="source-label">Only ${words.change}s labelled (optional)</label><input id="source-label" name="label" placeholder="docs">
<label for="source-paths">Only when a changed file matches (optional, one glob per line)</label><textarea id="source-paths" name="paths" rows="2" placeholder="src/api/**"></textarea>
<label><input type="checkbox" name="followUps" checked> Later merges follow up on the open docs ${words.change}</label>
<label for="source-instruction">Added to every instruction (optional)</label><textarea id="source-instruction" name="instruction" rows="2"></textarea>`,
)}
${form(
  "issues",
  "Issues of the docs repository",
  html`<label for="issues-label">Label that starts a job</label><input id="issues-label" name="label" value="inkwell" required>
<label><input type="checkbox" name="mention" checked> Mentioning ${words.addressee} (or the command) in an issue ${words.comment} starts one too</label>`,
)}
${form(
  "schedule",
  "A schedule",
  html`<label for="schedule-cron">When (cron, UTC)</label><input id="schedule-cron" name="cron" required placeholder="0 6 * * 1">
<label for="schedule-instruction">Instruction</label><textarea id="schedule-instruction" name="instruction" rows="2" required placeholder="Fix broken links and outdated version numbers."></textarea>`,
)}
</section>`;
}

/** A project's automations (add for admins; pause and resume), and the jobs its readers suggest, each one click from starting. */
export function automationsBody(view: AutomationsView): SafeHtml {
  return html`<section aria-labelledby="automations-heading">
<h2 id="automations-heading">Automations</h2>
${automationRows(view)}
</section>
${view.access.canAdmin ? addForms(view) : ""}
<section aria-labelledby="suggestions-heading" id="suggestions">
<h2 id="suggestions-heading">Suggested by your readers</h2>
<p class="help">From the analytics: pages AI agents asked for and did not find, the pages AI reads most, and what robots.txt should say to AI agents that ignore it or that it keeps from the answers sending you readers. Each starts a job with the instruction shown (edit it first if you like).</p>
${suggestionTable(view, "suggestions-missing", "Pages AI agents failed to fetch", view.suggestions.missing, 0)}
${suggestionTable(view, "suggestions-most-read", "Pages AI reads most", view.suggestions.mostRead, view.suggestions.missing.length)}
${suggestionTable(view, "suggestions-robots", "robots.txt and AI agents", view.suggestions.robots, view.suggestions.missing.length + view.suggestions.mostRead.length)}
</section>`;
}
