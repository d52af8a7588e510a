import { createHmac, generateKeyPairSync } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { createGitHubApp } from "../../src/app/github/webhooks.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const SECRET = "webhook-secret-for-tests";
let t: TestServer;

beforeAll(async () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
  const env = { APP_ID: "123", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: SECRET };
  const config = loadConfig(env, () => "");
  const github = await createGitHubApp(config.app as NonNullable<typeof config.app>, config, pino({ level: "silent" }));
  t = await startTestServer({ env, webhookMiddleware: github.middleware });
});
afterAll(() => t.close());

const payload = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1, hook: { type: "App", id: 1, events: [] } });
const sign = (body: string, secret = SECRET) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe("GitHub webhooks with App credentials", () => {
  it("accepts a correctly signed delivery on /api/github/webhooks", async () => {
    const res = await fetch(`${t.url}/api/github/webhooks`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "ping", "X-GitHub-Delivery": "d-1", "X-Hub-Signature-256": sign(payload) },
      body: payload,
    });
    expect(res.status).toBe(200);
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

  it("refuses a delivery signed with another secret, or unsigned", async () => {
    for (const signature of [sign(payload, "wrong"), undefined]) {
      const res = await fetch(`${t.url}/api/github/webhooks`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-GitHub-Event": "ping", "X-GitHub-Delivery": "d-2", ...(signature ? { "X-Hub-Signature-256": signature } : {}) },
        body: payload,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("the API keeps working beside the webhook route, and / says the App is configured", async () => {
    const res = await t.call("GET", "/");
    expect(res.body.githubApp).toMatchObject({ configured: true, appId: "123", webhookPath: "/api/github/webhooks" });
    expect((await t.call("GET", "/healthz")).status).toBe(200);
  });
});
