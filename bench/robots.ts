// npm run bench:robots — the robots.txt compliance reports over a quarter of AI agents' views on
// PostgreSQL. The views are judged by the rollup's own stage (rollup/robots-plan.ts: the real
// parser, the real upserts) in chunks, without the rest of the rollup: the reports read only what
// this stage writes. 30 agents, 5,000 pages (a few hot), four robots.txt versions (the first two
// weeks before any), 90 days.
// Scale: BENCH_VIEWS (default 10,000,000), BENCH_DATABASE_URL / TEST_DATABASE_URL.
import { DAY_MS, epochDay } from "../src/shared/epoch-days.js";
import { RobotsJudge } from "../src/app/analytics/rollup/robots-plan.js";
import type { ChunkView } from "../src/app/analytics/rollup/plan-types.js";
import { CLASS_CODE } from "../src/app/analytics/classify/traffic-class.js";
import { addRobotsVersion } from "../src/app/analytics/robots/robots-versions.js";
import { robotsChangesReport, robotsComplianceReport, robotsDisallowedReport, robotsOperatorsReport } from "../src/app/analytics/reports/robots-reports.js";
import { agentsReport } from "../src/app/analytics/reports/agent-reports.js";
import { createProject } from "../src/app/domain/projects.js";
import type { Queryable } from "../src/app/store/db.js";
import { random } from "../test/helpers/traffic.js";
import { percentile } from "./percentile.js";
import { setUpStore, timeIt } from "./bench-server.js";

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
const AGENTS = 30;
const PATHS = 5_000;
const DAYS = 90;
const CHUNK = 20_000;
const FIRST_DAY = epochDay(Date.now()) - DAYS;
const TOKENS = ["GPTBot", "ClaudeBot", "PerplexityBot", "CCBot", "Bytespider", "Amazonbot"];

