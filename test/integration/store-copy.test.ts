import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { epochDay } from "../../src/shared/epoch-days.js";
import { countRows, readCatalog } from "../../src/app/store/catalog.js";
import { openPgliteDb } from "../../src/app/store/pglite-db.js";
import { openPostgresDb } from "../../src/app/store/postgres-db.js";
import { startServerProcess, type ServerProcess } from "../helpers/process.js";
import { call, cli, newProject, postgresSchema, STORE_TOKEN, stopServer, tempDataDir, wholeReport } from "../helpers/store-commands.js";
import { seedPgliteDataDir } from "../helpers/pglite-template.js";
import { storeKind } from "../helpers/store.js";
import { volume } from "../helpers/tier.js";
import { generateTraffic, USER_AGENTS, wireHit } from "../helpers/traffic.js";

/**
 * `inkwell store copy`: a PGlite data directory filled through the real API (5,000 views in the
 * quick tier, 50,000 in the full one, STORE_COPY_VIEWS to choose), copied into PostgreSQL, served
 * from there with the same answers. Needs both stores, so it runs once, in the PostgreSQL project.
 */
const VIEWS = volume(5_000, 50_000, "STORE_COPY_VIEWS");
const JOBS = 40;
const BATCH = 1_000;
const IN_FLIGHT = 3;

const now = new Date();
const firstDay = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)) - 3;
const day = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
const RANGE = `dateFrom=${day(firstDay)}&dateTo=${day(firstDay + 21)}`;

const servers: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.exited));
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
});

/** The traffic starts in the month before last, older than the default raw retention: kept, so the copy has raw events to carry. */
async function start(env: Record<string, string>) {
  const server = await startServerProcess({ INKWELL_ADMIN_TOKEN: STORE_TOKEN, INKWELL_RATE_LIMIT_PER_HOUR: "100000", INKWELL_ANALYTICS_RAW_RETENTION_DAYS: "3660", ...env });
  servers.push(server);
  return server;
}

/** What the API answers for the things the copy must carry: analytics, jobs, keys. */
async function answers(url: string, p: { projectId: string; key: string }, jobIds: string[]) {
  const job = (id: string) => call(`${url}/v2/agent/${p.projectId}/job/${id}`, "GET", p.key);
  return {
    visitors: await wholeReport(url, p.projectId, p.key, "visitors", RANGE),
    views: await wholeReport(url, p.projectId, p.key, "views", RANGE),
    agents: (await call(`${url}/v1/analytics/${p.projectId}/agents?${RANGE}&limit=250`, "GET", p.key)).body,
    jobs: await Promise.all(jobIds.map(async (id) => (await job(id)).body)),
    events: (await call(`${url}/v2/agent/${p.projectId}/job/${jobIds[0]}/events`, "GET", p.key)).body,
    list: (await call(`${url}/v2/agent/${p.projectId}/jobs?limit=100`, "GET", p.key)).body,
    // Without lastUsedAt: a key's first use in a minute writes it, on either side.
    keys: (await call(`${url}/admin/projects/${p.projectId}/keys`, "GET", STORE_TOKEN)).body.keys.map(({ lastUsedAt: _, ...key }: { lastUsedAt: unknown }) => key),
  };
}

/** Rows of every table on each side, each side's catalog read on its own. */
async function tableCounts(dataDir: string, postgresUrl: string) {
  const pglite = await openPgliteDb(path.join(dataDir, "pglite"));
  const postgres = await openPostgresDb({ connectionString: postgresUrl });
  try {
    return { pglite: await countRows(pglite, (await readCatalog(pglite)).tables), postgres: await countRows(postgres, (await readCatalog(postgres)).tables) };
  } finally {
    await pglite.close();
    await postgres.close();
  }
}

