import { agentNameSchema } from "../../../../shared/analytics-schemas.js";
import { dayToIso } from "../../../analytics/days.js";
import { analyticsQueryOf } from "../../../dashboard/analytics-query.js";
import type { DashboardController } from "../../../dashboard/controller.js";
import { layout } from "../../../dashboard/layout.js";
import { agentBody, agentsBody } from "../../../dashboard/pages/agents.js";
import { htmlReply } from "../../../dashboard/request.js";
import { HttpError } from "../../http-error.js";
import { countingHeader } from "../../counting-header.js";
import type { Router } from "../../router.js";

/** Agents the page lists; the API pages through the rest. */
const AGENTS_SHOWN = 100;
const PAGES_SHOWN = 250;


/** A project's AI agents page, and one page per agent. */
export function registerAgentPages(router: Router, dashboard: DashboardController): void {
  const { analytics } = dashboard.services;

  router.on(
    "GET",
    "/dashboard/projects/:projectId/agents",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const overview = await analytics.agentsOverview(project.id, query.days, { limit: AGENTS_SHOWN, offset: 0 });
      const body = agentsBody({ project, range: query.range, ...overview });
      return htmlReply(200, layout({ title: "AI agents", session: r.session, project: { project, access, tab: "agents" }, body }), countingHeader(overview.pending));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/agents/:agent",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      // As in the API: a name no agent can have names no agent.
      const name = agentNameSchema.safeParse(r.ctx.params.agent);
      if (!name.success) throw new HttpError(404, "Agent not found");
      const agent = name.data;
      const query = analyticsQueryOf(r.ctx.url);
      const overview = await analytics.agentOverview(project.id, agent, query.days, { limit: PAGES_SHOWN, offset: 0 });
      const daily = overview.daily.map(({ day, ...counts }) => ({ date: dayToIso(day), ...counts }));
      const body = agentBody({ project, range: query.range, agent, pages: overview.pages, daily, pending: overview.pending });
      return htmlReply(200, layout({ title: agent, session: r.session, project: { project, access, tab: "agents" }, body }), countingHeader(overview.pending));
    }),
  );
}
