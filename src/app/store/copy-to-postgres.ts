import type { Db } from "./db.js";
import { migrate } from "./migrate.js";
import { holdsStore, openLockedPglite, pgliteDirOf, stopServiceFirst, StoreCommandError, withDataDirLock } from "./offline-store.js";
import { openPostgresDb } from "./postgres-db.js";
import { copyStore, type CopyOptions, type CopyResult } from "./store-copy.js";

/** A postgres:// or postgresql:// URL, or a message saying what is wrong with it. */
export function parsePostgresUrl(value: string | undefined): URL {
  if (!value) throw new StoreCommandError("Missing --to: the PostgreSQL database to copy into, e.g. --to postgres://inkwell:secret@db.example.com:5432/inkwell");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StoreCommandError(`--to is not a URL: give a PostgreSQL connection URL, e.g. postgres://user:password@host:5432/database`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new StoreCommandError(`--to must be a postgres:// or postgresql:// URL, not ${url.protocol}//…`);
  }
  if (!url.hostname && !url.searchParams.get("host")) throw new StoreCommandError("--to names no host: give postgres://user:password@host:5432/database");
  return url;
}

/** The URL as it may be printed: without its password. */
export function redactUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password) shown.password = "***";
  return shown.href;
}

export interface CopyToPostgresResult extends CopyResult {
  /** Migrations the source was brought up to before copying (a store of an older version). */
  sourceMigrated: number[];
  /** Migrations applied to the target to bring it to the source's schema. */
  targetMigrated: number[];
}

/**
 * `inkwell store copy`: the data directory's PGlite store into PostgreSQL. Holds the directory's
 * lock throughout (a store still being written would be copied without its newest rows), brings
 * both to this version's schema with the migrations, then copies (`copyStore`).
 */
export async function copyDataDirToPostgres(options: { dataDir: string; to: URL } & CopyOptions): Promise<CopyToPostgresResult> {
  const { dataDir, to, ...copyOptions } = options;
  // Before the lock, which would create a directory that is not there.
  if (!holdsStore(pgliteDirOf(dataDir))) throw new StoreCommandError(`There is no store in ${pgliteDirOf(dataDir)}. Pass --data-dir (or set DATA_DIR) to the directory the service runs with.`);
  return withDataDirLock(dataDir, stopServiceFirst("a copy of a store that is still being written would miss its newest rows"), async () => {
    const { db: source, migrated: sourceMigrated } = await openLockedPglite(dataDir, { migrate: true });
    let target: Db | undefined;
    try {
      target = await connect(to);
      const targetMigrated = await migrate(target);
      return { ...(await copyStore(source, target, copyOptions)), sourceMigrated, targetMigrated };
    } finally {
      await target?.close();
      await source.close();
    }
  });
}

async function connect(url: URL): Promise<Db> {
  try {
    return await openPostgresDb({ connectionString: url.href, maxConnections: 2 });
  } catch (error) {
    throw new StoreCommandError(
      `Cannot connect to PostgreSQL at ${redactUrl(url)}: ${(error as Error).message}. Check the URL, that the server is running and that the database exists (createdb).`,
    );
  }
}
