import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Probot } from "probot";
import { Analytics } from "./analytics/analytics.js";
import { startBackgroundDuties } from "./background-duties.js";
import type { Config } from "./config.js";
import type { Dispatcher } from "./dispatch/dispatcher.js";
import { ApiKeyVerifier } from "./domain/api-keys.js";
import type { GitHubApi } from "./forges/github/api.js";
import { createForges } from "./forges/registry.js";
import { dispatcherOf } from "./forges/forge.js";
import { parseTrustedProxies } from "./http-kit/client-ip.js";
import { createRequestHandler, send } from "./http/request-handler.js";
import { createMcpEndpoint, MCP_PATH } from "./mcp/mcp-endpoint.js";
import { protectedResourceEndpoints } from "./mcp/protected-resource.js";
import { Router } from "./http-kit/router.js";
import { registerAdminRoutes } from "./http/routes/admin.js";
import { registerAdminWebhookRoutes } from "./http/routes/admin-webhooks.js";
import { registerAdminRobotsRoutes } from "./http/routes/admin-robots.js";
import { registerAdminAutomationRoutes } from "./http/routes/admin-automations.js";
import { registerAdminGitLabRoutes } from "./http/routes/admin-gitlab.js";
import { registerAgentJobRoutes } from "./http/routes/agent-jobs.js";
import { registerJobImpactRoutes } from "./http/routes/job-impact.js";
import { registerAnalyticsRoutes } from "./http/routes/analytics.js";
import { registerRobotsReportRoutes } from "./http/routes/analytics-robots.js";
import { registerAnalyticsTrendRoutes } from "./http/routes/analytics-trends.js";
import { registerDashboardRoutes } from "./dashboard/routes.js";
import { registerMetaRoutes } from "./http/routes/meta.js";
import { registerRunnerRoutes } from "./http/routes/runner.js";
import { registerSlackRoutes } from "./http/routes/slack.js";
import { SlackSocket } from "./slack/socket-mode.js";
import { slackTasks } from "./slack/tasks.js";
import type { Services } from "./services.js";
import type { Db } from "./store/db.js";
import { createTaskRegistry } from "./task-registry.js";
import { TaskWorker, type TaskWorkerOptions } from "./tasks/task-worker.js";

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
  /** An HTTP server already bound by the caller (main.ts binds before opening the store). */
  httpServer?: Server;
  watchdogIntervalMs?: number;
  /** What the closed loop's reports and the OIDC keys' failure memory take as now (tests move it); default Date.now. */
  clock?: () => number;
  /** How the OIDC verifier fetches the issuer's keys (tests). */
  oidcFetch?: typeof fetch;
}

/**
 * Connection timeouts as a Node server behind a proxy or load balancer wants them (docs/deploy.md).
 * An idle keep-alive connection outlives the proxy's own idle limit (60 s for nginx's upstream
 * keep-alive, AWS's load balancers and most others), so the proxy, not Inkwell, closes it: a server
 * that closes first races the proxy's next request on that connection, which then fails with
 * ECONNRESET (the same race hit clients on a busy machine with Node's 5 s default). Headers must
 * arrive within 60 s and a whole request within 5 minutes (a slow upload of a transcript).
 */
export const SERVER_TIMEOUTS = { keepAliveTimeout: 65_000, headersTimeout: 60_000, requestTimeout: 300_000 } as const;

/**
 * The process's HTTP server before the app is wired: it answers 503 "starting" until
 * createInkwellServer takes it over. main.ts binds it before opening the store, so a port that
 * is taken fails the start before anything touches the data.
 */
export function createHttpServer(): Server {
  return createServer(SERVER_TIMEOUTS, (_req, res) => {
    send(res, { status: 503, body: { status: "starting", error: "Inkwell is starting; try again in a moment" }, headers: { "Retry-After": "1" } });
  });
}

