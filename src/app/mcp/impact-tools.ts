import type { JobImpact } from "../../shared/impact-schemas.js";
import { impactTotals, jobImpact } from "../impact/job-impact.js";
import type { McpTool } from "./mcp-tool.js";
import { jobIdArgument, jobIdOf } from "./job-tools.js";
import { objectJsonSchema } from "./tool-schemas.js";
import { counted } from "../../shared/counted.js";

// The closed loop as a tool: what GET …/job/{id}/impact answers (docs/analytics/impact.md).

/** The longest complete window (or the first, running) in a sentence: the changed pages' people and AI failures, and the site's people. */
function describeImpact(impact: JobImpact): string {
  if (impact.state !== "measured") return impact.reason ?? impact.state;
  const i = Math.max(0, impact.windows.findLastIndex((window) => window.after.complete));
  const window = impact.windows[i];
  if (!window) return "No window to measure.";
  const { changedPages, site } = impactTotals(impact, i);
  const state = window.after.complete ? "" : ` (${window.after.daysCounted} of its days so far)`;
  return `Over the ${window.days} days before and after the merge${state}, the ${counted(impact.pages.length, "changed page")} had ${changedPages.humanVisitors.before} → ${changedPages.humanVisitors.after} people and ${changedPages.aiFailures.before} → ${changedPages.aiFailures.after} AI fetch failures; the whole site ${site.humanVisitors.before} → ${site.humanVisitors.after} people.`;
}

export const impactTools: McpTool[] = [
  {
    name: "get_job_impact",
    scope: "analytics",
    title: "What a merged docs change did for its readers",
    description:
      "For a job whose pull request was merged: each page it changed (moves followed to the old path), over the 7, 14 and 28 days before the merge and after it, with human visitors, AI visitors, AI reads by category, AI fetch failures, people arriving from AI answers and Markdown/llms.txt reads, beside the whole site over the same days. Exact counts; unfinished windows say how many days they hold. A job not merged says why.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: objectJsonSchema(jobIdArgument, "input"),
    async run(args, { services, projectId }) {
      const jobId = jobIdOf(args);
      const { report } = await services.analytics.fresh((db) => jobImpact(db, projectId, jobId, services.clock()));
      return { body: report, text: describeImpact(report) };
    },
  },
];
