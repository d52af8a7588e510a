import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, windowOf } from "../../src/shared/epoch-days.js";
import type { Dispatcher } from "../../src/app/dispatch/dispatcher.js";
import { reportRun } from "../../src/app/domain/jobs/runs.js";
import { storeTranscript } from "../../src/app/domain/jobs/transcripts.js";
import { launchChromium } from "../helpers/browser.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { AI_ADDRESS_LISTS, publishedAddress, random, USER_AGENTS } from "../helpers/traffic.js";

// Code passed to page.evaluate runs in the page; the test project is type-checked without DOM types.
declare const document: any;
declare const window: any;
declare const navigator: any;

const SCREENSHOTS = path.resolve(process.env.SCREENSHOT_DIR ?? path.join("test-results", "screenshots", process.env.INKWELL_TEST_STORE ?? "pglite"));
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Holds runs until the test releases them, then fails them as a runner would report; `hold` closes the gate again. */
function gatedDispatcher() {
  let release!: () => void;
  let gate!: Promise<void>;
  const hold = () => {
    gate = new Promise<void>((resolve) => (release = resolve));
  };
  hold();
  const dispatcher: Dispatcher = {
    async dispatch() {
      await gate;
      return { ok: false, retryable: false, error: "The runner could not start (test)." };
    },
  };
  return { dispatcher, hold, release: () => release() };
}

let t: TestServer;
let browser: Browser;
let context: BrowserContext;
let project: { projectId: string; key: string };
let referred: { projectId: string; key: string };
const gated = gatedDispatcher();
const problems: string[] = [];
const today = Math.floor(Date.now() / DAY_MS);
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
let referralSeed: ReturnType<typeof referralTraffic>;

/**
 * Seeds views over the 12 days before today (all in the past, whatever the time of day): people
 * browsing several pages, some of them AI agents (from their operators' addresses, and one copying
 * an agent's User-Agent from elsewhere), some bots; some AI fetches are of markdown, some fail.
 */
async function seedTraffic(projectId: string, key: string) {
  const hits = [];
  for (let person = 0; person < 90; person++) {
    const kind = person % 5 === 0 ? "ai" : person % 11 === 0 ? "bot" : "human";
    const agents = USER_AGENTS[kind];
    const agentIndex = person % agents.length;
    const userAgent = agents[agentIndex] as string;
    const spoofer = person === 45;
    const ip = kind === "ai" && !spoofer ? publishedAddress(AI_ADDRESS_LISTS[agentIndex] as string, person).ip : `198.51.100.${person}`;
    for (let visit = 0; visit < 1 + (person % 4); visit++) {
      const day = today - 1 - ((person * 7 + visit * 3) % 12);
      hits.push({
        timestamp: new Date(day * DAY_MS + ((person * 37 + visit) % 86_000) * 1000).toISOString(),
        path: `/docs/page-${(person + visit * 5) % 70}${kind === "ai" && visit === 1 ? ".md" : ""}`,
        ip,
        userAgent,
        ...(kind === "ai" && visit === 2 ? { status: 404 } : {}),
      });
    }
  }
  const res = await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits } });
  expect(res.status).toBe(202);
  expect(res.body.accepted).toBe(hits.length);
}

/** One view of the referrals project as the test knows it: who, when, which page, and where a person came from. */
interface SentView {
  day: number;
  person: string;
  kind: "human" | "ai";
  page: string;
  /** The source a person's arrival is reported under; null for agents' fetches. */
  source: string | null;
}

const REFERRAL_PAGES = ["/docs", "/docs/install", "/docs/guides/webhooks", "/docs-archive", "/api/events", "/api/auth"];
const ARRIVALS = [
  { referrer: "https://chatgpt.com/c/x", source: "chatgpt.com", channel: "ai" },
  { referrer: "https://www.google.com/", source: "google.com", channel: "search" },
  { referrer: undefined, source: "(direct)", channel: "direct" },
] as const;

/**
 * People arriving on pages under /docs and /api from ChatGPT, Google or directly, and an AI
 * assistant fetching pages: most in the 12 days before today, some 31 to 42 days ago (the previous
 * period of the last 30 days), so every number the page shows has a brute-force answer.
 */
function referralTraffic(): { hits: Record<string, unknown>[]; sent: SentView[] } {
  const rand = random(20);
  const hits: Record<string, unknown>[] = [];
  const sent: SentView[] = [];
  for (let n = 0; n < 400; n++) {
    const human = rand() < 0.85;
    const id = Math.floor(rand() * (human ? 40 : 6));
    const day = rand() < 0.7 ? today - 1 - Math.floor(rand() * 12) : today - 31 - Math.floor(rand() * 12);
    const page = REFERRAL_PAGES[Math.floor(rand() * REFERRAL_PAGES.length)] as string;
    const arrival = human ? (ARRIVALS[Math.floor(rand() * ARRIVALS.length)] as (typeof ARRIVALS)[number]) : null;
    hits.push({
      timestamp: new Date(day * DAY_MS + Math.floor(rand() * (DAY_MS - 1000))).toISOString(),
      path: page,
      ip: human ? `203.0.113.${id}` : publishedAddress(AI_ADDRESS_LISTS[0], id).ip,
      userAgent: human ? USER_AGENTS.human[0] : USER_AGENTS.ai[0],
      ...(arrival?.referrer ? { referrer: arrival.referrer } : {}),
    });
    sent.push({ day, person: `${human ? "h" : "a"}${id}`, kind: human ? "human" : "ai", page, source: arrival?.source ?? null });
  }
  return { hits, sent };
}

