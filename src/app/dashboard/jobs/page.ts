import type { AgentJob, JobEvent, JobRun, JobStatus } from "../../../shared/api-schemas.js";
import type { JobMessage } from "../../domain/jobs/messages.js";
import type { Project } from "../../domain/projects.js";
import type { ProjectAccess } from "../access.js";
import { html, httpUrl, linkified, type SafeHtml } from "../html.js";
import { csrfField, formatAge, formatTime, number, projectPath } from "../layout.js";
import type { Session } from "../sessions.js";
import type { JobTriggerType } from "../../../shared/job-vocabulary.js";
import { describePhases } from "../../../shared/run-phases.js";
import { TRIGGER_TYPES, triggerLabel, triggerLabelOn } from "./trigger-labels.js";
import { forgeWords } from "../../../shared/forge-words.js";
import type { JobImpact } from "../../../shared/impact-schemas.js";
import { impactSection } from "./job-impact.js";
import { waitingSection } from "./waiting-section.js";

export const JOB_STATUSES: JobStatus[] = ["active", "completed", "failed", "archived"];

const excerpt = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const statusBadge = (status: JobStatus) => html`<span class="status status-${status}">${status}</span>`;

function prLink(job: AgentJob): SafeHtml {
  if (!job.prLink) return html`<span class="muted">none yet</span>`;
  const href = httpUrl(job.prLink);
  const label = job.prLink.replace(/^https?:\/\//i, "");
  return href ? html`<a href="${href}" rel="noreferrer">${label}</a>` : html`${label}`;
}

/** A prompt field with the same rule as the API: 1..32,000 characters after trimming. */
const promptField = (id: string, label: string, help: string) => html`<label for="${id}">${label}</label>
<textarea id="${id}" name="prompt" rows="4" required maxlength="32000" aria-describedby="${id}-help"></textarea>
<p id="${id}-help" class="help">${help}</p>`;

export interface JobsView {
  session: Session;
  project: Project;
  access: ProjectAccess;
  jobs: AgentJob[];
  prompts: Map<string, string>;
  hasMore: boolean;
  status: JobStatus | null;
  trigger: JobTriggerType | null;
  offset: number;
  limit: number;
  /** Makes a double-submitted create form one job. */
  idempotencyKey: string;
  now: number;
}

export function jobsBody(view: JobsView): SafeHtml {
  const base = projectPath(view.project.id, "jobs");
  const query = (change: { status?: JobStatus | null; trigger?: JobTriggerType | null; offset?: number }) => {
    const params = new URLSearchParams();
    const status = change.status === undefined ? view.status : change.status;
    if (status) params.set("status", status);
    const trigger = change.trigger === undefined ? view.trigger : change.trigger;
    if (trigger) params.set("trigger", trigger);
    const offset = change.offset ?? view.offset;
    if (offset > 0) params.set("offset", String(offset));
    const text = params.toString();
    return text ? `${base}?${text}` : base;
  };
  return html`${
    view.access.canWrite
      ? html`<section aria-labelledby="new-job-heading">
<h2 id="new-job-heading">New job</h2>
<form method="post" action="${base}" class="stack">
${csrfField(view.session)}
<input type="hidden" name="idempotencyKey" value="${view.idempotencyKey}">
${promptField("new-prompt", "Instruction", `The agent edits ${view.project.repoName} and opens a ${forgeWords(view.project.forge).change}. Up to 32,000 characters.`)}
<button type="submit">Start job</button>
</form>
</section>`
      : html`<p class="help">Starting jobs needs write permission on <code>${view.project.repoName}</code>; yours is ${view.access.role}.</p>`
  }
<section aria-labelledby="jobs-heading">
<h2 id="jobs-heading">Jobs</h2>
<p><a href="${base}-impact">What merged jobs did for readers →</a></p>
<nav class="filters" aria-label="Filter by status"><ul>
<li><a href="${query({ status: null, offset: 0 })}"${view.status === null ? html` aria-current="true"` : ""}>All</a></li>
${JOB_STATUSES.map((s) => html`<li><a href="${query({ status: s, offset: 0 })}"${view.status === s ? html` aria-current="true"` : ""}>${s}</a></li>`)}
</ul></nav>
<nav class="filters" aria-label="Filter by what started them"><ul>
<li><a href="${query({ trigger: null, offset: 0 })}"${view.trigger === null ? html` aria-current="true"` : ""}>Any start</a></li>
${TRIGGER_TYPES.map((t) => html`<li><a href="${query({ trigger: t, offset: 0 })}"${view.trigger === t ? html` aria-current="true"` : ""}>${triggerLabelOn(t, view.project.forge)}</a></li>`)}
</ul></nav>
${
  view.jobs.length === 0
    ? html`<p>No jobs${view.status ? html` with status ${view.status}` : ""}${view.trigger ? html` started by ${triggerLabelOn(view.trigger, view.project.forge)}` : ""}.</p>`
    : html`<div class="table-wrap"><table id="jobs-table">
<thead><tr><th scope="col">Job</th><th scope="col">Status</th><th scope="col">Started by</th><th scope="col">Age</th><th scope="col">${forgeWords(view.project.forge).Change}</th></tr></thead>
<tbody>${view.jobs.map(
        (job) => html`<tr data-job-id="${job.id}">
<td><a href="${base}/${encodeURIComponent(job.id)}">${excerpt(view.prompts.get(job.id) ?? job.id)}</a></td>
<td>${statusBadge(job.status)}</td>
<td>${triggerLabel(job.trigger, job.forge)}</td>
<td>${formatAge(job.createdAt, view.now)}</td>
<td>${prLink(job)}</td>
</tr>`,
      )}</tbody></table></div>
<nav class="pager" aria-label="Pages of jobs">
${view.offset > 0 ? html`<a class="button secondary" rel="prev" href="${query({ offset: Math.max(0, view.offset - view.limit) })}">Newer</a>` : ""}
${view.hasMore ? html`<a class="button secondary" rel="next" href="${query({ offset: view.offset + view.limit })}">Older</a>` : ""}
</nav>`
}
</section>`;
}

export interface JobView {
  session: Session;
  project: Project;
  access: ProjectAccess;
  job: AgentJob;
  messages: JobMessage[];
  events: JobEvent[];
  runs: JobRun[];
  /** What the merged change did for readers; null while the job is not archived. */
  impact: JobImpact | null;
}

/** The part of a job's page that changes while it runs; polled and swapped in place while active. */
export function jobLive(view: Pick<JobView, "project" | "job" | "events">): SafeHtml {
  const { job } = view;
  return html`<dl class="facts">
<div><dt>Status</dt><dd id="job-status">${statusBadge(job.status)}</dd></div>
<div><dt>${forgeWords(job.forge).Change}</dt><dd id="job-pr">${prLink(job)}</dd></div>
${job.checks ? html`<div><dt>Checks</dt><dd id="job-checks">${checksFact(job)}</dd></div>` : ""}
<div><dt>Started by</dt><dd id="job-trigger">${triggerLabel(job.trigger, job.forge)}</dd></div>
<div><dt>Branch</dt><dd><code>${job.source.ref}</code></dd></div>
<div><dt>Model</dt><dd><code>${job.model}</code></dd></div>
<div><dt>Created</dt><dd>${formatTime(job.createdAt)}</dd></div>
${job.archivedAt ? html`<div><dt>Archived</dt><dd>${formatTime(job.archivedAt)}</dd></div>` : ""}
</dl>
${job.error ? html`<p class="notice notice-error">${linkified(job.error)}</p>` : ""}
${waitingNotice(view)}
${jobOutcome(job)}
<h2>Timeline</h2>
<ol class="timeline" id="job-events">${timelineItems(view.events, job.error)}</ol>`;
}

/** What the repository's own checks say of the job's pushed commit: running, passed, or which failed. */
function checksFact(job: AgentJob): SafeHtml {
  const checks = job.checks as NonNullable<AgentJob["checks"]>;
  const on = html` <span class="muted">on <code>${checks.sha.slice(0, 7)}</code>${checks.rounds > 0 ? `, ${checks.rounds} repair round(s)` : ""}</span>`;
  if (checks.state !== "failing") return html`${checks.state === "pending" ? `running (the ${forgeWords(job.forge).change} stays a draft)` : "passed"}${on}`;
  return html`failed: ${checks.failing.map((check, i) => html`${i > 0 ? ", " : ""}${httpUrl(check.url) ? html`<a href="${httpUrl(check.url)}">${check.name}</a>` : check.name}`)}${on}`;
}

/**
 * The live region says what a waiting job asks, with the plan or question, so a page opened before
 * the job started waiting shows it on its next poll. The forms stay outside the region (waiting-section.ts),
 * so a poll never wipes an answer being typed; the link loads the page with them.
 */
function waitingNotice({ job, project }: Pick<JobView, "project" | "job">): SafeHtml | string {
  if (job.status !== "active" || !job.waitingFor) return "";
  const approval = job.waitingFor === "approval";
  const page = `${projectPath(project.id, "jobs")}/${encodeURIComponent(job.id)}?waiting=${job.waitingFor}#job-waiting`;
  return html`<details class="notice notice-info" id="job-waiting-notice" data-waiting-for="${job.waitingFor}">
<summary>${approval ? "This job waits for approval of its plan." : "The agent asks a question and waits for the answer."} <a href="${page}">${approval ? "Approve or revise it" : "Answer it"}</a></summary>
<div class="message-text">${(approval ? job.plan : job.question) ?? ""}</div>
</details>`;
}

/** The events, each detail said once: one the error box above already shows, or an earlier event said, is not repeated. */
function timelineItems(events: JobEvent[], shownError: string | null): SafeHtml[] {
  const said = new Set(shownError ? [shownError] : []);
  return events.map((event) => {
    const detail = event.detail && !said.has(event.detail) ? event.detail : null;
    if (event.detail) said.add(event.detail);
    const repeated = event.detail && !detail ? html` <span class="muted">(${event.detail === shownError ? "the error above" : "as above"})</span>` : "";
    return html`<li><span class="event-type">${event.type.replace(/_/g, " ")}</span>${event.from !== event.to && event.to ? html` <span class="muted">${event.from ? `${event.from} → ` : "→ "}${event.to}</span>` : ""} <span class="muted">by ${event.cause}</span> ${formatTime(event.at)}${repeated}${detail ? html`<div class="event-detail">${linkified(detail)}</div>` : ""}</li>`;
  });
}

/** Each run: what started it, how it ended, what it cost, and its transcript. */
function runsSection(runs: JobRun[], base: string): SafeHtml | "" {
  if (runs.length === 0) return "";
  return html`<section aria-labelledby="runs-heading">
<h2 id="runs-heading">Runs</h2>
<div class="table-wrap"><table id="runs-table">
<thead><tr><th scope="col">Run</th><th scope="col">Started by</th><th scope="col">Claimed</th><th scope="col">Outcome</th><th scope="col" class="num">Tokens in / out</th><th scope="col">Time</th><th scope="col">Transcript</th></tr></thead>
<tbody>${runs.map(
    (run) => html`<tr><td>${httpUrl(run.workflowRunUrl) ? html`<a href="${httpUrl(run.workflowRunUrl)}">#${run.attempt}</a>` : `#${run.attempt}`}</td><td>${run.trigger ? `${run.trigger.source}${run.trigger.author ? ` @${run.trigger.author}` : ""}` : "—"}</td><td>${formatTime(run.claimedAt)}</td><td>${run.outcome ?? (run.reportedAt ? "—" : "working, or ended without a report")}</td><td class="num">${run.usage ? `${number(run.usage.inputTokens)} / ${number(run.usage.outputTokens)}` : "—"}</td><td>${runTime(run)}</td><td>${run.hasTranscript ? html`<a href="${base}/runs/${run.attempt}">Read</a>` : html`<span class="muted">none</span>`}</td></tr>`,
  )}</tbody>
</table></div>
</section>`;
}

/** The run's time, and where it went (a slow run says why). */
function runTime(run: JobRun): SafeHtml | string {
  if (run.phases.length === 0) return run.usage ? `${(run.usage.durationMs / 1000).toFixed(1)} s` : "—";
  const onPath = run.phases.filter((phase) => !phase.background).reduce((sum, phase) => sum + phase.ms, 0);
  return html`<details class="run-phases"><summary>${(onPath / 1000).toFixed(1)} s</summary><p>${describePhases(run.phases)}</p></details>`;
}

/** What the job's runs did: the progress of the active one, the agent's summary, the branch's files, validation and cost. */
function jobOutcome(job: AgentJob): SafeHtml {
  const usage = job.usage;
  return html`${job.progress ? html`<p id="job-progress" class="notice notice-info" role="status">${job.progress}</p>` : ""}
${job.summary ? html`<h2>Summary</h2><div id="job-summary" class="message-text">${job.summary}</div>` : ""}
${
  job.files.length > 0
    ? html`<h2>Files</h2><ul id="job-files" class="files">${job.files.map((f) => html`<li><span class="muted">${f.change}</span> <code>${f.from ? `${f.from} → ` : ""}${f.path}</code></li>`)}</ul>`
    : ""
}
${
  job.validation
    ? html`<h2>Validation</h2><div id="job-validation">${
        job.validation.passed
          ? html`<p>Passed.</p>`
          : html`<ul>${job.validation.problems.map((p) => html`<li><code>${p.file}${p.line ? `:${p.line}` : ""}</code> ${p.message}</li>`)}</ul>`
      }</div>`
    : ""
}
${
  usage
    ? html`<dl class="facts" id="job-usage">
<div><dt>Tokens in</dt><dd>${number(usage.inputTokens)} <span class="muted">(${number(usage.cachedInputTokens)} cached)</span></dd></div>
<div><dt>Tokens out</dt><dd>${number(usage.outputTokens)}</dd></div>
<div><dt>Model turns</dt><dd>${number(usage.turns)}</dd></div>
<div><dt>Agent time</dt><dd>${Math.round(usage.durationMs / 1000)} s</dd></div>
<div><dt>Estimated cost</dt><dd id="job-cost">${usage.estimatedCostUsd === null ? html`<span class="muted">price of the model not known</span>` : `$${usage.estimatedCostUsd.toFixed(4)}`}</dd></div>
</dl>`
    : ""
}`;
}

export function jobBody(view: JobView): SafeHtml {
  const { job, project } = view;
  const base = `${projectPath(project.id, "jobs")}/${encodeURIComponent(job.id)}`;
  return html`<p><a href="${projectPath(project.id, "jobs")}">← All jobs</a></p>
<section id="job-live" aria-live="polite" data-status="${job.status}" data-live-url="${base}/live">
${jobLive(view)}
</section>
${waitingSection(job, base, view.session, view.access.canWrite)}
${
  job.status === "active" && view.access.canWrite
    ? html`<form method="post" action="${base}/cancel" class="cancel-form">
${csrfField(view.session)}
<button type="submit" class="danger">Cancel job</button> <span class="help">Stops the run: the job becomes failed, nothing more is pushed, and its ${forgeWords(job.forge).run} is cancelled.</span>
</form>`
    : ""
}
${view.impact ? impactSection(view.impact, `${base}/impact.csv`, job.forge) : ""}
${runsSection(view.runs, base)}
<section aria-labelledby="messages-heading">
<h2 id="messages-heading">Messages</h2>
<ol class="messages">${view.messages.map(
    (m) => html`<li><div class="message-meta">#${m.seq} · ${m.source === "comment" ? html`${triggerLabelOn("comment", job.forge)} by @${m.author ?? "unknown"}` : m.source === "dashboard" ? (m.author ? html`by @${m.author} on the dashboard` : "on the dashboard") : m.source === "automation" ? (m.author ? html`automation, for @${m.author}` : "automation") : m.source === "checks" ? "the repository's checks" : m.author ? html`by @${m.author}` : "API"} · ${formatTime(m.at)}</div><div class="message-text">${m.prompt}</div></li>`,
  )}</ol>
</section>
${
  !view.access.canWrite
    ? html`<p class="help">Sending follow-ups needs write permission on <code>${project.repoName}</code>.</p>`
    : job.status === "archived"
      ? html`<p class="help">This job is archived (its ${forgeWords(job.forge).change} was merged or closed); start a new job instead.</p>`
      : html`<section aria-labelledby="follow-up-heading">
<h2 id="follow-up-heading">Send a follow-up</h2>
<form method="post" action="${base}/messages" class="stack">
${csrfField(view.session)}
${promptField("follow-up", "Follow-up instruction", job.status === "active" ? "The job is running: this message is queued and taken by its next run." : `The job starts again on the same branch and ${forgeWords(job.forge).change}.`)}
<button type="submit">Send follow-up</button>
</form>
</section>`
}`;
}
