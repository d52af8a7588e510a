import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vacuumEmbeddedStore } from "../../src/app/store/embedded-upkeep.js";
import { eventually } from "../helpers/eventually.js";
import { openTestStore, storeKind, type TestStore } from "../helpers/store.js";

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.drop());

describe.skipIf(storeKind() !== "pglite")("the embedded store's vacuum", () => {
  it("vacuums and analyzes every table, so the planner has statistics and deleted rows' space is reused", async () => {
    const { db } = store;
    await db.query(`INSERT INTO analytics_daily_categories (project_id, day, class, category, views) SELECT 'p', d, 1, 'crawler', d FROM generate_series(1, 5000) AS d`);
    await db.query(`DELETE FROM analytics_daily_categories WHERE day <= 1000`);
    // The delete's counts wait in the backend until it flushes them; flushed after the vacuum's
    // report they would add 1,000 dead rows back, so they go first.
    await db.query(`SELECT pg_stat_force_next_flush()`);
    await db.query(`SELECT 1`);
    const before = await db.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'analytics_daily_categories' AND relnamespace = current_schema()::regnamespace`);
    expect(Number(before[0]?.reltuples)).toBe(-1);

    const done = await vacuumEmbeddedStore(db);

    // The statistics views show what the backend has flushed, which it does on its own schedule: ask
    // for the flush, then read until the vacuum's counts are there (pg_stat_force_next_flush, PostgreSQL 15+).
    const tables = await eventually("the vacuum's statistics to be flushed", async () => {
      await db.query(`SELECT pg_stat_force_next_flush()`);
      await db.query(`SELECT pg_stat_clear_snapshot()`);
      const rows = await db.query<{ relname: string; last_vacuum: Date | null; last_analyze: Date | null; n_dead_tup: string }>(
        `SELECT relname, last_vacuum, last_analyze, n_dead_tup FROM pg_stat_user_tables WHERE schemaname = current_schema()`,
      );
      const counted = rows.find((table) => table.relname === "analytics_daily_categories");
      return counted !== undefined && counted.last_vacuum !== null && Number(counted.n_dead_tup) === 0 && rows;
    });
    expect(done.tables).toBe(tables.length);
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((table) => table.last_vacuum === null || table.last_analyze === null).map((table) => table.relname)).toEqual([]);
    expect(Number(tables.find((table) => table.relname === "analytics_daily_categories")?.n_dead_tup)).toBe(0);
    const after = await db.query<{ reltuples: number; relallvisible: number }>(`SELECT reltuples, relallvisible FROM pg_class WHERE relname = 'analytics_daily_categories' AND relnamespace = current_schema()::regnamespace`);
    expect(Number(after[0]?.reltuples)).toBe(4000);
    expect(Number(after[0]?.relallvisible)).toBeGreaterThan(0);
  });
});

describe.skipIf(storeKind() !== "postgres")("on PostgreSQL", () => {
  it("leaves the work to autovacuum and says so", async () => {
    await expect(vacuumEmbeddedStore(store.db)).rejects.toThrow(/autovacuum/);
  });
});
