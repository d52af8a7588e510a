import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { z } from "zod";
import { createKeySchema } from "../../../shared/admin-schemas.js";
import { jobStatusSchema, promptBodySchema } from "../../../shared/api-schemas.js";
import { dayToIso, epochDay, isoToDay } from "../../analytics/days.js";
import { createApiKey, listApiKeys, revokeApiKey, safeEqualSecret } from "../../domain/api-keys.js";
import { HttpError } from "../http-error.js";
import { isWellFormedId } from "../../domain/ids.js";
import { addMessage, createJob, firstPrompts, getJobWithEvents, listJobMessages, listJobs } from "../../domain/jobs.js";
import { setupGuide } from "../../github/setup-guide.js";
import { ROOT, DashboardAssets } from "../../dashboard/assets.js";
import { DashboardController } from "../../dashboard/controller.js";
import { cookieName, serializeCookie } from "../../dashboard/cookies.js";
import { GitHubOAuth } from "../../dashboard/github-oauth.js";
import { layout, projectLabel, projectPath } from "../../dashboard/layout.js";
import { analyticsBody, PRESETS } from "../../dashboard/pages/analytics.js";
import { jobBody, jobLive, jobsBody } from "../../dashboard/pages/jobs.js";
import { keysBody, revokeConfirmBody } from "../../dashboard/pages/keys.js";
import { projectsBody } from "../../dashboard/pages/projects.js";
import { setupBody, workflowFor } from "../../dashboard/pages/setup.js";
import { signInBody } from "../../dashboard/pages/sign-in.js";
import { visitorsCsv } from "../../dashboard/visitors-csv.js";
import { cookieValue, htmlReply, LOGIN_COOKIE, parseFields, readForm, redirect, requireCsrfToken, requireSameOrigin, safeNext, SESSION_COOKIE } from "../../dashboard/request.js";
import { createSession, endSession, pruneSessions, randomToken } from "../../dashboard/sessions.js";
import type { Router } from "../router.js";
import type { Services } from "../services.js";

const OAUTH_COOKIE = "inkwell_oauth";
const LOGIN_COOKIE_SECONDS = 3600;
const JOBS_PER_PAGE = 25;
const ROWS_PER_PAGE = 50;
const MAX_RANGE_DAYS = 731;

/** Fixed texts for ?notice=…, so no page reflects text from the URL. */
const NOTICES = {
  "signed-out": { kind: "ok", text: "You are signed out." },
  "key-revoked": { kind: "ok", text: "The key is revoked: requests with it now get 401." },
  "job-created": { kind: "ok", text: "Job started. This page follows its progress." },
  "message-sent": { kind: "ok", text: "Follow-up sent." },
} as const;
const noticeOf = (url: URL) => NOTICES[(url.searchParams.get("notice") ?? "") as keyof typeof NOTICES] ?? null;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date (YYYY-MM-DD)" }).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), { error: "is not a real date" });
const offsetField = z.coerce.number().int().min(0).max(10_000_000).default(0);

const analyticsQuerySchema = z
  .object({
    days: z.enum(PRESETS.map(String) as [string, ...string[]]).optional(),
    from: isoDay.optional(),
    to: isoDay.optional(),
    sort: z.enum(["total", "human", "ai", "path"]).default("total"),
    dir: z.enum(["asc", "desc"]).default("desc"),
    offset: offsetField,
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { error: "give both From and To, or neither", path: ["to"] });

const jobsQuerySchema = z.object({ status: jobStatusSchema.optional(), offset: offsetField });
const idempotencyField = z.object({ idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/).optional() });

