import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { eventField } from "../../src/app/dashboard/webhooks/page.js";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../../src/shared/job-vocabulary.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

const SUBSCRIBED: WebhookEvent[] = ["job.completed", "job.failed", "job.pull_request_opened"];

let t: TestServer;
let browser: Browser;
let receiver: Server;
let url: string;
const received: string[] = [];
let project: { projectId: string; key: string };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      received.push(String(req.headers["webhook-id"]));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // Every run fails to start: a job's failure is the webhook's event.
  t = await startTestServer({ env: { INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true" }, dispatcher: { dispatch: async () => ({ ok: false, retryable: false, error: "The runner could not start (test)." }) } });
  project = await t.newProject("acme/hooks-dashboard");
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function deliveredTimes(n: number) {
  for (let tries = 0; received.length < n; tries++) {
    if (tries > 500) throw new Error(`${received.length} deliveries, expected ${n}`);
    t.inkwell.services.tasks.kick();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await t.inkwell.services.tasks.idle();
}

describe("webhooks on the dashboard", () => {
  it("adds a webhook (its secret shown once), shows its deliveries, sends one again, and deletes it", async () => {
    const page: Page = await (await browser.newContext()).newPage();
    await page.goto(`${t.url}/dashboard/sign-in`);
    await page.fill("#token", ADMIN_TOKEN);
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click("button[type=submit]")]);
    const webhooksPage = `${t.url}/dashboard/projects/${project.projectId}/webhooks`;

    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/keys`);
    await Promise.all([page.waitForURL(webhooksPage), page.click("#webhooks-link")]);
    await page.fill("#webhook-url", url);
    // Only the three events this test reads: a failed start also sends job.created and job.run_finished.
    for (const event of WEBHOOK_EVENTS.filter((event) => !SUBSCRIBED.includes(event))) await page.uncheck(`input[name=${eventField(event)}]`);
    await Promise.all([page.waitForLoadState("load"), page.click("form.stack button[type=submit]")]);
    const secret = (await page.textContent("#webhook-secret")) ?? "";
    expect(secret).toMatch(/^whsec_/);
    expect(await page.textContent("article.webhook")).toContain(SUBSCRIBED.join(", "));

    await t.call("POST", `/v2/agent/${project.projectId}/job`, { token: project.key, body: { prompt: "Something that fails" } });
    await deliveredTimes(1);
    await page.goto(webhooksPage);
    expect(await page.locator("#webhook-secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator("table.deliveries tbody tr").first();
    expect(await row.textContent()).toMatch(/job\.failed\s*delivered\s*1\s*204/);

    await Promise.all([page.waitForLoadState("load"), row.locator("button").click()]);
    await deliveredTimes(2);
    await page.goto(webhooksPage);
    expect(await page.locator("table.deliveries tbody tr").first().textContent()).toMatch(/job\.failed\s*delivered\s*2\s*204/);
    expect(new Set(received).size).toBe(1);

    await Promise.all([page.waitForLoadState("load"), page.click("article.webhook button.danger")]);
    await page.goto(webhooksPage);
    expect(await page.locator("article.webhook").count()).toBe(0);
    await page.close();
  });
});
