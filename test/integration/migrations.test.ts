import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { countRows, readCatalog } from "../../src/app/store/catalog.js";
import type { Queryable } from "../../src/app/store/db.js";
import { migrate } from "../../src/app/store/migrate.js";
import { migrations } from "../../src/app/store/migrations.js";
import { ApiKeyVerifier, listApiKeys, requireScope } from "../../src/app/domain/api-keys.js";
import { NEEDED_SCOPES } from "../../src/shared/key-scopes.js";
import { constraintViolations, fillTables } from "../helpers/catalog-rows.js";
import { openTestStore, storeKind, type TestStore } from "../helpers/store.js";
import { FULL_TIER } from "../helpers/tier.js";

let store: TestStore | undefined;
afterEach(async () => {
  await store?.drop();
  store = undefined;
});

describe("migrations", () => {
  // The one test that runs every migration on an empty store. A migration's own test migrates to the
  // version before it, adds rows, and runs that migration alone (the upgrades below run the rest over data).
  it("apply once, in order, and are recorded, also when several starts run them at once", async () => {
    store = await openTestStore({ migrated: false });
    const results = await Promise.all([migrate(store.db), migrate(store.db), migrate(store.db)]);
    expect(results.flat().sort((a, b) => a - b)).toEqual(migrations.map((m) => m.version));
    expect(await migrate(store.db)).toEqual([]);
    const recorded = await store.db.query<{ version: number }>(`SELECT version FROM schema_migrations ORDER BY version`);
    expect(recorded.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
  });

  it("2 carries pending dispatches of the old outbox into the task queue", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version === 1));
    await store.db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    await store.db.query(`INSERT INTO jobs (id, project_id, status, repository, branch, model, run_attempt) VALUES ('j1', 'p1', 'active', 'x', 'inkwell/j1', 'm', 2)`);
    await store.db.query(`INSERT INTO dispatch_outbox (job_id, run_attempt) VALUES ('j1', 2)`);
    await migrate(store.db, migrations.filter((m) => m.version <= 2));
    const tasks = await store.db.query<{ kind: string; dedupe_key: string; payload: string; state: string }>(`SELECT kind, dedupe_key, payload, state FROM tasks`);
    expect(tasks).toEqual([{ kind: "dispatch", dedupe_key: "dispatch:j1:2", payload: expect.any(String), state: "pending" }]);
    expect(JSON.parse(tasks[0]?.payload ?? "{}")).toEqual({ jobId: "j1", runAttempt: 2 });
  });

  it("27 links pages never viewed since sections were counted to their sections, and counts every page's views in its sections' daily rows", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version < 27));
    const { db } = store;
    await db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    const ids = await db.query<{ id: number; path: string }>(
      `INSERT INTO analytics_paths (project_id, path) VALUES ('p1', '/'), ('p1', '/docs'), ('p1', '/docs/guides/retries'), ('p1', '/api/events'), ('p1', '/docs/') RETURNING id, path`,
    );
    const id = (path: string) => ids.find((row) => row.path === path)?.id as number;
    // /api/events has one of its two links (its sections are /api/ and /api/events/); the others have none.
    await db.query(`INSERT INTO analytics_paths (project_id, path) VALUES ('p1', '/api/')`);
    await db.query(`INSERT INTO analytics_path_sections (path_id, section_id) SELECT $1, id FROM analytics_paths WHERE path = '/api/'`, [id("/api/events")]);
    await db.query(
      `INSERT INTO analytics_daily_views (project_id, day, path_id, human, ai, bot) VALUES ('p1', 10, $1, 1, 0, 0), ('p1', 10, $2, 2, 1, 0), ('p1', 10, $3, 4, 0, 1), ('p1', 11, $4, 8, 0, 0)`,
      [id("/"), id("/docs"), id("/docs/guides/retries"), id("/api/events")],
    );
    await migrate(db, migrations.filter((m) => m.version <= 27));
    const scopes = await db.query<{ path: string; day: number; human: number; ai: number; bot: number }>(
      `SELECT coalesce(p.path, '(site)') AS path, v.day, v.human::int AS human, v.ai::int AS ai, v.bot::int AS bot
       FROM analytics_daily_scope_views v LEFT JOIN analytics_paths p ON p.id = v.scope_id WHERE v.source_id = 0 ORDER BY 1, 2`,
    );
    expect(scopes).toEqual([
      { path: "(site)", day: 10, human: 7, ai: 1, bot: 1 },
      { path: "(site)", day: 11, human: 8, ai: 0, bot: 0 },
      { path: "/api/", day: 11, human: 8, ai: 0, bot: 0 },
      { path: "/api/events/", day: 11, human: 8, ai: 0, bot: 0 },
      { path: "/docs/", day: 10, human: 6, ai: 1, bot: 1 },
      { path: "/docs/guides/", day: 10, human: 4, ai: 0, bot: 1 },
    ]);
    const links = await db.query<{ page: string; section: string }>(
      `SELECT p.path AS page, s.path AS section FROM analytics_path_sections l JOIN analytics_paths p ON p.id = l.path_id JOIN analytics_paths s ON s.id = l.section_id ORDER BY 1, 2`,
    );
    expect(links).toEqual([
      { page: "/api/events", section: "/api/" },
      { page: "/api/events", section: "/api/events/" },
      { page: "/docs", section: "/docs/" },
      { page: "/docs/guides/retries", section: "/docs/" },
      { page: "/docs/guides/retries", section: "/docs/guides/" },
    ]);
  });

  it("23 marks an agent's earlier page views verified on the days it had no unverifiable claim, and leaves mixed days unverifiable", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version < 23));
    await store.db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    await store.db.query(
      `INSERT INTO analytics_daily_agents (project_id, day, agent_id, verified, spoofed, unverifiable) VALUES ('p1', 10, 1, 5, 2, 0), ('p1', 11, 1, 3, 0, 4)`,
    );
    await store.db.query(
      `INSERT INTO analytics_daily_agent_pages (project_id, day, agent_id, path_id, views, failed) VALUES ('p1', 10, 1, 7, 3, 0), ('p1', 10, 1, 8, 2, 1), ('p1', 11, 1, 7, 7, 0)`,
    );
    await migrate(store.db, migrations.filter((m) => m.version <= 23));
    expect(await store.db.query(`SELECT day, path_id, views::int AS views, verified::int AS verified, spoofed::int AS spoofed FROM analytics_daily_agent_pages ORDER BY day, path_id`)).toEqual([
      { day: 10, path_id: 7, views: 3, verified: 3, spoofed: 0 },
      { day: 10, path_id: 8, views: 2, verified: 2, spoofed: 0 },
      { day: 11, path_id: 7, views: 7, verified: 0, spoofed: 0 },
    ]);
  });

  it("31 leaves every key made before scopes able to do everything, and it is verified as such", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version < 31));
    await store.db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    const key = `ink_${"k".repeat(43)}`;
    await store.db.query(`INSERT INTO api_keys (id, project_id, prefix, secret_hash) VALUES ('k1', 'p1', 'ink_kk', $1)`, [createHash("sha256").update(key).digest("hex")]);
    await migrate(store.db);
    const identity = await new ApiKeyVerifier(store.db, false).projectFor(`Bearer ${key}`);
    expect(identity).toEqual({ projectId: "p1", keyId: "k1", scopes: ["all"] });
    for (const scope of NEEDED_SCOPES) expect(() => requireScope(identity.scopes, scope, "do it")).not.toThrow();
    expect((await listApiKeys(store.db, "p1")).map((k) => k.scopes)).toEqual([["all"]]);
  });

  it("33 leaves every job working (none waits) and gives the step events to endpoints that took every event, not to those that chose", async () => {
    store = await openTestStore({ migrated: false });
    await migrate(store.db, migrations.filter((m) => m.version < 33));
    const { db } = store;
    await db.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/a/b', 'a/b', 'm')`);
    await db.query(`INSERT INTO jobs (id, project_id, status, repository, branch, model) VALUES ('j1', 'p1', 'active', 'https://github.com/a/b', 'inkwell/j1', 'm')`);
    await db.query(
      `INSERT INTO project_webhooks (id, project_id, url, format, events, secret) VALUES
       ('w1', 'p1', 'https://x.test', 'standard', 'job.completed,job.failed,job.archived,job.pull_request_opened,job.impact', 's'),
       ('w2', 'p1', 'https://y.test', 'slack', 'job.failed', 's')`,
    );
    await migrate(store.db, migrations.filter((m) => m.version <= 33));
    expect(await db.query(`SELECT waiting_for, plan_approval, max_questions FROM jobs`)).toEqual([{ waiting_for: null, plan_approval: false, max_questions: 1 }]);
    expect(await db.query(`SELECT plan_approval, wait_limit_days FROM projects`)).toEqual([{ plan_approval: false, wait_limit_days: 14 }]);
    const events = await db.query<{ id: string; events: string }>(`SELECT id, events FROM project_webhooks ORDER BY id`);
    expect(events.map((row) => [row.id, row.events.split(",")])).toEqual([
      ["w1", ["job.completed", "job.failed", "job.archived", "job.pull_request_opened", "job.impact", "job.created", "job.run_started", "job.waiting", "job.run_finished"]],
      ["w2", ["job.failed"]],
    ]);
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
    await migrate(store.db, migrations.filter((m) => m.version <= 8));
    const rows = await store.db.query<{ visitor: string; path: string }>(
      `SELECT i.visitor::text AS visitor, ap.path FROM analytics_inbox i JOIN analytics_paths ap ON ap.id = i.path_id AND ap.project_id = i.project_id ORDER BY i.visitor`,
    );
    expect(rows).toEqual([
      { visitor: "3", path: "/new" },
      { visitor: "17", path: "/known" },
      { visitor: "18", path: "/new" },
    ]);
    // Pages only (their sections, /known/ and /new/, come with a later migration).
    expect(await store.db.query(`SELECT count(*)::int AS n FROM analytics_paths WHERE right(path, 1) <> '/'`)).toEqual([{ n: 2 }]);
  });
});

