import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import pg from "pg";
import { runCli } from "../../src/cli/run-cli.js";
import { eventually, SLOW_DEADLINE_MS } from "./eventually.js";
import type { ServerProcess } from "./process.js";
import { withSearchPath } from "./store.js";

export const STORE_TOKEN = "store-test-operator-token-0123456789";

export const tempDataDir = (name = "store") => mkdtempSync(path.join(tmpdir(), `inkwell-${name}-`));

/** The CLI in this process, as an operator on the service's machine would run it. */
export async function cli(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: { INKWELL_ADMIN_TOKEN: STORE_TOKEN, ...env },
    fetch: globalThis.fetch,
    readStdin: async () => "",
    stdinStream: () => Readable.from([]),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

export async function call(url: string, method: string, token: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the assertion sees the text.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export async function newProject(url: string, name: string) {
  const project = await call(`${url}/admin/projects`, "POST", STORE_TOKEN, { repository: `acme/${name}-${Date.now()}` });
  if (project.status !== 201) throw new Error(`project: ${JSON.stringify(project.body)}`);
  const key = await call(`${url}/admin/projects/${project.body.id}/keys`, "POST", STORE_TOKEN, { name: "main" });
  return { projectId: project.body.id as string, key: key.body.key as string, keyId: key.body.id as string };
}

/** A report once everything accepted is counted (the API says `Inkwell-Counting: pending` until then). */
export async function countedReport(url: string, projectId: string, key: string, endpoint: string, query: string) {
  let refused: Error | null = null;
  const body = await eventually(`${endpoint} counted (Inkwell-Counting not pending)`, async () => {
    const res = await call(`${url}/v1/analytics/${projectId}/${endpoint}?${query}`, "GET", key);
    if (res.status !== 200) refused = new Error(`${endpoint}: ${res.status} ${JSON.stringify(res.body)}`);
    return (refused !== null || res.headers.get("inkwell-counting") !== "pending") && { value: res.body };
  }, SLOW_DEADLINE_MS, 100);
  if (refused) throw refused;
  return body.value;
}

/** Every page of a report, counted. */
export async function wholeReport(url: string, projectId: string, key: string, endpoint: "visitors" | "views", query: string) {
  const rows: any[] = [];
  let totals: unknown;
  for (let offset = 0; ; offset += 250) {
    const page = await countedReport(url, projectId, key, endpoint, `${query}&limit=250&offset=${offset}`);
    totals = page.totals;
    rows.push(...page[endpoint]);
    if (!page.hasMore) return { totals, rows };
  }
}

/** SIGTERM, as an operator stops the service, and its exit. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  const code = await server.exited;
  if (code !== 0) throw new Error(`the server did not stop cleanly (${code}):\n${server.output()}`);
}

/** A schema of its own in the test database, as a URL whose search_path is that schema. */
export async function postgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL as string;
  const schema = `inkwell_copy_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    url: withSearchPath(base, schema),
    async drop() {
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}
