import { jobImpactQuerySchema } from "../../../shared/impact-schemas.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { jobImpact } from "../../impact/job-impact.js";
import { IMPACT_COLUMNS, impactRows } from "../../impact/impact-rows.js";
import { authorizedProject } from "../auth.js";
import { queryObject, validate } from "../body.js";
import { reportHeaders } from "../counting-header.js";
import { csvFilename, csvHeader, csvReply, wantsCsv } from "../csv.js";
import type { Router } from "../router.js";
import type { Services } from "../services.js";

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
}

/** The impact CSV's header line, for the OpenAPI document. */
export const IMPACT_CSV_HEADER = csvHeader(IMPACT_COLUMNS);
