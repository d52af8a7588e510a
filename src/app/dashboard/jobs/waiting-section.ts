import type { AgentJob } from "../../../shared/api-schemas.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField } from "../layout.js";
import type { Session } from "../sessions.js";
import { forgeWords } from "../../../shared/forge-words.js";

/**
 * What a waiting job asks of the people on its page (docs/api.md, "Plans and questions"): its plan
 * with Approve (a follow-up below revises it), or its question with a box for the answer.
 */
export function waitingSection(job: AgentJob, base: string, session: Session, canWrite: boolean): SafeHtml | string {
  if (job.status !== "active" || !job.waitingFor) return "";
  const asking =
    job.waitingFor === "approval"
      ? {
          id: "plan",
          heading: "Plan to approve",
          text: job.plan,
          form: html`<form method="post" action="${base}/approve" class="approve-form">
${csrfField(session)}
<button type="submit">Approve plan</button> <span class="help">The agent carries it out and opens the ${forgeWords(job.forge).change}. To change the plan, send a follow-up below.</span>
</form>`,
          needs: "Approving",
        }
      : {
          id: "question",
          heading: "The agent asks",
          text: job.question,
          form: html`<form method="post" action="${base}/messages" class="stack">
${csrfField(session)}
<label for="answer">Your answer</label>
<textarea id="answer" name="prompt" rows="3" required maxlength="32000"></textarea>
<button type="submit">Send answer</button>
</form>`,
          needs: "Answering",
        };
  return html`<section aria-labelledby="${asking.id}-heading" id="job-waiting" data-waiting-for="${job.waitingFor}">
<h2 id="${asking.id}-heading">${asking.heading}</h2>
<div class="message-text" id="job-${asking.id}">${asking.text ?? ""}</div>
${canWrite ? asking.form : html`<p class="help">${asking.needs} needs write permission on the repository.</p>`}
</section>`;
}