/** The brute-force side: what the page must show for the days [from, to), optionally under a path prefix. */
function expectedOf(sent: SentView[], from: number, to: number, prefix?: string) {
  const under = (page: string) => prefix === undefined || page === prefix || page.startsWith(`${prefix}/`);
  const seen = sent.filter((s) => s.day >= from && s.day < to);
  // A person is one visitor per salt window (month, the default).
  const who = (s: SentView) => `${windowOf("month", s.day).start}:${s.person}`;
  const distinct = (views: SentView[]) => new Set(views.map(who)).size;
  const counts = (views: SentView[]) => {
    const human = distinct(views.filter((s) => s.kind === "human"));
    const ai = distinct(views.filter((s) => s.kind === "ai"));
    return { human, ai, total: human + ai, bot: 0 };
  };
  const inSection = seen.filter((s) => under(s.page));
  const pages = [...new Set(inSection.map((s) => s.page))]
    .map((path) => {
      const views = inSection.filter((s) => s.page === path);
      return { path, ...counts(views), fromAi: distinct(views.filter((s) => s.source === "chatgpt.com")) };
    })
    .sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : 1));
  const referrers = ARRIVALS.map(({ source, channel }) => {
    const views = seen.filter((s) => s.source === source);
    return { source, channel, visitors: distinct(views), views: views.length };
  })
    .filter((r) => r.views > 0)
    .sort((a, b) => b.visitors - a.visitors || b.views - a.views || (a.source < b.source ? -1 : 1));
  const fromAi = seen.filter((s) => s.source === "chatgpt.com");
  return { totals: counts(inSection), pages, referrers, aiArrivals: { visitors: distinct(fromAi), views: fromAi.length }, aiViews: seen.filter((s) => s.kind === "ai").length };
}

async function newPage(viewport = DESKTOP, watch = true): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  if (watch) page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()} (${page.url()})`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message} (${page.url()})`));
  return page;
}

/** Presses Tab until the element matching `selector` has focus; fails if it is not reachable by keyboard. */
async function tabTo(page: Page, selector: string, maxPresses = 60): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${selector} is not reachable with Tab`);
}

/** The chart canvas's size and how many of its pixels are painted, read from a copy so the page's own canvas is read back only by its own code. */
function paintedChart(page: Page): Promise<{ width: number; cssWidth: number; painted: number }> {
  return page.$eval("#visitors-chart", (canvas) => {
    const c = canvas as any;
    const copy = c.ownerDocument.createElement("canvas");
    copy.width = c.width;
    copy.height = c.height;
    const context = copy.getContext("2d", { willReadFrequently: true });
    context.drawImage(c, 0, 0);
    const data = context.getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted++;
    return { width: c.width, cssWidth: c.getBoundingClientRect().width, painted };
  });
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${t.url}/dashboard/sign-in`);
  await page.fill("#token", ADMIN_TOKEN);
  await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click("button[type=submit]")]);
}

