import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SaltWindow } from "../../src/shared/admin-schemas.js";
import { dayToIso, epochDay, windowOf } from "../../src/app/analytics/days.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { bruteForceViews, bruteForceVisitors, generateTraffic, wireHit, type GeneratedHit } from "../helpers/traffic.js";

// Five weeks ending in last month's second week: month and week boundaries, always in the past.
const now = new Date();
const lastMonth = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const firstDay = lastMonth - 24;
const DAYS = 35;

/** Pages spread over sections of several depths, a page named like a section, and a look-alike (`/docsx`) that is not under `/docs`. */
const SECTIONED = ["/docs/guides/page-", "/api/page-", "/docs/page-", "/docs/guides/deep/page-"];
function sectioned(hit: GeneratedHit): GeneratedHit {
  const move = (path: string) =>
    path.replace(/^\/docs\/page-(\d+)/, (_, n: string) => (n === "5" ? "/docs" : n === "7" ? "/docsx/page" : `${SECTIONED[Number(n) % SECTIONED.length]}${n}`));
  return { ...hit, path: move(hit.path), page: move(hit.page) };
}
const hits = generateTraffic({ seed: 11, people: 300, paths: 24, firstDay, days: DAYS, views: 3_000 }).map(sectioned);

let t: TestServer;
const projects: Partial<Record<SaltWindow, { projectId: string; key: string }>> = {};

beforeAll(async () => {
  t = await startTestServer({ env: { INKWELL_ANALYTICS_ROLLUP_CHUNK: "200", INKWELL_ANALYTICS_ROLLUP_WORKERS: "3" } });
  for (const saltWindow of ["month", "week"] as const) {
    const project = await t.newProject(undefined, { analytics: { saltWindow } });
    projects[saltWindow] = project;
    for (let i = 0; i < hits.length; i += 1_000) {
      const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: hits.slice(i, i + 1_000).map(wireHit) } });
      expect(answer.status).toBe(202);
    }
  }
}, 120_000);
afterAll(() => t.close());

const underPrefix = (prefix: string | undefined) => (hit: GeneratedHit) => {
  const trimmed = prefix?.replace(/\/+$/, "") ?? "";
  return trimmed === "" || hit.page === trimmed || hit.page.startsWith(`${trimmed}/`);
};

/** The intervals by brute force: calendar days, ISO weeks or months, cut to the range. */
function intervals(from: number, to: number, interval: "day" | "week" | "month") {
  const list: [number, number][] = [];
  for (let day = from; day < to; ) {
    const end = Math.min(to, interval === "day" ? day + 1 : windowOf(interval, day).end);
    list.push([day, end]);
    day = end;
  }
  return list;
}

