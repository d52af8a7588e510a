import { createJobBodySchema, idempotencyKeySchema, jobListQuerySchema, promptBodySchema } from "../../../shared/api-schemas.js";
import { wellFormedAttemptOf, wellFormedIdOf } from "../../domain/ids.js";
import { approve, cancel, sendMessage, startJob } from "../../domain/jobs/entrance.js";
import { listJobRuns } from "../../domain/jobs/run-history.js";
import { runTranscript } from "../../domain/jobs/transcripts.js";
import { getJob, listJobEvents, listJobs } from "../../domain/jobs/queries.js";
import { authorizedProject } from "../auth.js";
import { queryObject, readJson, validate, validHeader } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

/** The agent-job API. Handlers parse and authorize; the domain module does the work. */
export function registerAgentJobRoutes(router: Router, services: Services): void {
  const { db, verifier, config } = services;

  const authorize = (ctx: RequestContext) => authorizedProject(verifier, ctx);
  const jobIdOf = (ctx: RequestContext) => wellFormedIdOf(ctx.params.id, "Job");

  router.on("POST", "/v2/agent/:projectId/job", async (ctx) => {
    const projectId = await authorize(ctx);
    const idempotencyKey = validHeader(idempotencyKeySchema, ctx.req, "Idempotency-Key") ?? null;
    const { prompt, ...options } = validate(createJobBodySchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const { job, replayed } = await startJob(services, { projectId, prompt, idempotencyKey, options });
    const headers: Record<string, string> = replayed ? { "Idempotent-Replayed": "true" } : {};
    return { status: 201, body: job, headers };
  });

  router.on("GET", "/v2/agent/:projectId/job/:id", async (ctx) => {
    const projectId = await authorize(ctx);
    return { status: 200, body: await getJob(db, projectId, jobIdOf(ctx)) };
  });

  router.on("GET", "/v2/agent/:projectId/job/:id/events", async (ctx) => {
    const projectId = await authorize(ctx);
    return { status: 200, body: { events: await listJobEvents(db, projectId, jobIdOf(ctx)) } };
  });

  router.on("POST", "/v2/agent/:projectId/job/:id/message", async (ctx) => {
    const projectId = await authorize(ctx);
    const jobId = jobIdOf(ctx);
    const { prompt } = validate(promptBodySchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const { job } = await sendMessage(services, { projectId, jobId, prompt, source: "api" });
    return { status: 200, body: job };
  });

  router.on("GET", "/v2/agent/:projectId/job/:id/runs", async (ctx) => {
    const projectId = await authorize(ctx);
    return { status: 200, body: { runs: await listJobRuns(db, projectId, jobIdOf(ctx)) } };
  });

  router.on("GET", "/v2/agent/:projectId/job/:id/runs/:attempt/transcript", async (ctx) => {
    const projectId = await authorize(ctx);
    return { status: 200, body: await runTranscript(db, projectId, jobIdOf(ctx), wellFormedAttemptOf(ctx.params.attempt)) };
  });

  router.on("POST", "/v2/agent/:projectId/job/:id/cancel", async (ctx) => {
    const projectId = await authorize(ctx);
    const jobId = jobIdOf(ctx);
    const { job } = await cancel(services, { projectId, jobId, cause: "api" });
    return { status: 200, body: job };
  });

  router.on("POST", "/v2/agent/:projectId/job/:id/approve", async (ctx) => {
    const projectId = await authorize(ctx);
    const jobId = jobIdOf(ctx);
    return { status: 200, body: await approve(services, { projectId, jobId, cause: "api" }) };
  });

  router.on("GET", "/v2/agent/:projectId/jobs", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(jobListQuerySchema, queryObject(ctx.url), "query");
    return { status: 200, body: await listJobs(db, projectId, query) };
  });
}
