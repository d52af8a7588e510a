import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Db } from "../../src/app/store/db.js";
import { openStore } from "../../src/app/store/open-store.js";
import { openPostgresDb } from "../../src/app/store/postgres-db.js";
import { templatePglite } from "./pglite-template.js";

export type TestStoreKind = "pglite" | "postgres";

export const storeKind = (): TestStoreKind => (process.env.INKWELL_TEST_STORE === "postgres" ? "postgres" : "pglite");

export interface TestStore {
  db: Db;
  /** For child processes: how to open the same store (DATABASE_URL with search_path, or a DATA_DIR). */
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

/** An empty, migrated store of the kind under test: an in-memory PGlite or a fresh PostgreSQL schema. */
export async function openTestStore(options: { migrated?: boolean } = {}): Promise<TestStore> {
  const migrated = options.migrated ?? true;
  if (storeKind() === "pglite") {
    const db = await templatePglite(migrated ? "migrated" : "empty");
    return { db, databaseUrl: undefined, drop: () => db.close().catch(() => undefined) };
  }
  const base = process.env.TEST_DATABASE_URL as string;
  const schema = `inkwell_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const databaseUrl = withSearchPath(base, schema);
  const db = migrated ? await openStore({ databaseUrl }) : await openPostgresDb({ connectionString: databaseUrl });
  return {
    db,
    databaseUrl,
    async drop() {
      await db.close().catch(() => undefined);
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}
