import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SaltWindow } from "../../src/shared/analytics-vocabulary.js";
import { dayToIso, epochDay, windowOf } from "../../src/shared/epoch-days.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { bruteForceAgents, bruteForceViews, bruteForceVisitors, generateTraffic, wireHit, type GeneratedHit } from "../helpers/traffic.js";

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

describe("the visitors, views and agents reports under a path prefix and compared with the previous period", () => {
  const get = async (saltWindow: SaltWindow, path: string) => {
    const { projectId, key } = projects[saltWindow] as { projectId: string; key: string };
    const answer = await t.call("GET", `/v1/analytics/${projectId}/${path}`, { token: key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const zeros = { human: 0, ai: 0, bot: 0, total: 0 };
  /** Each row with the previous period's counts of the same page beside it, other bots included (rows list only pages with people or AI). */
  const withPrevious = <Row extends { path: string }>(rows: Row[], before: (page: GeneratedHit[]) => typeof zeros) =>
    rows.map((row) => ({ ...row, previous: before(hits.filter((hit) => hit.page === row.path)) }));

  it.each([
    ["month", "/docs"],
    ["week", "/docs/guides/"],
    ["month", "/api"],
    ["week", "/"],
  ] as const)("salt window %s, pathPrefix %s: the prefix's pages, its distinct visitors and views in the totals, and what each agent read there, exact", async (saltWindow, prefix) => {
    const windowStart = (day: number) => windowOf(saltWindow, day).start;
    const selected = hits.filter(underPrefix(prefix));
    // Days only, and an open range: whole months from the monthly rows (period-rows.ts).
    for (const [from, to] of [[firstDay + 3, firstDay + DAYS - 2], [null, null]] as const) {
      const dates = from === null ? "" : `dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&`;
      const query = `${dates}pathPrefix=${encodeURIComponent(prefix)}&limit=250`;
      expect(await get(saltWindow, `visitors?${query}`)).toEqual({ ...bruteForceVisitors(selected, from, to, windowStart), hasMore: false });
      expect(await get(saltWindow, `views?${query}`)).toEqual({ ...bruteForceViews(selected, from, to), hasMore: false });
      expect(await get(saltWindow, `agents?${query}`)).toEqual({ ...bruteForceAgents(selected, from, to, windowStart), hasMore: false });
    }
    const query = `dateFrom=${dayToIso(firstDay + 3)}&dateTo=${dayToIso(firstDay + DAYS - 2)}&pathPrefix=${encodeURIComponent(prefix)}&limit=250`;
    const paths = (await get(saltWindow, `visitors?${query}`)).visitors.map((row: { path: string }) => row.path);
    if (prefix === "/docs") expect(paths.some((path: string) => path.startsWith("/docsx"))).toBe(false);
    expect(paths.length).toBeGreaterThan(0);
  });

  it.each(["month", "week"] as const)("salt window %s, compare=previous: the previous period's numbers beside each page and the totals, exact", async (saltWindow) => {
    const from = firstDay + 18;
    const to = firstDay + DAYS;
    const span = to - from;
    const windowStart = (day: number) => windowOf(saltWindow, day).start;
    const query = `dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&compare=previous&limit=250`;
    const previous = { dateFrom: dayToIso(from - span), dateTo: dayToIso(from) };

    const visitorsNow = bruteForceVisitors(hits, from, to, windowStart);
    const visitorsBefore = bruteForceVisitors(hits, from - span, from, windowStart);
    expect(await get(saltWindow, `visitors?${query}`)).toEqual({
      totals: { ...visitorsNow.totals, previous: visitorsBefore.totals },
      visitors: withPrevious(visitorsNow.visitors, (page) => bruteForceVisitors(page, from - span, from, windowStart).totals),
      hasMore: false,
      previous,
    });

    const viewsNow = bruteForceViews(hits.filter(underPrefix("/docs")), from, to);
    const viewsBefore = bruteForceViews(hits.filter(underPrefix("/docs")), from - span, from);
    expect(await get(saltWindow, `views?${query}&pathPrefix=/docs`)).toEqual({
      totals: { ...viewsNow.totals, previous: viewsBefore.totals },
      views: withPrevious(viewsNow.views, (page) => bruteForceViews(page, from - span, from).totals),
      hasMore: false,
      previous,
    });

    const agentsNow = bruteForceAgents(hits, from, to, windowStart);
    const agentsBefore = bruteForceAgents(hits, from - span, from, windowStart);
    const agents = await get(saltWindow, `agents?${query}`);
    expect(agents.previous).toEqual(previous);
    expect(agents.totals).toEqual({ ...agentsNow.totals, previous: agentsBefore.totals });
    expect(agents.agents).toEqual(
      agentsNow.agents.map((agent) => {
        const was = agentsBefore.agents.find((other) => other.agent === agent.agent);
        return { ...agent, previous: { views: was?.views ?? 0, visitors: was?.visitors ?? 0, pages: was?.pages ?? 0 } };
      }),
    );
    expect(visitorsBefore.totals.total).toBeGreaterThan(0);
    expect(agentsBefore.totals.views).toBeGreaterThan(0);
  });

  it("compare=previous over an open range compares everything so far with as long a period before the first counted day (zeros)", async () => {
    const body = await get("month", "visitors?compare=previous&limit=1");
    expect(body.totals.previous).toEqual(zeros);
    expect(body.totals.total).toBe(bruteForceVisitors(hits, null, null, (day) => windowOf("month", day).start).totals.total);
    expect(body.previous.dateTo <= dayToIso(firstDay)).toBe(true);
  });

  it("refuses compare=previous whose previous period would begin before 0000-01-01, naming compare, on every report that compares", async () => {
    const { projectId, key } = projects.month as { projectId: string; key: string };
    for (const report of ["visitors", "views", "agents"]) {
      const res = await t.call("GET", `/v1/analytics/${projectId}/${report}?dateFrom=0000-01-01&dateTo=0000-01-02&compare=previous`, { token: key });
      expect(res.status, report).toBe(400);
      expect(res.body.details, report).toEqual([expect.objectContaining({ field: "compare", message: expect.stringContaining("would begin before 0000-01-01") })]);
    }
    // The earliest range that still has a previous period is answered.
    const ok = await t.call("GET", `/v1/analytics/${projectId}/visitors?dateFrom=0000-01-02&dateTo=0000-01-03&compare=previous`, { token: key });
    expect(ok.status).toBe(200);
    expect(ok.body.previous).toEqual({ dateFrom: "0000-01-01", dateTo: "0000-01-02" });
  });

  it("CSV with compare=previous: the previous period's columns after each row's own", async () => {
    const { projectId, key } = projects.month as { projectId: string; key: string };
    const answer = await t.call("GET", `/v1/analytics/${projectId}/visitors?dateFrom=${dayToIso(firstDay + 18)}&dateTo=${dayToIso(firstDay + DAYS)}&compare=previous&pathPrefix=/docs&output=csv`, { token: key });
    expect(answer.status).toBe(200);
    const lines = String(answer.body).split("\r\n");
    expect(lines[0]).toBe("path,human,ai,bot,total,previous_human,previous_ai,previous_bot,previous_total");
    const json = await get("month", `visitors?dateFrom=${dayToIso(firstDay + 18)}&dateTo=${dayToIso(firstDay + DAYS)}&compare=previous&pathPrefix=/docs&limit=250`);
    expect(lines.slice(1, -1)).toEqual(
      json.visitors.map((row: { path: string; human: number; ai: number; bot: number; total: number; previous: typeof zeros }) =>
        [row.path, row.human, row.ai, row.bot, row.total, row.previous.human, row.previous.ai, row.previous.bot, row.previous.total].join(","),
      ),
    );
  });

  it("refuses a format under a path prefix, naming format: formats have no per-section counts", async () => {
    const { projectId, key } = projects.month as { projectId: string; key: string };
    const answer = await t.call("GET", `/v1/analytics/${projectId}/visitors?format=markdown&pathPrefix=/docs`, { token: key });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("format");
    expect((await t.call("GET", `/v1/analytics/${projectId}/views?format=markdown&pathPrefix=/docs`, { token: key })).status).toBe(200);
  });
});
