import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { ForgeWebhooks } from "../forges/forge.js";
import { asHttpError } from "../http-kit/error-reply.js";
import { HttpError } from "../http-kit/http-error.js";
import type { Reply, Router } from "../http-kit/router.js";

/** A client that takes no part of a streamed reply for this long is cut off (it holds the reply's cursor). */
const STREAM_STALL_MS = 60_000;

const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

/** An endpoint that answers on the raw response itself (the MCP transport). */
export type RawEndpoint = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** What is mounted beside the router: each forge's webhooks (with what wakes the task queue), and raw endpoints by exact path (/mcp). */
export interface Mounts {
  webhooks?: { forges: ForgeWebhooks[]; kick(): void };
  raw?: Record<string, RawEndpoint>;
}

export interface RequestHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** From now on every response asks its keep-alive client to close the connection. */
  closeConnections(): void;
}

/**
 * Every request: a forge's webhook deliveries to that forge (its path and what it claims), a raw
 * endpoint's path (/mcp) to it, everything else through the router. Errors become JSON here, the
 * one place that turns them into statuses.
 */
export function createRequestHandler(router: Router, mounts: Mounts, log: Logger): RequestHandler {
  const webhooks = mounts.webhooks;
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
    const pathname = url.pathname;
    const forgeWebhooks = webhooks?.forges.find((forge) => pathname === forge.path || pathname.startsWith(`${forge.path}/`) || forge.claims?.(req, pathname));
    let route = "unmatched";
    // Access lines are debug: at info, a busy server would spend more on logging than on answering.
    const accessLine = (status: number) => log.debug({ method: req.method, route, status, ms: Math.round((performance.now() - started) * 10) / 10 }, "request");
    let reply: Reply;
    let stream: StartedStream | null = null;
    try {
      const raw = mounts.raw && Object.hasOwn(mounts.raw, pathname) ? mounts.raw[pathname] : undefined;
      if (forgeWebhooks || raw) {
        route = forgeWebhooks?.path ?? pathname;
        // What every answer carries, set before the endpoint writes its own head (Node merges them).
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
        if (closing) res.setHeader("Connection", "close");
        let answer: Reply | null = null;
        if (forgeWebhooks && webhooks) answer = await forgeWebhooks.receive(req, res, pathname, webhooks.kick);
        else await raw?.(req, res);
        if (answer === null) {
          accessLine(res.statusCode);
          return;
        }
        reply = answer;
      } else {
        const match = router.match(req.method ?? "GET", pathname);
        if (!match) throw new HttpError(404, `No such endpoint: ${req.method} ${pathname}. See /openapi.json`);
        route = match.route;
        reply = await match.handler({ req, url, params: match.params, route });
        if (reply.stream) stream = await startStream(reply.stream.chunks, req.method === "HEAD");
      }
    } catch (error) {
      reply = toErrorReply(error, log, req, route);
    }
    const final = closing ? { ...reply, headers: { ...reply.headers, Connection: "close" } } : reply;
    if (stream) await sendStream(res, final, stream, log.child({ route }));
    else send(res, final, req.method === "HEAD");
    accessLine(reply.status);
  };
  return Object.assign(handle, {
    closeConnections() {
      closing = true;
    },
  });
}

function toErrorReply(error: unknown, log: Logger, req: IncomingMessage, route: string): Reply {
  const known = asHttpError(error);
  if (known) {
    return {
      status: known.status,
      body: { error: known.message, ...(known.details ? { details: known.details } : {}) },
      headers: known.headers ?? {},
    };
  }
  const method = req.method;
  if (clientHungUp(error, req)) {
    // Nobody is left to answer, and nothing went wrong here: a line, not a stack trace.
    log.info({ method, route, code: (error as NodeJS.ErrnoException).code ?? "aborted" }, "the client hung up before its request was read; nothing was done");
    return { status: 400, body: { error: "Request aborted by the client" } };
  }
  log.error({ err: error, method, route }, "unexpected error while handling a request");
  return { status: 500, body: { error: "Internal error; the server log has the details" } };
}

/** Reading the body failed because the client went away (Node's `aborted`, a reset connection). */
function clientHungUp(error: unknown, req: IncomingMessage): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ECONNRESET" || code === "ECONNABORTED" || (error instanceof Error && error.message === "aborted") || (req.destroyed && !req.complete);
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

interface StartedStream {
  iterator: AsyncIterator<string | Uint8Array>;
  first: IteratorResult<string | Uint8Array>;
}

/** Takes a stream reply's first chunk before anything is sent: until then a failure is still an error reply. HEAD reads nothing. */
async function startStream(chunks: AsyncIterable<string | Uint8Array>, headOnly: boolean): Promise<StartedStream> {
  const iterator = chunks[Symbol.asyncIterator]();
  if (!headOnly) return { iterator, first: await iterator.next() };
  await iterator.return?.();
  return { iterator, first: { done: true, value: undefined } };
}

/**
 * Writes a stream reply (chunked): each chunk once the client has taken the ones before (so a
 * slow client slows the reading down instead of filling memory). The source is closed however the
 * reply ends; a client that goes away or takes nothing for STREAM_STALL_MS ends it early, and a
 * failure after the first chunk cuts the response short (the client sees an incomplete body).
 */
async function sendStream(res: ServerResponse, reply: Reply, { iterator, first }: StartedStream, log: Logger): Promise<void> {
  let gone = false;
  res.once("close", () => (gone = true));
  let complete = false;
  try {
    res.writeHead(reply.status, { ...SECURITY_HEADERS, "Content-Type": reply.stream?.contentType ?? "application/octet-stream", ...reply.headers });
    for (let next = first; !next.done; next = await iterator.next()) {
      if (gone) return;
      if (!res.write(next.value) && !(await drained(res, () => gone))) return;
    }
    complete = true;
    res.end();
  } catch (error) {
    log.error({ err: error }, "a streamed reply failed after it started; the response was cut short");
    res.destroy();
  } finally {
    if (!complete) await iterator.return?.()?.catch(() => undefined);
  }
}

/** Whether the client took what was written (true) or went away or stalled (false; a stalled response is destroyed). */
function drained(res: ServerResponse, gone: () => boolean): Promise<boolean> {
  if (gone()) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => {
      res.destroy();
      done(false);
    }, STREAM_STALL_MS);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}
