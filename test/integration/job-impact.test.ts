import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachChangeRequest, archiveJob } from "../../src/app/domain/jobs/commands.js";
import { DAY_MS, dayToIso, epochDay, windowOf } from "../../src/shared/epoch-days.js";
import type { FileChange } from "../../src/shared/job-outcome-schemas.js";
import type { JobImpact, ReaderNumbersView } from "../../src/shared/impact-schemas.js";
import { parseCsv } from "../helpers/csv.js";
import { cliFor } from "../helpers/cli.js";
import { Visitor } from "../helpers/visitor.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { generateTraffic, random, wireHit, type GeneratedHit } from "../helpers/traffic.js";

// A merge 40 days ago (always in the past, so every hit is accepted), traffic 30 days either side.
const today = epochDay(Date.now());
const mergeDay = today - 40;
const mergedAt = new Date(mergeDay * DAY_MS + 15 * 3_600_000);
const rand = random(11);
/** Some people arrive from an AI answer, some from a search engine. */
const REFERRERS = [{ referrer: "https://chatgpt.com/c/secret", ai: true }, { referrer: "https://www.perplexity.ai/search/x", ai: true }, { referrer: "https://www.google.com/", ai: false }];
type Hit = GeneratedHit & { referrer?: string; fromAi: boolean };
const hits: Hit[] = generateTraffic({ seed: 29, people: 300, paths: 12, firstDay: mergeDay - 30, days: 61, views: 6_000 }).map((hit) => {
  const arrival = hit.kind === "human" && rand() < 0.4 ? REFERRERS[Math.floor(rand() * REFERRERS.length)] : undefined;
  return { ...hit, ...(arrival ? { referrer: arrival.referrer, fromAi: arrival.ai } : { fromAi: false }) };
});

const FILES: FileChange[] = [
  { path: "docs/page-0.mdx", change: "modified", page: "/docs/page-0" },
  { path: "docs/page-3.mdx", change: "renamed", from: "docs/page-2.mdx", page: "/docs/page-3", fromPage: "/docs/page-2" },
  { path: "docs/new.mdx", change: "added", page: "/docs/page-5" },
  { path: "docs/old.mdx", change: "deleted", fromPage: "/docs/page-7" },
  { path: "docs.json", change: "modified" },
];

let clockMs = Date.now();
let t: TestServer;
const projects: Record<"month" | "week", { projectId: string; key: string; jobId: string }> = {} as never;

/** A job of the project whose PR changed `files` and was merged at `mergedAt` (null: PR still open). */
async function jobWithPullRequest(project: { projectId: string; key: string }, files: FileChange[], merged: Date | null): Promise<string> {
  const created = await t.call("POST", `/v2/agent/${project.projectId}/job`, { token: project.key, body: { prompt: "Rewrite the setup pages" } });
  expect(created.status).toBe(201);
  const jobId = created.body.id as string;
  // The run's report (files with their site paths) as the runner protocol stores it.
  await t.store.db.query(`UPDATE jobs SET outcome = $2 WHERE id = $1`, [jobId, JSON.stringify({ summary: "Rewrote setup", files, validation: null, usage: null })]);
  await t.store.db.transaction(async (tx) => {
    await attachChangeRequest(tx, jobId, { number: 7, url: "https://github.com/acme/docs/pull/7" }, { replace: true });
    if (merged) await archiveJob(tx, jobId, { mergedAt: merged });
  });
  return jobId;
}

beforeAll(async () => {
  t = await startTestServer({ clock: () => clockMs, env: { INKWELL_ANALYTICS_ROLLUP_CHUNK: "400" } });
  for (const saltWindow of ["month", "week"] as const) {
    const project = await t.newProject(undefined, { analytics: { saltWindow } });
    for (let i = 0; i < hits.length; i += 1_000) {
      const batch = hits.slice(i, i + 1_000).map((hit) => ({ ...wireHit(hit), ...(hit.referrer ? { referrer: hit.referrer } : {}) }));
      const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: batch } });
      expect(answer.body.rejected).toEqual([]);
    }
    projects[saltWindow] = { ...project, jobId: await jobWithPullRequest(project, FILES, mergedAt) };
  }
  // A report waits only so long for the views before it to be counted, then answers what is counted so far
  // (`Inkwell-Counting: pending`): on a slow machine that is not all of them, so wait until it is.
  for (const { projectId, key } of Object.values(projects)) {
    while ((await t.call("GET", `/v1/analytics/${projectId}/visitors?limit=1`, { token: key })).headers.get("inkwell-counting") === "pending");
  }
}, 300_000);
afterAll(() => t.close());

