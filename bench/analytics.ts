// npm run bench:analytics — a deterministic month of docs traffic through the batch API, then the
// visitors query against a naive COUNT(DISTINCT) over the raw events, and the AI agent reports, on
// PostgreSQL and PGlite. AI people send from their operators' published addresses (one in ten
// copies the User-Agent elsewhere: spoofed), AI agents read markdown twins, 3% of requests fail.
// Scale: BENCH_VIEWS (default 10,000,000; visitors = views / 10, 5,000 paths), BENCH_STORES
// (default "postgres,pglite"), BENCH_DATABASE_URL / TEST_DATABASE_URL for PostgreSQL.
// BENCH_INSTANCES (default "1"; e.g. "1,2,3"): on PostgreSQL, the same traffic once per count,
// sent round-robin through that many server processes on one database, and printed side by side.
// BENCH_KEEP_SCHEMA=1 keeps the PostgreSQL schema; BENCH_QUERY_ONLY_SCHEMA=<schema> re-times the
// reports on it (migrating it first); BENCH_REPORTS narrows which.
import { DAY_MS, dayToIso, epochDay, type DayRange } from "../src/shared/epoch-days.js";
import { DEFAULT_ORDER, visitorsReport } from "../src/app/analytics/reports/visitors-report.js";
import { viewsReport } from "../src/app/analytics/reports/views-report.js";
import type { Db } from "../src/app/store/db.js";
import { publishedAddress, random } from "../test/helpers/traffic.js";
import { agentIdByName, agentPagesReport, agentsReport, failuresReport } from "../src/app/analytics/reports/agent-reports.js";
import { percentile } from "./percentile.js";
import { call, PG_URL, setUpStore, startServer, timeIt, TOKEN } from "./bench-server.js";
import { openStore } from "../src/app/store/open-store.js";
import { timeseriesReport, type BoundedRange } from "../src/app/analytics/reports/timeseries.js";
import { referrerPagesReport, referrersReport } from "../src/app/analytics/reports/referral-reports.js";
import { operatorRatios } from "../src/app/analytics/reports/operator-ratios.js";
import { archiveJob, attachChangeRequest, createJob } from "../src/app/domain/jobs/commands.js";
import { jobImpact } from "../src/app/impact/job-impact.js";

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
const VISITORS = Math.max(1, Math.round(VIEWS / 10));
const PATHS = 5_000;
const BATCH = 1_000;
const IN_FLIGHT = 4;
const STORES = (process.env.BENCH_STORES ?? "postgres,pglite").split(",").map((s) => s.trim());
const INSTANCES = (process.env.BENCH_INSTANCES ?? "1").split(",").map((s) => Number(s.trim()));
/** BENCH_REPORTS (e.g. "referrers,timeseries visitors"): time only the reports whose names contain one of these, and skip the visitors-against-naive table. */
const ONLY_REPORTS = process.env.BENCH_REPORTS ? process.env.BENCH_REPORTS.split(",").map((s) => s.trim()) : null;

const UAS = {
  human: [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:132.0) Gecko/20100101 Firefox/132.0",
    "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  ],
  ai: [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)",
  ],
  bot: [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  ],
} as const;
const KINDS = ["human", "ai", "bot"] as const;
/** The vendored address list each AI User-Agent (UAS.ai, same order) is verified against: AI people send from it, but for one in ten that copies the User-Agent. */
const AI_LISTS = ["openai-chatgpt-user", "openai-gptbot", "anthropic-bots", "anthropic-bots", "perplexity-bot", "openai-searchbot"] as const;