export function bindHttpServer(server: Server, port: number, host?: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export interface InkwellServer {
  server: Server;
  router: Router;
  services: Services;
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), stops workers. Does not close the store. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Wires one Inkwell process: services, the task worker and its registry, webhooks, routes, the
 * HTTP server and the background duties. Opening the store and reading config are main.ts's.
 */
export async function createInkwellServer(options: InkwellServerOptions): Promise<InkwellServer> {
  const { config, db, log, adminToken } = options;
  const github = options.github ?? null;
  const clock = options.clock ?? Date.now;
  const forges = createForges({ config, db, log, github: github?.api ?? null, probot: github?.probot ?? null, checkWorkflow: !options.dispatcher, clock, ...(options.oidcFetch ? { oidcFetch: options.oidcFetch } : {}) });
  const dispatcher = options.dispatcher ?? dispatcherOf(forges);
  const analytics = new Analytics(db, log.child({ component: "analytics" }), config.analytics);
  const registry = createTaskRegistry({ config, db, log, analytics, clock, dispatcher, forges, version: options.version });
  // Slack's task kinds beside the registry's (docs/slack.md).
  const tasks = new TaskWorker(db, [...registry, ...slackTasks(db, config, log)], log.child({ component: "tasks" }), {
    exclusiveStore: db.kind === "pglite",
    claimTtlSeconds: config.dispatchLeaseSeconds,
    ...options.taskWorkerOptions,
  });
  const services: Services = {
    clock,
    config,
    db,
    adminToken,
    verifier: new ApiKeyVerifier(db, db.kind === "pglite"),
    tasks,
    log,
    github: github?.api ?? null,
    forges,
    analytics,
    trustedProxies: parseTrustedProxies(config.trustedProxies),
  };
  const router = new Router();
  registerMetaRoutes(router, services, options.version);
  registerAdminRoutes(router, services);
  registerAdminWebhookRoutes(router, services);
  registerAdminRobotsRoutes(router, services);
  registerAdminAutomationRoutes(router, services);
  registerAdminGitLabRoutes(router, services);
  registerAgentJobRoutes(router, services);
  registerJobImpactRoutes(router, services);
  registerRunnerRoutes(router, services, options.version);
  registerAnalyticsRoutes(router, services);
  registerRobotsReportRoutes(router, services);
  registerAnalyticsTrendRoutes(router, services);
  // Slack over HTTP, and Socket Mode for a server Slack cannot reach (connected at listen, as the saved settings say).
  const slackSocket = new SlackSocket(db, config.slackApiUrl, () => tasks.kick(), log.child({ component: "slack-socket" }));
  registerSlackRoutes(router, services, () => slackSocket.refresh());
  registerDashboardRoutes(router, services);
  const httpLog = log.child({ component: "http" });
  const handle = createRequestHandler(router, { webhooks: { forges: Object.values(forges).flatMap((forge) => (forge.webhooks ? [forge.webhooks] : [])), kick: () => tasks.kick() }, raw: { [MCP_PATH]: createMcpEndpoint(services, options.version), ...protectedResourceEndpoints(services, MCP_PATH) } }, httpLog);
  let stopDuties: (() => void) | null = null;

  const server = options.httpServer ?? createHttpServer();
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
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
      if (!server.listening) await bindHttpServer(server, port, host);
      await tasks.start();
      await slackSocket.start();
      stopDuties = startBackgroundDuties({ db, log, tasks, analytics, jobTimeoutMinutes: config.jobTimeoutMinutes, watchdogIntervalMs: options.watchdogIntervalMs ?? 60_000, rateLimitPerHour: config.rateLimitPerHour, robots: { allowPrivate: config.webhooksAllowPrivate, clock } });
      const address = server.address();
      const actualPort = typeof address === "object" && address ? address.port : port;
      return { port: actualPort, url: `http://${host && host !== "0.0.0.0" && host !== "::" ? host : "127.0.0.1"}:${actualPort}` };
    },
    async close(graceMs = 10_000) {
      // Keep-alive clients are told to go: each connection closes after its in-flight response.
      handle.closeConnections();
      stopDuties?.();
      await slackSocket.stop();
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
