// What the benchmarks share: a store (PGlite in a temp dir, or a fresh PostgreSQL schema), the
// compiled server as a child process, and small HTTP and timing helpers.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openStore } from "../src/app/store/open-store.js";
import type { Db } from "../src/app/store/db.js";

export const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const TOKEN = "bench-operator-token-0123456789";
// npm scripts run from the repository root (bench files run bundled from node_modules/.cache).
const ROOT = process.cwd();

export interface StoreSetup {
  env: Record<string, string>;
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

export async function setUpStore(kind: string): Promise<StoreSetup> {
  if (kind === "pglite") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-bench-"));
    return { env: { DATA_DIR: dataDir }, open: () => openStore({ dataDir }), cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `inkwell_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: mkdtempSync(path.join(tmpdir(), "inkwell-bench-")) },
    open: () => openStore({ databaseUrl: url.toString() }),
    async cleanup() {
      // BENCH_KEEP_SCHEMA=1 leaves the data for BENCH_QUERY_ONLY_SCHEMA to time queries on again.
      if (process.env.BENCH_KEEP_SCHEMA === "1") return void process.stderr.write(`kept schema ${schema}\n`);
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

const inkwellSettings = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("INKWELL_")));

export async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "lib/app/main.js"], {
    cwd: ROOT,
    // INKWELL_* settings in the bench's own environment reach the server (e.g. INKWELL_ANALYTICS_ROLLUP_WORKERS=2).
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", INKWELL_ADMIN_TOKEN: TOKEN, LOG_LEVEL: "info", ...inkwellSettings(), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:[^"]+)".*Inkwell \S+ is listening at/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { child, url };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench reads a few known fields
export async function call(url: string, method: string, token: string, body?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body ?? null });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

export async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

