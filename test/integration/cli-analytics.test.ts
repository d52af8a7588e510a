import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliFor } from "../helpers/cli.js";
import { ROOT } from "../helpers/process.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const fixture = (name: string) => path.join(ROOT, "test/fixtures/logs", name);

let t: TestServer;
let cli: ReturnType<typeof cliFor>;
beforeAll(async () => {
  // The fixture logs are from March 2025: allow a long backfill.
  t = await startTestServer({ env: { INKWELL_ANALYTICS_BACKFILL_DAYS: "3660" } });
  cli = cliFor(t);
});
afterAll(() => t.close());

async function project() {
  const { projectId, key } = await t.newProject();
  return { projectId, key, env: { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId } };
}

describe("inkwell analytics import: a docs team backfills last month from its logs", () => {
  it.each([
    ["an nginx/Apache combined log", "combined", "access.log", { lines: 33, accepted: 16, skipped: { malformed: 5, "not-a-page-view": 9, method: 2, status: 1, rejected: 0 } }, 3],
    ["a Vercel log drain", "vercel", "vercel.ndjson", { lines: 22, accepted: 11, skipped: { malformed: 2, "not-a-page-view": 6, method: 1, status: 2, rejected: 0 } }, 2],
    ["a Cloudflare Logpush export", "cloudflare", "cloudflare.ndjson", { lines: 21, accepted: 14, skipped: { malformed: 2, "not-a-page-view": 4, method: 1, status: 0, rejected: 0 } }, 2],
  ])("imports %s, summarizes it, and a second import counts nothing twice", async (_name, format, file, expected, failedAnswers) => {
    const { projectId, key, env } = await project();
    const first = await cli(["analytics", "import", "--format", format, fixture(file), "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ...expected, alreadyImported: 0 });
    const views = await t.call("GET", `/v1/analytics/${projectId}/views`, { token: key });
    // 4xx/5xx answers are imported (for the failures report) but are no views of a page.
    expect(views.body.totals.total + views.body.totals.bot + failedAnswers).toBe(expected.accepted);
    expect(views.body.totals.bot).toBe(await botViews(projectId));
    const visitorsBefore = await t.call("GET", `/v1/analytics/${projectId}/visitors?limit=250`, { token: key });

    const again = await cli(["analytics", "import", "--format", format, fixture(file)], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Accepted ${expected.accepted} page views (0 new, ${expected.accepted} already imported before)`);
    expect((await t.call("GET", `/v1/analytics/${projectId}/views`, { token: key })).body).toEqual(views.body);
    expect((await t.call("GET", `/v1/analytics/${projectId}/visitors?limit=250`, { token: key })).body).toEqual(visitorsBefore.body);
  });

  it("reads standard input with -, shows malformed examples, and refuses an unknown format", async () => {
    const { env } = await project();
    const log = readFileSync(fixture("access.log"), "utf8");
    const piped = await cli(["analytics", "import", "--format", "combined", "-"], env, log);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/Read 33 lines\.\nAccepted 16 page views \(16 new, 0 already imported before\)\.\nSkipped 17: malformed 5, not-a-page-view 9, method 2, status 1\./);
    expect(piped.stdout).toMatch(/Examples:\n {2}- line \d+: /);
    const bad = await cli(["analytics", "import", "--format", "iis", "-"], env, log);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of combined, vercel, cloudflare/);
    const missing = await cli(["analytics", "import", "--format", "combined", "/nonexistent.log"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read \/nonexistent.log/);
  });

  it("reports hits the server rejects, by line", async () => {
    const { env } = await project();
    const tooOld = '198.51.100.1 - - [01/Jan/2001:00:00:00 +0000] "GET /ancient HTTP/1.1" 200 10 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"\n';
    const result = await cli(["analytics", "import", "--format", "combined", "-", "--json"], env, tooOld);
    expect(JSON.parse(result.stdout)).toMatchObject({ accepted: 0, skipped: { rejected: 1 }, examples: [expect.stringMatching(/^line 1: rejected by the server: timestamp: is more than 3660 days old/)] });
  });
});

describe("inkwell analytics visitors|views", () => {
  it("prints a table, JSON, and every page with --all, equal to the API", async () => {
    const { projectId, key, env } = await project();
    await cli(["analytics", "import", "--format", "cloudflare", fixture("cloudflare.ndjson")], env);
    const api = await t.call("GET", `/v1/analytics/${projectId}/visitors?limit=250`, { token: key });
    const table = await cli(["analytics", "visitors", "--limit", "2"], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Total unique visitors: ${api.body.totals.total} (human ${api.body.totals.human}, AI ${api.body.totals.ai})`);
    expect(table.stdout).toMatch(/PATH\s+HUMAN\s+AI\s+TOTAL/);
    expect(table.stdout).toContain("More: add --offset 2 (or --all)");
    const all = await cli(["analytics", "visitors", "--all", "--limit", "2", "--json"], env);
    expect(JSON.parse(all.stdout)).toEqual({ ...api.body, hasMore: false });
    const views = await cli(["analytics", "views", "--from", "2025-03-01", "--to", "2025-04-01", "--json"], env);
    expect(JSON.parse(views.stdout).views.length).toBeGreaterThan(0);
    // Said once, in the CLI's own words, before any request.
    const bad = await cli(["analytics", "visitors", "--from", "2025-03-05", "--to", "2025-03-01"], env);
    expect(bad).toMatchObject({ code: 2, stderr: "inkwell: --from 2025-03-05 is after --to 2025-03-01 (excluded): no day is in that range" });
    // An empty range (dateFrom = dateTo) gets the API's own answer: empty reports, not an error.
    const empty = await cli(["analytics", "visitors", "--from", "2025-03-05", "--to", "2025-03-05", "--json"], env);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual((await t.call("GET", `/v1/analytics/${projectId}/visitors?dateFrom=2025-03-05&dateTo=2025-03-05`, { token: key })).body);
    expect((await cli(["analytics", "views", "--from", "2025-03-05", "--to", "2025-03-05"], env)).stdout.split("\n")[0]).toBe(
      "Range: no day (--to 2025-03-05 is excluded; --through 2025-03-05 is that one day)",
    );
    // --through is the last day included, as on the dashboard: the same range as --to the day after.
    const through = await cli(["analytics", "views", "--from", "2025-03-01", "--through", "2025-03-31"], env);
    const to = await cli(["analytics", "views", "--from", "2025-03-01", "--to", "2025-04-01"], env);
    expect(through.stdout).toBe(to.stdout);
    expect(through.stdout.split("\n")[0]).toBe("Range: 2025-03-01 through 2025-03-31 (UTC days, first and last included)");
    expect((await cli(["analytics", "visitors"], env)).stdout.split("\n")[0]).toBe("Range: all days (UTC days, first and last included)");
  });

  it("prints the time series and the referrers as tables, JSON and CSV, equal to the API", async () => {
    const { projectId, key, env } = await project();
    const at = (day: number) => `2025-03-${String(day).padStart(2, "0")}T10:00:00Z`;
    const chrome = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
    const hits = [
      { timestamp: at(3), path: "/docs/a", ip: "10.0.0.1", userAgent: chrome, referrer: "https://chatgpt.com/c/1" },
      { timestamp: at(3), path: "/docs/b", ip: "10.0.0.1", userAgent: chrome, referrer: "https://chatgpt.com/c/2" },
      { timestamp: at(10), path: "/docs/a?utm_source=newsletter", ip: "10.0.0.2", userAgent: chrome },
      { timestamp: at(11), path: "/api/x", ip: "10.0.0.3", userAgent: chrome },
    ];
    expect((await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits } })).status).toBe(202);
    const range = ["--from", "2025-03-01", "--through", "2025-03-14"];
    const weekly = await cli(["analytics", "timeseries", ...range, "--interval", "week", "--path-prefix", "/docs", "--json"], env);
    expect(weekly.code, weekly.stderr).toBe(0);
    const api = await t.call("GET", `/v1/analytics/${projectId}/timeseries?dateFrom=2025-03-01&dateTo=2025-03-15&interval=week&pathPrefix=/docs`, { token: key });
    expect(JSON.parse(weekly.stdout)).toEqual(api.body);
    // 2025-03-01 is a Saturday: the first week is cut to its weekend; the next two start on Mondays.
    expect(api.body.series.map((p: { date: string; total: number }) => [p.date, p.total])).toEqual([
      ["2025-03-01", 0],
      ["2025-03-03", 1],
      ["2025-03-10", 1],
    ]);
    const compared = await cli(["analytics", "timeseries", ...range, "--interval", "week", "--compare"], env);
    expect(compared.stdout).toContain("PREVIOUS TOTAL");
    const referrers = await cli(["analytics", "referrers", ...range], env);
    expect(referrers.stdout).toMatch(/chatgpt\.com\s+ai\s+1\s+2/);
    expect(referrers.stdout).toMatch(/newsletter\s+other\s+1\s+1/);
    const pages = await cli(["analytics", "referrers", ...range, "--pages", "--json"], env);
    expect(JSON.parse(pages.stdout)).toMatchObject({ channel: "ai", totals: { visitors: 1, views: 2 }, pages: [{ path: "/docs/a", visitors: 1, views: 1 }, { path: "/docs/b", visitors: 1, views: 1 }] });
    const csv = await cli(["analytics", "referrers", ...range, "--csv"], env);
    expect(csv.stdout.split("\r\n")[0]).toBe("source,channel,visitors,views");
    const bad = await cli(["analytics", "timeseries", "--interval", "year"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--interval must be one of day, week, month");

    // The page reports take the same filters and the comparison.
    const fromAi = await cli(["analytics", "visitors", ...range, "--channel", "ai", "--path-prefix", "/docs", "--json"], env);
    expect(fromAi.code, fromAi.stderr).toBe(0);
    const fromAiApi = await t.call("GET", `/v1/analytics/${projectId}/visitors?dateFrom=2025-03-01&dateTo=2025-03-15&channel=ai&pathPrefix=/docs&limit=50&offset=0`, { token: key });
    expect(JSON.parse(fromAi.stdout)).toEqual(fromAiApi.body);
    expect(fromAiApi.body.totals).toEqual({ human: 1, ai: 0, bot: 0, total: 1 });
    const viewsCompared = await cli(["analytics", "views", "--from", "2025-03-08", "--through", "2025-03-14", "--compare"], env);
    expect(viewsCompared.stdout).toContain("Compared with 2025-03-01 up to 2025-03-08: 2");
    expect(viewsCompared.stdout).toMatch(/\/docs\/a\s+1\s+0\s+1\s+0\s+1/);
    const agentsCsv = await cli(["analytics", "agents", ...range, "--compare", "--csv"], env);
    expect(agentsCsv.stdout.split("\r\n")[0]).toBe("agent,operator,category,verified,spoofed,unverifiable,views,visitors,pages,robotsDisallowed,previous_views,previous_visitors,previous_pages");
    const badChannel = await cli(["analytics", "visitors", "--channel", "email"], env);
    expect(badChannel.code).toBe(2);
    expect(badChannel.stderr).toContain("--channel must be one of ai, search, social, direct, other");
  });

  it("says one view and one visitor in the singular", async () => {
    const { projectId, key, env } = await project();
    const gptbot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
    const hits = [{ timestamp: "2025-03-03T10:00:00Z", path: "/docs/a", ip: "20.171.207.1", userAgent: gptbot }];
    expect((await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits } })).status).toBe(202);
    const agents = await cli(["analytics", "agents", "--from", "2025-03-01"], env);
    expect(agents.code, agents.stderr).toBe(0);
    expect(agents.stdout.split("\n")[1]).toBe("AI agents: 1 view by 1 visitor");
  });

  it("an operator sets the beacon's allowed origins and the salt window", async () => {
    const { projectId } = await project();
    const updated = await cli(["projects", "update", projectId, "--allowed-origin", "https://docs.example.com/", "--allowed-origin", "http://localhost:3001", "--salt-window", "week"]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain("salt window week; beacon origins: https://docs.example.com, http://localhost:3001");
    const cleared = await cli(["projects", "update", projectId, "--no-allowed-origins", "--json"]);
    expect(JSON.parse(cleared.stdout).analytics).toEqual({ saltWindow: "week", allowedOrigins: [], markdownAsPage: true });
    expect((await cli(["projects", "update", projectId])).code).toBe(2);
  });
});

async function botViews(projectId: string): Promise<number> {
  const rows = await t.store.db.query<{ n: string | number }>(`SELECT coalesce(sum(bot), 0) AS n FROM analytics_daily_views WHERE project_id = $1`, [projectId]);
  return Number(rows[0]?.n ?? 0);
}
