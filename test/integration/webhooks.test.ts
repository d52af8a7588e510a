import { request } from "node:http";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DELIVERY_BYTES } from "../../src/app/forges/github/webhook-endpoint.js";
import { appEnv, deliver, fakeGitHubApp, isolateGitHub, sign } from "../helpers/github.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { eventually } from "../helpers/eventually.js";

let t: TestServer;
/** Every line the server and its Probot log, at any level. */
const logged: { level: number; msg?: string; err?: unknown; deliveryId?: string }[] = [];

beforeAll(async () => {
  isolateGitHub();
  const log = pino({ level: "debug" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  t = await startTestServer({ env: appEnv(), github: fakeGitHubApp(log), log });
});
afterAll(() => t.close());

const payload = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1, hook: { type: "App", id: 1, events: [] } });

describe("GitHub webhooks with App credentials", () => {
  it("accepts a correctly signed delivery on /api/github/webhooks", async () => {
    expect((await deliver(t.url, "ping", JSON.parse(payload))).status).toBe(200);
  });

  it("also accepts deliveries at / (where Probot's manifest flow points the App's webhook)", async () => {
    const res = await fetch(`${t.url}/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "ping", "X-GitHub-Delivery": "d-3", "X-Hub-Signature-256": sign(payload) },
      body: payload,
    });
    expect(res.status).toBe(200);
    const bad = await fetch(`${t.url}/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "ping", "X-GitHub-Delivery": "d-4", "X-Hub-Signature-256": sign(payload, "nope") },
      body: payload,
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
  });

  it("refuses a delivery signed with another secret, or unsigned, and queues nothing", async () => {
    const before = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks`);
    const installation = JSON.stringify({ action: "created", installation: { id: 9 }, repositories: [{ id: 1, full_name: "evil/repo" }] });
    for (const signature of [sign(installation, "wrong"), undefined]) {
      const res = await fetch(`${t.url}/api/github/webhooks`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-GitHub-Event": "installation", "X-GitHub-Delivery": "d-2", ...(signature ? { "X-Hub-Signature-256": signature } : {}) },
        body: installation,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const after = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks`);
    expect(after).toEqual(before);
  });

  it("queues a signed delivery of an event the App handles, and answers one it does not handle without queueing it", async () => {
    const tasks = async () => (await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE kind = 'github_event'`))[0]!.n;
    const before = await tasks();
    const push = await deliver(t.url, "push", { ref: "refs/heads/main", repository: { id: 1, full_name: "acme/docs" }, installation: { id: 9 } });
    expect(push.status).toBe(200);
    expect(await tasks()).toBe(before);
    const installed = await deliver(t.url, "installation", { action: "created", installation: { id: 9 }, repositories: [{ id: 1, full_name: "acme/typed-events" }] });
    expect(installed.status).toBe(200);
    expect(await tasks()).toBe(before + 1);
  });

  it("the API keeps working beside the webhook route, and / says the App is configured", async () => {
    const res = await t.call("GET", "/");
    expect(res.body.githubApp).toMatchObject({ configured: true, appId: "123", webhookPath: "/api/github/webhooks" });
    expect(res.body.forges).toEqual({ github: { missing: null }, gitlab: { missing: null } });
    expect((await t.call("GET", "/healthz")).status).toBe(200);
  });
});

const githubTasks = async () => (await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE kind = 'github_event'`))[0]!.n;

/** A delivery's headers as GitHub sends them, with the signature given (default: that of an empty body). */
const deliveryHeaders = (deliveryId: string, signature = sign("")) => ({ "Content-Type": "application/json", "X-GitHub-Event": "push", "X-GitHub-Delivery": deliveryId, "X-Hub-Signature-256": signature });

/**
 * Posts to the webhook path, writes `bytes` of the body and then waits without ending it: an
 * answer can only come from a server that did not wait for the rest. (A client that kept writing
 * would race the server's close of the connection for its answer.) Resolves with the status once
 * the server has also closed the connection (it reads no more of the body).
 */
function postWithoutEnding(headers: Record<string, string>, bytes: number) {
  return new Promise<number>((resolve, reject) => {
    const req = request(`${t.url}/api/github/webhooks`, { method: "POST", headers });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => {
        const done = () => resolve(res.statusCode!);
        if (!req.socket || req.socket.destroyed) done();
        else req.socket.once("close", done);
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const size = Math.min(1024 * 1024, bytes - sent);
        sent += size;
        if (!req.write(Buffer.alloc(size, 0x20))) return void req.once("drain", write);
      }
    };
    write();
  });
}

describe("the webhook path's edges", () => {
  it("refuses a Content-Length past GitHub's 25 MB cap with 413 before the body is sent, and queues nothing", async () => {
    const before = await githubTasks();
    // 30 MB announced, 64 KiB written, and the client waits: only an answer that reads nothing can arrive.
    expect(await postWithoutEnding({ ...deliveryHeaders("too-big-1"), "Content-Length": String(30 * 1024 * 1024) }, 64 * 1024)).toBe(413);
    expect(await postWithoutEnding({ ...deliveryHeaders("too-big-2"), "Content-Length": String(MAX_DELIVERY_BYTES + 1) }, 1)).toBe(413);
    expect(await githubTasks()).toBe(before);
  });

  it("stops reading a chunked body once it passes the cap: 413, and the connection is closed", async () => {
    // One byte past the cap and no end: the answer comes once the cap is passed, not at the body's end.
    expect(await postWithoutEnding(deliveryHeaders("too-big-chunked"), MAX_DELIVERY_BYTES + 1)).toBe(413);
  });

  it("logs a wrong signature as one warning line with the delivery id, no stack", async () => {
    const body = JSON.stringify({ action: "created", installation: { id: 9 } });
    logged.length = 0;
    const res = await fetch(`${t.url}/api/github/webhooks`, { method: "POST", headers: deliveryHeaders("bad-signature-1", sign(body, "not-the-secret")), body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/signature does not match/);
    const lines = logged.filter((line) => line.level >= 30);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, deliveryId: "bad-signature-1" });
    expect(lines[0]!.err).toBeUndefined();
  });

  it("answers a well-signed body that is not a JSON object with a 400 saying what it is, and queues nothing", async () => {
    const before = await githubTasks();
    const cases: [string, RegExp][] = [
      ["null", /body is null: a GitHub delivery is a JSON object/],
      ["[]", /body is an array/],
      ['"x"', /body is a string/],
      ["42", /body is a number/],
      ["{", /body is not valid JSON/],
      ["", /body is empty/],
    ];
    logged.length = 0;
    for (const [body, message] of cases) {
      const res = await fetch(`${t.url}/api/github/webhooks`, { method: "POST", headers: deliveryHeaders(`not-an-object-${body}`, sign(body)), body });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: string }).error, body).toMatch(message);
    }
    expect(await githubTasks()).toBe(before);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe("WEBHOOK_PROXY_URL relay (smee)", () => {
  it("relays a delivery from the channel to the webhook path, signature intact", async () => {
    const { createServer } = await import("node:http");
    const { pino } = await import("pino");
    const { startWebhookProxy } = await import("../../src/app/forges/github/webhook-proxy.js");
    const body = { action: "deleted", installation: { id: 31337 }, repositories: [], sender: { login: "octocat", type: "User" } };
    const raw = JSON.stringify(body);
    const channel = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
      res.write("event: ready\ndata: {}\n\n");
      const message = { "x-github-event": "installation", "x-github-delivery": "relay-1", "x-hub-signature-256": sign(raw), body, timestamp: Date.now() };
      setTimeout(() => res.write(`data: ${JSON.stringify(message)}\n\n`), 50);
    });
    await new Promise<void>((resolve) => channel.listen(0, "127.0.0.1", resolve));
    const port = (channel.address() as { port: number }).port;
    const stop = await startWebhookProxy(`http://127.0.0.1:${port}/channel`, `${t.url}/api/github/webhooks`, pino({ level: "silent" }));
    const rows = await eventually("the relayed delivery's task", async () => {
      const found = await t.store.db.query(`SELECT kind FROM tasks WHERE dedupe_key = 'event:relay-1'`);
      return found.length > 0 && found;
    });
    await stop();
    channel.closeAllConnections();
    channel.close();
    expect(rows).toEqual([{ kind: "github_event" }]);
  });
});
