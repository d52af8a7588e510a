import { SLOW_DEADLINE_MS } from "./eventually.js";
import { readFileSync } from "node:fs";
import { pino, type Logger } from "pino";
import type { Config } from "../../src/app/config.js";
import { loadConfig } from "../../src/app/config.js";
import type { TaskWorkerOptions } from "../../src/app/tasks/task-worker.js";
import type { Dispatcher } from "../../src/app/dispatch/dispatcher.js";
import { createInkwellServer, type InkwellServer, type InkwellServerOptions } from "../../src/app/server.js";
import { openTestStore, type TestStore } from "./store.js";


/** The release the servers under test say they are (package.json's, read from the working directory: benches bundle this file elsewhere). */
export const RELEASE = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
export const ADMIN_TOKEN = "test-operator-token-0123456789";

export interface TestServer {
  url: string;
  store: TestStore;
  inkwell: InkwellServer;
  config: Config;
  /** fetch against the server with an optional bearer token and JSON body. */
  call(method: string, path: string, init?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  newProject(repository?: string, extra?: Record<string, unknown>): Promise<{ projectId: string; key: string; keyId: string }>;
  close(): Promise<void>;
}

let repoCounter = 0;

export async function startTestServer(
  options: {
    env?: Record<string, string>;
    dispatcher?: Dispatcher;
    taskWorkerOptions?: TaskWorkerOptions;
    github?: InkwellServerOptions["github"];
    watchdogIntervalMs?: number;
    /** Listen on this port (default: any free one). */
    port?: number;
    /** The server's clock for what is measured from today (a job's impact windows) and how long a failed OIDC key fetch is remembered. */
    clock?: () => number;
    /** Where the server logs (default: silent, or TEST_LOG_LEVEL to stdout). */
    log?: Logger;
  } = {},
): Promise<TestServer> {
  const store = await openTestStore();
  const config = loadConfig({ LOG_LEVEL: "silent", INKWELL_ADMIN_TOKEN: ADMIN_TOKEN, ...options.env }, () => "");
  const inkwell = await createInkwellServer({
    config,
    db: store.db,
    log: options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    adminToken: ADMIN_TOKEN,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    github: options.github ?? null,
    ...(options.watchdogIntervalMs ? { watchdogIntervalMs: options.watchdogIntervalMs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    taskWorkerOptions: options.taskWorkerOptions,
    version: RELEASE,
  });
  const { url } = await inkwell.listen(options.port ?? 0, "127.0.0.1");

  const call: TestServer["call"] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["Content-Type"] = "application/json";
    }
    // A report answered before everything accepted was counted says `Inkwell-Counting: pending`
    // (a loaded machine, or a rollup still at work): a test comparing numbers asks again until it is counted.
    const deadline = Date.now() + SLOW_DEADLINE_MS;
    let response = await fetch(url + path, { method, headers, body: body ?? null });
    while (method === "GET" && response.headers.get("inkwell-counting") === "pending") {
      await response.body?.cancel();
      if (Date.now() > deadline) throw new Error(`timed out after ${SLOW_DEADLINE_MS} ms waiting for GET ${path} to be counted (Inkwell-Counting: pending)`);
      response = await fetch(url + path, { method, headers });
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON bodies are returned as text for the assertion to see.
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };

  return {
    url,
    store,
    inkwell,
    config,
    call,
    async newProject(repository, extra = {}) {
      const project = await call("POST", "/admin/projects", { token: ADMIN_TOKEN, body: { repository: repository ?? `acme/docs-${process.pid}-${++repoCounter}`, ...extra } });
      if (project.status !== 201) throw new Error(`project create failed: ${JSON.stringify(project.body)}`);
      const key = await call("POST", `/admin/projects/${project.body.id}/keys`, { token: ADMIN_TOKEN, body: { name: "test" } });
      return { projectId: project.body.id, key: key.body.key, keyId: key.body.id };
    },
    async close() {
      await inkwell.close(1000);
      await store.drop();
    },
  };
}
