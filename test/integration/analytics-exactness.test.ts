import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SaltWindow } from "../../src/shared/analytics-vocabulary.js";
import { dayToIso, epochDay, windowOf } from "../../src/shared/epoch-days.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import {
  bruteForceAgentPages,
  bruteForceAgents,
  bruteForceFailures,
  bruteForceViews,
  bruteForceVisitors,
  generateTraffic,
  random,
  wireHit,
  type GeneratedHit,
} from "../helpers/traffic.js";

// Two weeks around the start of last month: a month boundary, several week boundaries, always in the past.
const now = new Date();
const lastMonth = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const firstDay = lastMonth - 6;
const DAYS = 14;
const hits = generateTraffic({ seed: 42, people: 400, paths: 30, firstDay, days: DAYS, views: 4_000 });

let t: TestServer;
const projects: Record<SaltWindow, { projectId: string; key: string }> = {} as never;

beforeAll(async () => {
  // Small rollup chunks counted by four workers: masks are updated across many chunks, partitions in parallel (on PostgreSQL), and days arrive out of order.
  t = await startTestServer({ env: { INKWELL_ANALYTICS_ROLLUP_CHUNK: "150", INKWELL_ANALYTICS_ROLLUP_WORKERS: "4" } });
  const shuffled = hits.map((_, i) => hits[(i * 7919) % hits.length] as GeneratedHit);
  for (const saltWindow of ["month", "week", "day"] as const) {
    projects[saltWindow] = await t.newProject(undefined, { analytics: { saltWindow } });
    for (let i = 0; i < shuffled.length; i += 500) {
      const batch = shuffled.slice(i, i + 500).map(wireHit);
      const answer = await t.call("POST", `/v1/analytics/${projects[saltWindow].projectId}/hits`, { token: projects[saltWindow].key, body: { hits: batch } });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ accepted: batch.length, duplicates: 0, rejected: [] });
    }
  }
}, 120_000);
afterAll(() => t.close());

const query = (from: number | null, to: number | null, extra = "") =>
  [from !== null ? `dateFrom=${dayToIso(from)}` : "", to !== null ? `dateTo=${dayToIso(to)}` : "", extra].filter(Boolean).join("&");

/** Every row of a report, page by page; `path` is the report's path under the project, `rowsKey` where its rows are. */
async function allRows(saltWindow: SaltWindow, path: string, from: number | null, to: number | null, limit: number, rowsKey = path, extra = "") {
  const { projectId, key } = projects[saltWindow];
  const rows: unknown[] = [];
  let totals: unknown;
  const at = (offset: number, size: number) => `/v1/analytics/${projectId}/${path}?${query(from, to, [`limit=${size}&offset=${offset}`, extra].filter(Boolean).join("&"))}`;
  for (let offset = 0; ; offset += limit) {
    const page = await t.call("GET", at(offset, limit), { token: key });
    expect(page.status).toBe(200);
    const list = page.body[rowsKey] as unknown[];
    expect(list.length).toBeLessThanOrEqual(limit);
    rows.push(...list);
    totals = page.body.totals;
    if (!page.body.hasMore) {
      // hasMore is false exactly when nothing lies beyond this page.
      const beyond = await t.call("GET", at(offset + limit, 1), { token: key });
      expect(beyond.body[rowsKey]).toEqual([]);
      return { totals, rows };
    }
    expect(list.length).toBe(limit);
  }
}

const ranges: [string, number | null, number | null][] = [
  ["open range", null, null],
  ["the whole generated span", firstDay, firstDay + DAYS],
  ["the last days of the month before", firstDay, lastMonth],
  ["across the month boundary", lastMonth - 3, lastMonth + 4],
  ["starting at the month's first day", lastMonth, lastMonth + 5],
  ["one day mid-way", lastMonth + 2, lastMonth + 3],
  ["an empty range (dateFrom = dateTo)", lastMonth + 2, lastMonth + 2],
  ["open start", null, lastMonth + 1],
  ["open end", lastMonth + 5, null],
];
const rand = random(7);
for (let i = 0; i < 6; i++) {
  const a = firstDay + Math.floor(rand() * DAYS);
  const b = a + 1 + Math.floor(rand() * (firstDay + DAYS - a));
  ranges.push([`random range #${i + 1}`, a, b]);
}