// The month: last calendar month, so every day is in the past and within the backfill horizon.
const today = new Date();
const MONTH_START = epochDay(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
const MONTH_END = epochDay(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
const DAYS = MONTH_END - MONTH_START;

/** Deterministic traffic: per person a kind, a home day and a number of views; views per day in CSR form. */
function planTraffic() {
  const rand = random(20261121);
  const kind = new Uint8Array(VISITORS);
  const views = new Uint32Array(VISITORS);
  const home = new Uint8Array(VISITORS);
  let total = 0;
  for (let p = 0; p < VISITORS; p++) {
    const r = rand();
    kind[p] = r < 0.8 ? 0 : r < 0.95 ? 1 : 2;
    home[p] = Math.floor(rand() * DAYS);
    views[p] = 1 + Math.floor(-Math.log(1 - rand()) * (VIEWS / VISITORS - 1));
    total += views[p] as number;
  }
  // Make the total exact: trim or pad the heaviest/lightest deterministically.
  for (let p = 0; total !== VIEWS; p = (p + 7919) % VISITORS) {
    const has = views[p] as number;
    if (total > VIEWS && has > 1) {
      views[p] = has - 1;
      total--;
    } else if (total < VIEWS) {
      views[p] = has + 1;
      total++;
    }
  }
  const dayOf = new Uint8Array(VIEWS);
  const personOf = new Uint32Array(VIEWS);
  for (let p = 0, n = 0; p < VISITORS; p++) {
    for (let v = 0; v < (views[p] as number); v++, n++) {
      const spread = rand() < 0.6 ? 0 : Math.round(-Math.log(1 - rand()) * 4) * (rand() < 0.5 ? -1 : 1);
      dayOf[n] = Math.min(DAYS - 1, Math.max(0, (home[p] as number) + spread));
      personOf[n] = p;
    }
  }
  const perDay = new Uint32Array(DAYS + 1);
  for (let n = 0; n < VIEWS; n++) perDay[(dayOf[n] as number) + 1]!++;
  for (let d = 0; d < DAYS; d++) perDay[d + 1]! += perDay[d] as number;
  const order = new Uint32Array(VIEWS);
  const fill = perDay.slice(0, DAYS);
  for (let n = 0; n < VIEWS; n++) order[fill[dayOf[n] as number]!++] = personOf[n] as number;
  // Shuffle within each day: visitors interleave as they do on a real site.
  for (let d = 0; d < DAYS; d++) {
    for (let i = (perDay[d + 1] as number) - 1; i > (perDay[d] as number); i--) {
      const j = (perDay[d] as number) + Math.floor(rand() * (i - (perDay[d] as number) + 1));
      const swap = order[i] as number;
      order[i] = order[j] as number;
      order[j] = swap;
    }
  }
  const zipf = new Float64Array(PATHS);
  let acc = 0;
  for (let i = 0; i < PATHS; i++) zipf[i] = acc += 1 / (i + 1);
  const pathFor = (next: () => number) => {
    const x = next() * acc;
    let lo = 0;
    let hi = PATHS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((zipf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return `/docs/section-${lo % 50}/page-${lo}`;
  };
  return {
    kinds: kind,
    /** The same sequence on every call: each store gets identical traffic. */
    *batches(): Generator<string> {
      const next = random(7);
      let hits: string[] = [];
      for (let d = 0; d < DAYS; d++) {
        for (let i = perDay[d] as number; i < (perDay[d + 1] as number); i++) {
          const p = order[i] as number;
          const k = KINDS[kind[p] as number] as keyof typeof UAS;
          const pool = UAS[k];
          const at = new Date((MONTH_START + d) * DAY_MS + Math.floor(next() * DAY_MS)).toISOString();
          const published = k === "ai" && p % 10 !== 3 ? publishedAddress(AI_LISTS[p % pool.length] as string, p) : null;
          const ip = published
            ? published.ip
            : p % 10 === 9
              ? `2001:db8::${(p >> 16).toString(16)}:${(p & 0xffff).toString(16)}`
              : `10.${(p >> 16) & 255}.${(p >> 8) & 255}.${p & 255}`;
          const userAgent = `${pool[p % pool.length]}${published && published.round > 0 ? ` r${published.round}` : ""}`;
          // AI agents read markdown twins too; a few of every kind's requests fail.
          const path = `${pathFor(next)}${k === "ai" && next() < 0.3 ? ".md" : ""}`;
          const status = next() < 0.03 ? ',"status":404' : "";
          // A third of people's views arrive from somewhere (AI answers, search, social, blogs), the rest are steps within the site.
          const referrer = k === "human" ? `,"referrer":"${next() < 0.35 ? (REFERRERS[Math.floor(next() * REFERRERS.length)] as string) : "https://docs.bench.test/"}"` : "";
          hits.push(`{"timestamp":"${at}","path":"${path}","ip":"${ip}","userAgent":${JSON.stringify(userAgent)}${status}${referrer}}`);
          if (hits.length === BATCH) {
            yield `{"hits":[${hits.join(",")}]}`;
            hits = [];
          }
        }
      }
      if (hits.length > 0) yield `{"hits":[${hits.join(",")}]}`;
    },
  };
}

const REFERRERS = ["https://chatgpt.com/", "https://www.perplexity.ai/search/x", "https://claude.ai/", "https://www.google.com/", "https://www.bing.com/", "https://t.co/abc", "https://news.ycombinator.com/item?id=1", "https://blog.example.org/post"];

const ms = (n: number) => Math.round(n * 10) / 10;

const NAIVE_SQL = `
  WITH per_path AS (
    SELECT path_id, count(DISTINCT visitor) FILTER (WHERE class = 0) AS human, count(DISTINCT visitor) FILTER (WHERE class = 1) AS ai, count(DISTINCT visitor) AS total
    FROM analytics_events WHERE project_id = $1 AND at >= $2 AND at < $3 AND class <> 2 GROUP BY path_id
  )
  SELECT ap.path, pp.human, pp.ai, pp.total FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id
  ORDER BY pp.total DESC, ap.path COLLATE "C" LIMIT $4 OFFSET $5`;
const NAIVE_TOTALS_SQL = `
  SELECT count(DISTINCT visitor) FILTER (WHERE class = 0) AS human, count(DISTINCT visitor) FILTER (WHERE class = 1) AS ai, count(DISTINCT visitor) AS total
  FROM analytics_events WHERE project_id = $1 AND at >= $2 AND at < $3 AND class <> 2`;

/** The visitors query (p50/p95 of 15 runs) against the naive COUNT(DISTINCT) over raw events, in the same store. */
async function timeQueries(db: Db, kind: string, projectId: string) {
  if (kind === "postgres") await db.query("ANALYZE");
  if (ONLY_REPORTS !== null) return [];
  const results: Record<string, unknown>[] = [];
  const ranges: [string, DayRange][] = [
    ["full month", { from: MONTH_START, to: MONTH_END }],
    ["one week", { from: MONTH_START + 8, to: MONTH_START + 15 }],
    ["one day", { from: MONTH_START + 12, to: MONTH_START + 13 }],
  ];
  for (const [name, range] of ranges) {
    for (const [pageName, offset] of [["first page", 0], ["deep page", 2_500]] as const) {
      await visitorsReport(db, projectId, range, { limit: 50, offset });
      const times = await timeIt(15, () => visitorsReport(db, projectId, range, { limit: 50, offset }));
      const from = new Date((range.from as number) * DAY_MS);
      const to = new Date((range.to as number) * DAY_MS);
      const naive = await timeIt(pageName === "first page" ? 3 : 1, async () => {
        await db.query(NAIVE_SQL, [projectId, from, to, 50, offset]);
        await db.query(NAIVE_TOTALS_SQL, [projectId, from, to]);
      });
      results.push({
        store: kind,
        range: `${name} (${dayToIso(range.from as number)}..${dayToIso((range.to as number) - 1)})`,
        page: pageName,
        p50_ms: ms(percentile(times, 50)),
        p95_ms: ms(percentile(times, 95)),
        naive_p50_ms: ms(percentile(naive, 50)),
        speedup: `${Math.round(percentile(naive, 50) / percentile(times, 50))}x`,
      });
    }
  }
  return results;
}

/** The AI agent reports and the format-filtered exports over the month (p50/p95 of 15 runs each). */
async function timeAgentQueries(db: Db, kind: string, projectId: string) {
  const month: DayRange = { from: MONTH_START, to: MONTH_END };
  const first = { limit: 50, offset: 0 };
  const gptbot = await agentIdByName(db, "GPTBot");
  const reports: [string, () => Promise<unknown>][] = [
    ["agents", () => agentsReport(db, projectId, month, first)],
    ["agents ?category=crawler", () => agentsReport(db, projectId, month, first, { category: "crawler" })],
    ["agents/GPTBot/pages", () => agentPagesReport(db, projectId, gptbot as number, month, first)],
    ["failures", () => failuresReport(db, projectId, month, first)],
    ["views", () => viewsReport(db, projectId, month, first)],
    ["views ?format=markdown", () => viewsReport(db, projectId, month, first, { format: "markdown" })],
    ["visitors ?format=markdown", () => visitorsReport(db, projectId, month, first, DEFAULT_ORDER, { format: "markdown" })],
    ["visitors ?format=html", () => visitorsReport(db, projectId, month, first, DEFAULT_ORDER, { format: "html" })],
    ["visitors ?pathPrefix=/docs", () => visitorsReport(db, projectId, month, first, DEFAULT_ORDER, { pathPrefix: "/docs" })],
    ["visitors ?channel=ai", () => visitorsReport(db, projectId, month, first, DEFAULT_ORDER, { channel: "ai" })],
    ["visitors ?compare=previous", () => visitorsReport(db, projectId, month, first, DEFAULT_ORDER, { compare: "previous" })],
    ["views ?pathPrefix=/docs&compare=previous", () => viewsReport(db, projectId, month, first, { pathPrefix: "/docs", compare: "previous" })],
    ["views ?channel=ai", () => viewsReport(db, projectId, month, first, { channel: "ai" })],
    ["agents ?compare=previous", () => agentsReport(db, projectId, month, first, { compare: "previous" })],
    ["agents ?pathPrefix=/docs", () => agentsReport(db, projectId, month, first, { pathPrefix: "/docs" })],
    ["timeseries visitors ?interval=day", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "day", metric: "visitors" })],
    ["timeseries visitors ?interval=week&compare=previous", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "week", metric: "visitors", compare: "previous" })],
    ["timeseries visitors ?pathPrefix=/docs/section-1", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "day", metric: "visitors", pathPrefix: "/docs/section-1" })],
    ["timeseries views ?interval=day", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "day", metric: "views" })],
    ["timeseries visitors ?channel=ai", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "day", metric: "visitors", channel: "ai" })],
    ["timeseries views ?pathPrefix=/docs", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "day", metric: "views", pathPrefix: "/docs" })],
    ["timeseries views ?channel=ai", () => timeseriesReport(db, projectId, month as BoundedRange, { interval: "day", metric: "views", channel: "ai" })],
    ["referrers", () => referrersReport(db, projectId, month, first)],
    ["referrers/pages ?channel=ai", () => referrerPagesReport(db, projectId, month, first, "ai")],
  ];
  const impactJob = await mergedJobOfFiftyPages(db, projectId);
  reports.push(
    ["job impact, 50 pages, 3 windows", () => jobImpact(db, projectId, impactJob, Date.now())],
    ["agents/operators", () => operatorRatios(db, projectId, month)],
  );
  const results: Record<string, unknown>[] = [];
  for (const [report, run] of reports.filter(([report]) => ONLY_REPORTS === null || ONLY_REPORTS.some((name) => report.includes(name)))) {
    await run();
    const times = await timeIt(15, run);
    results.push({ store: kind, report: `${report} (full month)`, p50_ms: ms(percentile(times, 50)), p95_ms: ms(percentile(times, 95)) });
  }
  return results;
}

