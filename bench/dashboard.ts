// npm run bench:dashboard — what dashboard pages cost when a project has real traffic: views over
// 90 days through the batch API, then p50/p95 of each page as a signed-in browser loads it.
// Scale: BENCH_VIEWS (default 200,000; visitors = views / 10, 2,000 pages), BENCH_STORES
// (default "pglite,postgres"), BENCH_DATABASE_URL / TEST_DATABASE_URL for PostgreSQL.
import { DAY_MS, epochDay } from "../src/shared/epoch-days.js";
import { call, setUpStore, startServer, timeIt, TOKEN } from "./bench-server.js";
import { percentile } from "./percentile.js";

const VIEWS = Number(process.env.BENCH_VIEWS ?? 200_000);
const PEOPLE = Math.max(1, Math.round(VIEWS / 10));
const PAGES = 2_000;
const DAYS = 90;
const STORES = (process.env.BENCH_STORES ?? "pglite,postgres").split(",").map((s) => s.trim());
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHATGPT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";

async function seed(url: string, projectId: string, key: string) {
  const today = epochDay(Date.now());
  for (let first = 0; first < VIEWS; first += 1_000) {
    const hits = [];
    for (let n = first; n < Math.min(VIEWS, first + 1_000); n++) {
      const person = (n * 7919) % PEOPLE;
      hits.push({
        timestamp: new Date((today - (n % DAYS)) * DAY_MS + (n % 80_000) * 1000).toISOString(),
        path: `/docs/page-${(n * 31) % PAGES}`,
        ip: `10.${(person >> 16) & 255}.${(person >> 8) & 255}.${person & 255}`,
        userAgent: person % 6 === 0 ? CHATGPT : CHROME,
      });
    }
    await call(`${url}/v1/analytics/${projectId}/hits`, "POST", key, JSON.stringify({ hits }));
  }
}

/** Signs in as a browser does (sign-in page, its token, the form post); returns the session cookie. */
async function signIn(url: string): Promise<string> {
  const page = await fetch(`${url}/dashboard/sign-in`);
  const login = (page.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const res = await fetch(`${url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: login, Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, token: TOKEN, next: "/dashboard" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("inkwell_session="));
  if (!session) throw new Error(`sign-in failed: ${res.status}`);
  return session.split(";")[0] as string;
}

async function benchStore(kind: string) {
  const store = await setUpStore(kind);
  const server = await startServer(store.env);
  process.once("exit", () => server.child.kill("SIGKILL"));
  try {
    const project = await call(`${server.url}/admin/projects`, "POST", TOKEN, JSON.stringify({ repository: `bench/dashboard-${kind}` }));
    const { key } = await call(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, "{}");
    const seeding = performance.now();
    await seed(server.url, project.id, key);
    const seeded = (performance.now() - seeding) / 1000;
    const job = await call(`${server.url}/v2/agent/${project.id}/job`, "POST", key, JSON.stringify({ prompt: "Benchmark job" }));
    const cookie = await signIn(server.url);
    const base = `${server.url}/dashboard/projects/${project.id}`;
    const load = async (path: string) => {
      const res = await fetch(base + path, { headers: { Cookie: cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    };
    // Time pages only once every accepted view is counted (until then a page waits up to 5 s and says "pending").
    for (;;) {
      const res = await fetch(`${base}/analytics?days=${DAYS}`, { headers: { Cookie: cookie } });
      await res.arrayBuffer();
      if (!res.headers.get("inkwell-counting")) break;
    }
    const counted = (performance.now() - seeding) / 1000;
    const pages: [string, string][] = [
      ["analytics, last 7 days", "/analytics?days=7"],
      ["analytics, last 30 days", "/analytics?days=30"],
      ["analytics, last 90 days", "/analytics?days=90"],
      ["analytics, 90 days, by AI asc, rows 1001-1050", "/analytics?days=90&sort=ai&dir=asc&offset=1000"],
      [`CSV, 90 days (all ${PAGES.toLocaleString("en")} rows)`, "/analytics.csv?days=90"],
      ["API keys", "/keys"],
      ["jobs", "/jobs"],
      ["one job", `/jobs/${job.id}`],
      ["one job, live fragment", `/jobs/${job.id}/live`],
    ];
    const rows = [];
    for (const [name, path] of pages) {
      const times = await timeIt(30, () => load(path));
      rows.push({ store: kind, page: name, p50_ms: Math.round(percentile(times, 50) * 10) / 10, p95_ms: Math.round(percentile(times, 95) * 10) / 10 });
    }
    console.log(JSON.stringify({ store: kind, views: VIEWS, visitors: PEOPLE, pages: PAGES, days: DAYS, seededSeconds: Math.round(seeded * 10) / 10, countedSeconds: Math.round(counted * 10) / 10 }));
    console.table(rows);
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await store.cleanup();
  }
}

for (const kind of STORES) await benchStore(kind);