describe.runIf(storeKind() === "postgres")("inkwell store copy: PGlite into PostgreSQL", () => {
  it(`${VIEWS.toLocaleString("en")} views, ${JOBS} jobs and API keys: equal counts in every table, the same API answers, and the service keeps working`, { timeout: 900_000 }, async () => {
    const dataDir = tempDataDir("copy");
    // A store that ran before: the claim is about the copy, not a first start, so no initdb.
    await seedPgliteDataDir(dataDir);
    let server = await start({ DATA_DIR: dataDir });
    const main = await newProject(server.url, "copy-main");
    const other = await newProject(server.url, "copy-other");
    const spare = await call(`${server.url}/admin/projects/${main.projectId}/keys`, "POST", STORE_TOKEN, { name: "spare" });
    const revoked = await call(`${server.url}/admin/projects/${main.projectId}/keys`, "POST", STORE_TOKEN, { name: "revoked" });
    await call(`${server.url}/admin/projects/${main.projectId}/keys/${revoked.body.id}`, "DELETE", STORE_TOKEN);

    const jobIds: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const created = await call(`${server.url}/v2/agent/${main.projectId}/job`, "POST", main.key, { prompt: `Document feature ${i}` });
      expect(created.status).toBe(201);
      jobIds.push(created.body.id);
    }
    await call(`${server.url}/v2/agent/${other.projectId}/job`, "POST", other.key, { prompt: "Another project's job" });

    const hits = generateTraffic({ seed: 4_242, people: Math.min(60_000, Math.round(VIEWS / 8)), paths: 150, firstDay, days: 21, views: VIEWS });
    const batches = Array.from({ length: Math.ceil(hits.length / BATCH) }, (_, b) =>
      JSON.stringify({ hits: hits.slice(b * BATCH, (b + 1) * BATCH).map((hit, j) => ({ id: `copy-${b * BATCH + j}`, ...wireHit(hit) })) }),
    );
    const ingestStarted = performance.now();
    const pending = [...batches];
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let body = pending.shift(); body !== undefined; body = pending.shift()) {
          // Each hit has an id, so a batch whose keep-alive connection the server closed under load is simply sent again.
          const send = () => call(`${server.url}/v1/analytics/${main.projectId}/hits`, "POST", main.key, body);
          const answer = await send().catch((error: unknown) => {
            if ((error as { cause?: { code?: string } }).cause?.code === "ECONNRESET") return send();
            throw error;
          });
          expect(answer.status).toBe(202);
          expect(answer.body.rejected).toEqual([]);
        }
      }),
    );
    const ingestMs = performance.now() - ingestStarted;
    // Without a GitHub App every dispatch fails at once: wait for the jobs to settle so both sides answer alike.
    for (const id of jobIds) {
      for (let job = await call(`${server.url}/v2/agent/${main.projectId}/job/${id}`, "GET", main.key); job.body.status === "active"; ) {
        await new Promise((r) => setTimeout(r, 100));
        job = await call(`${server.url}/v2/agent/${main.projectId}/job/${id}`, "GET", main.key);
      }
    }
    const countStarted = performance.now();
    const before = await answers(server.url, main, jobIds);
    const countMs = performance.now() - countStarted;
    expect(before.views.totals).toMatchObject({ human: expect.any(Number) });
    expect(before.jobs.every((job) => job.status === "failed")).toBe(true);

    // Refused while the service runs: the copy would miss what it writes meanwhile.
    const target = await postgresSchema();
    cleanups.push(target.drop);
    const locked = await cli(["store", "copy", "--to", target.url, "--data-dir", dataDir]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(new RegExp(`in use by the Inkwell service \\(process ${server.child.pid} .*listening on port \\d+\\)\\. Stop the service first`));

    await stopServer(server);
    const copyStarted = performance.now();
    const copy = await cli(["store", "copy", "--to", target.url, "--data-dir", dataDir]);
    const copyMs = performance.now() - copyStarted;
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stdout).toMatch(/^TABLE\s+SOURCE\s+TARGET/m);
    expect(copy.stdout).toMatch(/every count matches/);
    expect(copy.stderr).toMatch(/analytics_events: [\d,]+ rows in/);

    const counts = await tableCounts(dataDir, target.url);
    expect(counts.postgres).toEqual(counts.pglite);
    const rows = Object.fromEntries(counts.postgres.map((c) => [c.table, c.rows]));
    expect(rows.jobs).toBe(JOBS + 1);
    expect(rows.api_keys).toBe(4);
    expect((rows.analytics_events ?? 0) + (rows.analytics_inbox ?? 0)).toBe(VIEWS);

    server = await start({ DATA_DIR: tempDataDir("copy-pg"), DATABASE_URL: target.url });
    const after = await answers(server.url, main, jobIds);
    expect(after).toEqual(before);
    // Keys still authenticate (and the revoked one still does not); new rows take new ids.
    expect((await call(`${server.url}/v2/agent/${main.projectId}/jobs`, "GET", spare.body.key)).status).toBe(200);
    expect((await call(`${server.url}/v2/agent/${main.projectId}/jobs`, "GET", revoked.body.key)).status).toBe(401);
    const newJob = await call(`${server.url}/v2/agent/${main.projectId}/job`, "POST", main.key, { prompt: "After the move" });
    expect(newJob.status).toBe(201);
    const fresh = { id: "after-move", timestamp: `${day(firstDay + 5)}T12:00:00.000Z`, path: "/after-move", ip: "10.200.0.1", userAgent: USER_AGENTS.human[0] };
    const newHits = await call(`${server.url}/v1/analytics/${main.projectId}/hits`, "POST", main.key, { hits: [fresh] });
    expect(newHits.body).toMatchObject({ accepted: 1, duplicates: 0 });
    const replayed = await call(`${server.url}/v1/analytics/${main.projectId}/hits`, "POST", main.key, batches[0]);
    expect(replayed.body).toMatchObject({ accepted: BATCH, duplicates: BATCH });
    const moved = await wholeReport(server.url, main.projectId, main.key, "views", RANGE);
    expect(moved.rows.find((r: { path: string }) => r.path === "/after-move")).toBeTruthy();
    await stopServer(server);

    // The target now holds data: refused without --force, naming what is there; replaced with it.
    const again = await cli(["store", "copy", "--to", target.url, "--data-dir", dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/The target database already holds data: .*projects 2, .*jobs 42.*pass --force/);
    const forced = await cli(["store", "copy", "--to", target.url, "--data-dir", dataDir, "--force", "--json"]);
    expect(forced.code, forced.stderr).toBe(0);
    const result = JSON.parse(forced.stdout);
    expect(result.replaced).toContainEqual({ table: "jobs", rows: JOBS + 2 });
    expect(result.to).not.toContain("password");
    expect((await tableCounts(dataDir, target.url)).postgres).toEqual(counts.pglite);

    process.stdout.write(
      `store copy: ${VIEWS.toLocaleString("en")} views ingested in ${(ingestMs / 1000).toFixed(1)} s, counted in ${(countMs / 1000).toFixed(1)} s; ` +
        `${counts.pglite.reduce((s, c) => s + c.rows, 0).toLocaleString("en")} rows in ${counts.pglite.length} tables copied in ${(copyMs / 1000).toFixed(1)} s ` +
        `(--force again: ${(result.ms / 1000).toFixed(1)} s)\n`,
    );
  });

  it("refuses a --to that is not a PostgreSQL URL, and a data directory with no store", async () => {
    const bad = await cli(["store", "copy", "--to", "mysql://db/inkwell", "--data-dir", tempDataDir("copy-none")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--to must be a postgres:\/\/ or postgresql:\/\/ URL/);
    const target = await postgresSchema();
    cleanups.push(target.drop);
    const empty = await cli(["store", "copy", "--to", target.url, "--data-dir", tempDataDir("copy-none")]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/There is no store in .*pglite\. Pass --data-dir/);
  });
});
