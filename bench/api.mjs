#!/usr/bin/env node
// HTTP load benchmark on loopback: get-job and create-job against the real server process,
// on PGlite and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, default the local server).
// Prints throughput and p50/p99 latency. Bounded: every run stops by itself.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { openLoop } from "./open-loop.mjs";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const TOKEN = "bench-operator-token-0123456789";
const PROJECTS = 50;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function startServer(env) {
  const child = spawn(process.execPath, ["lib/app/main.js"], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", INKWELL_ADMIN_TOKEN: TOKEN, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /"url":"(http:[^"]+)".*Inkwell \S+ is listening at/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { child, url };
}

async function api(url, method, token, body) {
  const res = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 10, duration: seconds, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function cannonRow(store, name, r) {
  return { store, endpoint: name, load: "max (10 conn.)", "req/s": Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, max_ms: r.latency.max, failed: r.non2xx + r.errors + r.timeouts };
}

function loopRow(store, name, rate, r) {
  return { store, endpoint: name, load: `${rate} req/s`, "req/s": r.rps, p50_ms: r.p50, p99_ms: r.p99, max_ms: r.max, failed: r.failed };
}

async function benchStore(store, env) {
  const server = await startServer(env);
  try {
    // Creations are spread over many projects, as in production: one project is capped at
    // INKWELL_RATE_LIMIT_PER_HOUR (default 100/hour), so server-wide create load comes from many.
    const projects = [];
    for (let i = 0; i < PROJECTS; i++) {
      const project = await api(`${server.url}/admin/projects`, "POST", TOKEN, { repository: `bench/docs-${randomBytes(4).toString("hex")}`, rateLimitPerHour: 100_000 });
      const { key } = await api(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, {});
      projects.push({ id: project.id, key });
    }
    const [first] = projects;
    const job = await api(`${server.url}/v2/agent/${first.id}/job`, "POST", first.key, { prompt: "bench" });
    const createRequest = (i) => {
      const p = projects[i % projects.length];
      return { method: "POST", path: `/v2/agent/${p.id}/job`, headers: { Authorization: `Bearer ${p.key}`, "Content-Type": "application/json" }, body: JSON.stringify({ prompt: "Add a page about rate limits to the API reference" }) };
    };
    const getRequest = () => ({ method: "GET", path: `/v2/agent/${first.id}/job/${job.id}`, headers: { Authorization: `Bearer ${first.key}` } });
    // The same read as an MCP client asks it: a tools/call of get_job, one stateless POST to /mcp.
    const mcpGetRequest = (i) => ({
      method: "POST",
      path: "/mcp",
      headers: { Authorization: `Bearer ${first.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "get_job", arguments: { id: job.id } } }),
    });
    const sample = await fetch(`${server.url}/mcp`, { method: "POST", headers: mcpGetRequest(0).headers, body: mcpGetRequest(0).body }).then((r) => r.json());
    if (sample.result?.structuredContent?.id !== job.id) throw new Error(`MCP get_job did not answer the job: ${JSON.stringify(sample).slice(0, 300)}`);
    const rows = [];
    await openLoop({ url: server.url, rate: 200, seconds: 2, request: getRequest }); // warm-up
    await openLoop({ url: server.url, rate: 200, seconds: 2, request: mcpGetRequest });
    const restAt200 = await openLoop({ url: server.url, rate: 200, seconds, request: getRequest });
    const mcpAt200 = await openLoop({ url: server.url, rate: 200, seconds, request: mcpGetRequest });
    rows.push(loopRow(store, "get-job", 200, restAt200), loopRow(store, "MCP get_job", 200, mcpAt200));
    mcpRatios.push(`${store}: MCP get_job p99 ${mcpAt200.p99} ms, REST get-job p99 ${restAt200.p99} ms at 200 req/s: ${(mcpAt200.p99 / restAt200.p99).toFixed(2)}× (goal ≤ 2×)`);
    rows.push(loopRow(store, "get-job", 500, await openLoop({ url: server.url, rate: 500, seconds, request: getRequest })));
    rows.push(cannonRow(store, "get-job", await cannon({ url: `${server.url}${getRequest().path}`, headers: getRequest().headers })));
    for (const rate of [50, 100]) {
      rows.push(loopRow(store, "create-job", rate, await openLoop({ url: server.url, rate, seconds, request: createRequest })));
    }
    let next = 0;
    const setupRequest = (req) => ({ ...req, ...createRequest(next++) });
    rows.push(cannonRow(store, "create-job", await cannon({ url: server.url, requests: [{ method: "POST", setupRequest }] })));
    return rows;
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
  }
}

const results = [];
const mcpRatios = [];
const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-bench-"));
try {
  results.push(...(await benchStore("pglite", { DATA_DIR: dataDir })));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const schema = `inkwell_bench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: pgUrl });
try {
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(pgUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  results.push(...(await benchStore("postgres", { DATABASE_URL: url.toString() })));
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
} catch (error) {
  console.error(`PostgreSQL part skipped or failed (${pgUrl}): ${error.message}`);
} finally {
  await admin.end().catch(() => undefined);
}

console.log(
  `\nInkwell API benchmark: loopback, Node ${process.version}, ${seconds}s per run, LOG_LEVEL=info.\n` +
    "Fixed-rate rows are open-loop (latency from each request's scheduled time); 'max' rows are autocannon, 10 connections.\n" +
    `create-job round-robins over ${PROJECTS} projects (one project is capped at its hourly rate limit); with no GitHub App, each job is also dispatched and failed by the worker.`,
);
console.table(results);
for (const line of mcpRatios) console.log(line);
