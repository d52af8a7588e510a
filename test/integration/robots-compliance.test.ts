import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, dayToIso, epochDay } from "../../src/shared/epoch-days.js";
import { parseCsv } from "../helpers/csv.js";
import { Visitor } from "../helpers/visitor.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { volume } from "../helpers/tier.js";
import { eventually } from "../helpers/eventually.js";
import { rfcJudge } from "../helpers/robots-rfc.js";
import { readerSuggestions } from "../../src/app/analytics/reports/suggestions.js";
import { MIN_DISALLOWED_VIEWS } from "../../src/app/analytics/reports/robots-suggestions.js";
import { SUGGESTION_DAYS } from "../../src/app/analytics/reports/suggestion.js";
import { generateTraffic, wireHit, type GeneratedHit } from "../helpers/traffic.js";

// AI agents' views judged against the robots.txt in force at each view's time, over real HTTP,
// against a brute force over generated traffic: versions changing mid-day, groups for several
// tokens, wildcards, `$`, Allow/Disallow ties, a last group without rules, a period before any
// version, reads of robots.txt, spoofed claims left out, and fetches of a page with a trailing
// slash or a query, judged on the URL as fetched and reported under the page. The brute force is
// the RFC 9309 matcher of helpers/robots-rfc.ts, view by view.

const firstDay = epochDay(Date.now()) - 8;
const VERSIONS = [
  { at: (firstDay + 1) * DAY_MS + 12 * 3_600_000, body: "User-agent: GPTBot\nDisallow: /docs/page-1\nAllow: /docs/page-1$\n\nUser-agent: *\nDisallow: /docs/page-2*\nDisallow: /*.txt$\n" },
  {
    at: (firstDay + 2) * DAY_MS + 3 * 3_600_000 + 17_000,
    body: "User-agent: gptbot\nUser-agent: PerplexityBot\nDisallow: /docs/\nAllow: /docs/page-3\n\nUser-agent: meta-externalagent\nDisallow: /\nAllow: /docs/page-5\nDisallow: /docs/page-5\n\nUser-agent: *\nAllow: /\n",
  },
  { at: (firstDay + 3) * DAY_MS + 18 * 3_600_000 + 30 * 60_000, body: "User-agent: *\nDisallow: /docs/page-1   # old\nDisallow: /llms.txt$\nContent-Signal: ai-train=no, search=yes\n" },
  // The last group names PerplexityBot and has no rules: it allows PerplexityBot everything (RFC 9309 2.1), * or not.
  {
    at: (firstDay + 4) * DAY_MS + 6 * 3_600_000 + 1_000,
    body: "User-agent: *\r\nDisallow: /docs/page-1   # old\r\nDisallow: /llms.txt$\r\nContent-Signal: ai-train=no, search=yes\r\nDisallow: /*?ref=2\r\nAllow: /docs/page-1/$\r\n\r\nUser-agent: PerplexityBot\r\n",
  },
];
/** What a hit fetched: its path and query. */
const fetchedOf = (hit: GeneratedHit) => hit.path;

let t: TestServer;
let project: { projectId: string; key: string };
let hits: GeneratedHit[];
let versionIds: number[];

