import { existsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../helpers/process.js";
import { ADMIN_TOKEN, startTestServer } from "../helpers/server.js";
import { call, cli, newProject, STORE_TOKEN, stopServer, tempDataDir, wholeReport } from "../helpers/store-commands.js";
import { seedPgliteDataDir } from "../helpers/pglite-template.js";
import { storeKind } from "../helpers/store.js";
import { volume } from "../helpers/tier.js";
import { USER_AGENTS } from "../helpers/traffic.js";

const HITS_PER_BATCH = 100;
const IN_FLIGHT = 2;
/** Batches acknowledged before the backup starts. */
const BATCHES_BEFORE = volume(10, 40);
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const RANGE = `dateFrom=${today}&dateTo=${tomorrow}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.exited));
});

async function start(dataDir: string) {
  const server = await startServerProcess({ DATA_DIR: dataDir, INKWELL_ADMIN_TOKEN: STORE_TOKEN });
  servers.push(server);
  return server;
}

/** Batch n: HITS_PER_BATCH human views of its own page, so the restored store shows which batches it holds. */
const batch = (n: number) => ({
  hits: Array.from({ length: HITS_PER_BATCH }, (_, i) => ({
    timestamp: new Date(Date.now() - 60_000).toISOString(),
    path: `/batch-${n}`,
    ip: `10.${n % 250}.${Math.floor(i / 250)}.${i % 250}`,
    userAgent: USER_AGENTS.human[i % USER_AGENTS.human.length],
  })),
});

describe.runIf(storeKind() === "pglite")("inkwell store backup and restore (PGlite)", () => {
  it("a backup taken while hits stream in holds every hit accepted before it started; restore puts it back", { timeout: 600_000 }, async () => {
    const dataDir = tempDataDir("backup");
    // A store that ran before: the claim is about backups, not a first start, so no initdb.
    await seedPgliteDataDir(dataDir);
    const server = await start(dataDir);
    const project = await newProject(server.url, "backup");

    // Senders never pause: the backup is taken between their transactions.
    const sent = new Map<number, { startedAt: number; ackedAt?: number }>();
    let next = 0;
    let stop = false;
    const sender = async () => {
      while (!stop) {
        const n = next++;
        sent.set(n, { startedAt: performance.now() });
        const answer = await call(`${server.url}/v1/analytics/${project.projectId}/hits`, "POST", project.key, batch(n));
        expect(answer.status).toBe(202);
        expect(answer.body).toMatchObject({ accepted: HITS_PER_BATCH, duplicates: 0, rejected: [] });
        (sent.get(n) as { ackedAt?: number }).ackedAt = performance.now();
      }
    };
    const senders = Array.from({ length: IN_FLIGHT }, sender);
    const acked = () => [...sent].filter(([, s]) => s.ackedAt !== undefined).map(([n]) => n);
    while (acked().length < BATCHES_BEFORE) await sleep(10);

    const file = path.join(tempDataDir("backup-file"), "inkwell.tar.gz");
    const backupStarted = performance.now();
    const ackedBefore = acked();
    const backup = await cli(["store", "backup", file], { INKWELL_URL: server.url, DATA_DIR: dataDir });
    const backupEnded = performance.now();
    const ackedAtEnd = acked().length;
    while (acked().length < ackedAtEnd + 10) await sleep(10);
    stop = true;
    await Promise.all(senders);

    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(new RegExp(`^Wrote ${file.replaceAll(".", "\\.")} \\([\\d.]+ MB\\), taken from the service at ${server.url}\\.`));
    expect(backup.stdout).toMatch(/^Schema version \d+; \d+ tables, [\d,]+ rows/m);
    expect(backup.stdout).toMatch(/^projects\s+1$/m);
    expect(statSync(file).size).toBeGreaterThan(100_000);

    // Restore refuses the data directory the running service holds.
    const whileRunning = await cli(["store", "restore", file, "--data-dir", dataDir, "--force"]);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toMatch(new RegExp(`in use by the Inkwell service \\(process ${server.child.pid} .*\\)\\. Stop the service first`));
    await stopServer(server);

    const restoredDir = tempDataDir("restored");
    const restore = await cli(["store", "restore", file, "--data-dir", restoredDir]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(new RegExp(`^Restored .* into ${path.join(restoredDir, "pglite").replaceAll(".", "\\.")}\\.`));

    const restored = await start(restoredDir);
    const views = await wholeReport(restored.url, project.projectId, project.key, "views", RANGE);
    const byBatch = new Map<number, number>(views.rows.map((row: { path: string; human: number }) => [Number(row.path.slice("/batch-".length)), row.human]));
    const missing = ackedBefore.filter((n) => byBatch.get(n) !== HITS_PER_BATCH);
    expect(missing, "batches accepted before the backup started").toEqual([]);
    // Each batch is one transaction: in the snapshot whole or not at all.
    expect([...byBatch.values()].every((count) => count === HITS_PER_BATCH)).toBe(true);
    // And it was taken mid-stream: what was sent after the backup ended is not in it.
    const sentAfter = [...sent].filter(([, s]) => s.startedAt > backupEnded).map(([n]) => n);
    expect(sentAfter.length).toBeGreaterThan(0);
    expect(sentAfter.filter((n) => byBatch.has(n))).toEqual([]);
    process.stdout.write(
      `store backup: ${ackedBefore.length} batches (${ackedBefore.length * HITS_PER_BATCH} hits) accepted before the backup, all restored; ` +
        `${byBatch.size - ackedBefore.length} more in flight were in it, ${sent.size - byBatch.size} sent later were not; ` +
        `backup of ${(statSync(file).size / 1e6).toFixed(1)} MB took ${((backupEnded - backupStarted) / 1000).toFixed(1)} s\n`,
    );

    // A data directory with a store: refused while its service runs, refused without --force, moved aside with it.
    const busy = await cli(["store", "restore", file, "--data-dir", restoredDir, "--force"]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/Stop the service first/);
    await stopServer(restored);
    const occupied = await cli(["store", "restore", file, "--data-dir", restoredDir]);
    expect(occupied.code).toBe(1);
    expect(occupied.stderr).toMatch(/pglite already holds a store\. Restore into another --data-dir, or pass --force/);
    const forced = await cli(["store", "restore", file, "--data-dir", restoredDir, "--force", "--json"]);
    expect(forced.code, forced.stderr).toBe(0);
    const moved = JSON.parse(forced.stdout).movedAside as string;
    expect(moved).toMatch(/pglite\.before-restore-/);
    expect(existsSync(path.join(moved, "PG_VERSION"))).toBe(true);
  });

  it("with no service running, backs up the data directory itself; a locked one it refuses, naming the service's port", async () => {
    const dataDir = tempDataDir("offline");
    // A store that ran before: the claim is about backups, not a first start, so no initdb.
    await seedPgliteDataDir(dataDir);
    const server = await start(dataDir);
    await newProject(server.url, "offline");
    const unreachable = "http://127.0.0.1:9";
    const file = path.join(tempDataDir("offline-file"), "offline.tar.gz");

    const locked = await cli(["store", "backup", file, "--data-dir", dataDir, "--url", unreachable]);
    expect(locked.code).toBe(1);
    const port = new URL(server.url).port;
    expect(locked.stderr).toMatch(new RegExp(`No Inkwell service answered at ${unreachable}, but .* is in use by Inkwell process ${server.child.pid} listening on port ${port}.*--url http://localhost:${port}`));
    expect(existsSync(file)).toBe(false);

    await stopServer(server);
    const offline = await cli(["store", "backup", file, "--data-dir", dataDir, "--url", unreachable]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toMatch(/taken from .* directly \(no service answered at http:\/\/127\.0\.0\.1:9\)/);
    expect(offline.stdout).toMatch(/^projects\s+1$/m);

    const nowhere = tempDataDir("offline-empty");
    const nothing = await cli(["store", "backup", path.join(nowhere, "x.tar.gz"), "--data-dir", nowhere, "--url", unreachable]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/No Inkwell service answered at http:\/\/127\.0\.0\.1:9 \(.*\), and .*pglite holds no store to read directly\. Is the service running\?/);

    const exists = await cli(["store", "backup", file, "--data-dir", dataDir, "--url", unreachable]);
    expect(exists.code).toBe(2);
    expect(exists.stderr).toMatch(/already exists: choose another name, or pass --force/);

    const notSnapshot = path.join(tempDataDir("offline-file"), "notes.txt");
    writeFileSync(notSnapshot, "not a backup");
    const refused = await cli(["store", "restore", notSnapshot, "--data-dir", tempDataDir("offline-restore")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not an Inkwell snapshot \(not a gzip file\)/);
  });
});

describe("GET /admin/store/snapshot", () => {
  it(storeKind() === "pglite" ? "hands the operator a gzip snapshot" : "answers 409 on PostgreSQL, pointing to pg_dump", async () => {
    const t = await startTestServer();
    try {
      expect((await t.call("GET", "/admin/store/snapshot")).status).toBe(401);
      const response = await fetch(`${t.url}/admin/store/snapshot`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      if (storeKind() === "pglite") {
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/gzip");
        expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="inkwell-.*\.tar\.gz"$/);
        const bytes = new Uint8Array(await response.arrayBuffer());
        expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
      } else {
        expect(response.status).toBe(409);
        expect(((await response.json()) as { error: string }).error).toMatch(/PostgreSQL \(DATABASE_URL\).*pg_dump/);
        const viaCli = await cli(["store", "backup", path.join(tempDataDir("pg-backup"), "x.tar.gz")], { INKWELL_URL: t.url, INKWELL_ADMIN_TOKEN: ADMIN_TOKEN });
        expect(viaCli.code).toBe(1);
        expect(viaCli.stderr).toMatch(/409: .*pg_dump/);
      }
    } finally {
      await t.close();
    }
  });
});
