import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { ApiKeyVerifier } from "./domain/api-keys.js";
import { asHttpError } from "./http/error-reply.js";
import { HttpError } from "./http/http-error.js";
import { dispatchTask } from "./dispatch/dispatch-task.js";
import { TaskWorker, type TaskHandler, type TaskWorkerOptions } from "./tasks/task-worker.js";
import { NoAppDispatcher, type Dispatcher } from "./dispatch/dispatcher.js";
import { failStalledJobs } from "./domain/watchdog.js";
import { EVENT_TASK, githubEventTask, REACTION_TASK, reactionTask } from "./github/event-task.js";
import type { GitHubApi } from "./github/github-api.js";
import { GitHubDispatcher } from "./github/github-dispatcher.js";
import { OidcVerifier } from "./github/oidc.js";
import { trackingCommentTask } from "./github/tracking-comment.js";
import { WORKFLOW_CHECK_TASK, workflowCheckTask } from "./github/workflow-check.js";
import { createWebhookMiddleware, WEBHOOK_PATH, type NodeMiddleware } from "./github/webhooks.js";
import { DISPATCH_TASK, TRACKING_TASK } from "./domain/jobs.js";
import { enqueueTask } from "./tasks/tasks.js";
import type { Probot } from "probot";
import { Router, type Reply } from "./http/router.js";
import { registerAdminRoutes } from "./http/routes/admin.js";
import { registerAgentJobRoutes } from "./http/routes/agent-jobs.js";
import { registerAnalyticsRoutes } from "./http/routes/analytics.js";
import { registerDashboardRoutes } from "./http/routes/dashboard.js";
import { parseTrustedProxies } from "./http/client-ip.js";
import { Analytics } from "./analytics/analytics.js";
import { registerMetaRoutes } from "./http/routes/meta.js";
import { registerRunnerRoutes } from "./http/routes/runner.js";
import type { Services } from "./http/services.js";
import type { Db } from "./store/db.js";

export interface InkwellServerOptions {
  config: Config;
  db: Db;
  log: Logger;
  adminToken: string;
  version: string;
  /** The GitHub App; without it the API works and jobs fail saying how to set the App up. */
  github?: { probot: Probot; api: GitHubApi } | null;
  /** Replaces the dispatcher that follows from `github` (tests). */
  dispatcher?: Dispatcher;
  taskWorkerOptions?: TaskWorkerOptions;
  watchdogIntervalMs?: number;
  /** How the OIDC verifier fetches the issuer's keys (tests). */
  oidcFetch?: typeof fetch;
}

export interface InkwellServer {
  server: Server;
  router: Router;
  services: Services;
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), stops workers. Does not close the store. */
  close(graceMs?: number): Promise<void>;
}

const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

