import type { Db } from "./db.js";
import { migrations as allMigrations, type Migration } from "./migrations.js";

const MIGRATION_LOCK_KEY = 7_310_512_001;

/** Applies pending migrations, each in its own transaction, serialized across instances by an advisory lock. */
export async function migrate(db: Db, migrations: Migration[] = allMigrations): Promise<number[]> {
  // Under the lock too: concurrent CREATE TABLE IF NOT EXISTS races on PostgreSQL's catalog.
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      const done = await tx.query("SELECT 1 FROM schema_migrations WHERE version = $1", [migration.version]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
      return true;
    });
    if (didApply) applied.push(migration.version);
  }
  return applied;
}