/**
 * A job whose merged PR changed 50 pages (from the most read to the rarely read, one moved) in the
 * middle of the month: the closed loop's report reads each page over the 7, 14 and 28 days either side.
 */
async function mergedJobOfFiftyPages(db: Db, projectId: string): Promise<string> {
  const { job, replayed } = await db.transaction((tx) => createJob(tx, { projectId, prompt: "Rewrite fifty pages", idempotencyKey: "bench-impact" }, { defaultRateLimitPerHour: 1_000 }));
  // A kept schema (BENCH_QUERY_ONLY_SCHEMA) already has it merged.
  if (replayed) return job.id;
  const files = Array.from({ length: 50 }, (_, i) => {
    const page = `/docs/section-${(i * 97) % 50}/page-${i * 97}`;
    return i === 0 ? { path: `docs${page}.mdx`, change: "renamed" as const, from: "docs/old.mdx", page, fromPage: "/docs/section-1/page-1" } : { path: `docs${page}.mdx`, change: "modified" as const, page };
  });
  await db.query(`UPDATE jobs SET outcome = $2 WHERE id = $1`, [job.id, JSON.stringify({ summary: null, files, validation: null, usage: null })]);
  await db.transaction(async (tx) => {
    await attachChangeRequest(tx, job.id, { number: 1, url: "https://github.com/bench/docs/pull/1" }, { replace: true });
    await archiveJob(tx, job.id, { mergedAt: new Date((MONTH_START + 14) * DAY_MS + 12 * 3_600_000) });
  });
  return job.id;
}