beforeAll(async () => {
  t = await startTestServer();
  project = await t.newProject("acme/robots", { analytics: { saltWindow: "month" } });
  const generated = generateTraffic({ seed: 52, people: 80, paths: 8, firstDay, days: 5, views: volume(2_000, 30_000, "ROBOTS_VIEWS") });
  // Every tenth AI or spoofed claim also fetched robots.txt (a script's text read is a bot's, not an assistant's: traffic.ts).
  const robotsReads = generated
    .filter((hit, i) => hit.agent !== null && i % 10 === 0)
    .map((hit) => ({ ...hit, path: "/robots.txt", page: "/robots.txt", format: "text" as const, ...(hit.agent?.name === "markdown fetch (curl)" ? { kind: "bot" as const, agent: null } : {}) }));
  // Some fetches of a page carry a trailing slash or a query: the same page, another URL.
  const variants = generated.map((hit, i) => (hit.path !== hit.page || hit.page === "/llms.txt" ? hit : i % 6 === 1 ? { ...hit, path: `${hit.page}/` } : i % 6 === 2 ? { ...hit, path: `${hit.page}?ref=${i % 3}` } : hit));
  // Claims of an agent from addresses its operator does not publish: bots, never judged, never suggested.
  const spoofed = Array.from({ length: 2 * MIN_DISALLOWED_VIEWS }, (_, i): GeneratedHit => ({
    timestamp: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    path: "/docs/page-1",
    page: "/docs/page-1",
    ip: "203.0.113.77",
    userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
    kind: "bot",
    agent: { name: "ClaudeBot", operator: "Anthropic", category: "crawler", verification: "spoofed" },
    format: "html",
    person: "spoofer-claudebot",
  }));
  hits = [...variants, ...robotsReads, ...spoofed];
  versionIds = [];
  for (const version of VERSIONS) {
    const sent = await t.call("POST", `/admin/projects/${project.projectId}/robots/versions`, { token: ADMIN_TOKEN, body: { body: version.body, effectiveAt: new Date(version.at).toISOString() } });
    expect(sent.status).toBe(201);
    versionIds.push(sent.body.id);
  }
  for (let i = 0; i < hits.length; i += 1_000) {
    const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: hits.slice(i, i + 1_000).map(wireHit) } });
    expect(answer.body.rejected).toEqual([]);
  }
}, 600_000);
afterAll(() => t.close());

type Tally = { allowed: number; disallowed: number; unknown: number; robotsReads: number };

/** The verdicts of every AI view (not spoofed) in [from, to) days, per agent, and the disallowed views per agent, page and version. */
function bruteForce(from: number, to: number) {
  const agents = new Map<string, Tally & { operator: string }>();
  const disallowed = new Map<string, { agent: string; path: string; versionId: number; line: number; views: number; firstSeen: number; lastSeen: number }>();
  for (const hit of hits) {
    const at = Date.parse(hit.timestamp);
    const day = epochDay(at);
    if (hit.kind !== "ai" || hit.agent === null || day < from || day >= to) continue;
    const tally = agents.get(hit.agent.name) ?? { operator: hit.agent.operator, allowed: 0, disallowed: 0, unknown: 0, robotsReads: 0 };
    agents.set(hit.agent.name, tally);
    const index = VERSIONS.findLastIndex((v) => v.at <= at);
    if (hit.page === "/robots.txt") tally.robotsReads++;
    else if (index < 0) tally.unknown++;
    else {
      const verdict = rfcJudge(VERSIONS[index]!.body, hit.agent.name, fetchedOf(hit));
      if (verdict.allowed) {
        tally.allowed++;
        continue;
      }
      tally.disallowed++;
      const key = `${hit.agent.name} ${hit.page} ${index} ${verdict.line}`;
      const row = disallowed.get(key) ?? { agent: hit.agent.name, path: hit.page, versionId: versionIds[index]!, line: verdict.line as number, views: 0, firstSeen: at, lastSeen: at };
      row.views++;
      row.firstSeen = Math.min(row.firstSeen, at);
      row.lastSeen = Math.max(row.lastSeen, at);
      disallowed.set(key, row);
    }
  }
  return { agents, disallowed };
}

const get = (path: string) => t.call("GET", `/v1/analytics/${project.projectId}/${path}`, { token: project.key });