/**
 * The rows migrations mean to move or derive (read from their SQL). Applies to an upgrade from a
 * version before `version` whose schema has every table in `reads`: `before` runs on the old
 * store, `after` on the upgraded one, and they must agree; the row counts of the tables in `changes`
 * are exempt from staying as they were. Every other table keeps exactly its rows.
 */
const KNOWN_MOVES: { version: number; reason: string; reads: string[]; changes: string[]; before: string; after: string }[] = [
  {
    version: 2,
    reason: "the dispatch outbox is dropped; each of its rows becomes a dispatch task with its state",
    reads: ["dispatch_outbox"],
    changes: ["dispatch_outbox", "tasks"],
    before: `SELECT 'dispatch:' || job_id || ':' || run_attempt AS key, state, tries FROM dispatch_outbox ORDER BY 1`,
    after: `SELECT dedupe_key AS key, state, tries FROM tasks WHERE kind = 'dispatch' ORDER BY 1`,
  },
  {
    version: 8,
    reason: "inbox views get their page's id: a path not yet known becomes a page, and each view keeps its path",
    reads: ["analytics_inbox"],
    changes: ["analytics_paths"],
    before: `SELECT (SELECT count(*) FROM (SELECT project_id, path FROM analytics_paths UNION SELECT project_id, path FROM analytics_inbox) u)::int AS pages,
                    (SELECT json_agg(json_build_array(id, project_id, path) ORDER BY id) FROM analytics_inbox)::text AS views`,
    after: `SELECT (SELECT count(*) FROM analytics_paths)::int AS pages,
                   (SELECT json_agg(json_build_array(i.id, i.project_id, p.path) ORDER BY i.id) FROM analytics_inbox i JOIN analytics_paths p ON p.id = i.path_id)::text AS views`,
  },
  {
    version: 12,
    reason: "the new per-month agent pages are derived from the daily ones: one row per (project, agent, page, calendar month)",
    reads: ["analytics_daily_agent_pages"],
    changes: ["analytics_agent_page_months"],
    before: `SELECT count(DISTINCT (project_id, agent_id, path_id, date_trunc('month', date '1970-01-01' + day)))::int AS n FROM analytics_daily_agent_pages`,
    after: `SELECT count(*)::int AS n FROM analytics_agent_page_months`,
  },
  {
    version: 14,
    reason: "the new monthly formats are the daily formats summed by calendar month",
    reads: ["analytics_daily_formats"],
    changes: ["analytics_monthly_formats"],
    before: `SELECT count(DISTINCT (project_id, format, path_id, date_trunc('month', date '1970-01-01' + day)))::int AS n, sum(human + ai + bot)::text AS views FROM analytics_daily_formats`,
    after: `SELECT count(*)::int AS n, sum(human + ai + bot)::text AS views FROM analytics_monthly_formats`,
  },
  {
    version: 24,
    reason: "the new monthly views are the daily views summed by calendar month",
    reads: ["analytics_daily_views"],
    changes: ["analytics_monthly_views"],
    before: `SELECT count(DISTINCT (project_id, path_id, date_trunc('month', date '1970-01-01' + day)))::int AS n, sum(human + ai + bot)::text AS views FROM analytics_daily_views`,
    after: `SELECT count(*)::int AS n, sum(human + ai + bot)::text AS views FROM analytics_monthly_views`,
  },
  {
    version: 25,
    reason: "the new monthly arrivals are the daily arrivals per source and page summed by calendar month",
    reads: ["analytics_daily_referrals"],
    changes: ["analytics_monthly_referrals"],
    before: `SELECT count(DISTINCT (project_id, source_id, path_id, date_trunc('month', date '1970-01-01' + day)))::int AS n, sum(views)::text AS views FROM analytics_daily_referrals`,
    after: `SELECT count(*)::int AS n, sum(views)::text AS views FROM analytics_monthly_referrals`,
  },
  {
    version: 25,
    reason: "the new monthly agent pages are the daily agent pages summed by calendar month",
    reads: ["analytics_daily_agent_pages"],
    changes: ["analytics_monthly_agent_pages"],
    before: `SELECT count(DISTINCT (project_id, agent_id, path_id, date_trunc('month', date '1970-01-01' + day)))::int AS n, sum(views)::text AS views, sum(failed)::text AS failed FROM analytics_daily_agent_pages`,
    after: `SELECT count(*)::int AS n, sum(views)::text AS views, sum(failed)::text AS failed FROM analytics_monthly_agent_pages`,
  },
  {
    version: 27,
    reason: "the site's new daily scope rows are the daily views, and its rows per source the daily arrivals, summed",
    reads: ["analytics_daily_views", "analytics_daily_referrals"],
    changes: ["analytics_daily_scope_views", "analytics_paths", "analytics_path_sections"],
    before: `SELECT (SELECT sum(human + ai + bot) FROM analytics_daily_views)::text AS views, (SELECT sum(views) FROM analytics_daily_referrals)::text AS arrivals`,
    after: `SELECT (SELECT sum(human + ai + bot) FROM analytics_daily_scope_views WHERE scope_id = 0 AND source_id = 0)::text AS views,
                   (SELECT sum(human) FROM analytics_daily_scope_views WHERE scope_id = 0 AND source_id <> 0)::text AS arrivals`,
  },
  ...visitorStateMoves(),
];