describe.each(["month", "week", "day"] as const)("exact unique visitors with a %s salt window", (saltWindow) => {
  const windowStart = (day: number) => windowOf(saltWindow, day).start;

  it.each(ranges)("%s: totals and every page equal a brute-force count, page by page", async (_name, from, to) => {
    const expected = bruteForceVisitors(hits, from, to, windowStart);
    const got = await allRows(saltWindow, "visitors", from, to, 7);
    expect(got.totals).toEqual(expected.totals);
    expect(got.rows).toEqual(expected.visitors);
  });

  it("every single day equals the brute force, and total lies between max(human, ai) and human + ai", async () => {
    for (let day = firstDay; day < firstDay + DAYS; day++) {
      const expected = bruteForceVisitors(hits, day, day + 1, windowStart);
      const got = await allRows(saltWindow, "visitors", day, day + 1, 250);
      expect({ day: dayToIso(day), ...(got as object) }).toEqual({ day: dayToIso(day), totals: expected.totals, rows: expected.visitors });
      for (const row of got.rows as { human: number; ai: number; total: number }[]) {
        expect(row.total).toBeGreaterThanOrEqual(Math.max(row.human, row.ai));
        expect(row.total).toBeLessThanOrEqual(row.human + row.ai);
      }
    }
  });
});

describe.each(["month", "week"] as const)("unique visitors of one format with a %s salt window", (saltWindow) => {
  const windowStart = (day: number) => windowOf(saltWindow, day).start;

  it.each(["html", "markdown", "llms.txt", "text"] as const)("format %s: totals and every page equal a brute-force count over several ranges", async (format) => {
    for (const [name, from, to] of [ranges[0], ranges[2], ranges[ranges.length - 1]] as [string, number | null, number | null][]) {
      const expected = bruteForceVisitors(hits, from, to, windowStart, format);
      const got = await allRows(saltWindow, "visitors", from, to, 13, "visitors", `format=${encodeURIComponent(format)}`);
      expect({ name, ...got }).toEqual({ name, totals: expected.totals, rows: expected.visitors });
    }
  });
});

describe("content views", () => {
  it.each(ranges)("%s: views per page equal a plain count of human and AI hits", async (_name, from, to) => {
    const expected = bruteForceViews(hits, from, to);
    const got = await allRows("month", "views", from, to, 9);
    expect(got.totals).toEqual(expected.totals);
    expect(got.rows).toEqual(expected.views);
  });

  it.each(["html", "markdown", "llms.txt", "text"] as const)("views of format %s equal a plain count of that format's hits, whole months or not", async (format) => {
    // Open ends and the whole span read whole months from the monthly rows, the other days day by day.
    const formatRanges: [number | null, number | null][] = [[lastMonth - 3, lastMonth + 4], [null, null], [null, lastMonth + 1], [lastMonth, null], [firstDay, firstDay + DAYS], [firstDay + 1, null]];
    for (const [from, to] of formatRanges) {
      const expected = bruteForceViews(hits, from, to, format);
      const got = await allRows("month", "views", from, to, 11, "views", `format=${encodeURIComponent(format)}`);
      expect({ from, to, ...got }).toEqual({ from, to, totals: expected.totals, rows: expected.views });
    }
    expect(bruteForceViews(hits, null, null, format).views.length).toBeGreaterThan(0);
  });
});

