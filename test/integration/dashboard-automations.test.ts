import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { AI_ADDRESS_LISTS, publishedAddress, USER_AGENTS } from "../helpers/traffic.js";

// Agents fetching from their operators' published addresses, so their claims are verified and count as AI.
const GPTBOT = USER_AGENTS.ai[1] as string;
const PERPLEXITY = USER_AGENTS.ai[2] as string;
const gptbotAt = (n: number) => publishedAddress(AI_ADDRESS_LISTS[1], n).ip;
const perplexityAt = (n: number) => publishedAddress(AI_ADDRESS_LISTS[2], n).ip;

let t: TestServer;
let browser: Browser;
let project: { projectId: string; key: string };

beforeAll(async () => {
  t = await startTestServer({ dispatcher: { dispatch: async () => ({ ok: true }) } });
  project = await t.newProject("acme/suggested-docs");
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${t.url}/dashboard/sign-in`);
  await page.fill("#token", ADMIN_TOKEN);
  await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click("button[type=submit]")]);
  return page;
}

describe("automations on the dashboard", () => {
  it("suggests a redirect for a page AI agents failed to fetch and a refresh of the page AI reads most; a suggestion becomes a job with its trigger", async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const hits = [
      ...Array.from({ length: 3 }, (_, i) => ({ timestamp: at, path: "/old/setup", ip: gptbotAt(i), userAgent: GPTBOT, status: 404 })),
      { timestamp: at, path: "/old/setup", ip: perplexityAt(1), userAgent: PERPLEXITY, status: 404 },
      { timestamp: at, path: "/broken", ip: perplexityAt(1), userAgent: PERPLEXITY, status: 500 },
      ...Array.from({ length: 4 }, (_, i) => ({ timestamp: at, path: "/guides/intro", ip: gptbotAt(10 + i), userAgent: GPTBOT })),
      { timestamp: at, path: "/pricing", ip: perplexityAt(5), userAgent: PERPLEXITY },
    ];
    expect((await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits } })).status).toBe(202);

    const page = await signedIn();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/automations`);
    const missing = page.locator("#suggestions-missing tbody tr");
    expect(await missing.count()).toBe(1);
    expect(await missing.first().textContent()).toContain("/old/setup");
    expect(await missing.first().textContent()).toContain("4 failed AI fetches (404) by GPTBot, PerplexityBot");
    expect(await page.locator("#suggestions-most-read tbody tr td:first-child").allTextContents()).toEqual(["/guides/intro", "/pricing"]);

    const form = missing.first().locator("form");
    await form.locator("summary").click();
    expect(await form.locator("textarea").inputValue()).toMatch(/^AI agents asked for \/old\/setup and the site answered 404/);
    await Promise.all([page.waitForURL(/\/jobs\/[a-z0-9]+\?notice=job-created$/), form.locator("button[type=submit]").click()]);
    const jobId = page.url().split("/jobs/")[1]?.split("?")[0] as string;
    expect(await page.textContent("#job-trigger")).toBe("Suggestion");

    const job = (await t.call("GET", `/v2/agent/${project.projectId}/job/${jobId}`, { token: project.key })).body;
    // Without PUBLIC_URL there is no absolute address to link back to.
    expect(job.trigger).toEqual({ type: "suggestion" });
    const [message] = await t.store.db.query<{ prompt: string; source: string }>(`SELECT prompt, source FROM job_messages WHERE job_id = $1`, [jobId]);
    expect(message).toMatchObject({ source: "dashboard", prompt: expect.stringMatching(/^AI agents asked for \/old\/setup and the site answered 404 \(4 times/) });
    const listed = (await t.call("GET", `/v2/agent/${project.projectId}/jobs?trigger=suggestion`, { token: project.key })).body.jobs;
    expect(listed.map((j: { id: string }) => j.id)).toEqual([jobId]);
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/jobs?trigger=suggestion`);
    expect(await page.locator("#jobs-table tbody tr").count()).toBe(1);
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/jobs?trigger=schedule`);
    expect(await page.locator("#jobs-table").count()).toBe(0);
  });

  it("an admin adds each kind from the tab; a bad cron is refused, naming it", async () => {
    const page = await signedIn();
    const tab = `${t.url}/dashboard/projects/${project.projectId}/automations`;
    await page.goto(tab);
    await page.fill("#source-repository", "acme/form-api");
    await page.fill("#source-label", "docs");
    await page.fill("#source-paths", "src/api/**\nsrc/cli/**");
    await page.uncheck("#add-source input[name=followUps]");
    await Promise.all([page.waitForURL(tab), page.click("#add-source button[type=submit]")]);
    await page.fill("#issues-label", "docs-bug");
    await Promise.all([page.waitForURL(tab), page.click("#add-issues button[type=submit]")]);
    await page.fill("#schedule-cron", "61 * * * *");
    await page.fill("#schedule-instruction", "Fix links.");
    const [refused] = await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), page.click("#add-schedule button[type=submit]")]);
    expect(refused.status()).toBe(400);
    expect(await page.textContent("main")).toMatch(/cron: .*61/);
    const { automations } = (await t.call("GET", `/admin/projects/${project.projectId}/automations`, { token: ADMIN_TOKEN })).body;
    expect(automations.map((a: { config: unknown }) => a.config)).toEqual(
      expect.arrayContaining([
        { kind: "source", repository: "acme/form-api", label: "docs", paths: ["src/api/**", "src/cli/**"], followUps: false },
        { kind: "issues", label: "docs-bug", mention: true },
      ]),
    );
    expect(automations.some((a: { config: { kind: string } }) => a.config.kind === "schedule")).toBe(false);
  });

  it("lists the project's automations and pauses and resumes one", async () => {
    const created = await t.call("POST", `/admin/projects/${project.projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "schedule", cron: "0 6 * * 1", instruction: "Fix broken links." } });
    expect(created.status).toBe(201);
    const page = await signedIn();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/automations`);
    const row = page.locator(`tr[data-automation-id="${created.body.id}"]`);
    expect(await row.textContent()).toContain("0 6 * * 1 (UTC): Fix broken links.");
    await Promise.all([page.waitForLoadState("load"), row.locator("button", { hasText: "Pause" }).click()]);
    expect(await page.locator(`tr[data-automation-id="${created.body.id}"] td`).nth(1).textContent()).toBe("paused");
    expect((await t.call("GET", `/admin/projects/${project.projectId}/automations/${created.body.id}`, { token: ADMIN_TOKEN })).body).toMatchObject({ paused: true, nextRunAt: null });
    await Promise.all([page.waitForLoadState("load"), page.locator(`tr[data-automation-id="${created.body.id}"] button`, { hasText: "Resume" }).click()]);
    expect((await t.call("GET", `/admin/projects/${project.projectId}/automations/${created.body.id}`, { token: ADMIN_TOKEN })).body).toMatchObject({ paused: false, nextRunAt: expect.stringMatching(/T06:00:00.000Z$/) });
  });
});