/**
 * 22 folds the three per-visitor mask tables into one row per visitor (visitor-states.ts): each
 * old row must come back out of its bytea column, field for field. Columns an old version did not
 * have yet read as the default the later migration gave them.
 */
function visitorStateMoves() {
  const int32At = (column: string, record: number, field: number) =>
    `('x' || encode(substring(s.${column} from g * ${record * 4} + ${field * 4 + 1} for 4), 'hex'))::bit(32)::int`;
  const decoded = (column: string, fields: string[]) =>
    `SELECT json_agg(json_build_array(s.project_id, s.window_start, s.visitor, ${fields.map((_, i) => int32At(column, fields.length, i)).join(", ")})
            ORDER BY s.project_id, s.window_start, s.visitor, g)::text AS rows
     FROM analytics_visitor_states s CROSS JOIN LATERAL generate_series(0, length(s.${column}) / ${fields.length * 4} - 1) g`;
  const stored = (table: string, fields: string[], keyFields: number) =>
    `SELECT json_agg(json_build_array(project_id, window_start, visitor, ${fields.map((f) => `coalesce((to_jsonb(t)->>'${f}')::int, 0)`).join(", ")})
            ORDER BY project_id, window_start, visitor, ${fields.slice(0, keyFields).join(", ")})::text AS rows
     FROM ${table} t`;
  // Records are stored in key order: the leading `keyFields` fields.
  const tables: [string, string, string[], number][] = [
    ["analytics_visitor_days", "masks", ["path_id", "human", "ai", "bot", "formats"], 1],
    ["analytics_format_visitor_days", "format_masks", ["path_id", "format", "human", "ai", "bot"], 2],
    ["analytics_agent_visitor_days", "agent_masks", ["agent_id", "path_id", "days"], 2],
  ];
  return tables.map(([table, column, fields, keyFields]) => ({
    version: 22,
    reason: `each row of ${table} is a record of its visitor's ${column}`,
    reads: [table],
    changes: [table, "analytics_visitor_states"],
    before: stored(table, fields, keyFields),
    after: decoded(column, fields),
  }));
}

