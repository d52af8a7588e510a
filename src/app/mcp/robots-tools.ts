import { robotsDisallowedQuerySchema } from "../../shared/robots-schemas.js";
import { dayRange } from "../analytics/day-range.js";
import { agentIdByName } from "../analytics/reports/agent-reports.js";
import { robotsComplianceReport, robotsDisallowedReport } from "../analytics/reports/robots-reports.js";
import { notFound } from "../domain/errors.js";
import type { McpTool } from "./mcp-tool.js";
import { queryToolInput, validQueryArguments } from "./tool-schemas.js";

// The robots.txt compliance tool: the robots report per agent and its disallowed pages, as
// GET /v1/analytics/{projectId}/robots and /robots/disallowed answer them (docs/analytics/robots.md).

const FIELDS = ["dateFrom", "dateTo", "limit", "offset", "agent"] as const;

export const robotsTools: McpTool[] = [
  {
    name: "get_robots_compliance",
    scope: "analytics",
    title: "Which AI agents obey robots.txt",
    description:
      "AI agents' views judged against the robots.txt in force at each view's time (RFC 9309, the agent's product token): per agent, views allowed, disallowed, unknown (before any known version) and its reads of /robots.txt, most disallowed first; and the disallowed pages with the rule that disallowed them, the version, and first and last seen (of one agent with `agent`). Whole UTC days, dateFrom included and dateTo excluded. Spoofed claims are never counted as the agent.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: queryToolInput(robotsDisallowedQuerySchema, FIELDS),
    async run(args, { services, projectId }) {
      const query = validQueryArguments(robotsDisallowedQuerySchema, FIELDS, args);
      const range = dayRange(query);
      const { report, pending } = await services.analytics.fresh(async (db) => {
        const agentId = query.agent === undefined ? null : await agentIdByName(db, query.agent);
        if (query.agent !== undefined && agentId === null) throw notFound("Agent");
        const compliance = await robotsComplianceReport(db, projectId, range, query);
        const disallowed = await robotsDisallowedReport(db, projectId, range, { limit: query.limit, offset: 0 }, agentId);
        return { ...compliance, disallowed: disallowed.disallowed };
      });
      const worst = report.agents.filter((a) => a.disallowed > 0).slice(0, 5).map((a) => `${a.agent} ${a.disallowed}`);
      return {
        body: report,
        text: `${report.totals.disallowed} of ${report.totals.allowed + report.totals.disallowed + report.totals.unknown} AI views were disallowed by the robots.txt in force${worst.length > 0 ? ` (${worst.join(", ")})` : ""}; ${report.totals.unknown} before any known version.${pending ? " Views accepted in the last moments are still being counted: ask again shortly." : ""}`,
      };
    },
  },
];
