import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { eventually, slowTestTimeout } from "../helpers/eventually.js";
import { countedReport } from "../helpers/store-commands.js";
import { seedPgliteDataDir } from "../helpers/pglite-template.js";
import { processStore, ROOT, startServerProcess, type ProcessStore, type ServerProcess } from "../helpers/process.js";


const TOKEN = "process-test-operator-token-42";
let running: ServerProcess[] = [];
let stores: ProcessStore[] = [];

afterEach(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await Promise.all(running.map((s) => s.exited));
  for (const store of stores) await store.cleanup();
  running = [];
  stores = [];
});

async function start(env: Record<string, string>) {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

async function json(url: string, method: string, token: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : null,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function setUp(url: string) {
  const project = await json(`${url}/admin/projects`, "POST", TOKEN, { repository: `acme/proc-${Date.now()}` });
  const key = await json(`${url}/admin/projects/${project.body.id}/keys`, "POST", TOKEN);
  return { projectId: project.body.id as string, key: key.body.key as string };
}

describe("the server as a process", () => {
  // Each process start costs seconds (a store opened, the service started), so each lifecycle below
  // proves what every step of it shows: a start, the work, a stop, and the restart that reads it back.
  it("on SIGTERM finishes an in-flight request before exiting; a restart keeps everything", { timeout: slowTestTimeout(2) }, async () => {
    const store = await processStore();
    stores.push(store);
    const env = { ...store.env, INKWELL_ADMIN_TOKEN: TOKEN };
    const first = await start(env);
    const { projectId, key } = await setUp(first.url);
    const job = await json(`${first.url}/v2/agent/${projectId}/job`, "POST", key, { prompt: "persist me" });
    const body = JSON.stringify({ prompt: "slow upload" });
    // Send the headers and half the body, signal, then the rest: the request must still complete.
    const { request } = await import("node:http");
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${first.url}/v2/agent/${projectId}/job`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      });
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        first.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 100);
    });
    const slow = await response;
    expect(slow.status).toBe(201);
    expect(JSON.parse(slow.text).status).toBe("active");
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/shutting down/);

    const second = await start(env);
    for (const id of [job.body.id, JSON.parse(slow.text).id]) {
      const got = await json(`${second.url}/v2/agent/${projectId}/job/${id}`, "GET", key);
      expect(got.status, id).toBe(200);
      expect(got.body.id).toBe(id);
    }
    expect((await json(`${second.url}/v2/agent/${projectId}/job/${job.body.id}`, "GET", key)).body.createdAt).toBe(job.body.createdAt);
    const keys = await json(`${second.url}/admin/projects/${projectId}/keys`, "GET", TOKEN);
    expect(keys.body.keys).toHaveLength(1);
  });

  it("loses no accepted job and no accepted page view when killed with SIGKILL right after the 201s and 202s, even mid-rollup", { timeout: slowTestTimeout(3) }, async () => {
    const store = await processStore();
    stores.push(store);
    // A dispatch claimed by the killed process is retried once its lease lapses (PostgreSQL) or at once (PGlite).
    // Small rollup chunks: the kill lands while views are being counted, chunk by chunk.
    const env = { ...store.env, INKWELL_ADMIN_TOKEN: TOKEN, INKWELL_DISPATCH_LEASE_SECONDS: "5", INKWELL_ANALYTICS_ROLLUP_CHUNK: "100" };
    const first = await start(env);
    const { projectId, key } = await setUp(first.url);
    const accepted: string[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await json(`${first.url}/v2/agent/${projectId}/job`, "POST", key, { prompt: `job ${i}` });
      expect(res.status).toBe(201);
      accepted.push(res.body.id);
    }
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    for (let batch = 0; batch < 5; batch++) {
      const hits = Array.from({ length: 200 }, (_, i) => ({ timestamp: at, path: `/page-${i % 7}`, ip: `10.9.${batch}.${i}`, userAgent: chrome }));
      const res = await json(`${first.url}/v1/analytics/${projectId}/hits`, "POST", key, { hits });
      expect(res.status).toBe(202);
      expect(res.body.accepted).toBe(200);
    }
    const last = await json(`${first.url}/v2/agent/${projectId}/job`, "POST", key, { prompt: "the last one" });
    first.child.kill("SIGKILL");
    accepted.push(last.body.id);
    await first.exited;

    const second = await start(env);
    for (const id of accepted) {
      const got = await json(`${second.url}/v2/agent/${projectId}/job/${id}`, "GET", key);
      expect(got.status, id).toBe(200);
    }
    const visitors = { body: await countedReport(second.url, projectId, key, "visitors", "") };
    expect(visitors.body.totals).toEqual({ human: 1000, ai: 0, bot: 0, total: 1000 });
    const perPage = visitors.body.visitors.map((v: { total: number }) => v.total);
    expect(perPage.reduce((a: number, b: number) => a + b, 0)).toBe(1000);
    const views = { body: await countedReport(second.url, projectId, key, "views", "") };
    expect(views.body.totals).toEqual({ human: 1000, ai: 0, bot: 0, total: 1000 });
    // The dispatch queued with the last job was not lost either: after restart it ran (and, with no App, failed saying why).
    const status = await eventually("the last job's dispatch to run after the restart", async () => {
      const got = (await json(`${second.url}/v2/agent/${projectId}/job/${last.body.id}`, "GET", key)).body.status as string;
      return got !== "active" && got;
    });
    expect(status).toBe("failed");
  });

  it("on a terminal: readable log lines and a short banner with the URL, the token's file and the next command", { timeout: slowTestTimeout(1) }, async () => {
    const store = await processStore();
    stores.push(store);
    const env = { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...store.env };
    // `script` gives the server a pseudo-terminal, as a person's shell would.
    const child = spawn("script", ["-qec", `${process.execPath} lib/app/main.js`, "/dev/null"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      await eventually("the banner's next command", () => output.includes("Next: node bin/inkwell.js projects create"));
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    const text = stripVTControlCharacters(output).replace(/\r/g, "");
    expect(text).toMatch(/INFO: Inkwell \S+ is listening at http:\/\/127\.0\.0\.1:\d+ \(127\.0\.0\.1:\d+, this machine only/);
    expect(text).toMatch(/Listening\s+127\.0\.0\.1:\d+, this machine only/);
    expect(text).toMatch(/Inkwell \S+ is running at http:\/\/127\.0\.0\.1:\d+/);
    expect(text).toContain(`Token       ${path.join(store.dataDir, "admin-token")}`);
    expect(text).toMatch(/GitHub App\s+not configured yet: http:\/\/127\.0\.0\.1:\d+\/dashboard\/github-app/);
    expect(text).not.toMatch(/^\{"level"/m);
  });

  it("one process per PGlite data directory: without INKWELL_ADMIN_TOKEN the first generates one (saved 0600, its file logged, never the token); a second refuses before touching the store, naming the holder; a dead holder's lock is taken over", { timeout: slowTestTimeout(4) }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-lock-proc-"));
    // A migrated store, as a restart finds it: the claim is about the lock, not about initdb.
    await seedPgliteDataDir(dataDir);
    const first = await start({ DATA_DIR: dataDir });
    const firstPort = new URL(first.url).port;
    const pid = first.child.pid as number;

    const file = path.join(dataDir, "admin-token");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, "utf8").trim();
    expect(first.output()).toContain(file);
    expect(first.output()).not.toContain(token);
    expect((await json(`${first.url}/admin/projects`, "GET", token)).status).toBe(200);
    expect(first.output()).toMatch(/"setup":"http:\/\/127\.0\.0\.1:\d+\/dashboard\/github-app".*no GitHub App yet/);
    // Not a terminal (systemd, docker logs, nohup): the banner's essentials in one JSON line's words.
    expect(first.output()).toMatch(/"msg":"Inkwell \S+ is listening at http:\/\/127\.0\.0\.1:\d+ \(127\.0\.0\.1:\d+, this machine only [^"]*\); dashboard http:\/\/127\.0\.0\.1:\d+\/dashboard, the operator token is in [^"]*admin-token; next: register the GitHub App at /);
    // Not a terminal: JSON lines only, no banner.
    expect(first.output()).not.toContain("is running at");
    expect(first.output().trim().split("\n").every((line) => line.startsWith("{"))).toBe(true);

    const second = await startServerProcess({ DATA_DIR: dataDir }).catch((error: Error) => error.message);
    expect(second).toMatch(new RegExp(`DATA_DIR ${dataDir} is in use by Inkwell process ${pid} .*listening on port ${firstPort}`));
    expect(second).not.toMatch(/store ready/);
    expect((await json(`${first.url}/admin/projects`, "GET", token)).status).toBe(200);

    // A first start on a taken port, with no token set: nothing is written, not even the generated
    // operator token, and the data directory it would have made is not left behind.
    const otherDir = path.join(mkdtempSync(path.join(tmpdir(), "inkwell-lock-proc-")), "data");
    const samePort = await startServerProcess({ DATA_DIR: otherDir, PORT: firstPort }).catch((error: Error) => error.message);
    expect(samePort).toMatch(new RegExp(`Cannot listen on 127.0.0.1, port ${firstPort}`));
    expect(samePort).not.toMatch(/store ready|generated an operator token/);
    expect(existsSync(otherDir)).toBe(false);

    first.child.kill("SIGKILL");
    await first.exited;
    // The restart takes the lock over and keeps the token it saved.
    const third = await start({ DATA_DIR: dataDir });
    expect(third.output()).toMatch(/took over the data directory's lock from a process that is gone/);
    expect(readFileSync(file, "utf8").trim()).toBe(token);
    expect((await json(`${third.url}/admin/projects`, "GET", token)).status).toBe(200);
    third.child.kill("SIGTERM");
    await third.exited;
    expect(existsSync(path.join(dataDir, "inkwell.lock"))).toBe(false);
  });

  it("refuses to start on bad configuration, naming the variable", { timeout: slowTestTimeout(2) }, async () => {
    await expect(startServerProcess({ PORT: "not-a-port" })).rejects.toThrow(/PORT/);
    await expect(startServerProcess({ APP_ID: "123" })).rejects.toThrow(/incomplete: set PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET/);
  });
});