async function screenshot(page: Page, name: string): Promise<void> {
  for (const [label, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
    // Nothing may need sideways scrolling on a phone (tables scroll inside their own box).
    const overflowing = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest(".table-wrap, pre"))
        .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className ? `.${String(el.className).replace(/ /g, ".")}` : ""}`),
    );
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect({ scrolls, overflowing }, `${name} at ${label} width scrolls sideways`).toEqual({ scrolls: 0, overflowing: [] });
  }
  await page.setViewportSize(DESKTOP);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  t = await startTestServer({ dispatcher: gated.dispatcher });
  project = await t.newProject("acme/handbook");
  await seedTraffic(project.projectId, project.key);
  referred = await t.newProject("acme/referred");
  referralSeed = referralTraffic();
  const seeded = await t.call("POST", `/v1/analytics/${referred.projectId}/hits`, { token: referred.key, body: { hits: referralSeed.hits } });
  expect(seeded.body).toMatchObject({ accepted: referralSeed.hits.length, rejected: [] });
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  gated.release();
  await browser?.close();
  await t?.close();
});

afterEach(() => {
  // No console errors or warnings on any page: a CSP violation or a script error shows up here.
  expect(problems.splice(0)).toEqual([]);
});

describe("dashboard in a real browser", () => {
  it("signs in with the operator token using only the keyboard, and lists the project", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/keys`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await screenshot(page, "sign-in");
    await tabTo(page, "#token");
    await page.keyboard.type(ADMIN_TOKEN);
    await Promise.all([page.waitForURL(/\/keys$/), page.keyboard.press("Enter")]);
    // Brought back to the page that asked for sign-in.
    expect(await page.textContent("#project-id")).toBe(project.projectId);
    await page.goto(`${t.url}/dashboard`);
    expect(await page.textContent("main table")).toContain("acme/handbook");
    await screenshot(page, "projects");
    const cookies = await context.cookies(t.url);
    const session = cookies.find((c) => c.name === "inkwell_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await page.close();
  });

  it("creates a key that works against the API, then revokes it and the API refuses it", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/keys`);
    await page.fill("#key-name", "docs-site-ci");
    await page.click("form.inline-form button[type=submit]");
    const key = (await page.textContent("#new-key")) ?? "";
    expect(key).toMatch(/^ink_[A-Za-z0-9_-]{43}$/);
    expect(await page.textContent(".new-key .warning")).toContain("shown only once");
    // The copy buttons put the key and the project id on the clipboard.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: t.url });
    await page.click("button[data-copy=new-key]");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await page.textContent("button[data-copy=new-key]")).toBe("Copied");
    await page.click("button[data-copy=project-id]");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(project.projectId);
    await screenshot(page, "keys");

    const withKey = await t.call("GET", `/v2/agent/${project.projectId}/jobs`, { token: key });
    expect(withKey.status).toBe(200);

    // The key is never shown again.
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/keys`);
    expect(await page.content()).not.toContain(key);
    const row = page.locator("#keys-table tr", { hasText: "docs-site-ci" });
    await row.getByRole("link", { name: /Revoke/ }).click();
    expect(await page.textContent("main")).toContain("Every client using this key gets 401");
    await screenshot(page, "revoke-key");
    await Promise.all([page.waitForURL(/notice=key-revoked/), page.click("button.danger")]);
    expect(await page.textContent("[role=status]")).toContain("revoked");
    expect(await page.locator("#keys-table tr", { hasText: "docs-site-ci" }).count()).toBe(0);

    const afterRevoke = await t.call("GET", `/v2/agent/${project.projectId}/jobs`, { token: key });
    expect(afterRevoke.status).toBe(401);
    await page.close();
  });

  it("shows the same analytics numbers as the API, sorts and pages the table, and downloads them as CSV", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/analytics?days=30`);
    // The range the page shows (read from it, so a run across midnight UTC still compares like with like).
    const shownFrom = await page.inputValue("#from");
    const shownTo = await page.inputValue("#to");
    expect(Date.parse(shownTo) - Date.parse(shownFrom)).toBe(29 * DAY_MS);
    const dayAfter = iso(Date.parse(shownTo) / DAY_MS + 1);
    const api = await t.call("GET", `/v1/analytics/${project.projectId}/visitors?dateFrom=${shownFrom}&dateTo=${dayAfter}&limit=250`, { token: project.key });
    expect(api.status).toBe(200);
    const num = (text: string | null) => Number((text ?? "").replace(/,/g, ""));
    expect(num(await page.textContent("#total-human"))).toBe(api.body.totals.human);
    expect(num(await page.textContent("#total-ai"))).toBe(api.body.totals.ai);
    expect(num(await page.textContent("#total-all"))).toBe(api.body.totals.total);
    expect(num(await page.textContent("#total-bot"))).toBe(api.body.totals.bot);
    expect(api.body.totals.ai).toBeGreaterThan(0);
    expect(api.body.totals.bot).toBeGreaterThan(0);

    const tableRows = async () =>
      page.$$eval("#pages-table tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    const shown = (await tableRows()).map(([p, h, a, tot, b]) => ({ path: p, human: num(h ?? ""), ai: num(a ?? ""), bot: num(b ?? ""), total: num(tot ?? "") }));
    expect(shown).toEqual(api.body.visitors.slice(0, 50));
    expect(api.body.visitors.length).toBeGreaterThan(50);

    // The next page of the table is the API's next page.
    await Promise.all([page.waitForURL(/offset=50/), page.click(".pager a[rel=next]")]);
    const second = (await tableRows()).map(([p, h, a, tot, b]) => ({ path: p, human: num(h ?? ""), ai: num(a ?? ""), bot: num(b ?? ""), total: num(tot ?? "") }));
    expect(second).toEqual(api.body.visitors.slice(50, 100));
    expect(await page.locator(".pager a[rel=next]").count()).toBe(api.body.visitors.length > 100 ? 1 : 0);
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/analytics?days=30`);

    // Each day of the chart equals the API asked for that one day.
    const series = JSON.parse((await page.textContent("#visitors-series")) ?? "[]") as { date: string; human: number; ai: number; total: number }[];
    expect(series).toHaveLength(30);
    for (const day of series.slice(-12)) {
      const next = iso(Math.floor(Date.parse(`${day.date}T00:00:00Z`) / DAY_MS) + 1);
      const one = await t.call("GET", `/v1/analytics/${project.projectId}/visitors?dateFrom=${day.date}&dateTo=${next}&limit=1`, { token: project.key });
      expect({ date: day.date, ...one.body.totals }).toEqual(day);
    }
    // The chart really drew: the canvas has a size and non-blank pixels.
    const drawn = await paintedChart(page);
    expect(drawn.width).toBeGreaterThan(100);
    expect(drawn.painted).toBeGreaterThan(500);
    expect(await page.textContent("#ai-table")).toMatch(/Assistants|crawlers|search/);
    // Why its total may be below the AI agents page's: it counts served pages only, and says so.
    expect(await page.textContent("#ai-kinds-scope")).toContain("Fetches that failed (a 404, a 410…) are left out here");
    await screenshot(page, "analytics");
    // On a phone the pages table says it scrolls sideways, and paths wrap after a slash, not inside a word.
    await page.setViewportSize(PHONE);
    expect(await page.isVisible("#pages-scroll-hint")).toBe(true);
    const pathCell = await page.$eval("#pages-table td.path", (td) => ({ html: td.innerHTML, wordBreak: (globalThis as unknown as { getComputedStyle(el: unknown): { wordBreak: string } }).getComputedStyle(td).wordBreak, text: td.textContent }));
    expect(pathCell.wordBreak).toBe("normal");
    if ((pathCell.text ?? "").split("/").length > 2) expect(pathCell.html).toContain("<wbr>");
    // A short path keeps one line: its column is not squeezed to its longest segment.
    const pathLines = await page.$eval("#pages-table td.path", (td) => {
      const range = td.ownerDocument.createRange();
      range.selectNodeContents(td);
      return { text: td.textContent ?? "", lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
    });
    expect(pathLines.text.length).toBeLessThanOrEqual(16);
    expect(pathLines.lines, pathLines.text).toBe(1);
    // Resized to a phone's width, the chart lays itself out again (chart-layout.ts) and still draws.
    const phoneChart = await paintedChart(page);
    expect(phoneChart.cssWidth).toBeLessThan(400);
    expect(phoneChart.painted).toBeGreaterThan(500);
    await page.setViewportSize(DESKTOP);
    expect(await page.isVisible("#pages-scroll-hint")).toBe(false);

    // Sort by AI visitors, ascending, with the keyboard: the order equals sorting the API's rows.
    await tabTo(page, "#pages-table th a[href*='sort=ai']");
    await Promise.all([page.waitForURL(/sort=ai/), page.keyboard.press("Enter")]);
    const byAiDesc = (await tableRows()).map((r) => r[0]);
    const expected = [...api.body.visitors].sort((a: any, b: any) => b.ai - a.ai || (a.path < b.path ? -1 : 1)).map((r: any) => r.path);
    expect(byAiDesc).toEqual(expected.slice(0, 50));

    // Custom range through the form: one day, To inclusive.
    const day = iso(today - 3);
    await page.fill("#from", day);
    await page.fill("#to", day);
    await Promise.all([page.waitForURL(new RegExp(`from=${day}&to=${day}`)), page.click(".custom-range button[type=submit]")]);
    const oneDay = await t.call("GET", `/v1/analytics/${project.projectId}/visitors?dateFrom=${day}&dateTo=${iso(today - 2)}`, { token: project.key });
    expect(num(await page.textContent("#total-all"))).toBe(oneDay.body.totals.total);

    // CSV of the 30-day view, every row, in the shown order.
    const csv = await page.request.get(`${t.url}/dashboard/projects/${project.projectId}/analytics.csv?days=30`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-disposition"]).toMatch(/attachment; filename="inkwell-visitors-.*\.csv"/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("path,human,ai,total,bot,from_ai_answers");
    // Nobody arrived from an AI answer in this project's traffic.
    expect(lines.slice(1)).toEqual(api.body.visitors.map((r: any) => `${r.path},${r.human},${r.ai},${r.total},${r.bot},0`));

    // Only Markdown's readers, chosen from the form: the table, its totals and its CSV are the API's
    // `format=markdown`; the site's totals above stay those of every format.
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/analytics?days=30&sort=ai&dir=desc`);
    await page.selectOption("#format", "markdown");
    await Promise.all([page.waitForURL(/format=markdown/), page.click(".format-form button[type=submit]")]);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("ai");
    const markdown = await t.call("GET", `/v1/analytics/${project.projectId}/visitors?dateFrom=${shownFrom}&dateTo=${dayAfter}&limit=250&format=markdown`, { token: project.key });
    expect(markdown.body.totals.ai).toBeGreaterThan(0);
    expect(markdown.body.totals.total).toBeLessThan(api.body.totals.total);
    expect(num(await page.textContent("#total-all"))).toBe(api.body.totals.total);
    expect(num(await page.textContent("#format-total-ai"))).toBe(markdown.body.totals.ai);
    expect(num(await page.textContent("#format-total-all"))).toBe(markdown.body.totals.total);
    const markdownRows = (await tableRows()).map(([p, h, a, tot, b]) => ({ path: p, human: num(h ?? ""), ai: num(a ?? ""), bot: num(b ?? ""), total: num(tot ?? "") }));
    const byAi = [...markdown.body.visitors].sort((a: any, b: any) => b.ai - a.ai || (a.path < b.path ? -1 : 1));
    expect(markdownRows).toEqual(byAi.slice(0, 50));
    const markdownCsv = await page.request.get(`${t.url}/dashboard/projects/${project.projectId}/analytics.csv?${new URL(page.url()).searchParams}`);
    expect(markdownCsv.headers()["content-disposition"]).toMatch(/filename="inkwell-visitors-.*-markdown-.*\.csv"/);
    expect((await markdownCsv.text()).trim().split("\r\n").slice(1)).toEqual(byAi.map((r: any) => `${r.path},${r.human},${r.ai},${r.total},${r.bot},0`));
    expect((await page.request.get(`${t.url}/dashboard/projects/${project.projectId}/analytics?format=pdf`)).status()).toBe(400);

    // Bad input gets a page that says what is wrong.
    const bad = await page.request.get(`${t.url}/dashboard/projects/${project.projectId}/analytics?from=2026-02-30&to=2026-03-01`);
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain("from: is not a real date");
    await page.close();
  });

  it("shows where people came from, AI answers per page, a section, and the previous period, each table with its CSV", async () => {
    const page = await newPage();
    const base = `${t.url}/dashboard/projects/${referred.projectId}/analytics`;
    await page.goto(`${base}?days=30`);
    const dayOf = async (selector: string) => Date.parse(await page.inputValue(selector)) / DAY_MS;
    const from = await dayOf("#from");
    const to = (await dayOf("#to")) + 1;
    const num = (text: string | null) => Number((text ?? "").replace(/,/g, ""));
    const site = expectedOf(referralSeed.sent, from, to);
    expect(num(await page.textContent("#total-human"))).toBe(site.totals.human);
    expect(num(await page.textContent("#total-ai"))).toBe(site.totals.ai);

    // Referrals: each source with its channel as a badge, its distinct people and its views.
    const referrerRows = () =>
      page.$$eval("#referrers-table tbody tr", (trs: any[]) =>
        trs.map((tr) => {
          const [source, channel, visitors, views] = [...tr.querySelectorAll("td")] as any[];
          return { source: source.textContent, channel: channel.querySelector(".badge").dataset.channel, visitors: Number(visitors.textContent.replace(/,/g, "")), views: Number(views.textContent.replace(/,/g, "")) };
        }),
      );
    expect(await referrerRows()).toEqual(site.referrers);
    expect(site.referrers.find((r) => r.source === "chatgpt.com")).toMatchObject({ channel: "ai" });
    expect(await page.textContent("#referrers-table .badge[data-channel=ai]")).toBe("AI");
    expect(num(await page.textContent("#ai-arrivals-visitors"))).toBe(site.aiArrivals.visitors);
    expect(num(await page.textContent("#ai-arrivals-views"))).toBe(site.aiArrivals.views);
    await page.selectOption("#channel", "ai");
    await Promise.all([page.waitForURL(/channel=ai/), page.click("form[aria-label='Referral channel'] button[type=submit]")]);
    expect(await referrerRows()).toEqual(site.referrers.filter((r) => r.channel === "ai"));

    // The pages table: people who arrived on each page from an AI answer, and their share of its human visitors.
    const pageRows = () =>
      page.$$eval("#pages-table tbody tr", (trs: any[]) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td: any) => td.textContent.trim())));
    const shownPages = (await pageRows()).map(([path, human, ai, total, bot, fromAi]) => ({ path, human: num(human ?? ""), ai: num(ai ?? ""), total: num(total ?? ""), bot: num(bot ?? ""), fromAi: fromAi ?? "" }));
    const share = (p: { human: number; fromAi: number }) => (p.fromAi === 0 ? "0" : `${p.fromAi} · ${Math.round((p.fromAi / p.human) * 100)}% of the page's human visitors`);
    expect(shownPages).toEqual(site.pages.map((p) => ({ ...p, fromAi: share(p) })));
    expect(site.pages.some((p) => p.fromAi > 0)).toBe(true);

    // Compare with the previous period (the preset stays): the previous totals and the change, and a second, dimmer line.
    const dimPixels = () =>
      page.$eval("#visitors-chart", (canvas: any) => {
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        let dim = 0;
        // --previous: #8c959f
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 140) <= 8 && Math.abs(data[i + 1] - 149) <= 8 && Math.abs(data[i + 2] - 159) <= 8 && data[i + 3] === 255) dim++;
        return dim;
      });
    expect(await dimPixels()).toBe(0);
    await page.check("#compare");
    await Promise.all([page.waitForURL(/compare=previous/), page.click(".custom-range button[type=submit]")]);
    expect(new URL(page.url()).searchParams.get("channel")).toBe("ai");
    expect(await page.getAttribute(".presets a[href*='days=30']", "aria-current")).toBe("true");
    const before = expectedOf(referralSeed.sent, from - 30, from);
    expect(before.totals.human).toBeGreaterThan(0);
    for (const [id, key] of [["total-human", "human"], ["total-ai", "ai"], ["total-all", "total"]] as const) {
      expect(num(await page.textContent(`#${id}`))).toBe(site.totals[key]);
      expect(num(await page.textContent(`#${id}-previous`))).toBe(before.totals[key]);
      const change = before.totals[key] === 0 ? "new" : `${Math.abs(Math.round(((site.totals[key] - before.totals[key]) / before.totals[key]) * 100))}%`;
      expect(await page.textContent(`#${id}-change`)).toContain(change);
    }
    // The arrow is for the eye; the words are for a screen reader.
    const spoken = await page.$eval("#total-human-change", (dd: any) => [...dd.querySelectorAll(".visually-hidden")].map((s: any) => s.textContent).join(""));
    const direction = Math.round(((site.totals.human - before.totals.human) / before.totals.human) * 100);
    expect(spoken).toBe(direction > 0 ? "up " : direction < 0 ? "down " : " change");
    const series = JSON.parse((await page.textContent("#visitors-series")) ?? "[]");
    expect(series).toHaveLength(30);
    expect(series.every((d: any) => d.previous && typeof d.previous.total === "number")).toBe(true);
    expect(series[0].previousDate).toBe(iso(from - 30));
    expect(series.reduce((sum: number, d: any) => sum + d.previous.human, 0)).toBeGreaterThan(0);
    expect(await dimPixels()).toBeGreaterThan(50);

    // A section: the chart, the totals and the pages table are /docs and the pages under it (never /docs-archive).
    await page.fill("#path", "/docs");
    await Promise.all([page.waitForURL(/path=%2Fdocs/), page.click(".custom-range button[type=submit]")]);
    const docs = expectedOf(referralSeed.sent, from, to, "/docs");
    const docsBefore = expectedOf(referralSeed.sent, from - 30, from, "/docs");
    expect(docs.totals.human).toBeLessThan(site.totals.human);
    expect(num(await page.textContent("#total-human"))).toBe(docs.totals.human);
    expect(num(await page.textContent("#total-ai"))).toBe(docs.totals.ai);
    expect(num(await page.textContent("#total-all"))).toBe(docs.totals.total);
    expect(num(await page.textContent("#total-human-previous"))).toBe(docsBefore.totals.human);
    const docsPages = (await pageRows()).map(([path, human, ai, total]) => ({ path, human: num(human ?? ""), ai: num(ai ?? ""), total: num(total ?? "") }));
    expect(docsPages).toEqual(docs.pages.map(({ path, human, ai, total }) => ({ path, human, ai, total })));
    expect(docsPages.map((p) => p.path).sort()).toEqual(["/docs", "/docs/guides/webhooks", "/docs/install"]);
    await screenshot(page, "analytics-referrals");

    // Every table's CSV, from its own link: the page's range and filters, a header, every row.
    const csvOf = async (selector: string) => {
      const href = (await page.getAttribute(selector, "href")) ?? "";
      const answer = await page.request.get(`${t.url}${href}`);
      expect(answer.status(), href).toBe(200);
      expect(answer.headers()["content-type"]).toBe("text/csv; charset=utf-8");
      expect(answer.headers()["content-disposition"]).toMatch(/^attachment; filename="inkwell-[a-z-]+-acme-referred-.*\.csv"$/);
      return (await answer.text()).split("\r\n").slice(0, -1);
    };
    expect(await csvOf("#pages-csv")).toEqual(["path,human,ai,total,bot,from_ai_answers", ...docs.pages.map((p) => `${p.path},${p.human},${p.ai},${p.total},${p.bot},${p.fromAi}`)]);
    expect(await csvOf("#referrers-csv")).toEqual(["source,channel,visitors,views", ...site.referrers.filter((r) => r.channel === "ai").map((r) => `${r.source},${r.channel},${r.visitors},${r.views}`)]);
    const daily = await csvOf("#daily-csv");
    expect(daily[0]).toBe("date,human,ai,bot,total,previous_date,previous_human,previous_ai,previous_bot,previous_total");
    const docsSeries = JSON.parse((await page.textContent("#visitors-series")) ?? "[]");
    expect(daily.slice(1)).toEqual(docsSeries.map((d: any) => [d.date, d.human, d.ai, d.bot, d.total, d.previousDate, d.previous.human, d.previous.ai, d.previous.bot, d.previous.total].join(",")));
    expect(await csvOf("#ai-kinds-csv")).toEqual(["kind,views", `assistant,${site.aiViews}`]);
    // A real download from the link, as a person clicks it.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#referrers-csv")]);
    expect(download.suggestedFilename()).toMatch(/^inkwell-referrers-acme-referred-ai-.*\.csv$/);

    // A section deeper than two segments, or not a path, is a 400 that says what to fix.
    for (const bad of ["/a/b/c", "docs"]) {
      const refused = await page.request.get(`${base}?path=${encodeURIComponent(bad)}`);
      expect(refused.status()).toBe(400);
      expect(await refused.text()).toContain("path: must be a URL path of at most 2 segments, like /docs or /docs/guides");
    }
    expect((await page.request.get(`${base}.csv?path=/a/b/c`)).status()).toBe(400);
    await page.close();
  });

  it("shows the AI agents the API reports, how their claims checked out, what they read and what failed", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/analytics?days=30`);
    await tabTo(page, "nav a[href$='/agents']");
    await Promise.all([page.waitForURL(/\/agents$/), page.keyboard.press("Enter")]);
    await page.goto(`${page.url()}?days=30`);
    const shownFrom = await page.inputValue("#from");
    const dayAfter = iso(Date.parse(await page.inputValue("#to")) / DAY_MS + 1);
    const range = `dateFrom=${shownFrom}&dateTo=${dayAfter}`;
    const api = await t.call("GET", `/v1/analytics/${project.projectId}/agents?${range}&limit=250`, { token: project.key });
    expect(api.body.agents.length).toBeGreaterThan(1);
    const num = (text: string | null) => Number((text ?? "").replace(/,/g, ""));
    expect(num(await page.textContent("#agents-views"))).toBe(api.body.totals.views);
    expect(num(await page.textContent("#agents-visitors"))).toBe(api.body.totals.visitors);
    const spoofed = api.body.agents.reduce((sum: number, a: any) => sum + a.verification.spoofed, 0);
    expect(spoofed).toBeGreaterThan(0);
    expect(num(await page.textContent("#agents-spoofed"))).toBe(spoofed);
    const rows = await page.$$eval("#agents-table tbody tr", (trs: any[]) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td: any) => td.textContent.trim())));
    expect(rows.map(([agent, , , views, visitors, pages]) => ({ agent, views: num(views ?? ""), visitors: num(visitors ?? ""), pages: num(pages ?? "") }))).toEqual(
      api.body.agents.map((a: any) => ({ agent: a.agent, views: a.views, visitors: a.visitors, pages: a.pages })),
    );
    expect(await page.textContent("#formats-table")).toContain("Markdown");
    const failures = await t.call("GET", `/v1/analytics/${project.projectId}/failures?${range}&limit=20`, { token: project.key });
    expect(failures.body.failures.length).toBeGreaterThan(0);
    expect(await page.$$eval("#failures-table tbody tr", (trs: any[]) => trs.length)).toBe(failures.body.failures.length);

    // One agent: the pages it read, as the API lists them.
    const agent = api.body.agents[0].agent as string;
    await Promise.all([page.waitForURL(new RegExp(`/agents/${encodeURIComponent(agent)}`)), page.click(`#agents-table a:text-is("${agent}")`)]);
    const pages = await t.call("GET", `/v1/analytics/${project.projectId}/agents/${encodeURIComponent(agent)}/pages?${range}&limit=250`, { token: project.key });
    const shown = await page.$$eval("#agent-pages-table tbody tr", (trs: any[]) => trs.map((tr) => tr.querySelector("td").textContent.trim()));
    expect(shown).toEqual(pages.body.pages.map((p: any) => p.path));
    await page.screenshot({ path: path.join(SCREENSHOTS, "agents-desktop.png"), fullPage: true });

    // Each table's CSV has every row of the range, as the API's own CSV of it.
    const csvOf = async (href: string | null) => {
      const answer = await page.request.get(`${t.url}${href ?? ""}`);
      expect(answer.status(), href ?? "").toBe(200);
      expect(answer.headers()["content-type"]).toBe("text/csv; charset=utf-8");
      return answer.text();
    };
    const apiCsv = async (report: string) => (await t.call("GET", `/v1/analytics/${project.projectId}/${report}${report.includes("?") ? "&" : "?"}${range}&output=csv`, { token: project.key })).body;
    expect(await csvOf(await page.getAttribute("#agent-pages-csv", "href"))).toBe(await apiCsv(`agents/${encodeURIComponent(agent)}/pages`));
    const agentDaily = (await csvOf(await page.getAttribute("#agent-daily-csv", "href"))).split("\r\n");
    expect(agentDaily[0]).toBe("date,views,spoofed");
    expect(agentDaily.slice(1, -1).map((line) => line.split(",")[0])).toEqual(await page.$$eval("#agent-daily-table tbody tr td:first-child", (tds: any[]) => tds.map((td) => td.textContent)));
    await page.goBack();
    expect(await csvOf(await page.getAttribute("#agents-csv", "href"))).toBe(await apiCsv("agents"));
    expect(await csvOf(await page.getAttribute("#failures-csv", "href"))).toBe(await apiCsv("failures"));
    const formats = (await csvOf(await page.getAttribute("#formats-csv", "href"))).split("\r\n");
    expect(formats[0]).toBe("format,human,ai,bot");
    expect(formats.slice(1, -1).map((line) => line.split(",")[0])).toContain("markdown");
    await page.close();
  });

  it("creates a job and follows its status live, then sends a follow-up, all from the keyboard", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/jobs`);
    await tabTo(page, "#new-prompt");
    await page.keyboard.type("Document the new rate limit on the API page.");
    await tabTo(page, "form.stack button[type=submit]");
    await Promise.all([page.waitForURL(/\/jobs\/[a-z0-9]+\?notice=job-created$/), page.keyboard.press("Enter")]);
    const jobId = new URL(page.url()).pathname.split("/").pop() as string;
    expect(await page.textContent("#job-status")).toBe("active");
    expect(await page.textContent(".messages")).toContain("Document the new rate limit");
    await screenshot(page, "job");

    // The run ends while the page is open: the status changes in place, without a reload.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    gated.release();
    await page.waitForFunction(() => document.querySelector("#job-status")?.textContent === "failed", undefined, { timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(await page.textContent("#job-live")).toContain("The runner could not start (test).");

    await page.fill("#follow-up", "Also mention the Retry-After header.");
    await Promise.all([page.waitForURL(/notice=message-sent/), page.click("section[aria-labelledby=follow-up-heading] button[type=submit]")]);
    expect(await page.textContent(".messages")).toContain("Also mention the Retry-After header.");

    const events = await t.call("GET", `/v2/agent/${project.projectId}/job/${jobId}/events`, { token: project.key });
    expect(events.body.events.map((e: any) => e.type)).toContain("reactivated");
    const job = await t.call("GET", `/v2/agent/${project.projectId}/job/${jobId}`, { token: project.key });
    expect(job.status).toBe(200);

    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/jobs`);
    expect(await page.textContent("#jobs-table")).toContain("Document the new rate limit");
    await screenshot(page, "jobs");
    await page.close();
  });

  it("stops following a job live once the browser is signed out elsewhere", async () => {
    gated.hold();
    const created = await t.call("POST", `/v2/agent/${project.projectId}/job`, { token: project.key, body: { prompt: "Held while the page watches" } });
    expect(created.status).toBe(201);
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/jobs/${created.body.id}`);
    expect(await page.textContent("#job-status")).toBe("active");
    const csrf = (await page.getAttribute("meta[name=csrf-token]", "content")) ?? "";
    const out = await page.request.post(`${t.url}/dashboard/sign-out`, { form: { csrf }, headers: { Origin: t.url }, maxRedirects: 0 });
    expect(out.status()).toBe(303);
    await page.waitForSelector("#job-live .notice", { timeout: 15_000 });
    expect(await page.textContent("#job-live")).toContain("Live updates stopped");
    // The job's details stay as they were; no sign-in page was pasted into the job's page.
    expect(await page.textContent("#job-status")).toBe("active");
    expect(await page.locator("#job-live #token").count()).toBe(0);
    gated.release();
    await signIn(page);
    await page.close();
  });

  it("shows what a run did: summary, files, validation, cost, the runs and a readable transcript", async () => {
    const created = await t.call("POST", `/v2/agent/${project.projectId}/job`, { token: project.key, body: { prompt: "Explain retries" } });
    const jobId = created.body.id as string;
    // A run as the runner protocol leaves it (claimed, transcript, report), through the domain functions its routes call.
    await t.store.db.query(`UPDATE jobs SET status = 'active', error = NULL WHERE id = $1`, [jobId]);
    await t.store.db.query(`INSERT INTO job_runs (job_id, run_attempt, workflow_run_id, workflow_run_url) VALUES ($1, 1, 9001, 'https://github.com/acme/handbook/actions/runs/9001')`, [jobId]);
    await t.store.db.query(`UPDATE job_messages SET run_attempt = 1 WHERE job_id = $1`, [jobId]);
    const caller = { repository: "acme/handbook", repositoryId: null };
    await t.store.db.transaction(async (tx) => {
      await storeTranscript(tx, { jobId, runAttempt: 1, elided: 0, entries: [
        { kind: "system", text: "You are Inkwell…" },
        { kind: "instruction", text: "Explain retries" },
        { kind: "tool_call", tool: "write_file", text: '{"path":"guides/retries.mdx"}' },
        { kind: "tool_result", tool: "write_file", text: "Wrote guides/retries.mdx (120 bytes)." },
        { kind: "assistant", text: "Document retries\n\nAdded a retries page." },
      ] }, caller);
      await reportRun(tx, {
        jobId, runAttempt: 1, outcome: "completed", pr: null, summary: "Added a retries page.",
        model: "anthropic/claude-sonnet-4-5", usage: { inputTokens: 20_000, cachedInputTokens: 5_000, outputTokens: 1_000 }, turns: 4, durationMs: 42_000,
        files: [{ path: "guides/retries.mdx", change: "added" }], validation: { passed: false, problems: ["guides/retries.mdx:3: links to '/nowhere', which does not exist"] },
        phases: [{ name: "claim", ms: 300 }, { name: "link checker ready (tool cache)", ms: 3_100, background: true }, { name: "agent (round 1)", ms: 38_000 }, { name: "link check (round 1)", ms: 3_200 }],
      }, caller);
    });
    const api = (await t.call("GET", `/v2/agent/${project.projectId}/job/${jobId}`, { token: project.key })).body;

    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/jobs/${jobId}`);
    expect(await page.textContent("#job-summary")).toBe("Added a retries page.");
    expect(await page.textContent("#job-files")).toContain("added guides/retries.mdx");
    expect(await page.textContent("#job-validation")).toContain("guides/retries.mdx:3 links to '/nowhere'");
    expect(await page.textContent("#job-cost")).toBe(`$${api.usage.estimatedCostUsd.toFixed(4)}`);
    expect(await page.textContent("#runs-table")).toMatch(/#1\s*api/);
    // The run's time on its path (background work apart), and where it went, one click away.
    expect(await page.textContent("#runs-table .run-phases summary")).toBe("41.5 s");
    expect(await page.textContent("#runs-table .run-phases p")).toBe("claim 0.3 s · link checker ready (tool cache) 3.1 s (background) · agent (round 1) 38.0 s · link check (round 1) 3.2 s");
    await screenshot(page, "job-outcome");
    await tabTo(page, "#runs-table a[href$='/runs/1']");
    await Promise.all([page.waitForURL(/\/runs\/1$/), page.keyboard.press("Enter")]);
    const items = await page.$$eval("#transcript > li", (lis) => lis.map((li) => li.querySelector(".event-type")?.textContent ?? ""));
    expect(items).toEqual(["System prompt", "Instruction", "Tool call: write_file", "Result: write_file", "Agent"]);
    expect(await page.textContent("#transcript")).toContain("Added a retries page.");
    await screenshot(page, "transcript");
    await page.close();
  });

  it("shows the setup page with the workflow for this server and the project's model", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard/projects/${project.projectId}/setup`);
    const workflow = (await page.textContent("#workflow-file")) ?? "";
    expect(workflow).toContain(`inkwell-url: ${t.url}`);
    expect(workflow).toContain("types: [inkwell-agent]");
    expect(await page.textContent("main")).toContain("No GitHub App is configured");
    expect(await page.textContent("#beacon-snippet")).toContain(`data-project="${project.projectId}"`);
    await screenshot(page, "setup");
    await page.close();
  });

  it("breaks no word of the GitHub App and Setup pages across lines at desktop width", async () => {
    const page = await newPage();
    // Run alone (-t), the browser is not signed in yet; in the suite, it is.
    await page.goto(`${t.url}/dashboard`);
    if (page.url().includes("/sign-in")) await signIn(page);
    for (const url of [`${t.url}/dashboard/github-app`, `${t.url}/dashboard/projects/${project.projectId}/setup`]) {
      await page.goto(url);
      // Each word of the page's text (code blocks scroll instead of wrapping) must sit on one line.
      const broken = await page.evaluate(() => {
        const walker = document.createTreeWalker(document.querySelector("main"), 4);
        const words: string[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement.closest("pre, script")) continue;
          for (const match of node.textContent.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const tops = new Set([...range.getClientRects()].map((rect: any) => Math.round(rect.top)));
            if (tops.size > 1) words.push(match[0]);
          }
        }
        return words;
      });
      expect(await page.textContent("h1"), url).toMatch(/GitHub App|Setup|acme\/handbook/);
      expect(broken, url).toEqual([]);
    }
    await screenshot(page, "github-app");
    await page.close();
  });

  it("refuses a cross-site form post even when the browser is signed in", async () => {
    // A page on another origin (localhost vs 127.0.0.1) that posts a form to the dashboard.
    // The refusal is the point here, so this page's console is not watched.
    const page = await newPage(DESKTOP, false);
    const evil = `http://localhost:${new URL(t.url).port}`;
    await page.goto(`${evil}/openapi.json`);
    const target = `${t.url}/dashboard/projects/${project.projectId}/keys`;
    const refused = page.waitForResponse((response) => response.url() === target);
    await page.evaluate(async (url) => {
      await fetch(url, { method: "POST", body: new URLSearchParams({ name: "evil" }), credentials: "include", mode: "no-cors" });
    }, target);
    expect((await refused).status()).toBe(403);
    const keys = await t.call("GET", `/admin/projects/${project.projectId}/keys`, { token: ADMIN_TOKEN });
    expect(keys.body.keys.map((k: any) => k.name)).not.toContain("evil");
    await page.close();
  });

  it("signs out: the old session cookie no longer opens a page", async () => {
    const page = await newPage();
    await page.goto(`${t.url}/dashboard`);
    const before = (await context.cookies(t.url)).find((c) => c.name === "inkwell_session")?.value;
    expect(before).toBeTruthy();
    await Promise.all([page.waitForURL(/sign-in\?notice=signed-out/), page.click(".signout button")]);
    const replay = await fetch(`${t.url}/dashboard`, { headers: { Cookie: `inkwell_session=${before}` }, redirect: "manual" });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toMatch(/^\/dashboard\/sign-in/);
    await signIn(page);
    await page.close();
  });
});