/**
 * Production PostgreSQL keeps planner statistics and visibility maps with autovacuum (on by
 * default), so reports read covering indexes alone. A server with it off (some test servers) would
 * time a state no production server stays in: the bench vacuums the counted tables once, and says so.
 */
async function standInForAutovacuum(db: Db): Promise<void> {
  const [setting] = await db.query<{ autovacuum: string }>(`SELECT current_setting('autovacuum') AS autovacuum`);
  if (setting?.autovacuum !== "off") return;
  const started = performance.now();
  const tables = await db.query<{ name: string }>(`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema()`);
  await db.query(`VACUUM (ANALYZE) ${tables.map((table) => table.name).join(", ")}`);
  console.log(`autovacuum is off on this server: VACUUM (ANALYZE) of the schema's ${tables.length} tables in its stead, ${Math.round(performance.now() - started)} ms`);
}

/** The PostgreSQL settings that bound a write-heavy run (buffers, checkpoints, WAL): printed so runs compare. */
async function printServerSettings(db: Db): Promise<void> {
  const rows = await db.query<{ name: string; setting: string }>(
    `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'synchronous_commit', 'autovacuum']) AS name`,
  );
  console.log(`PostgreSQL: ${rows.map((row) => `${row.name}=${row.setting}`).join(", ")}`);
}

