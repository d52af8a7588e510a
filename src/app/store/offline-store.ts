import { existsSync } from "node:fs";
import path from "node:path";
import { appliedMigrations } from "./catalog.js";
import { DataDirInUseError, DataDirLock, type LockHolder } from "./data-dir-lock.js";
import { migrate } from "./migrate.js";
import { migrations } from "./migrations.js";
import { openPgliteDb, type PgliteDb } from "./pglite-db.js";

/**
 * A store command that cannot go on, with a message for the operator that says what to do next.
 * The CLI prints the message as it is.
 */
export class StoreCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreCommandError";
  }
}

/** Where PGlite keeps its files in a data directory (as `openStore` opens it). */
export const pgliteDirOf = (dataDir: string) => path.join(dataDir, "pglite");

/** Whether a PGlite directory holds a database (PostgreSQL's own marker file). */
export const holdsStore = (pgliteDir: string) => existsSync(path.join(pgliteDir, "PG_VERSION"));

/** The newest schema version this Inkwell knows. */
export const LATEST_SCHEMA_VERSION = Math.max(...migrations.map((m) => m.version));

/** The message for a data directory a running service holds: stop it first, and why. */
export const stopServiceFirst =
  (why: string) =>
  ({ pid, host, port }: LockHolder, dataDir: string) =>
    `${dataDir} is in use by the Inkwell service (process ${pid} on ${host}, ${port === null ? "starting" : `listening on port ${port}`}). ` +
    `Stop the service first, then run this again: ${why}.`;

/**
 * Runs `fn` holding the data directory's lock, as the service does while it runs, so that no
 * service writes the store meanwhile; while one does, `inUse` says what to do instead.
 */
export async function withDataDirLock<T>(dataDir: string, inUse: (holder: LockHolder, dataDir: string) => string, fn: () => Promise<T>): Promise<T> {
  let lock: DataDirLock;
  try {
    ({ lock } = DataDirLock.acquire(dataDir));
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new StoreCommandError(inUse(error.holder, dataDir));
    throw error;
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** Refuses what is not an Inkwell store, and a store written by a newer Inkwell: its tables may hold what this version cannot read. */
export function checkSchemaKnown(applied: number[], what: string): void {
  if (applied.length === 0) throw new StoreCommandError(`${what} is not an Inkwell store (it has no schema_migrations): check the path.`);
  const unknown = applied.filter((version) => !migrations.some((m) => m.version === version));
  if (unknown.length > 0) {
    throw new StoreCommandError(`${what} has schema version ${Math.max(...unknown)}, newer than this Inkwell knows (${LATEST_SCHEMA_VERSION}): upgrade Inkwell and run this again.`);
  }
}

/**
 * Opens the PGlite store of a data directory the caller holds the lock of; with `migrate`, brought
 * to this version as the service would at start (`migrated` lists the migrations applied now).
 */
export async function openLockedPglite(dataDir: string, options: { migrate: boolean }): Promise<{ db: PgliteDb; migrated: number[] }> {
  const dir = pgliteDirOf(dataDir);
  if (!holdsStore(dir)) throw new StoreCommandError(`There is no store in ${dir}. Pass --data-dir (or set DATA_DIR) to the directory the service runs with.`);
  const db = await openPgliteDb(dir);
  try {
    checkSchemaKnown(await appliedMigrations(db), `The store in ${dir}`);
    return { db, migrated: options.migrate ? await migrate(db) : [] };
  } catch (error) {
    await db.close();
    throw error;
  }
}