describe("robots.txt compliance", () => {
  for (const [from, to] of [
    // Open: every row from the monthly sums (reports/period-rows.ts).
    [null, null],
    [firstDay, firstDay + 5],
    [firstDay + 2, firstDay + 4],
    [firstDay, firstDay + 1],
  ] as const satisfies readonly (readonly [number, number] | readonly [null, null])[]) {
    it(`matches the brute force per agent and per disallowed page over ${from === null ? "an open range" : `${to - from} days from day ${from - firstDay}`}`, async () => {
      const expected = bruteForce(from ?? -Infinity, to ?? Infinity);
      const range = from === null ? "" : `dateFrom=${dayToIso(from)}&dateTo=${dayToIso(to)}`;
      const report = (await get(`robots?${range}&limit=250`)).body;
      const byAgent = Object.fromEntries(report.agents.map((a: Tally & { agent: string }) => [a.agent, { allowed: a.allowed, disallowed: a.disallowed, unknown: a.unknown, robotsReads: a.robotsReads }]));
      expect(byAgent).toEqual(Object.fromEntries([...expected.agents].map(([name, { operator: _operator, ...tally }]) => [name, tally])));
      const sum = (field: keyof Tally) => [...expected.agents.values()].reduce((n, a) => n + a[field], 0);
      expect(report.totals).toEqual({ allowed: sum("allowed"), disallowed: sum("disallowed"), unknown: sum("unknown"), robotsReads: sum("robotsReads") });

      const rows = (await get(`robots/disallowed?${range}&limit=250`)).body.disallowed;
      const shown = rows.map((r: { agent: string; path: string; versionId: number; line: number; views: number; firstSeen: string; lastSeen: string }) => ({ ...r, firstSeen: Date.parse(r.firstSeen), lastSeen: Date.parse(r.lastSeen) }));
      const want = [...expected.disallowed.values()].sort(
        (a, b) => b.views - a.views || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : a.versionId - b.versionId || a.line - b.line),
      );
      expect(shown.map(({ agent, path, versionId, line, views, firstSeen, lastSeen }: (typeof want)[number]) => ({ agent, path, versionId, line, views, firstSeen, lastSeen }))).toEqual(want);
      // Page by page, the same order: a page is cut at its last row's views with its ties kept.
      const paged: { agent: string; path: string; versionId: number; line: number }[] = [];
      for (let offset = 0; offset < want.length + 3; offset += 3) {
        const page = (await get(`robots/disallowed?${range}&limit=3&offset=${offset}`)).body;
        paged.push(...page.disallowed.map(({ agent, path, versionId, line }: (typeof want)[number]) => ({ agent, path, versionId, line })));
        expect(page.hasMore).toBe(offset + 3 < want.length);
      }
      expect(paged).toEqual(want.map(({ agent, path, versionId, line }) => ({ agent, path, versionId, line })));
    });
  }

  it("names the rule as written and the version, and the before and after of each version", async () => {
    const rows = (await get("robots/disallowed?agent=GPTBot&limit=250")).body.disallowed;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.agent).toBe("GPTBot");
      const index = versionIds.indexOf(row.versionId);
      expect(row.versionEffectiveAt).toBe(new Date(VERSIONS[index]!.at).toISOString());
      expect(VERSIONS[index]!.body.split(/\r\n|\r|\n/)[row.line - 1]?.replace(/#.*$/, "").trim()).toBe(row.rule);
      expect(row.rule).toMatch(/^Disallow: /);
    }
    const changes = (await get("robots/changes")).body;
    expect(changes.versions.map((v: { versionId: number }) => v.versionId)).toEqual([...versionIds].reverse());
    const all = bruteForce(firstDay, firstDay + 5);
    const underLast = changes.versions[0].agents.reduce((n: number, a: Tally) => n + a.disallowed + a.allowed, 0);
    const beforeFirst = changes.versions.at(-1).agents.reduce((n: number, a: { before: Tally }) => n + a.before.unknown, 0);
    expect(beforeFirst).toBe([...all.agents.values()].reduce((n, a) => n + a.unknown, 0));
    expect(underLast).toBeGreaterThan(0);
  });

  it("pages, exports the same rows as CSV, lists versions with their source and content signals, and refuses a version out of order", async () => {
    const all = (await get("robots?limit=250")).body.agents;
    const first = (await get("robots?limit=1")).body;
    expect(first).toMatchObject({ agents: [all[0]], hasMore: all.length > 1 });
    const csv = parseCsv((await get("robots?output=csv")).body as string);
    expect(csv[0]).toEqual(["agent", "operator", "category", "allowed", "disallowed", "unknown", "robotsReads"]);
    expect(csv.slice(1).map((r) => [r[0], Number(r[4])])).toEqual(all.map((a: { agent: string; disallowed: number }) => [a.agent, a.disallowed]));
    const disallowedCsv = parseCsv((await get("robots/disallowed?output=csv")).body as string);
    expect(disallowedCsv[0]).toEqual(["agent", "operator", "path", "versionId", "versionEffectiveAt", "rule", "line", "views", "firstSeen", "lastSeen"]);

    const versions = (await get("robots/versions")).body;
    expect(versions.versions.map((v: { id: number; source: string }) => [v.id, v.source])).toEqual([...versionIds].reverse().map((id) => [id, "api"]));
    expect(versions.versions[0].contentSignals).toEqual([{ userAgents: ["*"], line: 4, aiTrain: false, search: true }]);
    const late = await t.call("POST", `/admin/projects/${project.projectId}/robots/versions`, { token: ADMIN_TOKEN, body: { body: "User-agent: *\nDisallow: /\n", effectiveAt: new Date(VERSIONS[0]!.at).toISOString() } });
    expect(late.status).toBe(409);
    const same = await t.call("POST", `/admin/projects/${project.projectId}/robots/versions`, { token: ADMIN_TOKEN, body: { body: VERSIONS.at(-1)!.body } });
    expect(same.status).toBe(200);
    expect((await t.call("GET", `/v1/analytics/${project.projectId}/robots`, {})).status).toBe(401);
  });
  it("refuses a version dated in the future (400), takes one within clock skew as now, and never lets a mistyped date block the versions after it", async () => {
    const { projectId, key } = await t.newProject("acme/robots-future");
    const send = (body: string, effectiveAt?: string) => t.call("POST", `/admin/projects/${projectId}/robots/versions`, { token: ADMIN_TOKEN, body: { body, ...(effectiveAt ? { effectiveAt } : {}) } });
    const weekAhead = await send("User-agent: *\nDisallow: /\n", new Date(Date.now() + 7 * DAY_MS).toISOString());
    expect(weekAhead.status).toBe(400);
    expect(weekAhead.body.details).toEqual([{ field: "effectiveAt", message: expect.stringMatching(/^effectiveAt: is in the future .*takes effect when it is served/) }]);
    const before = Date.now();
    const skewed = await send("User-agent: *\nDisallow: /a\n", new Date(before + 2 * 60_000).toISOString());
    expect(skewed.status).toBe(201);
    expect(Date.parse(skewed.body.effectiveAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(skewed.body.effectiveAt)).toBeGreaterThanOrEqual(before);
    expect((await send("User-agent: *\nDisallow: /b\n")).status).toBe(201);
    const { versions } = (await t.call("GET", `/v1/analytics/${projectId}/robots/versions`, { token: key })).body;
    expect(versions.map((v: { body: string }) => v.body)).toEqual(["User-agent: *\nDisallow: /b\n", "User-agent: *\nDisallow: /a\n"]);
  });

  it("the dashboard drills down from the agents page's compliance column to an agent's disallowed pages, rules and versions, with its CSV", async () => {
    const expected = bruteForce(firstDay, firstDay + 5);
    const [top] = [...expected.agents].sort((a, b) => b[1].disallowed - a[1].disallowed)[0]!;
    // The most disallowed agent, and the one the last version's empty group names.
    for (const agent of [top, "PerplexityBot"]) await drillDown(expected, agent);
  });

  async function drillDown(expected: ReturnType<typeof bruteForce>, agent: string) {
    const tally = expected.agents.get(agent)!;
    expect(tally.disallowed).toBeGreaterThan(0);
    const visitor = new Visitor(t.url);
    await visitor.signInAsOperator();
    const range = `from=${dayToIso(firstDay)}&to=${dayToIso(firstDay + 4)}`;
    const agents = await visitor.get(`/dashboard/projects/${project.projectId}/agents?${range}`);
    expect(agents.status).toBe(200);
    const drill = `/dashboard/projects/${project.projectId}/agents/${encodeURIComponent(agent)}?${range}#robots-heading`;
    expect(agents.text).toContain(`<a href="${drill.replaceAll("&", "&amp;")}">${tally.disallowed.toLocaleString("en-US")}</a>`);

    const page = await visitor.get(drill.replace(/#.*$/, ""));
    expect(page.status).toBe(200);
    const dd = (id: string) => new RegExp(`<dd id="${id}">([^<]*)</dd>`).exec(page.text)?.[1];
    expect([dd("robots-allowed"), dd("robots-disallowed"), dd("robots-unknown")]).toEqual([tally.allowed, tally.disallowed, tally.unknown].map((n) => n.toLocaleString("en-US")));
    expect(dd("robots-reads")).toBe(tally.robotsReads > 0 ? `yes, ${tally.robotsReads.toLocaleString("en-US")} times` : "no");
    const api = (await get(`robots/disallowed?agent=${encodeURIComponent(agent)}&dateFrom=${dayToIso(firstDay)}&dateTo=${dayToIso(firstDay + 5)}&limit=250`)).body.disallowed;
    const table = /<table id="agent-robots-table">[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? "";
    const rows = [...table.matchAll(/<tr><td class="path">([^<]*)<\/td><td><code>([^<]*)<\/code> <span class="muted">line (\d+)<\/span><\/td><td>([^<]*)<\/td><td class="num">([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => m.slice(1));
    expect(rows).toEqual(
      api.map((r: { path: string; rule: string; line: number; versionEffectiveAt: string; views: number; firstSeen: string; lastSeen: string }) => [r.path, r.rule, String(r.line), r.versionEffectiveAt, r.views.toLocaleString("en-US"), r.firstSeen, r.lastSeen]),
    );
    expect(rows.reduce((n, r) => n + Number(r[4]!.replaceAll(",", "")), 0)).toBe(tally.disallowed);

    const csv = await visitor.get(`/dashboard/projects/${project.projectId}/agents/${encodeURIComponent(agent)}/robots-disallowed.csv?${range}`);
    expect(csv.status).toBe(200);
    const apiCsv = (await get(`robots/disallowed?agent=${encodeURIComponent(agent)}&dateFrom=${dayToIso(firstDay)}&dateTo=${dayToIso(firstDay + 5)}&output=csv`)).body as string;
    expect(parseCsv(csv.text)).toEqual(parseCsv(apiCsv));
    expect((await visitor.get(`/dashboard/projects/${project.projectId}/agents/NoSuchAgent/robots-disallowed.csv?${range}`)).status).toBe(404);
  }

  it("a last group without rules allows the agent it names everything, whatever * disallows", async () => {
    const last = versionIds.at(-1)!;
    const perplexity = (await get("robots/changes?limit=1")).body.versions[0].agents.find((a: { agent: string }) => a.agent === "PerplexityBot");
    const fetchedUnderLast = hits.filter((hit) => hit.agent?.name === "PerplexityBot" && hit.kind === "ai" && hit.page !== "/robots.txt" && Date.parse(hit.timestamp) >= VERSIONS.at(-1)!.at);
    expect(fetchedUnderLast.filter((hit) => !rfcJudge(VERSIONS.at(-1)!.body, "SomeBot", fetchedOf(hit)).allowed).length).toBeGreaterThan(0);
    expect(perplexity).toMatchObject({ allowed: fetchedUnderLast.length, disallowed: 0 });
    const rows = (await get("robots/disallowed?agent=PerplexityBot&limit=250")).body.disallowed;
    expect(rows.filter((row: { versionId: number }) => row.versionId === last)).toEqual([]);
  });
});

describe("robots.txt suggestions", () => {
  it("suggests an explicit group for each agent that keeps fetching what robots.txt disallows it, most disallowed first, calling verified only the verified", async () => {
    const today = epochDay(Date.now());
    const expected = bruteForce(today + 1 - SUGGESTION_DAYS, today + 1);
    const keepsFetching = [...expected.agents]
      .filter(([, tally]) => tally.disallowed >= MIN_DISALLOWED_VIEWS)
      .sort(([a, x], [b, y]) => y.disallowed - x.disallowed || (a < b ? -1 : 1))
      .slice(0, 10);
    // Every view of an agent verified, or none (the generated traffic has no agent both ways).
    const verifiedOnly = (name: string) => hits.some((hit) => hit.agent?.name === name && hit.agent.verification === "verified");
    expect(keepsFetching.filter(([name]) => verifiedOnly(name)).length).toBeGreaterThan(0);
    expect(keepsFetching.filter(([name]) => !verifiedOnly(name)).length).toBeGreaterThan(0);
    const { robots } = await readerSuggestions(t.store.db, project.projectId, today);
    const ignored = robots.filter((s) => !s.detail.includes(" sent "));
    expect(ignored.map((s) => s.detail.replace(/^Clients calling themselves /, "").split(" fetched ")[0])).toEqual(keepsFetching.map(([name]) => name));
    for (const [i, [name, tally]] of keepsFetching.entries()) {
      const suggestion = ignored[i]!;
      expect(suggestion).toMatchObject({ kind: "robots", path: "/robots.txt" });
      expect(suggestion.prompt).toContain(`User-agent: ${name}`);
      if (verifiedOnly(name)) {
        expect(suggestion.detail).toMatch(new RegExp(`^${name} fetched ${tally.disallowed} disallowed pages`));
        expect(suggestion.prompt).toContain(`The verified AI agent ${name} keeps fetching`);
      } else {
        // Its address cannot be tied to its operator: a claim of its name, no accusation.
        expect(suggestion.detail).toMatch(new RegExp(`^Clients calling themselves ${name.replace(/[()]/g, "\\$&")} fetched ${tally.disallowed} disallowed pages .*\\(unverifiable: .+ publishes no addresses or signatures to check them against\\)$`));
        expect(suggestion.prompt).not.toMatch(/verified AI agent/);
        expect(suggestion.prompt).toContain(`no proof that ${name} itself ignores robots.txt`);
      }
    }
    // Spoofed claims are bots: never judged, never suggested.
    expect(expected.agents.has("ClaudeBot")).toBe(false);
    expect(robots.some((s) => s.detail.includes("ClaudeBot"))).toBe(false);
  });

  it("suggests letting in an AI answer engine's fetchers when it sends readers and the robots.txt in force blocks them; other sources suggest nothing", async () => {
    const at = new Date().toISOString();
    const person = { timestamp: at, ip: "203.0.113.40", userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" };
    const arrivals = [
      { ...person, path: "/docs/page-1", referrer: "https://chatgpt.com/" },
      { ...person, ip: "203.0.113.41", path: "/docs/page-4", referrer: "https://chatgpt.com/c/abc" },
      { ...person, ip: "203.0.113.42", path: "/docs/page-4", referrer: "https://www.google.com/" },
    ];
    expect((await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: arrivals } })).body.rejected).toEqual([]);
    // Both of chatgpt.com's arrivals counted (a busy rollup may count one batch's hits in separate chunks).
    const { robots } = await eventually("both chatgpt.com arrivals counted", async () => {
      const found = await readerSuggestions(t.store.db, project.projectId, epochDay(Date.now()));
      return found.robots.some((s) => s.detail.startsWith("chatgpt.com sent 2 visitors")) && found;
    });
    const blocked = robots.filter((s) => s.detail.includes(" sent "));
    // The version in force: `User-agent: *` disallows /docs/page-1 (and /llms.txt): OpenAI's answer fetchers are kept from the page.
    const kept = ["OAI-SearchBot", "ChatGPT-User"].filter((agent) => !rfcJudge(VERSIONS.at(-1)!.body, agent, "/docs/page-1").allowed);
    expect(kept).toEqual(["OAI-SearchBot", "ChatGPT-User"]);
    expect(blocked).toHaveLength(1);
    const detail = /^chatgpt\.com sent 2 visitors, but robots\.txt blocks (.+) \(OpenAI\) from (.+)$/.exec(blocked[0]!.detail);
    expect(detail?.[1]?.split(", ")).toEqual(expect.arrayContaining(kept));
    expect(detail?.[1]).not.toMatch(/GPTBot/); // OpenAI's training crawler is not what answers read with
    expect(detail?.[2]?.split(", ")).toContain("/docs/page-1");
    expect(blocked[0]!.prompt).toContain("Disallow: /docs/page-1");
  });
});