/** The dashboard (issue 6): server-rendered pages under /dashboard; each state change is a CSRF-checked form post. */
export function registerDashboardRoutes(router: Router, services: Services): void {
  const { db, config, tasks, verifier, analytics, github, adminToken } = services;
  const dashboard = new DashboardController(services);
  const assets = new DashboardAssets();
  const oauth = config.dashboard.oauth
    ? new GitHubOAuth(config.dashboard.oauth, { server: config.githubServerUrl, api: config.githubApiUrl }, services.log.child({ component: "dashboard-oauth" }))
    : null;
  const limits = { defaultRateLimitPerHour: config.rateLimitPerHour };
  let workflowTemplate: string | null = null;

  /** A fresh session (never the one a cookie brought: no fixation), ending the browser's previous one. */
  const signedIn = async (req: IncomingMessage, user: Parameters<typeof createSession>[1], secure: boolean, next: string, clearCookie: string) => {
    await pruneSessions(db);
    await endSession(db, cookieValue(req, SESSION_COOKIE, secure));
    const { secret } = await createSession(db, user, config.dashboard.sessionHours, dashboard.tokenHash);
    return redirect(safeNext(next), { "Set-Cookie": [dashboard.sessionCookie(secret, secure), serializeCookie(cookieName(clearCookie, secure), "", { secure, maxAge: 0 })] });
  };

  router.on("GET", "/dashboard/assets/:name", async (ctx) => assets.reply(ctx.params.name ?? "", ctx.req.headers["if-none-match"]));

  // ── Sign in and out ────────────────────────────────────────────────────────────────────────
  const signInPage = (secure: boolean, next: string, status = 200, error: string | null = null, notice: (typeof NOTICES)[keyof typeof NOTICES] | null = null) => {
    const loginToken = randomToken();
    const body = signInBody({ githubEnabled: oauth !== null, loginToken, next, error });
    return htmlReply(status, layout({ title: "Sign in", session: null, notice, body }), {
      "Set-Cookie": serializeCookie(cookieName(LOGIN_COOKIE, secure), loginToken, { secure, maxAge: LOGIN_COOKIE_SECONDS }),
    });
  };

  router.on(
    "GET",
    "/dashboard/sign-in",
    dashboard.open(async (r) => {
      const next = safeNext(r.ctx.url.searchParams.get("next"));
      if (r.session) return redirect(next);
      return signInPage(r.secure, next, 200, null, noticeOf(r.ctx.url));
    }),
  );

  router.on(
    "POST",
    "/dashboard/sign-in",
    dashboard.open(async (r) => {
      requireSameOrigin(r.ctx.req, r.origin);
      const form = await readForm(r.ctx.req);
      requireCsrfToken(form.csrf, cookieValue(r.ctx.req, LOGIN_COOKIE, r.secure) ?? "");
      const next = safeNext(form.next);
      if (!form.token || !safeEqualSecret(form.token, adminToken)) {
        services.log.warn({ component: "dashboard" }, "dashboard sign-in with a wrong operator token");
        return signInPage(r.secure, next, 401, "That is not the operator token.");
      }
      return signedIn(r.ctx.req, { kind: "operator" }, r.secure, next, LOGIN_COOKIE);
    }),
  );

  router.on(
    "GET",
    "/dashboard/auth/github",
    dashboard.open(async (r) => {
      if (!oauth) throw new HttpError(404, "Sign in with GitHub is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET)");
      const state = randomToken();
      const next = safeNext(r.ctx.url.searchParams.get("next"));
      const cookie = `${state}.${Buffer.from(next).toString("base64url")}`;
      return {
        status: 302,
        raw: { contentType: "text/plain; charset=utf-8", content: "" },
        headers: {
          Location: oauth.authorizeUrl(`${r.origin}/dashboard/auth/github/callback`, state),
          "Set-Cookie": serializeCookie(cookieName(OAUTH_COOKIE, r.secure), cookie, { secure: r.secure, maxAge: 600 }),
        },
      };
    }),
  );

  router.on(
    "GET",
    "/dashboard/auth/github/callback",
    dashboard.open(async (r) => {
      if (!oauth) throw new HttpError(404, "Sign in with GitHub is not configured on this server");
      const [state = "", encodedNext = ""] = (cookieValue(r.ctx.req, OAUTH_COOKIE, r.secure) ?? "").split(".");
      const presented = r.ctx.url.searchParams.get("state") ?? "";
      if (!state || !safeEqualSecret(presented, state)) {
        throw new HttpError(403, "This sign-in did not start here or took too long (state mismatch). Start again from the sign-in page.");
      }
      const code = r.ctx.url.searchParams.get("code");
      if (!code) throw new HttpError(400, `GitHub did not sign you in (${r.ctx.url.searchParams.get("error_description") ?? "no code"}). Start again from the sign-in page.`);
      const user = await oauth.userFor(code, `${r.origin}/dashboard/auth/github/callback`);
      return signedIn(r.ctx.req, { kind: "github", id: user.id, login: user.login }, r.secure, Buffer.from(encodedNext, "base64url").toString("utf8"), OAUTH_COOKIE);
    }),
  );

  router.on(
    "POST",
    "/dashboard/sign-out",
    dashboard.action(async (r) => {
      await endSession(db, cookieValue(r.ctx.req, SESSION_COOKIE, r.secure));
      return redirect("/dashboard/sign-in?notice=signed-out", {
        "Set-Cookie": serializeCookie(cookieName(SESSION_COOKIE, r.secure), "", { secure: r.secure, maxAge: 0 }),
      });
    }),
  );

  // ── Projects and keys ─────────────────────────────────────────────────────────────────────
  router.on(
    "GET",
    "/dashboard",
    dashboard.page(async (r) => {
      const projects = await dashboard.access.projects(r.session.user);
      return htmlReply(200, layout({ title: "Projects", session: r.session, body: projectsBody(r.session.user, projects) }));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId",
    dashboard.page(async (r) => redirect(projectPath((await dashboard.project(r)).project.id, "keys"))),
  );

  const keyIdOf = (params: Record<string, string>) => {
    const id = params.keyId ?? "";
    if (!isWellFormedId(id)) throw new HttpError(404, "API key not found");
    return id;
  };

  router.on(
    "GET",
    "/dashboard/projects/:projectId/keys",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const keys = await listApiKeys(db, project.id);
      const body = keysBody({ session: r.session, project, access, keys });
      return htmlReply(200, layout({ title: "API keys", session: r.session, project: { project, access, tab: "keys" }, notice: noticeOf(r.ctx.url), body }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/keys",
    dashboard.action(async (r, form) => {
      const { project, access } = await dashboard.project(r, "admin");
      const { name } = parseFields(createKeySchema, { name: form.name?.trim() ? form.name : undefined });
      const created = await createApiKey(db, project.id, name ?? null);
      const keys = await listApiKeys(db, project.id);
      const body = keysBody({ session: r.session, project, access, keys, created });
      return htmlReply(201, layout({ title: "API keys", session: r.session, project: { project, access, tab: "keys" }, body }));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/keys/:keyId/revoke",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r, "admin");
      const keyId = keyIdOf(r.ctx.params);
      const key = (await listApiKeys(db, project.id)).find((k) => k.id === keyId && !k.revokedAt);
      if (!key) throw new HttpError(404, "API key not found, or already revoked");
      return htmlReply(200, layout({ title: "Revoke API key", session: r.session, project: { project, access, tab: "keys" }, body: revokeConfirmBody(r.session, project, key) }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/keys/:keyId/revoke",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "admin");
      const revoked = await revokeApiKey(db, project.id, keyIdOf(r.ctx.params));
      verifier.forget(revoked.id);
      return redirect(`${projectPath(project.id, "keys")}?notice=key-revoked`);
    }),
  );

  // ── Analytics ─────────────────────────────────────────────────────────────────────────────
  const analyticsParams = (url: URL) => {
    const q = parseFields(analyticsQuerySchema, Object.fromEntries(url.searchParams));
    const today = epochDay(Date.now());
    const preset = q.from ? null : Number(q.days ?? 30);
    const from = q.from ? isoToDay(q.from) : today - ((preset as number) - 1);
    const to = q.to ? isoToDay(q.to) : today;
    if (to < from) throw new HttpError(400, "From must be on or before To");
    if (to - from + 1 > MAX_RANGE_DAYS) throw new HttpError(400, `A range can span at most ${MAX_RANGE_DAYS} days; pick a shorter one`);
    return {
      range: { from: dayToIso(from), to: dayToIso(to), preset },
      days: { from, to: to + 1 },
      order: { by: q.sort, dir: q.dir },
      offset: q.offset,
    };
  };

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const params = analyticsParams(r.ctx.url);
      const overview = await analytics.overview(project.id, params.days, { limit: ROWS_PER_PAGE, offset: params.offset }, params.order);
      const daily = overview.daily.map(({ day, ...visitors }) => ({ date: dayToIso(day), ...visitors }));
      const body = analyticsBody({ project, ...params, limit: ROWS_PER_PAGE, report: overview.report, daily, aiCategories: overview.aiCategories, pending: overview.pending });
      return htmlReply(200, layout({ title: "Analytics", session: r.session, project: { project, access, tab: "analytics" }, body }), overview.pending ? { "Inkwell-Counting": "pending" } : {});
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/analytics.csv",
    dashboard.page(async (r) => {
      const { project } = await dashboard.project(r);
      const params = analyticsParams(r.ctx.url);
      const rows = await analytics.allVisitorRows(project.id, params.days, params.order);
      const filename = `inkwell-visitors-${projectLabel(project).replace(/[^A-Za-z0-9_-]+/g, "-")}-${params.range.from}-to-${params.range.to}.csv`;
      return {
        status: 200,
        raw: { contentType: "text/csv; charset=utf-8", content: visitorsCsv(rows) },
        headers: { "Content-Disposition": `attachment; filename="${filename}"` },
      };
    }),
  );

  // ── Jobs ──────────────────────────────────────────────────────────────────────────────────
  const jobIdOf = (params: Record<string, string>) => {
    const id = params.jobId ?? "";
    if (!isWellFormedId(id)) throw new HttpError(404, "Job not found");
    return id;
  };
  const authorOf = (user: { kind: string; login?: string }) => (user.kind === "github" ? (user.login ?? null) : null);

  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const q = parseFields(jobsQuerySchema, Object.fromEntries(r.ctx.url.searchParams));
      const { jobs, hasMore } = await listJobs(db, project.id, { limit: JOBS_PER_PAGE, offset: q.offset, ...(q.status ? { status: q.status } : {}) });
      const prompts = await firstPrompts(db, project.id, jobs.map((j) => j.id));
      const body = jobsBody({ session: r.session, project, access, jobs, prompts, hasMore, status: q.status ?? null, offset: q.offset, limit: JOBS_PER_PAGE, idempotencyKey: randomToken(), now: Date.now() });
      return htmlReply(200, layout({ title: "Jobs", session: r.session, project: { project, access, tab: "jobs" }, body }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/jobs",
    dashboard.action(async (r, form) => {
      const { project } = await dashboard.project(r, "write");
      const { prompt } = parseFields(promptBodySchema, { prompt: form.prompt ?? "" });
      const { idempotencyKey } = parseFields(idempotencyField, { idempotencyKey: form.idempotencyKey || undefined });
      const { job, replayed } = await db.transaction((tx) =>
        createJob(tx, { projectId: project.id, prompt, idempotencyKey: idempotencyKey ? `dashboard:${idempotencyKey}` : null, author: authorOf(r.session.user) }, limits),
      );
      if (!replayed) tasks.kick();
      return redirect(`${projectPath(project.id, "jobs")}/${encodeURIComponent(job.id)}?notice=job-created`);
    }),
  );

  const jobView = async (r: Parameters<typeof dashboard.project>[0]) => {
    const { project, access } = await dashboard.project(r);
    const { job, events } = await getJobWithEvents(db, project.id, jobIdOf(r.ctx.params));
    return { project, access, job, events };
  };


  router.on(
    "GET",
    "/dashboard/projects/:projectId/jobs/:jobId",
    dashboard.page(async (r) => {
      const { project, access, job, events } = await jobView(r);
      const messages = await listJobMessages(db, project.id, job.id);
      const body = jobBody({ session: r.session, project, access, job, messages, events });
      return htmlReply(200, layout({ title: `Job ${job.id}`, session: r.session, project: { project, access, tab: "jobs" }, notice: noticeOf(r.ctx.url), body }));
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
      const { dispatched } = await db.transaction((tx) => addMessage(tx, { projectId: project.id, jobId, prompt, source: "api", author: authorOf(r.session.user) }, limits));
      if (dispatched) tasks.kick();
      return redirect(`${projectPath(project.id, "jobs")}/${encodeURIComponent(jobId)}?notice=message-sent`);
    }),
  );

  // ── Setup ─────────────────────────────────────────────────────────────────────────────────
  router.on(
    "GET",
    "/dashboard/projects/:projectId/setup",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      workflowTemplate ??= readFileSync(path.join(ROOT, "examples", "inkwell-workflow.yml"), "utf8");
      const serviceUrl = config.publicUrl ?? r.origin;
      let installUrl: string | null = null;
      if (github) {
        const slug = await github.appSlug().catch(() => null);
        const appsPath = config.githubServerUrl === "https://github.com" ? "apps" : "github-apps";
        installUrl = slug ? `${config.githubServerUrl}/${appsPath}/${slug}/installations/new` : null;
      }
      const body = setupBody({ project, workflow: workflowFor(workflowTemplate, serviceUrl, project.model), installUrl, appSteps: github ? null : setupGuide(config).steps, serviceUrl });
      return htmlReply(200, layout({ title: "Setup", session: r.session, project: { project, access, tab: "setup" }, body }));
    }),
  );
}
