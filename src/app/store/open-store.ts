import path from "node:path";
import type { Db } from "./db.js";
import { migrate } from "./migrate.js";
import { openPgliteDb } from "./pglite-db.js";
import { openPostgresDb } from "./postgres-db.js";

export interface StoreLocation {
  databaseUrl?: string | undefined;
  /** PGlite directory; undefined with no databaseUrl means in-memory. */
  dataDir?: string | undefined;
  schema?: string | undefined;
}

/** Opens PostgreSQL when a URL is given, PGlite otherwise, and brings the schema up to date. */
export async function openStore(location: StoreLocation): Promise<Db> {
  const db = location.databaseUrl
    ? await openPostgresDb({ connectionString: location.databaseUrl, schema: location.schema })
    : await openPgliteDb(location.dataDir ? path.join(location.dataDir, "pglite") : undefined);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