const failed = (hit: Hit) => (hit.status ?? 200) >= 400;

/** ReaderNumbers by brute force over the raw hits: of one page, or of the site (null), on days [from, to). */
function bruteForce(path: string | null, from: number, to: number, windowStart: (day: number) => number): ReaderNumbersView {
  const human = new Set<string>();
  const ai = new Set<string>();
  const arrivals = new Set<string>();
  const numbers: ReaderNumbersView = { humanVisitors: 0, aiVisitors: 0, aiReads: { assistant: 0, crawler: 0, search: 0, total: 0 }, aiFailures: 0, arrivalsFromAi: 0, markdownReads: 0, llmsTxtReads: 0 };
  for (const hit of hits) {
    const day = Math.floor(Date.parse(hit.timestamp) / DAY_MS);
    if (day < from || day >= to || (path !== null && hit.page !== path) || hit.kind === "bot") continue;
    const who = `${windowStart(day)}:${hit.person}`;
    if (hit.kind === "ai" && failed(hit)) numbers.aiFailures++;
    if (failed(hit)) continue;
    if (hit.kind === "human") human.add(who);
    if (hit.kind === "human" && hit.fromAi) arrivals.add(who);
    if (hit.kind === "ai") {
      ai.add(who);
      numbers.aiReads[hit.agent?.category as "assistant" | "crawler" | "search"]++;
      numbers.aiReads.total++;
    }
    if (hit.format === "markdown") numbers.markdownReads++;
    if (hit.format === "llms.txt") numbers.llmsTxtReads++;
  }
  return { ...numbers, humanVisitors: human.size, aiVisitors: ai.size, arrivalsFromAi: arrivals.size };
}

const impactOf = async (saltWindow: "month" | "week", jobId = projects[saltWindow].jobId, query = "") => {
  const { projectId, key } = projects[saltWindow];
  return t.call("GET", `/v2/agent/${projectId}/job/${jobId}/impact${query}`, { token: key });
};