const latest = Math.max(...migrations.map((m) => m.version));
const releasedBefore = migrations.map((m) => m.version).filter((v) => v < latest).sort((a, b) => a - b);
// Every released version in the full tier on PostgreSQL. Elsewhere (the quick tier, and PGlite, where each upgrade
// takes about four seconds) from the oldest, which runs every migration over data, and the two latest, where a new
// migration meets the newest data.
const upgradedFrom = FULL_TIER && storeKind() === "postgres" ? releasedBefore : [...new Set([releasedBefore[0] as number, ...releasedBefore.slice(-2)])];
// Analytics tables are where volume matters; a few rows elsewhere keep each store's run short.
const rowsFor = (table: string) => (table.startsWith("analytics_") ? 24 : 4);
const countsOf = async (db: Queryable) => new Map((await countRows(db, (await readCatalog(db)).tables)).map((c) => [c.table, c.rows]));

describe("upgrades from released schema versions with data in them (every one in the full tier on PostgreSQL)", () => {
  it.each(upgradedFrom)("from version %i to the latest", async (version) => {
    store = await openTestStore({ migrated: false });
    const { db } = store;
    await migrate(db, migrations.filter((m) => m.version <= version));

    const filled = await fillTables(db, { rows: rowsFor });
    const before = await countsOf(db);
    before.delete("schema_migrations");
    // Every table of the old schema really has rows: the test cannot pass by inserting nothing.
    expect([...filled.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [table, rows] of before) {
      expect(rows, `rows in ${table} at version ${version}`).toBeGreaterThan(0);
      expect(rows, table).toBe(filled.get(table));
    }
    const moves = KNOWN_MOVES.filter((m) => m.version > version && m.reads.every((t) => before.has(t)));
    const expected = await Promise.all(moves.map((m) => db.query(m.before)));

    expect(await migrate(db)).toEqual(migrations.map((m) => m.version).filter((v) => v > version).sort((a, b) => a - b));
    const recorded = await db.query<{ version: number }>(`SELECT version FROM schema_migrations ORDER BY version`);
    expect(recorded.map((r) => r.version)).toEqual(migrations.map((m) => m.version).sort((a, b) => a - b));

    const after = await countsOf(db);
    const moved = new Set(moves.flatMap((m) => m.changes));
    for (const [table, rows] of before) if (!moved.has(table)) expect(after.get(table), `rows in ${table} after upgrading from ${version}`).toBe(rows);
    for (const [k, move] of moves.entries()) expect(await db.query(move.after), `${move.version}: ${move.reason}`).toEqual(expected[k]);

    expect(await constraintViolations(db)).toEqual([]);
    // The latest schema still takes new rows of every table next to the upgraded ones (keys, identities, checks).
    const more = await fillTables(db, { rows: () => 2, offset: 1_000 });
    for (const [table, rows] of more) expect(rows, `new rows in ${table}`).toBeGreaterThan(0);
  });
});

describe("the catalog row generator", () => {
  it("retries rows another CHECK refuses, stops at what a unique key of parents allows, and names a table it cannot fill", async () => {
    store = await openTestStore({ migrated: false });
    await store.db.exec(`
      CREATE TABLE parent (id text PRIMARY KEY, kind varchar(8) NOT NULL CHECK (kind IN ('a', 'b')));
      CREATE TABLE one_to_one (parent_id text PRIMARY KEY REFERENCES parent (id), even integer NOT NULL CHECK (even % 2 = 0));`);
    const filled = await fillTables(store.db, { rows: (t) => (t === "parent" ? 3 : 10) });
    expect(Object.fromEntries(filled)).toEqual({ parent: 3, one_to_one: 3 });
    expect(await store.db.query(`SELECT DISTINCT kind FROM parent ORDER BY kind`)).toEqual([{ kind: "a" }, { kind: "b" }]);
    await store.db.exec(`CREATE TABLE impossible (a integer NOT NULL, b integer NOT NULL, CHECK (a <> b))`);
    await expect(fillTables(store.db, { rows: () => 2, offset: 50 })).rejects.toThrow(/cannot fill impossible generically/);
  });
});
