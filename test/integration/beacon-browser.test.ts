import { createServer, type Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let t: TestServer;
let site: Server;
let siteUrl: string;
let browser: Browser;
let project: { projectId: string; key: string };

/** A docs site on another origin: pages with the beacon that navigate with pushState like an SPA. */
function docsSite(inkwellUrl: string, projectId: () => string): Server {
  return createServer((req, res) => {
    const dnt = req.url?.startsWith("/private") ? ' data-respect-dnt="true"' : "";
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><head><title>Docs</title>
      <script defer src="${inkwellUrl}/js/script.js" data-project="${projectId()}"${dnt}></script></head>
      <body><h1>${req.url}</h1>
      <button id="next" onclick="history.pushState({}, '', '/docs/two')">Next</button>
      <button id="same" onclick="history.replaceState({}, '', location.pathname)">Same</button>
      </body></html>`);
  });
}

beforeAll(async () => {
  t = await startTestServer();
  site = await new Promise<Server>((resolve) => {
    const server = docsSite(t.url, () => project.projectId);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  project = await t.newProject(undefined, { analytics: { allowedOrigins: [siteUrl] } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await t.close();
});

async function viewsNow() {
  const answer = await t.call("GET", `/v1/analytics/${project.projectId}/views`, { token: project.key });
  return Object.fromEntries((answer.body.views as { path: string; total: number }[]).map((v) => [v.path, v.total]));
}

async function waitForViews(expected: Record<string, number>) {
  for (let i = 0; i < 100; i++) {
    const views = await viewsNow();
    const same = (a: Record<string, number>) => JSON.stringify(Object.entries(a).sort());
    if (same(views) === same(expected)) return views;
    await new Promise((r) => setTimeout(r, 50));
  }
  return viewsNow();
}

describe("the beacon in a real browser", () => {
  it("reports the page on load and on each SPA navigation, once per path, as one human visitor", async () => {
    const context = await browser.newContext({ userAgent: CHROME });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.goto(`${siteUrl}/docs/one`);
    expect(await waitForViews({ "/docs/one": 1 })).toEqual({ "/docs/one": 1 });
    await page.click("#same");
    await page.click("#next");
    expect(await waitForViews({ "/docs/one": 1, "/docs/two": 1 })).toEqual({ "/docs/one": 1, "/docs/two": 1 });
    await page.goBack();
    expect(await waitForViews({ "/docs/one": 2, "/docs/two": 1 })).toEqual({ "/docs/one": 2, "/docs/two": 1 });
    expect(errors).toEqual([]);
    const visitors = await t.call("GET", `/v1/analytics/${project.projectId}/visitors`, { token: project.key });
    expect(visitors.body.totals).toEqual({ human: 1, ai: 0, bot: 0, total: 1 });
    await context.close();
  });

  it("sends nothing with data-respect-dnt when the browser asks not to be tracked", async () => {
    const context = await browser.newContext({ userAgent: CHROME });
    await context.addInitScript("Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })");
    const page = await context.newPage();
    const before = await viewsNow();
    await page.goto(`${siteUrl}/private/page`);
    await page.goto(`${siteUrl}/docs/three`);
    const after = await waitForViews({ ...before, "/docs/three": 1 });
    expect(after["/private/page"]).toBeUndefined();
    expect(after["/docs/three"]).toBe(1);
    await context.close();
  });
});