describe.each(["month", "week"] as const)("a merged job's impact with a %s salt window", (saltWindow) => {
  const windowStart = (day: number) => windowOf(saltWindow, day).start;

  it("every page, window and side equals a brute-force count over the raw hits, beside the site's", async () => {
    clockMs = (mergeDay + 35) * DAY_MS + 3_600_000;
    const answer = await impactOf(saltWindow);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("inkwell-counting")).toBeNull();
    const impact = answer.body as JobImpact;
    expect(impact).toMatchObject({ state: "measured", mergedAt: mergedAt.toISOString(), prLink: "https://github.com/acme/docs/pull/7", otherFiles: ["docs.json"] });
    expect(impact.pages.map((page) => [page.path, page.fromPath, page.change, page.files])).toEqual([
      ["/docs/page-0", undefined, "modified", ["docs/page-0.mdx"]],
      ["/docs/page-3", "/docs/page-2", "renamed", ["docs/page-3.mdx"]],
      ["/docs/page-5", undefined, "added", ["docs/new.mdx"]],
      // Deleted: read at the path it was served at, before and after (readers sent on, agents failing there).
      ["/docs/page-7", undefined, "deleted", ["docs/old.mdx"]],
    ]);
    for (const [i, days] of [7, 14, 28].entries()) {
      expect(impact.windows[i]).toEqual({
        days,
        before: { dateFrom: dayToIso(mergeDay - days), dateTo: dayToIso(mergeDay) },
        after: { dateFrom: dayToIso(mergeDay + 1), dateTo: dayToIso(mergeDay + 1 + days), daysCounted: days, complete: true },
      });
      const before = [mergeDay - days, mergeDay] as const;
      const after = [mergeDay + 1, mergeDay + 1 + days] as const;
      expect(impact.site[i]).toEqual({ days, before: bruteForce(null, ...before, windowStart), after: bruteForce(null, ...after, windowStart) });
      for (const page of impact.pages) {
        const expected = {
          days,
          before: bruteForce(page.fromPath ?? page.path, ...before, windowStart),
          after: bruteForce(page.path, ...after, windowStart),
          ...(page.fromPath ? { fromPathAfter: bruteForce(page.fromPath, ...after, windowStart) } : {}),
        };
        expect({ path: page.path, ...page.windows[i] }).toEqual({ path: page.path, ...expected });
      }
    }
    // The traffic is rich enough for every measure to be tested on something.
    const site = impact.site[2] as { before: ReaderNumbersView };
    for (const value of [site.before.humanVisitors, site.before.aiVisitors, site.before.aiFailures, site.before.arrivalsFromAi, site.before.markdownReads, site.before.llmsTxtReads, site.before.aiReads.crawler, site.before.aiReads.search, site.before.aiReads.assistant]) {
      expect(value).toBeGreaterThan(0);
    }
  });

  it("while the windows after the merge are running, each counts only its ended days and says how many", async () => {
    clockMs = (mergeDay + 4) * DAY_MS + 12 * 3_600_000;
    const impact = (await impactOf(saltWindow)).body as JobImpact;
    for (const [i, days] of [7, 14, 28].entries()) {
      expect(impact.windows[i]?.after).toEqual({ dateFrom: dayToIso(mergeDay + 1), dateTo: dayToIso(mergeDay + 1 + days), daysCounted: 3, complete: false });
      expect(impact.site[i]?.after).toEqual(bruteForce(null, mergeDay + 1, mergeDay + 4, windowStart));
      expect(impact.pages[0]?.windows[i]?.after).toEqual(bruteForce("/docs/page-0", mergeDay + 1, mergeDay + 4, windowStart));
    }
    // On the merge day itself nothing after it has ended yet.
    clockMs = mergeDay * DAY_MS + 20 * 3_600_000;
    const sameDay = (await impactOf(saltWindow)).body as JobImpact;
    expect(sameDay.windows.map((w) => w.after.daysCounted)).toEqual([0, 0, 0]);
    expect(sameDay.site[0]?.after).toEqual(bruteForce(null, 0, 0, windowStart));
    expect(sameDay.site[0]?.before).toEqual(bruteForce(null, mergeDay - 7, mergeDay, windowStart));
  });
});