const store = await setUpStore("postgres");
const db = await store.open();
try {
  const project = await createProject(db, { repoName: "bench/robots", repository: "https://github.com/bench/robots", model: "m" });
  const agentIds: number[] = [];
  for (let a = 0; a < AGENTS; a++) {
    const name = TOKENS[a] ?? `BenchBot-${a}`;
    const [row] = await db.query<{ id: number }>(`INSERT INTO analytics_agents (name, operator, category) VALUES ($1, $2, 'crawler') ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`, [name, `operator-${a % 8}`]);
    agentIds.push(Number(row?.id));
  }
  const paths = await db.query<{ id: number }>(
    `INSERT INTO analytics_paths (project_id, path) SELECT $1, '/docs/section-' || (n % 50) || '/page-' || n FROM generate_series(0, $2 - 1) AS n RETURNING id`,
    [project.id, PATHS],
  );
  await db.query(`INSERT INTO analytics_paths (project_id, path) VALUES ($1, '/robots.txt')`, [project.id]);
  const robotsPathId = Number((await db.query<{ id: number }>(`SELECT id FROM analytics_paths WHERE project_id = $1 AND path = '/robots.txt'`, [project.id]))[0]?.id);
  const bodies = [
    "User-agent: *\nDisallow: /docs/section-1/\n",
    "User-agent: GPTBot\nDisallow: /docs/section-1*\nAllow: /docs/section-1/page-1$\n\nUser-agent: *\nDisallow: /docs/section-2/\n",
    "User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /docs/\nAllow: /docs/section-3\n\nUser-agent: *\nDisallow: /*page-7$\nContent-Signal: ai-train=no\n",
    "User-agent: *\nDisallow: /docs/section-4/\nDisallow: /docs/section-1/\n",
  ];
  for (const [i, body] of bodies.entries()) {
    await db.transaction((tx) => addRobotsVersion(tx, project.id, { body, source: "api", effectiveAt: new Date((FIRST_DAY + 14 + i * 19) * DAY_MS + 5 * 3_600_000) }));
  }

  const rand = random(34);
  const judge = new RobotsJudge();
  const started = performance.now();
  for (let done = 0; done < VIEWS; done += CHUNK) {
    const views: ChunkView[] = [];
    for (let n = 0; n < Math.min(CHUNK, VIEWS - done); n++) {
      const at = FIRST_DAY * DAY_MS + Math.floor(((done + n) / VIEWS) * DAYS * DAY_MS);
      const pathId = rand() < 0.02 ? robotsPathId : Number(paths[Math.floor(Math.pow(rand(), 3) * PATHS)]?.id);
      const day = Math.floor(at / DAY_MS);
      views.push({
        projectId: project.id, at, day, windowStart: day, pathId, visitor: "1", trafficClass: CLASS_CODE.ai, category: "crawler",
        agentId: agentIds[Math.floor(Math.pow(rand(), 2) * AGENTS)] as number, verification: 1, format: 0, status: 200, sourceId: null, groupIds: [],
      });
    }
    await db.transaction((tx) => judge.count(tx, views));
    if ((done / CHUNK) % 50 === 0) process.stderr.write(`${done.toLocaleString("en")} views judged, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  const judgedSeconds = (performance.now() - started) / 1000;
  // Every table the reports read, as autovacuum would have them after a day of counting.
  for (const table of ["analytics_daily_robots", "analytics_robots_disallowed", "analytics_monthly_robots_disallowed", "analytics_agents", "analytics_paths", "robots_versions"]) await db.query(`VACUUM ANALYZE ${table}`);
  const sizes = await db.query<{ daily: string; disallowed: string; monthly: string }>(
    `SELECT (SELECT count(*) FROM analytics_daily_robots) AS daily, (SELECT count(*) FROM analytics_robots_disallowed) AS disallowed, (SELECT count(*) FROM analytics_monthly_robots_disallowed) AS monthly`,
  );

  const page = { limit: 50, offset: 0 };
  const quarter = { from: FIRST_DAY, to: FIRST_DAY + DAYS };
  const month = { from: FIRST_DAY + 30, to: FIRST_DAY + 60 };
  const reports: [string, (q: Queryable) => Promise<unknown>][] = [
    ["compliance per agent, 90 days", (q) => robotsComplianceReport(q, project.id, quarter, page)],
    ["compliance per agent, 30 days", (q) => robotsComplianceReport(q, project.id, month, page)],
    ["compliance per operator, 90 days", (q) => robotsOperatorsReport(q, project.id, quarter, page)],
    ["disallowed pages with rules, 90 days (top 50)", (q) => robotsDisallowedReport(q, project.id, quarter, page, null)],
    ["disallowed pages of one agent, 90 days", (q) => robotsDisallowedReport(q, project.id, quarter, page, agentIds[0] as number)],
    ["changes per version, 90 days", (q) => robotsChangesReport(q, project.id, quarter, page)],
    ["agents report with its compliance column, 90 days", (q) => agentsReport(q, project.id, quarter, page)],
  ];
  console.log(`robots.txt compliance on PostgreSQL: ${VIEWS.toLocaleString("en")} AI views judged in ${judgedSeconds.toFixed(1)} s (${Math.round(VIEWS / judgedSeconds).toLocaleString("en")}/s);`);
  console.log(`rows: analytics_daily_robots ${Number(sizes[0]?.daily).toLocaleString("en")}, analytics_robots_disallowed ${Number(sizes[0]?.disallowed).toLocaleString("en")}, analytics_monthly_robots_disallowed ${Number(sizes[0]?.monthly).toLocaleString("en")}\n`);
  // Each report as the server runs it, and with parallel workers off: a plan that needs them is one
  // a busy 2-core host cannot count on. The goal: ≤ 100 ms p50 at 10M views, ≤ 150 ms at 30M.
  const goal = VIEWS > 10_000_000 ? 150 : 100;
  console.log(`| report | p50 ms | p95 ms | p50 ms, no parallel workers | goal (p50) |\n|---|---|---|---|---|`);
  for (const [name, run] of reports) {
    await run(db);
    const times = await timeIt(30, () => run(db));
    const serial = await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL max_parallel_workers_per_gather = 0`);
      return timeIt(30, () => run(tx));
    });
    const p50 = percentile(times, 50);
    console.log(`| ${name} | ${p50.toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${percentile(serial, 50).toFixed(1)} | ≤ ${goal}${p50 <= goal && percentile(serial, 50) <= goal ? "" : " (not met)"} |`);
  }
} finally {
  await db.close();
  await store.cleanup();
}
