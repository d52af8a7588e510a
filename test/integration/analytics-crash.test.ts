import { afterAll, describe, expect, it } from "vitest";
import { epochDay, windowOf } from "../../src/shared/epoch-days.js";
import { processStore, startServerProcess, type ProcessStore, type ServerProcess } from "../helpers/process.js";
import { storeKind } from "../helpers/store.js";
import { volume } from "../helpers/tier.js";
import { bruteForceViews, bruteForceVisitors, generateTraffic, random, wireHit } from "../helpers/traffic.js";

/**
 * kill -9 at random points while a backfill is accepted and counted by several rollup workers:
 * every accepted view is counted exactly once. The quick tier backfills 5,000 views with one kill
 * mid-ingest and one while only counting goes on (each kill is a process start of seconds); the
 * full one 15,000 (PGlite) or 40,000 (PostgreSQL) with three mid-ingest; ROLLUP_CRASH_VIEWS and
 * ROLLUP_CRASH_KILLS scale it (the closing note of issue 15 ran 1,000,000).
 */
const VIEWS = volume(5_000, storeKind() === "postgres" ? 40_000 : 15_000, "ROLLUP_CRASH_VIEWS");
const KILLS = volume(1, 3, "ROLLUP_CRASH_KILLS");
const BATCH = 1_000;
const IN_FLIGHT = 4;
const TOKEN = "crash-test-operator-token-0123456789";

const now = new Date();
const firstDay = epochDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)) - 3;
// The generator gives people IPv6 addresses with a 16-bit host part: at most 65,535 people.
const hits = generateTraffic({ seed: 1_000_003, people: Math.min(60_000, Math.max(50, Math.round(VIEWS / 8))), paths: 120, firstDay, days: 21, views: VIEWS });

let store: ProcessStore | undefined;
let server: ServerProcess | undefined;
afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  await server?.exited;
  await store?.cleanup();
});

async function call(url: string, method: string, token: string, body?: string) {
  const res = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body ?? null });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe("counting survives kill -9 at any point", () => {
  it(`${VIEWS.toLocaleString("en")} backfilled views, ${KILLS} kill${KILLS === 1 ? "" : "s"} mid-ingest and one mid-rollup, ${"four"} workers: every view counted exactly once`, { timeout: 600_000 }, async () => {
    store = await processStore();
    // Small chunks: a kill lands inside a chunk's transaction far more often than between them.
    const env = { ...store.env, INKWELL_ADMIN_TOKEN: TOKEN, INKWELL_ANALYTICS_ROLLUP_CHUNK: "500", INKWELL_ANALYTICS_ROLLUP_WORKERS: "4" };
    server = await startServerProcess(env);
    const project = await call(`${server.url}/admin/projects`, "POST", TOKEN, JSON.stringify({ repository: `acme/crash-${Date.now()}` }));
    const key = (await call(`${server.url}/admin/projects/${project.body.id}/keys`, "POST", TOKEN, "{}")).body.key as string;
    const projectId = project.body.id as string;

    // Every hit carries an id, so a batch whose answer was lost in a kill can be sent again safely.
    const batches: string[] = [];
    for (let i = 0; i < hits.length; i += BATCH) {
      const slice = hits.slice(i, i + BATCH).map((hit, j) => ({ id: `crash-${i + j}`, ...wireHit(hit) }));
      batches.push(JSON.stringify({ hits: slice }));
    }
    const rand = random(20261123);
    // Kill after the n-th acknowledged batch, for KILLS distinct random n.
    const thresholds = new Set<number>();
    while (thresholds.size < Math.min(KILLS, batches.length - 1)) thresholds.add(1 + Math.floor(rand() * (batches.length - 1)));
    const killAt = [...thresholds].sort((a, b) => a - b);
    const acknowledged = new Set<number>();
    let kills = 0;

    const killAndRestart = async () => {
      const dying = server as ServerProcess;
      dying.child.kill("SIGKILL");
      await dying.exited;
      kills++;
      server = await startServerProcess(env);
    };

    while (acknowledged.size < batches.length) {
      const pending = batches.map((_, i) => i).filter((i) => !acknowledged.has(i));
      let killed = false;
      const sender = async () => {
        for (let next = pending.shift(); next !== undefined && !killed; next = pending.shift()) {
          try {
            const answer = await call(`${(server as ServerProcess).url}/v1/analytics/${projectId}/hits`, "POST", key, batches[next]);
            if (answer.status !== 202) throw new Error(`batch ${next}: ${answer.status} ${JSON.stringify(answer.body)}`);
            expect(answer.body.rejected).toEqual([]);
            acknowledged.add(next);
          } catch (error) {
            if (!killed) throw error;
          }
          if (!killed && killAt.length > 0 && acknowledged.size >= (killAt[0] as number)) {
            killed = true;
            killAt.shift();
            // A random moment after this batch: another batch may be in flight, chunks are being counted.
            await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 150)));
            await killAndRestart();
          }
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    }
    // One more kill (and any not yet made) while only counting goes on.
    for (const _ of [...killAt, "counting"]) {
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(rand() * 200)));
      await killAndRestart();
    }
    expect(kills).toBe(KILLS + 1);

    const base = `${(server as ServerProcess).url}/v1/analytics/${projectId}`;
    const poll = async (endpoint: "visitors" | "views", from: number, to: number) => {
      const query = `dateFrom=${new Date(from * 86_400_000).toISOString().slice(0, 10)}&dateTo=${new Date(to * 86_400_000).toISOString().slice(0, 10)}&limit=250`;
      for (;;) {
        const res = await call(`${base}/${endpoint}?${query}`, "GET", key);
        expect(res.status).toBe(200);
        if (res.headers.get("inkwell-counting") !== "pending") return res.body;
      }
    };
    const windowStart = (day: number) => windowOf("month", day).start;
    for (const [from, to] of [
      [firstDay, firstDay + 21],
      [firstDay + 2, firstDay + 9],
      [firstDay + 10, firstDay + 11],
    ] as const) {
      const visitors = bruteForceVisitors(hits, from, to, windowStart);
      expect(await poll("visitors", from, to)).toEqual({ totals: visitors.totals, visitors: visitors.visitors, hasMore: false });
      const views = bruteForceViews(hits, from, to);
      expect(await poll("views", from, to)).toEqual({ totals: views.totals, views: views.views, hasMore: false });
    }
  });
});