async function benchStore(kind: string, plan: ReturnType<typeof planTraffic>, instances: number) {
  const store = await setUpStore(kind);
  if (kind === "postgres") {
    const db = await store.open();
    await printServerSettings(db).finally(() => db.close());
  }
  const label = instances > 1 ? `${kind} ×${instances}` : kind;
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  let failure: unknown;
  try {
    // Each instance its own data directory (PGlite's lock); on PostgreSQL they share the database.
    for (let i = 0; i < instances; i++) servers.push(await startServer({ LOG_LEVEL: "info", INKWELL_ANALYTICS_RAW_RETENTION_DAYS: "120", ...store.env, ...(i > 0 ? { DATA_DIR: `${store.env.DATA_DIR}-${i}` } : {}) }));
    const server = servers[0] as (typeof servers)[number];
    // A failed run must not leave servers behind (they would go on counting and skew the next run).
    process.once("exit", () => servers.forEach((s) => s.child.kill("SIGKILL")));
    const project = await call(`${server.url}/admin/projects`, "POST", TOKEN, JSON.stringify({ repository: `bench/docs-${kind}`, analytics: { allowedOrigins: ["https://docs.bench.test"] } }));
    const { key } = await call(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, "{}");
    let turn = 0;
    const hitsUrl = () => `${(servers[turn++ % servers.length] as typeof server).url}/v1/analytics/${project.id}/hits`;

    const started = performance.now();
    let sent = 0;
    let lastReport = started;
    const batches = plan.batches();
    const sender = async () => {
      for (let next = batches.next(); !next.done; next = batches.next()) {
        const answer = await call(hitsUrl(), "POST", key, next.value);
        if (answer.rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(answer.rejected.slice(0, 3))}`);
        sent += answer.accepted;
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now();
          process.stderr.write(`  ${label}: ${sent.toLocaleString("en")} hits accepted, ${Math.round(sent / ((lastReport - started) / 1000)).toLocaleString("en")}/s\n`);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT * instances }, sender));
    const acceptedSeconds = (performance.now() - started) / 1000;
    // The visitors endpoint folds in everything accepted first; it says "pending" while that goes on.
    let first: { totals: unknown };
    for (;;) {
      const res = await fetch(`${server.url}/v1/analytics/${project.id}/visitors?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
      first = (await res.json()) as { totals: unknown };
      if (res.headers.get("inkwell-counting") !== "pending") break;
      process.stderr.write(`  ${label}: counting… ${Math.round((performance.now() - started) / 1000)} s\n`);
    }
    const countedSeconds = (performance.now() - started) / 1000;
    const rates = {
      ingestHitsPerSecond: Math.round(VIEWS / acceptedSeconds),
      endToEndHitsPerSecond: Math.round(VIEWS / countedSeconds),
      notPendingSecondsAfterLastBatch: ms(countedSeconds - acceptedSeconds),
    };
    for (const s of servers) s.child.kill("SIGTERM");
    await Promise.all(servers.map((s) => new Promise((resolve) => s.child.once("exit", resolve))));

    const db = await store.open();
    try {
      if (kind === "postgres") await standInForAutovacuum(db);
      const results = await timeQueries(db, kind, project.id);
      const agentResults = await timeAgentQueries(db, kind, project.id);
      const [sizes] = await db.query<Record<string, string>>(
        `SELECT (SELECT count(*) FROM analytics_events) AS raw_events, (SELECT count(*) FROM analytics_visitor_states) AS visitor_states, (SELECT pg_size_pretty(sum(octet_length(masks) + octet_length(format_masks) + octet_length(agent_masks))) FROM analytics_visitor_states) AS visitor_state_bytes,
                (SELECT count(*) FROM analytics_first_visits) AS first_visit_rows, (SELECT count(*) FROM analytics_returns) AS return_rows`,
      );
      console.log(
        JSON.stringify({
          store: kind,
          instances,
          views: VIEWS,
          visitors: VISITORS,
          monthTotals: first.totals,
          acceptedSeconds: ms(acceptedSeconds),
          countedSeconds: ms(countedSeconds),
          ...rates,
          ...sizes,
        }),
      );
      console.table(results);
      console.table(agentResults);
      return { label, ...rates };
    } finally {
      await db.close();
    }
  } catch (error) {
    failure = error;
    // Servers still counting hold locks the cleanup would wait on.
    const running = servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
    for (const s of running) s.child.kill("SIGKILL");
    await Promise.all(running.map((s) => new Promise((resolve) => s.child.once("exit", resolve))));
    throw error;
  } finally {
    // The first error is the one to read: a cleanup failure after it is reported, not thrown over it.
    await store.cleanup().catch((cleanupError: unknown) => {
      if (failure === undefined) throw cleanupError;
      process.stderr.write(`cleanup after the failure failed too: ${String(cleanupError)}\n`);
    });
  }
}

console.log(`Analytics benchmark: ${VIEWS.toLocaleString("en")} views, ${VISITORS.toLocaleString("en")} visitors, ${PATHS} paths, ${dayToIso(MONTH_START)}..${dayToIso(MONTH_END - 1)}`);
const planStarted = performance.now();
const plan = planTraffic();
const share = [0, 0, 0];
for (const k of plan.kinds) share[k]!++;
console.log(`traffic planned in ${Math.round(performance.now() - planStarted)} ms; people: ${share.map((n, i) => `${KINDS[i]} ${((100 * n) / VISITORS).toFixed(1)}%`).join(", ")}`);
const queryOnly = process.env.BENCH_QUERY_ONLY_SCHEMA;
if (queryOnly) {
  // Re-times the queries on a schema an earlier (interrupted) PostgreSQL run left behind.
  const url = new URL(PG_URL);
  url.searchParams.set("options", `-c search_path=${queryOnly}`);
  const db = await openStore({ databaseUrl: url.toString() });
  const [project] = await db.query<{ id: string }>("SELECT id FROM projects LIMIT 1");
  await standInForAutovacuum(db);
  console.table(await timeQueries(db, "postgres", project?.id as string));
  console.table(await timeAgentQueries(db, "postgres", project?.id as string));
  await db.close();
} else {
  const sideBySide = [];
  for (const kind of STORES) {
    for (const instances of kind === "postgres" ? INSTANCES : [1]) sideBySide.push(await benchStore(kind, plan, instances));
  }
  console.log("Side by side:");
  console.table(sideBySide);
}
