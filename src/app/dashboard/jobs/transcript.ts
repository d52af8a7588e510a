import type { Transcript, TranscriptEntry } from "../../../shared/job-outcome-schemas.js";
import type { Project } from "../../domain/projects.js";
import { html, type SafeHtml } from "../html.js";
import { projectPath } from "../layout.js";

const LABELS: Record<TranscriptEntry["kind"], string> = {
  system: "System prompt",
  instruction: "Instruction",
  assistant: "Agent",
  tool_call: "Tool call",
  tool_result: "Result",
  context: "Context budget",
};

function entry(item: TranscriptEntry): SafeHtml {
  const label = `${LABELS[item.kind]}${item.tool ? `: ${item.tool}` : ""}`;
  // The system prompt and tool results are long and mostly context: folded, one click away.
  if (item.kind === "system" || item.kind === "tool_result") {
    return html`<li class="transcript-${item.kind}"><details><summary><span class="event-type">${label}</span></summary><pre>${item.text}</pre></details></li>`;
  }
  return html`<li class="transcript-${item.kind}"><span class="event-type">${label}</span><pre>${item.text}</pre></li>`;
}

/** One run's transcript as a timeline: instructions, the agent's answers, each tool call and its result. */
export function transcriptBody(view: { project: Project; jobId: string; transcript: Transcript }): SafeHtml {
  const { transcript } = view;
  const jobPage = `${projectPath(view.project.id, "jobs")}/${encodeURIComponent(view.jobId)}`;
  return html`<p><a href="${jobPage}">← Job ${view.jobId}</a></p>
<h2>Run ${transcript.attempt}: transcript</h2>
<p class="help">What the model was told and answered, and every tool call with its result; each entry is cut to 2,000 characters. Tokens and keys never reach the model, so they are not here.</p>
${transcript.elided > 0 ? html`<p class="notice notice-info">This run was long: ${transcript.elided} entries from its middle were left out; its start and its end are here.</p>` : ""}
<ol class="timeline transcript" id="transcript">${transcript.entries.map(entry)}</ol>`;
}
