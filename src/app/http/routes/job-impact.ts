import { impactRankingQuerySchema, jobImpactQuerySchema } from "../../../shared/impact-schemas.js";
import { impactRanking, MAX_RANKED_JOBS } from "../../impact/impact-ranking.js";
import { dayRange, rangeCsvFilename } from "../../analytics/day-range.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { jobImpact } from "../../impact/job-impact.js";
import { IMPACT_COLUMNS, impactRows, RANKING_COLUMNS } from "../../impact/impact-rows.js";
import { authorizedProject } from "../auth.js";
import { queryObject, validate } from "../../http-kit/body.js";
import { reportHeaders } from "../../http-kit/counting-header.js";
import { csvFilename, csvHeader, csvReply, requestedPage, wantsCsv } from "../../http-kit/csv.js";
import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

/** The closed loop (docs/analytics/impact.md): what a merged job's change did for its pages' readers. */
export function registerJobImpactRoutes(router: Router, services: Services): void {
  const { analytics, verifier, clock } = services;

  router.on("GET", "/v2/agent/:projectId/job/:id/impact", async (ctx) => {
    const projectId = await authorizedProject(verifier, ctx);
    const jobId = wellFormedIdOf(ctx.params.id, "Job");
    const query = validate(jobImpactQuerySchema, queryObject(ctx.url), "query");
    const { report, pending } = await analytics.fresh((db) => jobImpact(db, projectId, jobId, clock()));
    if (wantsCsv(ctx.req, query.output)) return csvReply(impactRows(report), IMPACT_COLUMNS, { filename: csvFilename(["impact", projectId, jobId]), headers: reportHeaders(pending) });
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v2/agent/:projectId/jobs/impact", async (ctx) => {
    const projectId = await authorizedProject(verifier, ctx);
    const query = validate(impactRankingQuerySchema, queryObject(ctx.url), "query");
    const ranking = { days: query.days, order: query.order, range: dayRange(query), limit: query.limit, offset: query.offset };
    if (wantsCsv(ctx.req, query.output)) {
      const { report, pending } = await analytics.fresh((db) => impactRanking(db, projectId, { ...ranking, limit: MAX_RANKED_JOBS, offset: 0 }, clock()));
      return csvReply(report.jobs, RANKING_COLUMNS, { filename: rangeCsvFilename(`impact-${query.days}d`, projectId, query), page: requestedPage(ctx.url, query), headers: reportHeaders(pending) });
    }
    const { report, pending } = await analytics.fresh((db) => impactRanking(db, projectId, ranking, clock()));
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });
}

/** The impact CSV's header line, for the OpenAPI document. */
export const IMPACT_CSV_HEADER = csvHeader(IMPACT_COLUMNS);
export const RANKING_CSV_HEADER = csvHeader(RANKING_COLUMNS);
