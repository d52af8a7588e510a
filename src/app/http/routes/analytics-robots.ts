import { robotsComplianceQuerySchema, robotsDisallowedQuerySchema, robotsVersionsQuerySchema } from "../../../shared/robots-schemas.js";
import { dayRange, rangeCsvFilename } from "../../analytics/day-range.js";
import { agentIdByName } from "../../analytics/reports/agent-reports.js";
import {
  ROBOTS_AGENT_COLUMNS,
  ROBOTS_CHANGE_COLUMNS,
  ROBOTS_DISALLOWED_COLUMNS,
  ROBOTS_OPERATOR_COLUMNS,
  robotsChangeRows,
  robotsChangesReport,
  robotsComplianceReport,
  robotsComplianceRows,
  robotsDisallowedReport,
  robotsDisallowedRows,
  robotsOperatorRows,
  robotsOperatorsReport,
} from "../../analytics/reports/robots-reports.js";
import { listRobotsVersions } from "../../analytics/robots/robots-versions.js";
import { notFound } from "../../domain/errors.js";
import type { Db, Queryable } from "../../store/db.js";
import { csvHeader, csvReply, requestedPage, wantsCsv, type CsvColumns } from "../../http-kit/csv.js";
import { queryObject, validate } from "../../http-kit/body.js";
import { reportHeaders } from "../../http-kit/counting-header.js";
import type { Reply, RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { authorizedProject } from "../auth.js";

type RangeQuery = { dateFrom?: string | undefined; dateTo?: string | undefined; limit: number; offset: number; output?: "json" | "csv" | undefined };

/** robots.txt compliance (docs/analytics/robots.md): the reports, JSON or CSV like every report, and the versions they judge against. */
export function registerRobotsReportRoutes(router: Router, services: Services): void {
  const { analytics, verifier } = services;
  const authorize = (ctx: RequestContext) => authorizedProject(verifier, ctx);

  /** A report in JSON or, asked for, CSV: both after folding in what was accepted before the call (the counting header says when that took too long). */
  const report = async <Json, Row>(
    ctx: RequestContext,
    name: string,
    projectId: string,
    query: RangeQuery,
    csv: { columns: CsvColumns<Row>; rows: (db: Db) => AsyncIterable<Row> | Promise<AsyncIterable<Row>> },
    json: (db: Queryable) => Promise<Json>,
  ): Promise<Reply> => {
    if (wantsCsv(ctx.req, query.output)) {
      const { rows, pending } = await analytics.freshRows(csv.rows);
      return csvReply(rows, csv.columns, { filename: rangeCsvFilename(name, projectId, query), page: requestedPage(ctx.url, query), headers: reportHeaders(pending) });
    }
    const { report: body, pending } = await analytics.fresh(json);
    return { status: 200, body, headers: reportHeaders(pending) };
  };

  router.on("GET", "/v1/analytics/:projectId/robots", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(robotsComplianceQuerySchema, queryObject(ctx.url), "query");
    const range = dayRange(query);
    return report(ctx, "robots", projectId, query, { columns: ROBOTS_AGENT_COLUMNS, rows: (db) => robotsComplianceRows(db, projectId, range) }, (db) =>
      robotsComplianceReport(db, projectId, range, query),
    );
  });

  router.on("GET", "/v1/analytics/:projectId/robots/operators", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(robotsComplianceQuerySchema, queryObject(ctx.url), "query");
    const range = dayRange(query);
    return report(ctx, "robots-operators", projectId, query, { columns: ROBOTS_OPERATOR_COLUMNS, rows: (db) => robotsOperatorRows(db, projectId, range) }, (db) =>
      robotsOperatorsReport(db, projectId, range, query),
    );
  });

  router.on("GET", "/v1/analytics/:projectId/robots/disallowed", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(robotsDisallowedQuerySchema, queryObject(ctx.url), "query");
    const range = dayRange(query);
    const agentOf = async (db: Queryable) => (query.agent === undefined ? null : await knownAgentId(db, query.agent));
    return report(
      ctx,
      "robots-disallowed",
      projectId,
      query,
      { columns: ROBOTS_DISALLOWED_COLUMNS, rows: async (db) => robotsDisallowedRows(db, projectId, range, await agentOf(db)) },
      async (db) => robotsDisallowedReport(db, projectId, range, query, await agentOf(db)),
    );
  });

  router.on("GET", "/v1/analytics/:projectId/robots/changes", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(robotsComplianceQuerySchema, queryObject(ctx.url), "query");
    const range = dayRange(query);
    return report(ctx, "robots-changes", projectId, query, { columns: ROBOTS_CHANGE_COLUMNS, rows: (db) => robotsChangeRows(db, projectId, range) }, (db) =>
      robotsChangesReport(db, projectId, range, query),
    );
  });

  router.on("GET", "/v1/analytics/:projectId/robots/versions", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(robotsVersionsQuerySchema, queryObject(ctx.url), "query");
    return { status: 200, body: await listRobotsVersions(services.db, projectId, query) };
  });
}

/** The id of the agent of this name; 404 when no view ever claimed it. */
async function knownAgentId(db: Queryable, name: string): Promise<number> {
  const agentId = await agentIdByName(db, name);
  if (agentId === null) throw notFound("Agent");
  return agentId;
}

/** The header line of each robots report's CSV, for the OpenAPI document. */
export const ROBOTS_CSV_HEADERS = {
  robots: csvHeader(ROBOTS_AGENT_COLUMNS),
  operators: csvHeader(ROBOTS_OPERATOR_COLUMNS),
  disallowed: csvHeader(ROBOTS_DISALLOWED_COLUMNS),
  changes: csvHeader(ROBOTS_CHANGE_COLUMNS),
};
