import { createServer, request, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { readBody } from "../../../../src/app/http-kit/body.js";
import { HttpError } from "../../../../src/app/http-kit/http-error.js";
import { createRequestHandler } from "../../../../src/app/http/request-handler.js";
import { Router, type Reply } from "../../../../src/app/http-kit/router.js";

/** Stream replies (router.ts `stream`): what the client sees, and how the source is read and closed. */

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(reply: () => Reply): Promise<string> {
  const router = new Router().on("GET", "/export", async () => reply());
  server = createServer(createRequestHandler(router, {}, pino({ level: "silent" })));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/export`;
}

const streamed = (chunks: AsyncIterable<string | Uint8Array>): Reply => ({ status: 200, stream: { contentType: "text/csv; charset=utf-8", chunks }, headers: { "X-Test": "1" } });

/** A source that records how far it was read and whether it was closed. */
function source(chunkCount: number, chunk: string, fail?: { at: number; error: Error }) {
  const state = { produced: 0, closed: false };
  async function* chunks() {
    try {
      for (let i = 0; i < chunkCount; i++) {
        if (fail && i === fail.at) throw fail.error;
        state.produced++;
        yield chunk;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, chunks: chunks() };
}

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("stream replies", () => {
  it("are sent chunked with their content type and headers, every chunk in order", async () => {
    const { state, chunks } = source(100, "a,b\r\n");
    const url = await serve(() => streamed(chunks));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("x-test")).toBe("1");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("a,b\r\n".repeat(100));
    expect(state).toEqual({ produced: 100, closed: true });
  });

  it("turn an error before the first chunk into the usual JSON error with its status", async () => {
    const url = await serve(() => streamed(source(10, "x", { at: 0, error: new HttpError(404, "Agent not found") }).chunks));
    const response = await fetch(url);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ error: "Agent not found" });
  });

  it("cut the response short when the source fails after the first chunk: the client never sees a complete body", async () => {
    const { state, chunks } = source(1_000, "x".repeat(1_000), { at: 50, error: new Error("store went away") });
    const url = await serve(() => streamed(chunks));
    // Cut mid-body, or (when the socket is destroyed before the first bytes were flushed, as Node 24 may) before the headers: never a complete body.
    const outcome = await fetch(url)
      .then(async (response) => {
        expect(response.status).toBe(200);
        await response.text();
        return "complete";
      })
      .catch(() => "cut");
    expect(outcome).toBe("cut");
    expect(state.closed).toBe(true);
  });

  it("answer HEAD with the headers only, never reading the source", async () => {
    const { state, chunks } = source(10, "x");
    const url = await serve(() => streamed(chunks));
    const response = await fetch(url, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await response.text()).toBe("");
    expect(state.produced).toBe(0);
  });

  it("read the source only as fast as the client takes it, and close it when the client goes away", async () => {
    const CHUNK = 64 * 1024;
    const COUNT = 2_000; // 125 MiB if it were all read
    const { state, chunks } = source(COUNT, "y".repeat(CHUNK));
    const url = await serve(() => streamed(chunks));
    const response = await new Promise<IncomingMessage>((resolve, reject) => request(url, resolve).on("error", reject).end());
    // The client reads nothing: once the socket buffers are full the server stops asking for chunks.
    await until(() => state.produced > 0);
    for (let previous = -1; previous !== state.produced; ) {
      previous = state.produced;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const heldBack = state.produced;
    // What the socket buffers hold (a few MiB on loopback), far from the whole body.
    expect(heldBack * CHUNK).toBeLessThan(24 * 1024 * 1024);
    expect(heldBack).toBeLessThan(COUNT);
    // Reading a little lets it go on; going away ends it and closes the source.
    let received = 0;
    response.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > (heldBack + 50) * CHUNK) response.destroy();
    });
    await until(() => state.closed, 20_000);
    expect(state.produced).toBeGreaterThan(heldBack);
    expect(state.produced).toBeLessThan(COUNT);
  });
});

describe("a client that hangs up mid-request", () => {
  it("is one info line saying so, not an error with a stack trace", async () => {
    const lines: Array<{ level: number; msg: string; err?: unknown; code?: string }> = [];
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const router = new Router().on("POST", "/hits", async ({ req }) => ({ status: 202, body: { size: (await readBody(req, 1_000_000)).length } }));
    server = createServer(createRequestHandler(router, {}, log));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;

    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write("POST /hits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"hits\": [");
    await until(() => server!.listenerCount("request") > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();

    await until(() => lines.some((line) => line.msg.includes("hung up")));
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.find((line) => line.msg.includes("hung up"))).toMatchObject({ level: 30, msg: "the client hung up before its request was read; nothing was done" });
    expect(lines.find((line) => line.msg.includes("hung up"))?.err).toBeUndefined();
  });
});
