import { claimRequestSchema, heartbeatRequestSchema, reportRequestSchema, transcriptRequestSchema, type ClaimResponse } from "../../../shared/runner-schemas.js";
import { compatibleReleases, incompatibleReleaseMessage } from "../../../shared/releases.js";
import { bearerToken } from "../../domain/api-keys.js";
import { forgeWords } from "../../../shared/forge-words.js";
import { ForbiddenError, InvalidInputError } from "../../domain/errors.js";
import { claimRun, heartbeat, refuseRun, reportRun } from "../../domain/jobs/runs.js";
import { storeTranscript } from "../../domain/jobs/transcripts.js";
import { claimedHeaderAndIssuer, missingTokenError, runnerForgeOf, type RunnerForge, type VerifiedRunner } from "../../forges/runner.js";
import { readJson, validate } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { BODY_LIMITS } from "../body-limits.js";


/** The runner protocol (docs/architecture.md, "Request paths"): the Action claims a job, sends heartbeats and reports, authenticated by its OIDC token. */
export function registerRunnerRoutes(router: Router, services: Services, serviceVersion: string): void {
  const { db, config, tasks } = services;
  const limits = { timeoutMinutes: config.jobTimeoutMinutes, heartbeatSeconds: config.heartbeatSeconds };

  const runners = Object.values(services.forges).map((forge) => forge.runner);
  /**
   * Who is asking comes first: a request without a token is told so (401), whatever this server
   * lacks. The forge seam (`forges/runner.ts`): the forge that knows the token's issuer verifies it
   * (a GitLab CI ID token with the pipeline it runs in), else the one that takes any token (GitHub's).
   */
  const caller = async (ctx: RequestContext): Promise<VerifiedRunner & { runner: RunnerForge }> => {
    const token = bearerToken(ctx.req.headers.authorization);
    if (!token) throw missingTokenError(runners);
    const claimed = claimedHeaderAndIssuer(token);
    const runner = await runnerForgeOf(runners, claimed);
    return { ...(await runner.verify(token, claimed)), runner };
  };

  router.on("POST", "/v1/runner/claim", async (ctx) => {
    const who = await caller(ctx);
    const request = validate(claimRequestSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    if (request.actionVersion && !compatibleReleases(serviceVersion, request.actionVersion)) {
      const error = incompatibleReleaseMessage(serviceVersion, request.actionVersion);
      await db.transaction((tx) => refuseRun(tx, request, who, error));
      throw new InvalidInputError(error);
    }
    if (who.runId !== undefined && who.runId !== request.workflowRunId) {
      throw new ForbiddenError(`The runner's token is of ${forgeWords(who.runner.forge).run} ${who.runId}, not of workflowRunId ${request.workflowRunId}`);
    }
    const claimed = await db.transaction((tx) => claimRun(tx, request, who, limits));
    tasks.kick();
    const jobPageUrl = config.publicUrl ? `${config.publicUrl}/dashboard/projects/${encodeURIComponent(claimed.projectId)}/jobs/${encodeURIComponent(claimed.context.id)}` : null;
    const body: ClaimResponse = await services.forges[claimed.forge].runner.claimAnswer(claimed, { serviceVersion, jobPageUrl }, services.log);
    return { status: 200, body };
  });

  router.on("POST", "/v1/runner/heartbeat", async (ctx) => {
    const who = await caller(ctx);
    const request = validate(heartbeatRequestSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const answer = await db.transaction((tx) => heartbeat(tx, request, who));
    tasks.kick();
    return { status: 200, body: answer };
  });

  router.on("POST", "/v1/runner/transcript", async (ctx) => {
    const who = await caller(ctx);
    const request = validate(transcriptRequestSchema, await readJson(ctx.req, Math.max(config.maxBodyBytes, BODY_LIMITS.transcript), { storableAt: ["*"] }), "body");
    const stored = await db.transaction((tx) => storeTranscript(tx, request, who));
    return { status: 200, body: stored };
  });

  router.on("POST", "/v1/runner/report", async (ctx) => {
    const who = await caller(ctx);
    const reported = validate(reportRequestSchema, await readJson(ctx.req, config.maxBodyBytes, { storableAt: ["*"] }), "body");
    // GitLab: the runner pushed the branch; the merge request is opened (or updated) here, before the report is recorded.
    const report = await who.runner.beforeReport(reported, who);
    const { job } = await db.transaction((tx) => reportRun(tx, report, who));
    tasks.kick();
    return { status: 200, body: job };
  });
}
