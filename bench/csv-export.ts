// npm run bench:csv — the visitors report of BENCH_PAGES pages (default 100,000) exported as CSV
// by the compiled server over loopback, on PGlite and PostgreSQL (BENCH_STORES, default
// "pglite,postgres"; BENCH_DATABASE_URL / TEST_DATABASE_URL). The client counts lines as they
// arrive; the server's resident memory is sampled from /proc during the export (Linux) and set
// against the body's size: a server that held the body would grow by at least that much.
// The rollup's result is written directly (one month, each page's whole-window distinct visitors),
// so the export is measured, not the counting. A second export reads slowly (BENCH_SLOW_KBPS,
// default 2,000 KB/s, for BENCH_SLOW_SECONDS, default 5): memory must stay flat while the client lags.
import { readFileSync } from "node:fs";
import { epochDay } from "../src/shared/epoch-days.js";
import { call, setUpStore, startServer, TOKEN } from "./bench-server.js";

const PAGES = Number(process.env.BENCH_PAGES ?? 100_000);
const STORES = (process.env.BENCH_STORES ?? "pglite,postgres").split(",").map((s) => s.trim());
const SLOW_KBPS = Number(process.env.BENCH_SLOW_KBPS ?? 2_000);
const SLOW_SECONDS = Number(process.env.BENCH_SLOW_SECONDS ?? 5);
const MB = 1024 * 1024;

/** The server process's resident set now and at its peak, in bytes (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** Reads the export, counting lines and bytes as they arrive; `kbps` reads at most that fast for `seconds`, then cancels. */
async function exportCsv(url: string, key: string, pid: number, slow?: { kbps: number; seconds: number }) {
  let maxRss = memoryOf(pid).rss;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, memoryOf(pid).rss)), 20);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  let firstByteMs = 0;
  try {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${key}`, Accept: "text/csv" } });
    if (!response.ok || !response.body) throw new Error(`export: ${response.status} ${await response.text()}`);
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += value.length;
      for (const byte of value) if (byte === 0x0a) lines++;
      if (slow) {
        // Paced from the first byte (the query itself runs before it).
        const reading = performance.now() - started - firstByteMs;
        if (reading > slow.seconds * 1000) {
          await reader.cancel();
          break;
        }
        const due = (bytes / 1024 / slow.kbps) * 1000 - reading;
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      }
    }
  } finally {
    clearInterval(sampler);
  }
  return { seconds: (performance.now() - started) / 1000, bytes, lines, firstByteMs, maxRss };
}

async function benchStore(kind: string) {
  const store = await setUpStore(kind);
  try {
    let server = await startServer({ LOG_LEVEL: "info", ...store.env });
    process.once("exit", () => server.child.kill("SIGKILL"));
    const project = await call(`${server.url}/admin/projects`, "POST", TOKEN, JSON.stringify({ repository: `bench/csv-${kind}` }));
    const { key } = await call(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, "{}");
    // PGlite's data directory is the server's alone while it runs: seed with the server stopped.
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    const db = await store.open();
    try {
      const now = new Date();
      const month = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
      await db.query(`INSERT INTO analytics_windows (project_id, window_start, window_end) VALUES ($1, $2, $3)`, [project.id, month, month + 30]);
      await db.query(
        `INSERT INTO analytics_paths (project_id, path) SELECT $1, '/docs/section-' || (g % 200) || '/page-' || lpad(g::text, 7, '0') FROM generate_series(1, ${PAGES}) g`,
        [project.id],
      );
      await db.query(
        `INSERT INTO analytics_window_reach (project_id, window_start, path_id, human, ai, bot, total)
         SELECT $1, $2, id, t - t / 3, t / 2, t / 5, t FROM (SELECT id, 1 + (id::bigint * 7919) % 5003 AS t FROM analytics_paths WHERE project_id = $1) p`,
        [project.id, month],
      );
    } finally {
      await db.close();
    }

    server = await startServer({ LOG_LEVEL: "info", ...store.env });
    const pid = server.child.pid as number;
    const report = `${server.url}/v1/analytics/${project.id}/visitors`;
    // Warm up: the JSON report aggregates the same per-page counts (its first page).
    let jsonMs = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await call(`${report}?limit=250`, "GET", key);
      jsonMs = performance.now() - started;
    }
    const before = memoryOf(pid);
    const full = await exportCsv(`${report}?output=csv`, key, pid);
    const afterFull = memoryOf(pid);
    const slow = await exportCsv(`${report}?output=csv`, key, pid, { kbps: SLOW_KBPS, seconds: SLOW_SECONDS });
    const after = memoryOf(pid);
    if (full.lines !== PAGES + 1) throw new Error(`expected ${PAGES + 1} lines, read ${full.lines}`);
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    return {
      store: kind,
      rows: PAGES,
      csvMB: +(full.bytes / MB).toFixed(1),
      jsonFirstPageMs: Math.round(jsonMs),
      firstByteMs: Math.round(full.firstByteMs),
      exportSeconds: +full.seconds.toFixed(2),
      rowsPerSecond: Math.round(PAGES / full.seconds),
      mbPerSecond: +(full.bytes / MB / full.seconds).toFixed(1),
      rssBeforeMB: +(before.rss / MB).toFixed(1),
      rssMaxDuringExportMB: +(full.maxRss / MB).toFixed(1),
      rssGrowthMB: +((full.maxRss - before.rss) / MB).toFixed(1),
      peakRssBeforeMB: +(before.peak / MB).toFixed(1),
      peakRssAfterMB: +(afterFull.peak / MB).toFixed(1),
      slowReader: { kbps: SLOW_KBPS, seconds: +slow.seconds.toFixed(1), readMB: +(slow.bytes / MB).toFixed(1), rssMaxMB: +(slow.maxRss / MB).toFixed(1), rssAfterMB: +(after.rss / MB).toFixed(1) },
    };
  } finally {
    await store.cleanup();
  }
}

const results = [];
for (const kind of STORES) {
  process.stderr.write(`csv export: ${kind}, ${PAGES.toLocaleString("en")} pages…\n`);
  const result = await benchStore(kind);
  console.log(JSON.stringify(result));
  results.push(result);
}
console.log("\n| store | rows | CSV | first byte | export | rows/s | server RSS before → max during (growth) | peak RSS before → after | slow reader: RSS max |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.store} | ${r.rows.toLocaleString("en")} | ${r.csvMB} MB | ${r.firstByteMs} ms | ${r.exportSeconds} s | ${r.rowsPerSecond.toLocaleString("en")} | ${r.rssBeforeMB} → ${r.rssMaxDuringExportMB} MB (+${r.rssGrowthMB}) | ${r.peakRssBeforeMB} → ${r.peakRssAfterMB} MB | ${r.slowReader.rssMaxMB} MB (${r.slowReader.readMB} MB read in ${r.slowReader.seconds} s) |`,
  );
}