export async function createInkwellServer(options: InkwellServerOptions): Promise<InkwellServer> {
  const { config, db, log, adminToken } = options;
  const github = options.github ?? null;
  const dispatcher =
    options.dispatcher ?? (github ? new GitHubDispatcher(github.api, config.githubServerUrl) : new NoAppDispatcher(config.publicUrl ?? `http://localhost:${config.port}/`));
  const checkWorkflow = github && !options.dispatcher;
  const handlers: Record<string, TaskHandler> = {
    [DISPATCH_TASK]: dispatchTask(db, dispatcher, async (tx, dispatched) => {
      if (checkWorkflow) {
        await enqueueTask(tx, WORKFLOW_CHECK_TASK, `workflow-check:${dispatched.jobId}:${dispatched.runAttempt}`, dispatched, config.workflowCheckSeconds);
      }
    }),
  };
  if (github) {
    handlers[WORKFLOW_CHECK_TASK] = workflowCheckTask(db, github.api);
    handlers[EVENT_TASK] = githubEventTask(
      db,
      github.api,
      { serverUrl: config.githubServerUrl, defaultModel: config.defaultModel, command: config.command, rateLimitPerHour: config.rateLimitPerHour },
      log.child({ component: "github-events" }),
    );
    handlers[REACTION_TASK] = reactionTask(github.api);
    handlers[TRACKING_TASK] = trackingCommentTask(db, github.api);
  }
  const tasks = new TaskWorker(db, handlers, log.child({ component: "tasks" }), {
    exclusiveStore: db.kind === "pglite",
    claimTtlSeconds: config.dispatchLeaseSeconds,
    ...options.taskWorkerOptions,
  });
  const oidc = github && config.publicUrl ? new OidcVerifier(config.oidcIssuer, config.publicUrl, options.oidcFetch) : null;
  const analytics = new Analytics(db, log.child({ component: "analytics" }), config.analytics);
  const services: Services = {
    config,
    db,
    adminToken,
    verifier: new ApiKeyVerifier(db, db.kind === "pglite"),
    tasks,
    log,
    github: github?.api ?? null,
    oidc,
    analytics,
    trustedProxies: parseTrustedProxies(config.trustedProxies),
  };
  const webhookMiddleware: NodeMiddleware | undefined = github
    ? await createWebhookMiddleware(
        github.probot,
        async (deliveryId, event) => {
          await db.transaction((tx) => enqueueTask(tx, EVENT_TASK, `event:${deliveryId}`, event));
          tasks.kick();
        },
        log,
      )
    : undefined;
  const router = new Router();
  registerMetaRoutes(router, services, options.version);
  registerAdminRoutes(router, services);
  registerAgentJobRoutes(router, services);
  registerRunnerRoutes(router, services);
  registerAnalyticsRoutes(router, services);
  registerDashboardRoutes(router, services);
  const httpLog = log.child({ component: "http" });
  let closing = false;
  let watchdog: NodeJS.Timeout | undefined;
  let retention: NodeJS.Timeout | undefined;
  let firstRetention: NodeJS.Timeout | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://inkwell.local");
    } catch {
      send(res, { status: 400, body: { error: "Malformed request URL" } });
      return;
    }
    // Apps registered through Probot's manifest flow deliver to the root URL; route those too.
    if (webhookMiddleware && url.pathname === "/" && req.method === "POST" && req.headers["x-github-event"]) {
      req.url = WEBHOOK_PATH;
      url.pathname = WEBHOOK_PATH;
    }
    if (url.pathname === WEBHOOK_PATH && webhookMiddleware) {
      await webhookMiddleware(req, res, () => send(res, { status: 404, body: { error: "Not found" } }));
      return;
    }
    let route = "unmatched";
    let reply: Reply;
    try {
      const match = router.match(req.method ?? "GET", url.pathname);
      if (!match) throw new HttpError(404, `No such endpoint: ${req.method} ${url.pathname}. See /openapi.json`);
      route = match.route;
      reply = await match.handler({ req, url, params: match.params, route });
    } catch (error) {
      reply = toErrorReply(error, httpLog, req.method, route);
    }
    send(res, closing ? { ...reply, headers: { ...reply.headers, Connection: "close" } } : reply, req.method === "HEAD");
    // Access lines are debug: at info, a busy server would spend more on logging than on answering.
    httpLog.debug({ method: req.method, route, status: reply.status, ms: Math.round((performance.now() - started) * 10) / 10 }, "request");
  };

  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      httpLog.error({ err: error }, "request handler crashed");
      if (!res.headersSent) send(res, { status: 500, body: { error: "Internal error" } });
      else res.destroy();
    });
  });

  return {
    server,
    router,
    services,
    async listen(port, host) {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      await tasks.start();
      watchdog = setInterval(() => {
        failStalledJobs(db, config.jobTimeoutMinutes)
          .then((ids) => {
            if (ids.length > 0) log.warn({ jobs: ids }, "watchdog failed jobs with no heartbeat");
            if (ids.length > 0) tasks.kick();
          })
          .catch((error: unknown) => log.error({ err: error }, "watchdog scan failed"));
      }, options.watchdogIntervalMs ?? 60_000);
      watchdog.unref();
      // Views accepted before a restart are still in the inbox: count them now.
      analytics.rollup.kick(0);
      // A first pass soon after start, then hourly: a server restarted more often than hourly must still delete expired secrets.
      const prune = () => analytics.prune().catch((error: unknown) => log.error({ err: error }, "analytics retention pass failed; retried next hour"));
      firstRetention = setTimeout(prune, 60_000);
      firstRetention.unref();
      retention = setInterval(prune, 3_600_000);
      retention.unref();
      const address = server.address();
      const actualPort = typeof address === "object" && address ? address.port : port;
      return { port: actualPort, url: `http://${host && host !== "0.0.0.0" && host !== "::" ? host : "127.0.0.1"}:${actualPort}` };
    },
    async close(graceMs = 10_000) {
      // Keep-alive clients are told to go: each connection closes after its in-flight response.
      closing = true;
      clearInterval(watchdog);
      clearInterval(retention);
      clearTimeout(firstRetention);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      force.unref();
      await closed;
      clearTimeout(force);
      await tasks.stop();
      await analytics.rollup.stop();
    },
  };
}

function toErrorReply(error: unknown, log: Logger, method: string | undefined, route: string): Reply {
  const known = asHttpError(error);
  if (known) {
    return {
      status: known.status,
      body: { error: known.message, ...(known.details ? { details: known.details } : {}) },
      headers: known.headers ?? {},
    };
  }
  log.error({ err: error, method, route }, "unexpected error while handling a request");
  return { status: 500, body: { error: "Internal error; the server log has the details" } };
}

function send(res: ServerResponse, reply: Reply, headOnly = false): void {
  if (res.headersSent) return;
  const content = reply.raw ? reply.raw.content : JSON.stringify(reply.body ?? null);
  res.writeHead(reply.status, {
    ...SECURITY_HEADERS,
    "Content-Type": reply.raw ? reply.raw.contentType : "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(content),
    ...reply.headers,
  });
  res.end(headOnly ? undefined : content);
}
