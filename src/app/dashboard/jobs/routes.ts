import { z } from "zod";
import { jobStatusSchema, promptBodySchema } from "../../../shared/api-schemas.js";
import { JOB_TRIGGER_TYPES } from "../../../shared/job-vocabulary.js";
import { wellFormedAttemptOf, wellFormedIdOf } from "../../domain/ids.js";
import { approve, cancel, sendMessage, startJob } from "../../domain/jobs/entrance.js";
import { firstPrompts, listJobMessages } from "../../domain/jobs/messages.js";
import { getJobWithEvents, listJobs } from "../../domain/jobs/queries.js";
import type { DashboardController, SignedInRequest } from "../controller.js";
import { layout, projectLabel, projectPath } from "../layout.js";
import { noticeOf } from "../notices.js";
import { jobBody, jobLive, jobsBody } from "./page.js";
import { transcriptBody } from "./transcript.js";
import { listJobRuns } from "../../domain/jobs/run-history.js";
import { runTranscript } from "../../domain/jobs/transcripts.js";
import { htmlReply, offsetField, parseFields, redirect } from "../request.js";
import { randomToken, type DashboardUser } from "../sessions.js";
import type { Router } from "../../http-kit/router.js";
import { jobImpact } from "../../impact/job-impact.js";
import { IMPACT_COLUMNS, impactRows, RANKING_COLUMNS } from "../../impact/impact-rows.js";
import { impactRanking, MAX_RANKED_JOBS } from "../../impact/impact-ranking.js";
import { impactRankingBody } from "./impact-ranking.js";
import { rankingFields } from "../../../shared/impact-schemas.js";
import { csvFilename, csvReply } from "../../http-kit/csv.js";
import { countingHeader } from "../../http-kit/counting-header.js";

const JOBS_PER_PAGE = 25;

const jobsQuerySchema = z.object({ status: jobStatusSchema.optional(), trigger: z.enum(JOB_TRIGGER_TYPES).optional(), offset: offsetField });
const createFields = z.object({
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/).optional(),
  /** The page a reader suggestion (dashboard, Automations) is about. */
  suggestion: z.string().startsWith("/").max(2_000).optional(),
});

/** A job started from a suggestion links back to the suggestions, on this server's public address when it has one. */
const suggestionTrigger = (projectId: string, path: string, publicUrl: string | null) => ({
  type: "suggestion" as const,
  path,
  url: publicUrl ? `${publicUrl}${projectPath(projectId, "automations")}?path=${encodeURIComponent(path)}#suggestions` : undefined,
});

const jobIdOf = (params: Record<string, string>) => wellFormedIdOf(params.jobId, "Job");

const RANKED_PER_PAGE = 20;
const rankingQuerySchema = z.object({ ...rankingFields, offset: offsetField });

/** A job's author is a GitHub login; the operator has none. */
const authorOf = (user: DashboardUser) => (user.kind === "github" ? user.login : null);

const jobPath = (projectId: string, jobId: string) => `${projectPath(projectId, "jobs")}/${encodeURIComponent(jobId)}`;

