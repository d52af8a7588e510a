import { agentNameSchema } from "../../../shared/analytics-schemas.js";
import {
  AGENT_COLUMNS,
  AGENT_DAY_COLUMNS,
  AGENT_PAGE_COLUMNS,
  agentDailyViews,
  agentIdByName,
  agentPageRows,
  agentRows,
  FAILURE_COLUMNS,
  failureRows,
  FORMAT_COLUMNS,
  formatSplit,
} from "../../analytics/reports/agent-reports.js";
import { dayToIso } from "../../../shared/epoch-days.js";
import { analyticsQueryOf } from "../analytics/query.js";
import type { DashboardController, SignedInRequest } from "../controller.js";
import { dashboardCsv } from "../analytics/csv-exports.js";
import { layout } from "../layout.js";
import { agentBody, agentsBody } from "./page.js";
import { htmlReply } from "../request.js";
import type { Db } from "../../store/db.js";
import type { CsvColumns } from "../../http-kit/csv.js";
import { HttpError } from "../../http-kit/http-error.js";
import { countingHeader } from "../../http-kit/counting-header.js";
import type { Router } from "../../http-kit/router.js";
import { OPERATOR_COLUMNS, operatorRatios } from "../../analytics/reports/operator-ratios.js";
import { ROBOTS_DISALLOWED_COLUMNS, robotsDisallowedRows } from "../../analytics/reports/robots-reports.js";

/** Agents the page lists; the API pages through the rest. */
const AGENTS_SHOWN = 100;
const PAGES_SHOWN = 250;

/** As in the API: a name no agent can have names no agent. */
function agentName(r: SignedInRequest): string {
  const name = agentNameSchema.safeParse(r.ctx.params.agent);
  if (!name.success) throw new HttpError(404, "Agent not found");
  return name.data;
}

/** The id of the agent of this name; 404 when no view ever claimed it. */
async function knownAgent(db: Db, name: string): Promise<number> {
  const agentId = await agentIdByName(db, name);
  if (agentId === null) throw new HttpError(404, "Agent not found");
  return agentId;
}

type Read<Row> = (db: Db, projectId: string, days: { from: number; to: number }, r: SignedInRequest) => Promise<AsyncIterable<Row> | Iterable<Row>> | AsyncIterable<Row>;

/** A project's AI agents page, one page per agent, and the CSV of each of their tables (every row of the range). */
export function registerAgentPages(router: Router, dashboard: DashboardController): void {
  const { analytics } = dashboard.services;

  /** One table's CSV: the page's range, every row, read after counting what was accepted before. */
  const csv = <Row>(table: string | ((r: SignedInRequest) => string), columns: CsvColumns<Row>, read: Read<Row>) =>
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const query = analyticsQueryOf(r.ctx.url);
      const { rows, pending } = await analytics.freshRows(async (db) => asyncRows(await read(db, project.id, query.days, r)));
      return dashboardCsv(typeof table === "string" ? table : table(r), project, { range: query.range }, rows, columns, pending);
    });

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

  router.on("GET", "/dashboard/projects/:projectId/agents.csv", csv("agents", AGENT_COLUMNS, (db, projectId, days) => agentRows(db, projectId, days)));
  // Before /agents/:agent: no agent is named like a file.
  router.on("GET", "/dashboard/projects/:projectId/agents/formats.csv", csv("formats", FORMAT_COLUMNS, (db, projectId, days) => formatSplit(db, projectId, days)));
  router.on("GET", "/dashboard/projects/:projectId/agents/operators.csv", csv("operators", OPERATOR_COLUMNS, (db, projectId, days) => operatorRatios(db, projectId, days)));
  router.on("GET", "/dashboard/projects/:projectId/agents/failures.csv", csv("failures", FAILURE_COLUMNS, (db, projectId, days) => failureRows(db, projectId, days)));

  router.on(
    "GET",
    "/dashboard/projects/:projectId/agents/:agent",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const agent = agentName(r);
      const query = analyticsQueryOf(r.ctx.url);
      const overview = await analytics.agentOverview(project.id, agent, query.days, { limit: PAGES_SHOWN, offset: 0 });
      const daily = overview.daily.map(({ day, ...counts }) => ({ date: dayToIso(day), ...counts }));
      const body = agentBody({ project, range: query.range, agent, pages: overview.pages, daily, robots: overview.robots, pending: overview.pending });
      return htmlReply(200, layout({ title: agent, session: r.session, project: { project, access, tab: "agents" }, body }), countingHeader(overview.pending));
    }),
  );

  const agentTable = (table: string) => (r: SignedInRequest) => `agent-${agentName(r)}-${table}`;
  router.on(
    "GET",
    "/dashboard/projects/:projectId/agents/:agent/pages.csv",
    csv(agentTable("pages"), AGENT_PAGE_COLUMNS, async (db, projectId, days, r) => agentPageRows(db, projectId, await knownAgent(db, agentName(r)), days)),
  );
  router.on(
    "GET",
    "/dashboard/projects/:projectId/agents/:agent/robots-disallowed.csv",
    csv(agentTable("robots-disallowed"), ROBOTS_DISALLOWED_COLUMNS, async (db, projectId, days, r) => robotsDisallowedRows(db, projectId, days, await knownAgent(db, agentName(r)))),
  );
  router.on(
    "GET",
    "/dashboard/projects/:projectId/agents/:agent/daily.csv",
    csv(agentTable("daily"), AGENT_DAY_COLUMNS, async (db, projectId, days, r) =>
      (await agentDailyViews(db, projectId, await knownAgent(db, agentName(r)), days)).map(({ day, ...counts }) => ({ date: dayToIso(day), ...counts })),
    ),
  );
}

async function* asyncRows<Row>(rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<Row> {
  yield* rows;
}