describe.each(["month", "week"] as const)("AI agents with a %s salt window", (saltWindow) => {
  const windowStart = (day: number) => windowOf(saltWindow, day).start;

  it.each(ranges)("%s: the agents report equals a brute-force count, with and without a category", async (_name, from, to) => {
    const expected = bruteForceAgents(hits, from, to, windowStart);
    const got = await allRows(saltWindow, "agents", from, to, 2);
    expect(got.totals).toEqual(expected.totals);
    expect(got.rows).toEqual(expected.agents);
    const crawlers = bruteForceAgents(hits, from, to, windowStart, "crawler");
    const gotCrawlers = await allRows(saltWindow, "agents", from, to, 250, "agents", "category=crawler");
    expect(gotCrawlers).toEqual({ totals: crawlers.totals, rows: crawlers.agents });
  });

  it.each(ranges)("%s: each agent's pages and the failures equal a brute-force count", async (_name, from, to) => {
    for (const agent of bruteForceAgents(hits, null, null, windowStart).agents) {
      const expected = bruteForceAgentPages(hits, agent.agent, from, to, windowStart);
      const got = await allRows(saltWindow, `agents/${encodeURIComponent(agent.agent)}/pages`, from, to, 6, "pages");
      expect({ agent: agent.agent, pages: got.rows }).toEqual({ agent: agent.agent, pages: expected.pages });
    }
    const failures = await allRows(saltWindow, "failures", from, to, 4, "failures");
    expect(failures.rows).toEqual(bruteForceFailures(hits, from, to).failures);
  });

  it("the traffic has what the reports must tell apart: verified, spoofed and unverifiable claims, failures, every category", () => {
    const all = bruteForceAgents(hits, null, null, windowStart).agents;
    expect(all.map((a) => a.category).sort()).toEqual(expect.arrayContaining(["assistant", "crawler", "search"]));
    for (const kind of ["verified", "spoofed", "unverifiable"] as const) expect(all.some((a) => a.verification[kind] > 0), kind).toBe(true);
    expect(bruteForceFailures(hits, null, null).failures.length).toBeGreaterThan(3);
  });

  it("an agent no view ever claimed is 404", async () => {
    const { projectId, key } = projects[saltWindow];
    const answer = await t.call("GET", `/v1/analytics/${projectId}/agents/${encodeURIComponent("NoSuchBot")}/pages`, { token: key });
    expect(answer.status).toBe(404);
  });
});

describe("identity", () => {
  it("an IPv4 address sent as IPv4-mapped IPv6 is the same visitor; bots are in neither count", async () => {
    const { projectId, key } = await t.newProject();
    const day = lastMonth + 1;
    const at = new Date(day * 86_400_000 + 3_600_000).toISOString();
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const sent = await t.call("POST", `/v1/analytics/${projectId}/hits`, {
      token: key,
      body: {
        hits: [
          { timestamp: at, path: "/a", ip: "192.0.2.10", userAgent: chrome },
          { timestamp: at, path: "/a/", ip: "::ffff:192.0.2.10", userAgent: chrome },
          { timestamp: at, path: "/a?ref=x#top", ip: "::FFFF:C000:020A", userAgent: chrome },
          { timestamp: at, path: "/a", ip: "192.0.2.11", userAgent: chrome },
          { timestamp: at, path: "/a", ip: "192.0.2.12", userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
        ],
      },
    });
    expect(sent.body).toMatchObject({ accepted: 5, rejected: [] });
    const visitors = await t.call("GET", `/v1/analytics/${projectId}/visitors`, { token: key });
    expect(visitors.body).toEqual({ totals: { human: 2, ai: 0, bot: 1, total: 2 }, visitors: [{ path: "/a", human: 2, ai: 0, bot: 1, total: 2 }], hasMore: false });
    const views = await t.call("GET", `/v1/analytics/${projectId}/views`, { token: key });
    expect(views.body.views).toEqual([{ path: "/a", human: 4, ai: 0, bot: 1, total: 4 }]);
  });
});
