import { agentsQuerySchema, visitorsQuerySchema } from "../../shared/analytics-trend-schemas.js";
import { dayRange } from "../analytics/day-range.js";
import type { McpTool } from "./mcp-tool.js";
import { queryToolInput, validQueryArguments } from "./tool-schemas.js";
import { counted } from "../../shared/counted.js";

// The analytics tools: the visitors export and the AI agents report, as their REST endpoints answer
// them (docs/analytics/reports.md), read through the same counting pipeline.

const VISITOR_FIELDS = ["dateFrom", "dateTo", "limit", "offset", "pathPrefix"] as const;
const AGENT_FIELDS = ["dateFrom", "dateTo", "limit", "offset"] as const;

const rangeText = (query: { dateFrom?: string | undefined; dateTo?: string | undefined }) =>
  query.dateFrom || query.dateTo ? `from ${query.dateFrom ?? "the start"} to ${query.dateTo ?? "now"} (exclusive)` : "over all time";
const stillCounting = (pending: boolean) => (pending ? " Views accepted in the last moments are still being counted: ask again shortly." : "");

export const analyticsTools: McpTool[] = [
  {
    name: "get_visitors",
    scope: "analytics",
    title: "Unique visitors per page",
    description:
      "Unique visitors per docs page, split into human and AI (assistants, crawlers, AI search), most visited first: exact counts over whole UTC days, dateFrom included and dateTo excluded. pathPrefix narrows to a section (/guides). Pages a page at a time (hasMore).",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: queryToolInput(visitorsQuerySchema, VISITOR_FIELDS),
    async run(args, { services, projectId }) {
      const query = validQueryArguments(visitorsQuerySchema, VISITOR_FIELDS, args);
      const { report, pending } = await services.analytics.visitors(projectId, dayRange(query), query, query);
      const { human, ai, total } = report.totals;
      return {
        body: report,
        text: `${human} human and ${ai} AI visitors (${total} unique) ${rangeText(query)}${query.pathPrefix ? ` under ${query.pathPrefix}` : ""}; ${counted(report.visitors.length, "page")} listed${report.hasMore ? ", more follow" : ""}.${stillCounting(pending)}`,
      };
    },
  },
  {
    name: "get_ai_agents",
    scope: "analytics",
    title: "AI agents that read the docs",
    description:
      "The AI agents (ChatGPT, Claude, Perplexity, Gemini and their crawlers…) that read the project's pages, most views first: each with its operator, category, views, visitors and pages, and how many of its views were verified against the operator's published addresses or signatures, spoofed (not counted) or unverifiable.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: queryToolInput(agentsQuerySchema, AGENT_FIELDS),
    async run(args, { services, projectId }) {
      const query = validQueryArguments(agentsQuerySchema, AGENT_FIELDS, args);
      const { report, pending } = await services.analytics.agents(projectId, dayRange(query), query, query);
      const names = report.agents.slice(0, 5).map((agent) => `${agent.agent} ${agent.views}`);
      return {
        body: report,
        text: `${report.agents.length === 0 ? "No AI agent read the docs" : `${counted(report.agents.length, "AI agent")}${report.hasMore ? " (more follow)" : ""}, views: ${names.join(", ")}${report.agents.length > 5 ? ", …" : ""}`} ${rangeText(query)}.${stillCounting(pending)}`,
      };
    },
  },
];
