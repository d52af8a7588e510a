import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appEnv, deliver, fakeGitHubApp, isolateGitHub, sign } from "../helpers/github.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { eventually } from "../helpers/eventually.js";

let t: TestServer;

beforeAll(async () => {
  isolateGitHub();
  t = await startTestServer({ env: appEnv(), github: fakeGitHubApp() });
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
    expect((await t.call("GET", "/healthz")).status).toBe(200);
  });
});

describe("WEBHOOK_PROXY_URL relay (smee)", () => {
  it("relays a delivery from the channel to the webhook path, signature intact", async () => {
    const { createServer } = await import("node:http");
    const { pino } = await import("pino");
    const { startWebhookProxy } = await import("../../src/app/github/webhook-proxy.js");
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
