import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, dayToIso, epochDay, windowOf } from "../../src/shared/epoch-days.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { random } from "../helpers/traffic.js";
import { parseCsv } from "../helpers/csv.js";

// Three weeks ending mid last month: a month boundary inside, always in the past.
const now = new Date();
const lastMonth = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const firstDay = lastMonth - 10;
const DAYS = 21;
const OWN_SITE = "https://docs.acme.test";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";

/**
 * Where each arrival came from, as the test knows it: the referrer sent (a path and query that
 * must never be kept), or a campaign tag, the source the report must name, and its channel.
 */
const ARRIVALS = [
  { referrer: "https://chatgpt.com/c/6744-secret-conversation?model=gpt-5", source: "chatgpt.com", channel: "ai" },
  { referrer: "https://www.perplexity.ai/search/how-to-install-acme-xyz", source: "perplexity.ai", channel: "ai" },
  { referrer: "https://claude.ai/chat/0190-private", source: "claude.ai", channel: "ai" },
  { referrer: "https://gemini.google.com/app/abc", source: "gemini.google.com", channel: "ai" },
  { referrer: "https://www.google.com/search?q=acme+docs", source: "google.com", channel: "search" },
  { referrer: "https://www.google.co.uk/", source: "google.co.uk", channel: "search" },
  { referrer: "https://duckduckgo.com/?q=acme", source: "duckduckgo.com", channel: "search" },
  { referrer: "https://m.facebook.com/groups/123/posts/456", source: "m.facebook.com", channel: "social" },
  { referrer: "https://blog.example.org/2026/acme-review", source: "blog.example.org", channel: "other" },
  { utm: "ChatGPT.com", source: "chatgpt.com", channel: "ai" },
  { utm: "newsletter", source: "newsletter", channel: "other" },
  { source: "(direct)", channel: "direct" },
] as const;
type Arrival = (typeof ARRIVALS)[number];

interface Sent {
  day: number;
  person: string;
  page: string;
  /** Null: a step within the site (own referrer), or not a person. */
  arrival: Arrival | null;
  hit: Record<string, unknown>;
}

function generate(): Sent[] {
  const rand = random(5);
  const pages = ["/", "/docs/install", "/docs/guides/webhooks", "/docs/guides/retries", "/api/events", "/pricing"];
  const sent: Sent[] = [];
  for (let n = 0; n < 2_500; n++) {
    const human = rand() < 0.8;
    const person = `${human ? "h" : "a"}${Math.floor(rand() * 150)}`;
    const day = firstDay + Math.floor(rand() * DAYS);
    const page = pages[Math.floor(rand() * pages.length)] as string;
    const r = rand();
    const arrival = r < 0.45 ? (ARRIVALS[Math.floor(rand() * ARRIVALS.length)] as Arrival) : null;
    const referrer = arrival ? ("referrer" in arrival ? arrival.referrer : undefined) : `${OWN_SITE}/docs/install`;
    const path = arrival && "utm" in arrival ? `${page}?utm_source=${encodeURIComponent(arrival.utm)}&utm_medium=x` : page;
    const hit = {
      timestamp: new Date(day * DAY_MS + Math.floor(rand() * DAY_MS)).toISOString(),
      path,
      ip: `10.1.${person.length}.${Number(person.slice(1))}`,
      userAgent: human ? `${CHROME} ${person}` : `${GPTBOT} ${person}`,
      ...(referrer ? { referrer } : {}),
    };
    sent.push({ day, person, page, arrival: human ? arrival : null, hit });
  }
  return sent;
}
const sent = generate();

let t: TestServer;
let project: { projectId: string; key: string };
beforeAll(async () => {
  t = await startTestServer({ env: { INKWELL_ANALYTICS_ROLLUP_CHUNK: "300" } });
  project = await t.newProject(undefined, { analytics: { saltWindow: "month", allowedOrigins: [OWN_SITE] } });
  for (let i = 0; i < sent.length; i += 1_000) {
    const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: sent.slice(i, i + 1_000).map((s) => s.hit) } });
    expect(answer.body).toMatchObject({ accepted: Math.min(1_000, sent.length - i), rejected: [] });
  }
});
afterAll(() => t.close());

