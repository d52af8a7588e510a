import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { ApiKeyVerifier } from "./domain/api-keys.js";
import { HttpError } from "./domain/errors.js";
import { dispatchTask } from "./dispatch/dispatch-task.js";
import { DISPATCH_TASK } from "./domain/jobs.js";
import { TaskWorker, type TaskHandler, type TaskWorkerOptions } from "./tasks/task-worker.js";
import type { Dispatcher } from "./dispatch/dispatcher.js";
import { WEBHOOK_PATH, type NodeMiddleware } from "./github/webhooks.js";
import { Router, type Reply } from "./http/router.js";
import { registerAdminRoutes } from "./http/routes/admin.js";
import { registerAgentJobRoutes } from "./http/routes/agent-jobs.js";
import { registerMetaRoutes } from "./http/routes/meta.js";
import type { Services } from "./http/services.js";
import type { Db } from "./store/db.js";

export interface InkwellServerOptions {
  config: Config;
  db: Db;
  log: Logger;
  adminToken: string;
  dispatcher: Dispatcher;
  webhookMiddleware?: NodeMiddleware | undefined;
  version: string;
  taskWorkerOptions?: TaskWorkerOptions;
  /** Task kinds besides dispatch (GitHub side effects). */
  taskHandlers?: Record<string, TaskHandler>;
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

export function createInkwellServer(options: InkwellServerOptions): InkwellServer {
  const { config, db, log, adminToken } = options;
  const tasks = new TaskWorker(db, { [DISPATCH_TASK]: dispatchTask(db, options.dispatcher), ...options.taskHandlers }, log.child({ component: "tasks" }), {
    exclusiveStore: db.kind === "pglite",
    claimTtlSeconds: config.dispatchLeaseSeconds,
    ...options.taskWorkerOptions,
  });
  const services: Services = { config, db, adminToken, verifier: new ApiKeyVerifier(db, db.kind === "pglite"), tasks };
  const router = new Router();
  registerMetaRoutes(router, services, options.version);
  registerAdminRoutes(router, services);
  registerAgentJobRoutes(router, services);
  const httpLog = log.child({ component: "http" });
  let closing = false;

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
    if (options.webhookMiddleware && url.pathname === "/" && req.method === "POST" && req.headers["x-github-event"]) {
      req.url = WEBHOOK_PATH;
      url.pathname = WEBHOOK_PATH;
    }
    if (url.pathname === WEBHOOK_PATH && options.webhookMiddleware) {
      await options.webhookMiddleware(req, res, () => send(res, { status: 404, body: { error: "Not found" } }));
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
      const address = server.address();
      const actualPort = typeof address === "object" && address ? address.port : port;
      return { port: actualPort, url: `http://${host && host !== "0.0.0.0" && host !== "::" ? host : "127.0.0.1"}:${actualPort}` };
    },
    async close(graceMs = 10_000) {
      // Keep-alive clients are told to go: each connection closes after its in-flight response.
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      force.unref();
      await closed;
      clearTimeout(force);
      await tasks.stop();
    },
  };
}

function toErrorReply(error: unknown, log: Logger, method: string | undefined, route: string): Reply {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      body: { error: error.message, ...(error.details ? { details: error.details } : {}) },
      headers: error.headers ?? {},
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
