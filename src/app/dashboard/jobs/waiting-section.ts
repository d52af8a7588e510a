import type { AgentJob } from "../../../shared/api-schemas.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField } from "../layout.js";
import type { Session } from "../sessions.js";

/**
 * What a waiting job asks of the people on its page (docs/api.md, "Plans and questions"): its plan
 * with Approve (a follow-up below revises it), or its question with a box for the answer.
 */
export function waitingSection(job: AgentJob, base: string, session: Session, canWrite: boolean): SafeHtml | string {
  if (job.status !== "active" || !job.waitingFor) return "";
  if (job.waitingFor === "approval") {
    return html`<section aria-labelledby="plan-heading" id="job-waiting" data-waiting-for="approval">
<h2 id="plan-heading">Plan to approve</h2>
<div class="message-text" id="job-plan">${job.plan ?? ""}</div>
${
  canWrite
    ? html`<form method="post" action="${base}/approve" class="approve-form">
${csrfField(session)}
<button type="submit">Approve plan</button> <span class="help">The agent carries it out and opens the pull request. To change the plan, send a follow-up below.</span>
</form>`
    : html`<p class="help">Approving needs write permission on the repository.</p>`
}
</section>`;
  }
  return html`<section aria-labelledby="question-heading" id="job-waiting" data-waiting-for="answer">
<h2 id="question-heading">The agent asks</h2>
<div class="message-text" id="job-question">${job.question ?? ""}</div>
${
  canWrite
    ? html`<form method="post" action="${base}/messages" class="stack">
${csrfField(session)}
<label for="answer">Your answer</label>
<textarea id="answer" name="prompt" rows="3" required maxlength="32000"></textarea>
<button type="submit">Send answer</button>
</form>`
    : html`<p class="help">Answering needs write permission on the repository.</p>`
}
</section>`;
}