/** A project's jobs: the list with its create form, a job's page, its polled live fragment, and follow-ups. */
export function registerJobPages(router: Router, dashboard: DashboardController): void {
  const { db, config, clock } = dashboard.services;

  const jobView = async (r: SignedInRequest) => {
    const { project, access } = await dashboard.project(r);
    const { job, events } = await getJobWithEvents(db, project.id, jobIdOf(r.ctx.params));
    return { project, access, job, events };
  };

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const q = parseFields(jobsQuerySchema, Object.fromEntries(r.ctx.url.searchParams));
      const { jobs, hasMore } = await listJobs(db, project.id, { limit: JOBS_PER_PAGE, offset: q.offset, ...(q.status ? { status: q.status } : {}), ...(q.trigger ? { trigger: q.trigger } : {}) });
      const prompts = await firstPrompts(db, project.id, jobs.map((j) => j.id));
      const body = jobsBody({ session: r.session, project, access, jobs, prompts, hasMore, status: q.status ?? null, trigger: q.trigger ?? null, offset: q.offset, limit: JOBS_PER_PAGE, idempotencyKey: randomToken(), now: Date.now() });
      return htmlReply(200, layout({ title: "Jobs", session: r.session, project: { project, access, tab: "jobs" }, missing: dashboard.services.forges[project.forge].missing, body }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/jobs",
    dashboard.action(async (r, form) => {
      const { project } = await dashboard.project(r, "write");
      const { prompt } = parseFields(promptBodySchema, { prompt: form.prompt ?? "" });
      const { idempotencyKey, suggestion } = parseFields(createFields, { idempotencyKey: form.idempotencyKey || undefined, suggestion: form.suggestion || undefined });
      const suggested = suggestion === undefined ? undefined : suggestionTrigger(project.id, suggestion, config.publicUrl ?? null);
      const { job } = await startJob(dashboard.services, {
        projectId: project.id,
        prompt,
        idempotencyKey: idempotencyKey ? `dashboard:${idempotencyKey}` : null,
        source: "dashboard",
        author: authorOf(r.session.user),
        trigger: suggested,
      });
      return redirect(`${jobPath(project.id, job.id)}?notice=job-created`);
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs/:jobId",
    dashboard.page(async (r) => {
      const { project, access, job, events } = await jobView(r);
      const [messages, runs, impact] = await Promise.all([
        listJobMessages(db, project.id, job.id),
        listJobRuns(db, project.id, job.id),
        job.status === "archived" ? jobImpact(db, project.id, job.id, clock()) : null,
      ]);
      const body = jobBody({ session: r.session, project, access, job, messages, events, runs, impact });
      return htmlReply(200, layout({ title: `Job ${job.id}`, session: r.session, project: { project, access, tab: "jobs" }, notice: noticeOf(r.ctx.url), missing: dashboard.services.forges[project.forge].missing, body }));
    }),
  );

  // Beside /jobs, not under it: /jobs/:jobId takes every word.
  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs-impact",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const q = parseFields(rankingQuerySchema, Object.fromEntries(r.ctx.url.searchParams));
      const { report: ranking, pending } = await dashboard.services.analytics.fresh((store) => impactRanking(store, project.id, { ...q, range: { from: null, to: null }, limit: RANKED_PER_PAGE }, clock()));
      const body = impactRankingBody({ project, ranking, offset: q.offset });
      return htmlReply(200, layout({ title: "What merged jobs did for readers", session: r.session, project: { project, access, tab: "jobs" }, body }), countingHeader(pending));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs-impact.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const q = parseFields(rankingQuerySchema, Object.fromEntries(r.ctx.url.searchParams));
      const { report, pending } = await dashboard.services.analytics.fresh((store) => impactRanking(store, project.id, { ...q, range: { from: null, to: null }, limit: MAX_RANKED_JOBS, offset: 0 }, clock()));
      return csvReply(report.jobs, RANKING_COLUMNS, { filename: csvFilename(["inkwell", "impact", `${q.days}d`, projectLabel(project)]), headers: countingHeader(pending) });
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs/:jobId/impact.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const jobId = jobIdOf(r.ctx.params);
      const { report, pending } = await dashboard.services.analytics.fresh((store) => jobImpact(store, project.id, jobId, clock()));
      return csvReply(impactRows(report), IMPACT_COLUMNS, { filename: csvFilename(["inkwell", "impact", projectLabel(project), jobId]), headers: countingHeader(pending) });
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs/:jobId/runs/:attempt",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const jobId = jobIdOf(r.ctx.params);
      const transcript = await runTranscript(db, project.id, jobId, wellFormedAttemptOf(r.ctx.params.attempt));
      const body = transcriptBody({ project, jobId, transcript });
      return htmlReply(200, layout({ title: `Job ${jobId}, run ${transcript.attempt}`, session: r.session, project: { project, access, tab: "jobs" }, body }));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs/:jobId/live",
    dashboard.page(async (r) => {
      const view = await jobView(r);
      return htmlReply(200, jobLive(view), { "Inkwell-Job-Status": view.job.status });
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/jobs/:jobId/messages",
    dashboard.action(async (r, form) => {
      const { project } = await dashboard.project(r, "write");
      const jobId = jobIdOf(r.ctx.params);
      const { prompt } = parseFields(promptBodySchema, { prompt: form.prompt ?? "" });
      await sendMessage(dashboard.services, { projectId: project.id, jobId, prompt, source: "dashboard", author: authorOf(r.session.user) });
      return redirect(`${jobPath(project.id, jobId)}?notice=message-sent`);
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/jobs/:jobId/approve",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "write");
      const jobId = jobIdOf(r.ctx.params);
      await approve(dashboard.services, { projectId: project.id, jobId, cause: "dashboard", author: authorOf(r.session.user) });
      return redirect(`${jobPath(project.id, jobId)}?notice=plan-approved`);
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/jobs/:jobId/cancel",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "write");
      const jobId = jobIdOf(r.ctx.params);
      await cancel(dashboard.services, { projectId: project.id, jobId, cause: "dashboard", author: authorOf(r.session.user) });
      return redirect(`${jobPath(project.id, jobId)}?notice=job-cancelled`);
    }),
  );
}
