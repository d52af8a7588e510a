import type { JobTrigger } from "../../../shared/automation-schemas.js";
import { JOB_TRIGGER_TYPES, type JobTriggerType } from "../../../shared/job-vocabulary.js";
import { html, httpUrl, type SafeHtml } from "../html.js";
import { forgeWords, type ForgeName } from "../../../shared/forge-words.js";

export const TRIGGER_LABELS: Record<JobTriggerType, string> = {
  api: "API",
  dashboard: "Dashboard",
  comment: "PR comment",
  "source-merge": "Merged code",
  issue: "Issue",
  schedule: "Schedule",
  suggestion: "Suggestion",
  slack: "Slack",
};

export const TRIGGER_TYPES: readonly JobTriggerType[] = JOB_TRIGGER_TYPES;

/** A trigger's label on a forge: a comment is the change request's, in the forge's words. */
export const triggerLabelOn = (type: JobTriggerType, forge: ForgeName): string => (type === "comment" ? forgeWords(forge).commentTrigger : TRIGGER_LABELS[type]);

/** What started a job, linked to its page where it has one. */
export function triggerLabel(trigger: JobTrigger, forge: ForgeName): SafeHtml {
  const label = triggerLabelOn(trigger.type, forge);
  const href = trigger.url ? httpUrl(trigger.url) : null;
  return href ? html`<a href="${href}" rel="noreferrer">${label}</a>` : html`${label}`;
}