async function series(saltWindow: SaltWindow, query: string) {
  const { projectId, key } = projects[saltWindow] as { projectId: string; key: string };
  const answer = await t.call("GET", `/v1/analytics/${projectId}/timeseries?${query}`, { token: key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.series as { date: string; human: number; ai: number; bot: number; total: number }[];
}

describe("GET /v1/analytics/{projectId}/timeseries", () => {
  const cases: [SaltWindow, "day" | "week" | "month", string | undefined][] = [
    ["month", "day", undefined],
    ["month", "week", undefined],
    ["month", "month", "/docs"],
    ["month", "week", "/docs/guides/"],
    ["week", "month", undefined],
    ["week", "week", "/api"],
    ["week", "day", "/docs"],
    ["month", "day", "/"],
  ];
  it.each(cases)("salt window %s, interval %s, pathPrefix %s: distinct visitors and views per interval equal brute force", async (saltWindow, interval, prefix) => {
    const from = firstDay + 2;
    const to = firstDay + DAYS - 3;
    const base = `dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&interval=${interval}${prefix ? `&pathPrefix=${encodeURIComponent(prefix)}` : ""}`;
    const selected = hits.filter(underPrefix(prefix));
    const windowStart = (day: number) => windowOf(saltWindow, day).start;
    const expected = intervals(from, to, interval);
    const visitors = await series(saltWindow, `${base}&metric=visitors`);
    const views = await series(saltWindow, `${base}&metric=views`);
    expect(visitors.map((point) => point.date)).toEqual(expected.map(([start]) => dayToIso(start)));
    expect(visitors.map(({ date: _, ...counts }) => counts)).toEqual(expected.map(([a, b]) => bruteForceVisitors(selected, a, b, windowStart).totals));
    expect(views.map(({ date: _, ...counts }) => counts)).toEqual(expected.map(([a, b]) => bruteForceViews(selected, a, b).totals));
    expect(visitors.some((point) => point.total > 0)).toBe(true);
  });

  it("a section's visitors are not a sum of its pages': a reader of two guides is one visitor", async () => {
    const [point] = await series("month", `dateFrom=${dayToIso(firstDay)}&dateTo=${dayToIso(firstDay + DAYS)}&interval=month&pathPrefix=/docs/guides`);
    const { visitors } = bruteForceVisitors(hits.filter(underPrefix("/docs/guides")), firstDay, lastMonth, (day) => windowOf("month", day).start);
    expect(point?.total).toBeLessThan(visitors.reduce((sum, row) => sum + row.total, 0));
  });

  it("compare=previous: each point carries the same interval shifted back by the range's length, exact", async () => {
    const from = firstDay + 14;
    const to = firstDay + DAYS;
    const span = to - from;
    const { projectId, key } = projects.week as { projectId: string; key: string };
    const answer = await t.call("GET", `/v1/analytics/${projectId}/timeseries?dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&interval=week&pathPrefix=/docs&compare=previous`, { token: key });
    expect(answer.status).toBe(200);
    expect(answer.body.previous).toEqual({ dateFrom: dayToIso(from - span), dateTo: dayToIso(from) });
    const selected = hits.filter(underPrefix("/docs"));
    const windowStart = (day: number) => windowOf("week", day).start;
    const expected = intervals(from, to, "week").map(([a, b]) => bruteForceVisitors(selected, a - span, b - span, windowStart).totals);
    expect(answer.body.series.map((point: { previous: unknown }) => point.previous)).toEqual(expected);
    expect(expected.some((counts) => counts.total > 0)).toBe(true);
  });

  it("days with no views are zero points, and a prefix no one read is all zeros", async () => {
    const quiet = await series("month", `dateFrom=${dayToIso(firstDay - 5)}&dateTo=${dayToIso(firstDay)}`);
    expect(quiet).toEqual(intervals(firstDay - 5, firstDay, "day").map(([day]) => ({ date: dayToIso(day), human: 0, ai: 0, bot: 0, total: 0 })));
    const nobody = await series("month", `dateFrom=${dayToIso(firstDay)}&dateTo=${dayToIso(firstDay + 3)}&pathPrefix=/nowhere`);
    expect(nobody.every((point) => point.total === 0 && point.bot === 0)).toBe(true);
    expect(nobody).toHaveLength(3);
  });

  it("defaults to the last 30 days, today included", async () => {
    const points = await series("month", "");
    const today = epochDay(Date.now());
    expect(points.map((point) => point.date)).toEqual(intervals(today - 29, today + 1, "day").map(([day]) => dayToIso(day)));
  });

  it.each([
    ["pathPrefix=/docs/guides/deep", "pathPrefix"],
    ["pathPrefix=docs", "pathPrefix"],
    ["interval=year", "interval"],
    ["metric=sessions", "metric"],
    ["dateFrom=2026-02-01&dateTo=2026-01-01", "dateFrom"],
  ])("refuses %s naming %s", async (query, field) => {
    const { projectId, key } = projects.month as { projectId: string; key: string };
    const answer = await t.call("GET", `/v1/analytics/${projectId}/timeseries?${query}`, { token: key });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(field);
  });
});
