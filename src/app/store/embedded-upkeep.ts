import type { Db } from "./db.js";

/**
 * Autovacuum's work, for PGlite: it runs in one process with no background workers, so without
 * this its planner never gets statistics, index-only scans never skip the table, and the space of
 * rows the retention pass deletes is never reused. Each table of the store's schema is vacuumed
 * and analyzed by its own statement, so requests waiting on the single connection run between
 * them. After the first pass each one reads only what changed since. PostgreSQL does this itself
 * (autovacuum), so this is for the embedded store only.
 */
export async function vacuumEmbeddedStore(db: Db): Promise<{ tables: number; ms: number }> {
  if (db.kind !== "pglite") throw new Error("vacuumEmbeddedStore is for PGlite: PostgreSQL's autovacuum does this work");
  const started = performance.now();
  const tables = await db.query<{ name: string }>(`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`);
  for (const table of tables) await db.exec(`VACUUM (ANALYZE) ${table.name}`);
  return { tables: tables.length, ms: Math.round(performance.now() - started) };
}
