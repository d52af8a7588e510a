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
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const TOKEN = "bench-operator-token-0123456789";
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function startServer(env) {
  const child = spawn(process.execPath, ["lib/app/main.js"], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", INKWELL_ADMIN_TOKEN: TOKEN, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // LOG_LEVEL=warn hides the listening line: find the port by polling a status probe instead.
  child.stdout.resume();
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start")), 30_000);
    const poll = async () => {
      const { stdout } = await import("node:child_process").then((cp) =>
        new Promise((res) => cp.execFile("ss", ["-ltnpH"], (_e, out) => res({ stdout: out ?? "" }))),
      );
      const line = stdout.split("\n").find((l) => l.includes(`pid=${child.pid},`));
      const match = line && /127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      } else setTimeout(poll, 100);
    };
    poll();
  });
  return { child, url: `http://127.0.0.1:${port}` };
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

function row(store, name, mode, r) {
  const non2xx = r.non2xx + r.errors + r.timeouts;
  return { store, endpoint: name, load: mode, "req/s": Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, max_ms: r.latency.max, failed: non2xx };
}

async function benchStore(store, env) {
  const server = await startServer(env);
  try {
    const project = await api(`${server.url}/admin/projects`, "POST", TOKEN, { repository: `bench/docs-${randomBytes(3).toString("hex")}`, rateLimitPerHour: 1_000_000 });
    const { key } = await api(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, {});
    const job = await api(`${server.url}/v2/agent/${project.id}/job`, "POST", key, { prompt: "bench" });
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const getJob = { url: `${server.url}/v2/agent/${project.id}/job/${job.id}`, headers };
    const createJob = { url: `${server.url}/v2/agent/${project.id}/job`, method: "POST", headers, body: JSON.stringify({ prompt: "Add a page about rate limits to the API reference" }) };
    const rows = [];
    await cannon({ ...getJob, duration: 2 }); // warm-up
    rows.push(row(store, "get-job", "500 req/s", await cannon({ ...getJob, overallRate: 500 })));
    rows.push(row(store, "get-job", "max", await cannon(getJob)));
    rows.push(row(store, "create-job", "100 req/s", await cannon({ ...createJob, overallRate: 100 })));
    rows.push(row(store, "create-job", "max", await cannon(createJob)));
    return rows;
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
  }
}

const results = [];
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

console.log(`\nInkwell API benchmark, ${seconds}s per run, 10 connections, loopback, Node ${process.version}`);
console.table(results);
