import { afterEach, describe, expect, it } from "vitest";
import { migrate } from "../../src/app/store/migrate.js";
import { migrations } from "../../src/app/store/migrations.js";
import { openTestStore, type TestStore } from "../helpers/store.js";

let store: TestStore | undefined;
afterEach(async () => {
  await store?.drop();
  store = undefined;
});

describe("migrations", () => {
  it("apply once, in order, and are recorded", async () => {
    store = await openTestStore({ migrated: false });
    expect(await migrate(store.db)).toEqual(migrations.map((m) => m.version));
    expect(await migrate(store.db)).toEqual([]);
    const recorded = await store.db.query<{ version: number }>(`SELECT version FROM schema_migrations ORDER BY version`);
    expect(recorded.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
  });

  it("concurrent starts apply each migration exactly once", async () => {
    store = await openTestStore({ migrated: false });
    const results = await Promise.all([migrate(store.db), migrate(store.db), migrate(store.db)]);
    expect(results.flat().sort((a, b) => a - b)).toEqual(migrations.map((m) => m.version));
  });

  it("2 carries pending dispatches of the old outbox into the task queue", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version === 1));
    await store.db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    await store.db.query(`INSERT INTO jobs (id, project_id, status, repository, branch, model, run_attempt) VALUES ('j1', 'p1', 'active', 'x', 'inkwell/j1', 'm', 2)`);
    await store.db.query(`INSERT INTO dispatch_outbox (job_id, run_attempt) VALUES ('j1', 2)`);
    await migrate(store.db);
    const tasks = await store.db.query<{ kind: string; dedupe_key: string; payload: string; state: string }>(`SELECT kind, dedupe_key, payload, state FROM tasks`);
    expect(tasks).toEqual([{ kind: "dispatch", dedupe_key: "dispatch:j1:2", payload: expect.any(String), state: "pending" }]);
    expect(JSON.parse(tasks[0]?.payload ?? "{}")).toEqual({ jobId: "j1", runAttempt: 2 });
  });

  it("8 gives views waiting in the inbox at upgrade their page's id, and they are counted under it", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version < 8));
    await store.db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    await store.db.query(`INSERT INTO analytics_paths (project_id, path) VALUES ('p1', '/known')`);
    await store.db.query(
      `INSERT INTO analytics_inbox (project_id, at, day, window_start, window_end, path, visitor, class, category)
       VALUES ('p1', now(), 1, 0, 31, '/known', 17, 0, NULL), ('p1', now(), 1, 0, 31, '/new', 18, 1, 'training'), ('p1', now(), 2, 0, 31, '/new', 3, 0, NULL)`,
    );
    await migrate(store.db);
    const rows = await store.db.query<{ visitor: string; path: string }>(
      `SELECT i.visitor::text AS visitor, ap.path FROM analytics_inbox i JOIN analytics_paths ap ON ap.id = i.path_id AND ap.project_id = i.project_id ORDER BY i.visitor`,
    );
    expect(rows).toEqual([
      { visitor: "3", path: "/new" },
      { visitor: "17", path: "/known" },
      { visitor: "18", path: "/new" },
    ]);
    expect(await store.db.query(`SELECT count(*)::int AS n FROM analytics_paths`)).toEqual([{ n: 2 }]);
  });
});