const inRange = (s: Sent, from: number | null, to: number | null) => (from === null || s.day >= from) && (to === null || s.day < to);
/** A range as query parameters; null ends are left open. */
const dates = (from: number | null, to: number | null) => [from === null ? "" : `dateFrom=${dayToIso(from)}`, to === null ? "" : `dateTo=${dayToIso(to)}`].filter(Boolean).join("&");
const who = (s: Sent) => `${windowOf("month", s.day).start}:${s.person}`;
const get = async (path: string) => {
  const answer = await t.call("GET", `/v1/analytics/${project.projectId}/${path}`, { token: project.key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

describe("referrals", () => {
  // Whole months are read from the monthly rows, the other days day by day (period-rows.ts).
  const monthBefore = windowOf("month", lastMonth - 1).start;
  const thisMonth = windowOf("month", lastMonth).end;
  const ranges: [string, number | null, number | null][] = [
    ["the whole span", firstDay, firstDay + DAYS],
    ["across the month boundary", lastMonth - 3, lastMonth + 4],
    ["starting mid-month", lastMonth + 3, firstDay + DAYS],
    ["an open range (whole months only)", null, null],
    ["a whole month, then days", monthBefore, lastMonth + 5],
    ["days, then a whole month", firstDay + 2, thisMonth],
  ];

  it.each(ranges)("referrers over %s: each source's distinct people and views equal brute force, with its channel", async (_, from, to) => {
    const bySource = new Map<string, { channel: string; people: Set<string>; views: number }>();
    for (const s of sent) {
      if (!s.arrival || !inRange(s, from, to)) continue;
      const entry = bySource.get(s.arrival.source) ?? { channel: s.arrival.channel, people: new Set(), views: 0 };
      entry.people.add(who(s));
      entry.views++;
      bySource.set(s.arrival.source, entry);
    }
    const expected = [...bySource]
      .map(([source, e]) => ({ source, channel: e.channel, visitors: e.people.size, views: e.views }))
      .sort((a, b) => b.visitors - a.visitors || b.views - a.views || (a.source < b.source ? -1 : 1));
    const body = await get(`referrers?${dates(from, to)}&limit=250`);
    expect(body).toEqual({ referrers: expected, hasMore: false });
    const ai = await get(`referrers?${dates(from, to)}&channel=ai&limit=2`);
    expect(ai.referrers).toEqual(expected.filter((row) => row.channel === "ai").slice(0, 2));
    expect(ai.hasMore).toBe(expected.filter((row) => row.channel === "ai").length > 2);
  });

  it.each([
    ["ai", firstDay, firstDay + DAYS],
    ["search", null, null],
    ["direct", monthBefore, lastMonth + 5],
    ["ai", firstDay + 2, thisMonth],
  ] as const)("per page, the people who arrived from %s equal brute force, and the total counts each person once (%s..%s)", async (channel, from, to) => {
    const pages = new Map<string, { people: Set<string>; views: number }>();
    const everyone = new Set<string>();
    let views = 0;
    for (const s of sent) {
      if (s.arrival?.channel !== channel || !inRange(s, from, to)) continue;
      const entry = pages.get(s.page) ?? { people: new Set(), views: 0 };
      entry.people.add(who(s));
      entry.views++;
      pages.set(s.page, entry);
      everyone.add(who(s));
      views++;
    }
    const expected = [...pages]
      .map(([path, e]) => ({ path, visitors: e.people.size, views: e.views }))
      .sort((a, b) => b.visitors - a.visitors || b.views - a.views || (a.path < b.path ? -1 : 1));
    const body = await get(`referrers/pages?${dates(from, to)}&channel=${channel}`);
    expect(body).toEqual({ channel, totals: { visitors: everyone.size, views }, pages: expected, hasMore: false });
    // Page by page, ties on people broken by arrivals, then path: every offset sees the same order.
    for (let offset = 0; offset < expected.length; offset++) {
      const one = await get(`referrers/pages?${dates(from, to)}&channel=${channel}&limit=2&offset=${offset}`);
      expect({ offset, pages: one.pages, hasMore: one.hasMore, totals: one.totals }).toEqual({ offset, pages: expected.slice(offset, offset + 2), hasMore: offset + 2 < expected.length, totals: body.totals });
    }
    expect(everyone.size).toBeLessThan(expected.reduce((sum, row) => sum + row.visitors, 0));
  });

  /** The visitors and views reports of the people who arrived from a channel, under a prefix, by brute force. */
  function arrivalsReport(channel: string, prefix: string | undefined, from: number | null, to: number | null) {
    const under = (page: string) => prefix === undefined || page === prefix || page.startsWith(`${prefix}/`);
    const pages = new Map<string, { people: Set<string>; views: number }>();
    const everyone = new Set<string>();
    for (const s of sent) {
      if (s.arrival?.channel !== channel || !inRange(s, from, to) || !under(s.page)) continue;
      const entry = pages.get(s.page) ?? { people: new Set(), views: 0 };
      entry.people.add(who(s));
      entry.views++;
      pages.set(s.page, entry);
      everyone.add(who(s));
    }
    const people = (n: number) => ({ human: n, ai: 0, bot: 0, total: n });
    const byTotal = (a: { path: string; total: number }, b: { path: string; total: number }) => b.total - a.total || (a.path < b.path ? -1 : 1);
    const views = [...pages].map(([path, e]) => ({ path, ...people(e.views) })).sort(byTotal);
    return {
      visitors: { totals: people(everyone.size), visitors: [...pages].map(([path, e]) => ({ path, ...people(e.people.size) })).sort(byTotal) },
      views: { totals: people(views.reduce((sum, row) => sum + row.total, 0)), views },
    };
  }

  it.each([
    ["ai", undefined, lastMonth - 3, firstDay + DAYS],
    ["search", "/docs", lastMonth - 3, firstDay + DAYS],
    ["direct", "/docs/guides", lastMonth - 3, firstDay + DAYS],
    ["ai", "/docs", null, null],
    ["search", undefined, monthBefore, lastMonth + 5],
  ] as const)("visitors and views ?channel=%s&pathPrefix=%s: per page and in total, the people who arrived from it, exact (%s..%s)", async (channel, prefix, from, to) => {
    const query = `${dates(from, to)}&channel=${channel}${prefix ? `&pathPrefix=${prefix}` : ""}&limit=250`;
    const expected = arrivalsReport(channel, prefix, from, to);
    expect(await get(`visitors?${query}`)).toEqual({ ...expected.visitors, hasMore: false });
    expect(await get(`views?${query}`)).toEqual({ ...expected.views, hasMore: false });
    expect(expected.visitors.totals.total).toBeGreaterThan(0);
    expect(expected.visitors.totals.total).toBeLessThanOrEqual(expected.visitors.visitors.reduce((sum, row) => sum + row.total, 0));
  });

  it("visitors and views ?channel=ai&compare=previous: the previous period's people and arrivals beside each page and the totals", async () => {
    const from = firstDay + 11;
    const to = firstDay + DAYS;
    const before = arrivalsReport("ai", undefined, from - (to - from), from);
    const now = arrivalsReport("ai", undefined, from, to);
    const zeros = { human: 0, ai: 0, bot: 0, total: 0 };
    const previousOf = <Row extends { path: string }>(rows: Row[], path: string) => {
      const { path: _, ...counts } = (rows.find((row) => row.path === path) ?? { path, ...zeros }) as Row & typeof zeros;
      return counts;
    };
    const query = `dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&channel=ai&compare=previous&limit=250`;
    const visitors = await get(`visitors?${query}`);
    expect(visitors).toEqual({
      totals: { ...now.visitors.totals, previous: before.visitors.totals },
      visitors: now.visitors.visitors.map((row) => ({ ...row, previous: previousOf(before.visitors.visitors, row.path) })),
      hasMore: false,
      previous: { dateFrom: dayToIso(from - (to - from)), dateTo: dayToIso(from) },
    });
    const views = await get(`views?${query}`);
    expect(views.totals).toEqual({ ...now.views.totals, previous: before.views.totals });
    expect(views.views).toEqual(now.views.views.map((row) => ({ ...row, previous: previousOf(before.views.views, row.path) })));
    expect(before.visitors.totals.total).toBeGreaterThan(0);
  });

  it("refuses a format with a channel, naming format: arrivals are not counted per format", async () => {
    for (const report of ["visitors", "views"]) {
      const answer = await t.call("GET", `/v1/analytics/${project.projectId}/${report}?channel=ai&format=markdown`, { token: project.key });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain("format");
    }
  });

  it("the time series by channel and prefix: people from AI answers under /docs per week", async () => {
    const from = firstDay;
    const to = firstDay + DAYS;
    const body = await get(`timeseries?dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&interval=week&channel=ai&pathPrefix=/docs`);
    const views = await get(`timeseries?dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}&interval=week&channel=ai&pathPrefix=/docs&metric=views`);
    const weeks: [number, number][] = [];
    for (let day = from; day < to; ) {
      const end = Math.min(to, windowOf("week", day).end);
      weeks.push([day, end]);
      day = end;
    }
    const selected = sent.filter((s) => s.arrival?.channel === "ai" && s.page.startsWith("/docs/"));
    expect(body.series.map((p: { total: number }) => p.total)).toEqual(weeks.map(([a, b]) => new Set(selected.filter((s) => inRange(s, a, b)).map(who)).size));
    expect(views.series.map((p: { total: number }) => p.total)).toEqual(weeks.map(([a, b]) => selected.filter((s) => inRange(s, a, b)).length));
  });

  it("the visitors report lists pages only, never the groups referrals and sections are counted in", async () => {
    const body = await get(`visitors?dateFrom=${dayToIso(firstDay)}&dateTo=${dayToIso(firstDay + DAYS)}&limit=250`);
    expect(body.visitors.map((row: { path: string }) => row.path).sort()).toEqual(["/", "/api/events", "/docs/guides/retries", "/docs/guides/webhooks", "/docs/install", "/pricing"]);
  });

  it("CSV: the referrers, the AI-referred pages and the time series as CSV carry the JSON rows", async () => {
    const range = `dateFrom=${dayToIso(firstDay)}&dateTo=${dayToIso(firstDay + DAYS)}`;
    const csv = async (path: string) => {
      const response = await fetch(`${t.url}/v1/analytics/${project.projectId}/${path}`, { headers: { authorization: `Bearer ${project.key}`, accept: "text/csv" } });
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      return parseCsv(await response.text());
    };
    const referrers = (await get(`referrers?${range}&limit=250`)).referrers as { source: string; channel: string; visitors: number; views: number }[];
    expect(await csv(`referrers?${range}`)).toEqual([["source", "channel", "visitors", "views"], ...referrers.map((r) => [r.source, r.channel, String(r.visitors), String(r.views)])]);
    const pages = (await get(`referrers/pages?${range}&limit=250`)).pages as { path: string; visitors: number; views: number }[];
    expect(await csv(`referrers/pages?${range}&output=csv`)).toEqual([["path", "visitors", "views"], ...pages.map((p) => [p.path, String(p.visitors), String(p.views)])]);
    const series = (await get(`timeseries?${range}&interval=week&compare=previous`)).series as Record<string, unknown>[];
    const rows = await csv(`timeseries?${range}&interval=week&compare=previous`);
    expect(rows[0]).toEqual(["date", "human", "ai", "bot", "total", "previous_human", "previous_ai", "previous_bot", "previous_total"]);
    expect(rows.slice(1)).toEqual(series.map((p: any) => [p.date, ...[p.human, p.ai, p.bot, p.total, p.previous.human, p.previous.ai, p.previous.bot, p.previous.total].map(String)]));
  });

  it("keeps only hosts: no referrer path, query or conversation id is stored anywhere", async () => {
    const rows = await t.store.db.query<{ path: string }>(`SELECT path FROM analytics_paths WHERE project_id = $1 AND left(path, 1) = '@'`, [project.projectId]);
    expect(rows.length).toBeGreaterThan(0);
    const stored = rows.map((row) => row.path).join("\n");
    for (const secret of ["secret", "private", "q=acme", "model=gpt", "search/how-to", "groups/123", "utm_medium"]) expect(stored).not.toContain(secret);
    expect(rows.filter((row) => row.path.startsWith("@source/")).map((row) => row.path.slice("@source/".length)).sort()).toEqual([...new Set(ARRIVALS.map((a) => a.source))].sort());
  });
});
