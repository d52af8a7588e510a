import { afterEach, describe, expect, it } from "vitest";
import { templatePglite } from "../../../helpers/pglite-template.js";
import { createApiKey, revokeApiKey } from "../../../../src/app/domain/api-keys.js";
import { createJob } from "../../../../src/app/domain/jobs/commands.js";
import { createProject } from "../../../../src/app/domain/projects.js";
import { countRows, ident, readCatalog } from "../../../../src/app/store/catalog.js";
import type { Db, Queryable } from "../../../../src/app/store/db.js";
import { StoreCommandError } from "../../../../src/app/store/offline-store.js";
import { copyStore, type CopyProgress } from "../../../../src/app/store/store-copy.js";

const opened: Db[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

async function store(): Promise<Db> {
  const db = await templatePglite("migrated");
  opened.push(db);
  return db;
}

/** Every kind of column the schema has: identity ids, a generated column, bytea, arrays, jsonb, timestamps, NULLs. */
async function seed(db: Db, inboxRows: number): Promise<void> {
  const project = await createProject(db, { repoName: "acme/docs", repository: "https://github.com/acme/docs", model: "m", allowedModels: ["a", 'quote"d', "comma,d"] });
  const { info } = await createApiKey(db, project.id, "laptop", ["all"]);
  await createApiKey(db, project.id, null, ["views"]);
  await revokeApiKey(db, project.id, info.id);
  for (let i = 0; i < 3; i++) await db.transaction((tx) => createJob(tx, { projectId: project.id, prompt: `Prompt ${i} with 'quotes', \\ and ünïcode`, idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
  await db.query(`INSERT INTO analytics_salts (project_id, window_start, secret, delete_after) VALUES ($1, 20000, '\\x00ff10'::bytea, now())`, [project.id]);
  await db.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ('list', 'https://x', '{"prefixes":[{"ipv4Prefix":"1.2.3.0/24"}],"n":null}', now())`);
  await db.query(
    `INSERT INTO analytics_inbox (project_id, at, day, window_start, window_end, path_id, visitor, class, category, format, status)
     SELECT $1, now() - g * interval '1 second', 20000, 20000, 20030, 1, g * 7919, 1, CASE WHEN g % 3 = 0 THEN NULL ELSE 'assistant' END, 0, 200
     FROM generate_series(1, $2::int) AS g`,
    [project.id, inboxRows],
  );
  // Deleted rows leave the inbox's identity ahead of its largest id, as the rollup does.
  await db.query(`DELETE FROM analytics_inbox WHERE id > $1`, [inboxRows - 5]);
}

/** One digest of every row of every table, as PostgreSQL prints it. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const { tables } = await readCatalog(db);
  return db.transaction(async (tx: Queryable) => {
    await tx.query(`SET LOCAL TimeZone = 'UTC'`);
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      if (name === "schema_migrations") continue;
      const [row] = await tx.query<{ digest: string | null }>(`SELECT md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS digest FROM ${ident(name)} t`);
      digests[name] = row?.digest ?? "empty";
    }
    return digests;
  });
}

describe("copyStore", () => {
  it("copies every table row for row, in batches, and sets sequences past the copied ids", async () => {
    const [source, target] = [await store(), await store()];
    await seed(source, 1_234);
    const progress: CopyProgress[] = [];
    const result = await copyStore(source, target, { maxBatchRows: 100, onProgress: (p) => progress.push(p) });

    expect(await fingerprint(target)).toEqual(await fingerprint(source));
    const { tables } = await readCatalog(source);
    expect(result.tables.map((t) => t.table).sort()).toEqual(tables.map((t) => t.name).filter((n) => n !== "schema_migrations").sort());
    for (const t of result.tables) expect(t.target).toBe(t.source);
    expect(result.tables.find((t) => t.table === "analytics_inbox")).toEqual({ table: "analytics_inbox", source: 1_229, target: 1_229 });
    expect(result.replaced).toEqual([]);
    // 1,229 rows at most 100 a batch: at least 13 batches, each reported, then the table's end.
    const inbox = progress.filter((p) => p.table === "analytics_inbox");
    expect(inbox.length).toBeGreaterThanOrEqual(14);
    expect(inbox.at(-1)).toMatchObject({ copied: 1_229, total: 1_229, done: true });

    // The next ids on the target continue after the source's, deleted rows included.
    const next = async (db: Db) =>
      (await db.query<{ id: string }>(`INSERT INTO analytics_inbox (project_id, at, day, window_start, window_end, path_id, visitor, class, format, status) SELECT id, now(), 1, 1, 2, 1, 5, 1, 0, 200 FROM projects RETURNING id::text`))[0]?.id;
    expect(await next(target)).toBe(await next(source));
    expect(await next(target)).toBe("1236");
    const event = async (db: Db) => (await db.query<{ id: string }>(`INSERT INTO job_events (job_id, type, cause) SELECT id, 'test', 'test' FROM jobs LIMIT 1 RETURNING id::text`))[0]?.id;
    expect(await event(target)).toBe(await event(source));
  });

  it("refuses a target that holds data, naming what it holds and the flag; --force replaces it in one transaction", async () => {
    const [source, target] = [await store(), await store()];
    await seed(source, 50);
    await createProject(target, { repoName: "other/repo", repository: "https://github.com/other/repo", model: "m" });

    const refused = await copyStore(source, target).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreCommandError);
    expect((refused as Error).message).toMatch(/already holds data: projects 1\. .*pass --force/);
    expect((await countRows(target, [{ name: "projects" }]))[0]?.rows).toBe(1);

    const forced = await copyStore(source, target, { force: true });
    expect(forced.replaced).toEqual([{ table: "projects", rows: 1 }]);
    expect(await fingerprint(target)).toEqual(await fingerprint(source));
  });

  it("refuses stores whose schemas differ, before writing anything", async () => {
    const [source, target] = [await store(), await store()];
    await seed(source, 10);
    await target.query(`ALTER TABLE jobs ADD COLUMN extra text`);
    await expect(copyStore(source, target)).rejects.toThrow(/schemas differ in jobs/);
    await target.query(`ALTER TABLE jobs DROP COLUMN extra`);
    await target.query(`DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)`);
    await expect(copyStore(source, target)).rejects.toThrow(/same Inkwell version/);
    expect((await countRows(target, [{ name: "projects" }]))[0]?.rows).toBe(0);
  });
});