describe("a job's impact as CSV and its refusals", () => {
  it("CSV holds the same numbers as JSON, a row per scope, window and side", async () => {
    clockMs = (mergeDay + 35) * DAY_MS;
    const json = (await impactOf("month")).body as JobImpact;
    const answer = await impactOf("month", undefined, "?output=csv");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/csv/);
    const [header = [], ...records] = parseCsv(answer.body as string);
    const rows = records.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i]])));
    // The site and four pages, three windows, before and after; the moved page's old path after, too.
    expect(rows.length).toBe((1 + 4) * 3 * 2 + 3);
    const moved = rows.find((row) => row.path === "/docs/page-3" && row.windowDays === "14" && row.side === "fromPathAfter");
    expect(Number(moved?.aiFailures)).toBe(json.pages[1]?.windows[1]?.fromPathAfter?.aiFailures);
    const site = rows.find((row) => row.scope === "site" && row.windowDays === "28" && row.side === "before");
    expect(Number(site?.humanVisitors)).toBe(json.site[2]?.before.humanVisitors);
    expect(Number(site?.aiReadsCrawler)).toBe(json.site[2]?.before.aiReads.crawler);
  });

  it("a PR not merged yet, a PR that touched no page, and a job without a PR say why, with 200", async () => {
    const project = projects.month;
    const open = await jobWithPullRequest(project, FILES, null);
    expect((await impactOf("month", open)).body).toMatchObject({ state: "not_merged", reason: expect.stringMatching(/not merged yet/), pages: [], windows: [] });
    const noPages = await jobWithPullRequest(project, [{ path: "docs.json", change: "modified" }, { path: "images/logo.png", change: "added" }], mergedAt);
    const answer = (await impactOf("month", noPages)).body as JobImpact;
    expect(answer).toMatchObject({ state: "no_pages", reason: expect.stringMatching(/no page/), pages: [], otherFiles: ["docs.json", "images/logo.png"] });
    expect(answer.site[0]?.before).toEqual(bruteForce(null, mergeDay - 7, mergeDay, (day) => windowOf("month", day).start));
    const created = await t.call("POST", `/v2/agent/${project.projectId}/job`, { token: project.key, body: { prompt: "Nothing yet" } });
    expect((await impactOf("month", created.body.id)).body).toMatchObject({ state: "not_merged", reason: expect.stringMatching(/no pull request yet/) });
  });

  it("inkwell jobs impact prints each window's pages beside the site, --json the answer, --csv the export", async () => {
    clockMs = (mergeDay + 10) * DAY_MS;
    const { projectId, key, jobId } = projects.month;
    const cli = cliFor(t);
    const env = { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId };
    const json = (await impactOf("month")).body as JobImpact;
    const text = await cli(["jobs", "impact", jobId], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`7 days: ${dayToIso(mergeDay - 7)}..${dayToIso(mergeDay)} before, ${dayToIso(mergeDay + 1)}..${dayToIso(mergeDay + 8)} after (complete`);
    expect(text.stdout).toContain("14 days:");
    expect(text.stdout).toContain("(9 of 14 days so far");
    const site = json.site[0] as { before: ReaderNumbersView; after: ReaderNumbersView };
    expect(text.stdout).toMatch(new RegExp(`\\(whole site\\)\\s+${site.before.humanVisitors} → ${site.after.humanVisitors}`));
    expect(text.stdout).toContain("/docs/page-2 → /docs/page-3");
    const one = await cli(["jobs", "impact", jobId, "--days", "28"], env);
    expect(one.stdout).not.toContain("7 days:");
    expect(one.stdout).toContain("28 days:");
    expect(JSON.parse((await cli(["jobs", "impact", jobId, "--json"], env)).stdout)).toEqual(json);
    const csv = await cli(["jobs", "impact", jobId, "--csv"], env);
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^scope,path,fromPath,change,windowDays,side,/);
    const bad = await cli(["jobs", "impact", jobId, "--days", "10"], env);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/--days must be 7, 14 or 28/) });
  });

  it("the get_job_impact MCP tool answers the same body, and a sentence", async () => {
    clockMs = (mergeDay + 10) * DAY_MS;
    const { key, jobId } = projects.week;
    const client = await connectMcp(t.url, key);
    try {
      const result = await callTool(client, "get_job_impact", { id: jobId });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual((await impactOf("week")).body);
      expect(firstText(result)).toMatch(/^Over the 7 days before and after the merge, the 4 changed pages had \d+ → \d+ people and \d+ → \d+ AI fetch failures; the whole site \d+ → \d+ people\.$/);
      const other = await callTool(client, "get_job_impact", { id: projects.month.jobId });
      expect(other.isError).toBe(true);
      expect(firstText(other)).toMatch(/not found/i);
    } finally {
      await client.close();
    }
  });

  it("the job's dashboard page shows each window's pages beside the site, and its CSV is the API's", async () => {
    clockMs = (mergeDay + 10) * DAY_MS;
    const { projectId, jobId } = projects.month;
    const visitor = new Visitor(t.url);
    await visitor.signInAsOperator();
    const page = await visitor.get(`/dashboard/projects/${projectId}/jobs/${jobId}`);
    expect(page.status).toBe(200);
    const json = (await impactOf("month")).body as JobImpact;
    const section = /<section id="job-impact"[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? "";
    expect(section).toContain("Readers before and after the merge");
    expect(section).toContain(`7 days: ${dayToIso(mergeDay - 7)} to ${dayToIso(mergeDay)} before`);
    expect(section).toContain("(9 of 14 days so far)");
    expect(section).toContain("<code>/docs/page-2</code> → <code>/docs/page-3</code>");
    const site = json.site[0] as { before: ReaderNumbersView; after: ReaderNumbersView };
    expect(section).toMatch(new RegExp(`<tr class="baseline"><th scope="row">Whole site</th><td class="num">${site.before.humanVisitors.toLocaleString("en-US")} → ${site.after.humanVisitors.toLocaleString("en-US")}`));
    expect(section).toContain("<code>docs.json</code>");
    const csv = await visitor.get(`/dashboard/projects/${projectId}/jobs/${jobId}/impact.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toBe((await impactOf("month", undefined, "?output=csv")).body);
    // A job whose PR is open says why there is nothing yet.
    const open = await jobWithPullRequest(projects.month, FILES, null);
    await t.store.db.transaction((tx) => archiveJob(tx, open, null));
    const closed = await visitor.get(`/dashboard/projects/${projectId}/jobs/${open}`);
    expect(closed.text).toContain("closed without merging");
  });

  it("ranks the project's merged jobs by the change in their pages' AI failures, AI reads or people; running windows are pending", async () => {
    clockMs = (mergeDay + 20) * DAY_MS;
    const project = projects.week;
    const earlier = await jobWithPullRequest(project, [{ path: "docs/page-1.mdx", change: "modified", page: "/docs/page-1" }], new Date((mergeDay - 3) * DAY_MS + 3_600_000));
    const recent = await jobWithPullRequest(project, [{ path: "docs/page-4.mdx", change: "modified", page: "/docs/page-4" }], new Date((mergeDay + 16) * DAY_MS));
    await jobWithPullRequest(project, [{ path: "docs.json", change: "modified" }], mergedAt);
    const totals = async (jobId: string, i: number) => {
      const impact = (await impactOf("week", jobId)).body as JobImpact;
      const sum = (side: "before" | "after", pick: (n: ReaderNumbersView) => number) =>
        impact.pages.reduce((total, page) => {
          const window = page.windows[i];
          return total + (window ? pick(window[side]) + (side === "after" && window.fromPathAfter && pick === failures ? pick(window.fromPathAfter) : 0) : 0);
        }, 0);
      const failures = (n: ReaderNumbersView) => n.aiFailures;
      return {
        jobId,
        humanVisitors: { before: sum("before", (n) => n.humanVisitors), after: sum("after", (n) => n.humanVisitors) },
        aiReads: { before: sum("before", (n) => n.aiReads.total), after: sum("after", (n) => n.aiReads.total) },
        aiFailures: { before: sum("before", failures), after: sum("after", failures) },
      };
    };
    const measured = [await totals(projects.week.jobId, 0), await totals(earlier, 0)];
    const rank = async (query: string) => (await t.call("GET", `/v2/agent/${project.projectId}/jobs/impact${query}`, { token: project.key })).body;
    const byFailures = await rank("");
    expect(byFailures).toMatchObject({ days: 7, order: "aiFailures", hasMore: false, truncated: false });
    expect(byFailures.pending).toEqual([{ jobId: recent, mergedAt: new Date((mergeDay + 16) * DAY_MS).toISOString(), completesOn: dayToIso(mergeDay + 24) }]);
    const fall = (x: (typeof measured)[number]) => x.aiFailures.after - x.aiFailures.before;
    const expectedOrder = [...measured].sort((a, b) => fall(a) - fall(b) || (a.jobId === projects.week.jobId ? -1 : 1)).map((x) => x.jobId);
    expect(byFailures.jobs.map((job: { jobId: string }) => job.jobId)).toEqual(expectedOrder);
    for (const job of byFailures.jobs as { jobId: string; changedPages: Record<string, unknown> }[]) {
      const { jobId: _jobId, ...expected } = measured.find((x) => x.jobId === job.jobId)!;
      expect(job.changedPages).toMatchObject(expected);
    }
    const csv = await t.call("GET", `/v2/agent/${project.projectId}/jobs/impact?output=csv`, { token: project.key });
    const [header = [], ...records] = parseCsv(csv.body as string);
    expect(header.slice(0, 7)).toEqual(["jobId", "prLink", "mergedAt", "pages", "summary", "humanVisitorsBefore", "humanVisitorsAfter"]);
    expect(records.map((record) => record[0])).toEqual(expectedOrder);
    const cli = cliFor(t);
    const text = await cli(["jobs", "ranking"], { INKWELL_API_KEY: project.key, INKWELL_PROJECT: project.projectId });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Merged jobs by aiFailures, 7 days before and after each merge");
    expect(text.stdout.indexOf(expectedOrder[0]!)).toBeLessThan(text.stdout.indexOf(expectedOrder[1]!));
    expect(text.stdout).toContain(`Still measuring (ranked from the day given): ${recent} (${dayToIso(mergeDay + 24)})`);
    const rise = (x: (typeof measured)[number]) => x.humanVisitors.after - x.humanVisitors.before;
    const byPeople = await rank("?order=humanVisitors&limit=1");
    expect(byPeople.jobs.map((job: { jobId: string }) => job.jobId)).toEqual([[...measured].sort((a, b) => rise(b) - rise(a) || (a.jobId === projects.week.jobId ? -1 : 1))[0]!.jobId]);
    expect(byPeople.hasMore).toBe(true);
    // 28 days, 35 days after the first merges: their windows are over; the later merge's is not.
    clockMs = (mergeDay + 35) * DAY_MS;
    const long = await rank("?days=28");
    expect(long.pending.map((job: { jobId: string }) => job.jobId)).toEqual([recent]);
    expect(long.jobs.map((job: { jobId: string }) => job.jobId).sort()).toEqual([earlier, projects.week.jobId].sort());
    // Merge dates bound the ranking.
    expect((await rank(`?dateFrom=${dayToIso(mergeDay)}&dateTo=${dayToIso(mergeDay + 1)}`)).jobs.map((job: { jobId: string }) => job.jobId)).toEqual([projects.week.jobId]);
    expect((await t.call("GET", `/v2/agent/${project.projectId}/jobs/impact?days=10`, { token: project.key })).status).toBe(400);
    // The dashboard's ranking page: the API's order, each job linked, the running ones listed.
    const visitor = new Visitor(t.url);
    await visitor.signInAsOperator();
    const page = await visitor.get(`/dashboard/projects/${project.projectId}/jobs-impact?days=28&order=aiFailures`);
    expect(page.status).toBe(200);
    const linked = [...page.text.matchAll(/<tr><th scope="row"><a href="\/dashboard\/projects\/[^/]+\/jobs\/([a-z0-9]+)">/g)].map((match) => match[1]);
    expect(linked).toEqual(long.jobs.map((job: { jobId: string }) => job.jobId));
    expect(page.text).toContain(`Still measuring: <a href="/dashboard/projects/${project.projectId}/jobs/${recent}">${recent}</a>`);
    const downloaded = await visitor.get(`/dashboard/projects/${project.projectId}/jobs-impact.csv?days=28`);
    expect(parseCsv(downloaded.text).slice(1).map((record) => record[0])).toEqual(linked);
    // The page takes the API's window and order, and says what is wrong with others.
    const wrongWindow = await visitor.get(`/dashboard/projects/${project.projectId}/jobs-impact?days=10`);
    expect(wrongWindow.status).toBe(400);
    expect(wrongWindow.text).toContain("must be 7, 14 or 28");
  });

  it("refuses another project's key, an unknown job and unknown query parameters", async () => {
    const { projectId, jobId } = projects.month;
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/impact`, { token: projects.week.key })).status).toBe(403);
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/impact`)).status).toBe(401);
    expect((await impactOf("month", "nosuchjob0000")).status).toBe(404);
    const unknown = await impactOf("month", undefined, "?days=7");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/days/);
  });
});
