import { claimRequestSchema, heartbeatRequestSchema, reportRequestSchema, transcriptRequestSchema, type ClaimResponse } from "../../../shared/runner-schemas.js";
import { compatibleReleases, incompatibleReleaseMessage } from "../../../shared/releases.js";
import { bearerToken } from "../../domain/api-keys.js";
import { ForbiddenError, InvalidInputError, NotConfiguredError, UnauthenticatedError, UpstreamError } from "../../domain/errors.js";
import { isGitLabIssuer, requireGitLabConnection } from "../../domain/gitlab-connections.js";
import { claimRun, heartbeat, refuseRun, reportRun, type RunnerCaller } from "../../domain/jobs/runs.js";
import { storeTranscript } from "../../domain/jobs/transcripts.js";
import { appSetupUrl } from "../../forges/github/app-urls.js";
import { claimedHeaderAndIssuer } from "../../forges/github/runner-identity.js";
import { withMergeRequest } from "../../forges/gitlab/change-request.js";
import { readJson, validate } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { BODY_LIMITS } from "../body-limits.js";


/** The runner protocol (docs/architecture.md, "Request paths"): the Action claims a job, sends heartbeats and reports, authenticated by its OIDC token. */
export function registerRunnerRoutes(router: Router, services: Services, serviceVersion: string): void {
  const { db, config, tasks } = services;
  const limits = { timeoutMinutes: config.jobTimeoutMinutes, heartbeatSeconds: config.heartbeatSeconds };

  const runner = () => {
    if (!services.github || !services.oidc) {
      const what = services.github ? "no PUBLIC_URL (the audience of the runners' tokens)" : "no GitHub App configured";
      throw new NotConfiguredError(`This Inkwell server has ${what}, so runners cannot claim jobs; the operator sets it up at ${appSetupUrl(config)}`);
    }
    return { github: services.github, oidc: services.oidc };
  };
  /**
   * Who is asking comes first: a request without a token is told so (401), whatever this server
   * lacks. The forge seam: a token whose issuer is a connected GitLab instance is a GitLab CI ID
   * token (`forges/gitlab/runner-identity.ts`, with the pipeline it runs in); any other is GitHub's.
   */
  const caller = async (ctx: RequestContext): Promise<RunnerCaller & { pipelineId?: number }> => {
    const token = bearerToken(ctx.req.headers.authorization);
    if (!token) {
      throw new UnauthenticatedError("Missing runner token: send 'Authorization: Bearer <the workflow run's GitHub Actions OIDC token or the GitLab job's CI ID token>'", "runner");
    }
    const claimed = claimedHeaderAndIssuer(token);
    if (claimed && services.gitlabIdTokens && (await isGitLabIssuer(db, claimed.iss))) return services.gitlabIdTokens.verify(token, claimed.iss, claimed.alg);
    // Without GitHub's side (a server with GitLab projects only), a token that is not GitHub's is no runner token at all: 401, not "not configured".
    if ((!services.github || !services.oidc) && claimed?.iss !== config.oidcIssuer) {
      const why = claimed ? "it was issued neither by a connected GitLab instance nor by the GitHub Actions OIDC issuer" : "it is not a JWT (three base64url parts: a JSON header with alg, a JSON payload with iss, a signature)";
      throw new UnauthenticatedError(`Invalid runner token: ${why}`, "runner");
    }
    const identity = await runner().oidc.verify(ctx.req.headers.authorization);
    return { repository: identity.repository, repositoryId: identity.repositoryId };
  };

  router.on("POST", "/v1/runner/claim", async (ctx) => {
    const who = await caller(ctx);
    const request = validate(claimRequestSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    if (request.actionVersion && !compatibleReleases(serviceVersion, request.actionVersion)) {
      const error = incompatibleReleaseMessage(serviceVersion, request.actionVersion);
      await db.transaction((tx) => refuseRun(tx, request, who, error));
      throw new InvalidInputError(error);
    }
    if (who.pipelineId !== undefined && who.pipelineId !== request.workflowRunId) {
      throw new ForbiddenError(`The ID token is of pipeline ${who.pipelineId}, not of workflowRunId ${request.workflowRunId}`);
    }
    const claimed = await db.transaction((tx) => claimRun(tx, request, who, limits));
    tasks.kick();
    const jobPageUrl = config.publicUrl ? `${config.publicUrl}/dashboard/projects/${encodeURIComponent(claimed.projectId)}/jobs/${encodeURIComponent(claimed.context.id)}` : null;
    if (claimed.forge === "gitlab" || claimed.installationId === null) {
      const connection = await requireGitLabConnection(db, claimed.projectId);
      const gitlab = { projectId: connection.gitlabProjectId, projectUrl: `${connection.baseUrl}/${connection.projectPath}`, serverUrl: connection.baseUrl };
      // No token: the job pushes with its own CI_JOB_TOKEN, and Inkwell opens the merge request when it reports.
      const body: ClaimResponse = { job: { ...claimed.context, repository: connection.projectPath }, serviceVersion, appSlug: null, token: null, jobPageUrl, source: null, forge: "gitlab", gitlab };
      return { status: 200, body };
    }
    let token: ClaimResponse["token"];
    try {
      token = await runner().github.repositoryToken(claimed.installationId, claimed.context.repository);
    } catch (error) {
      services.log.warn({ err: error, jobId: request.jobId }, "could not mint the runner's repository token");
      throw new UpstreamError("GitHub did not issue a repository token for this run; claim again (the claim is kept for this workflow run)");
    }
    let source: ClaimResponse["source"] = null;
    if (claimed.source) {
      const { repository, sha, pullRequestUrl, installationId } = claimed.source;
      // Without it the run still works on the docs, from the merge's diff in its instruction.
      source = await runner()
        .github.readOnlyToken(installationId, repository)
        .then((readOnly) => ({ repository, sha, pullRequestUrl, token: readOnly }))
        .catch((error: unknown) => {
          services.log.warn({ err: error, jobId: request.jobId, repository }, "no read-only token for the source repository (is the App still installed there?): the run gets no source tools");
          return null;
        });
    }
    const appSlug = await runner()
      .github.appSlug()
      .catch(() => null);
    const body: ClaimResponse = { job: claimed.context, serviceVersion, appSlug, token, jobPageUrl, source };
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
    const report = who.pipelineId === undefined ? reported : await withMergeRequest(db, reported, who);
    const { job } = await db.transaction((tx) => reportRun(tx, report, who));
    tasks.kick();
    return { status: 200, body: job };
  });
}
