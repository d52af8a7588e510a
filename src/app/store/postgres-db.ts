import pg from "pg";
import type { Db, Queryable } from "./db.js";

export interface PostgresOptions {
  connectionString: string;
  /** Tests isolate themselves in a schema of their own. */
  schema?: string;
  maxConnections?: number;
}

export async function openPostgresDb(options: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  await pool.query("SELECT 1");
  const asQueryable = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await q.query(sql, params);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await q.query(sql);
    },
  });
  return {
    kind: "postgres",
    ...asQueryable(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(asQueryable(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
