import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { WEBHOOK_PATH, type NodeMiddleware } from "../github/webhooks.js";
import { asHttpError } from "./error-reply.js";
import { HttpError } from "./http-error.js";
import type { Reply, Router } from "./router.js";

const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

export interface RequestHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** From now on every response asks its keep-alive client to close the connection. */
  closeConnections(): void;
}

/**
 * Every request: GitHub webhooks to Probot's middleware (mounted on its path only), everything
 * else through the router. Errors become JSON here, the one place that turns them into statuses.
 */
export function createRequestHandler(router: Router, webhookMiddleware: NodeMiddleware | undefined, log: Logger): RequestHandler {
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
      reply = toErrorReply(error, log, req.method, route);
    }
    send(res, closing ? { ...reply, headers: { ...reply.headers, Connection: "close" } } : reply, req.method === "HEAD");
    // Access lines are debug: at info, a busy server would spend more on logging than on answering.
    log.debug({ method: req.method, route, status: reply.status, ms: Math.round((performance.now() - started) * 10) / 10 }, "request");
  };
  return Object.assign(handle, {
    closeConnections() {
      closing = true;
    },
  });
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

export function send(res: ServerResponse, reply: Reply, headOnly = false): void {
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
