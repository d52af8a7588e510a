import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { appliedMigrations, countRows, readCatalog } from "./catalog.js";
import type { LockHolder } from "./data-dir-lock.js";
import type { Db } from "./db.js";
import { checkSchemaKnown, openLockedPglite, StoreCommandError, withDataDirLock } from "./offline-store.js";
import { openPgliteDb } from "./pglite-db.js";

/** A snapshot is PGlite's data directory as a gzip tarball (`Db.snapshot`). */
export const SNAPSHOT_MEDIA_TYPE = "application/gzip";
/** Where the running service hands one out (operator token). */
export const SNAPSHOT_PATH = "/admin/store/snapshot";

/** What a snapshot holds, read by opening it. */
export interface SnapshotContents {
  schemaVersion: number;
  tables: { table: string; rows: number }[];
}

/** The snapshot as PGlite loads it, after a check that it is a gzip file at all. */
export function snapshotBlob(bytes: Uint8Array, source: string): Blob {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    throw new StoreCommandError(`${source} is not an Inkwell snapshot (not a gzip file). Make one with: inkwell store backup <file>`);
  }
  return new Blob([bytes], { type: SNAPSHOT_MEDIA_TYPE });
}

export function readSnapshotFile(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new StoreCommandError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

/** The schema version and the rows of every table of an open store. */
export async function storeContents(db: Db): Promise<SnapshotContents> {
  const versions = await appliedMigrations(db);
  const { tables } = await readCatalog(db);
  return { schemaVersion: versions.at(-1) ?? 0, tables: await countRows(db, tables) };
}

/** Opens a snapshot in memory and reads what it holds: a snapshot that does not open is refused here. */
export async function describeSnapshot(bytes: Uint8Array, source: string): Promise<SnapshotContents> {
  let db: Db;
  try {
    db = await openPgliteDb(undefined, { loadDataDir: snapshotBlob(bytes, source) });
  } catch (error) {
    if (error instanceof StoreCommandError) throw error;
    throw new StoreCommandError(`${source} does not open as a store (${(error as Error).message}): it is damaged or not an Inkwell snapshot.`);
  }
  try {
    checkSchemaKnown(await appliedMigrations(db), source);
    return await storeContents(db);
  } finally {
    await db.close();
  }
}

/**
 * A snapshot of a data directory no service runs on, taken under its lock (what the service's
 * endpoint does otherwise). `serviceUrl`: where no service answered, for the message when one holds the directory after all.
 */
export async function snapshotDataDir(dataDir: string, serviceUrl: string): Promise<Uint8Array> {
  const inUse = ({ pid, port }: LockHolder) =>
    `No Inkwell service answered at ${serviceUrl}, but ${dataDir} is in use by Inkwell process ${pid}${port === null ? " (still starting)" : ` listening on port ${port}`}. ` +
    `The backup must come from that service: ${port === null ? "wait until it listens and run this again" : `run this again with --url http://localhost:${port}`}.`;
  return withDataDirLock(dataDir, inUse, async () => {
    // As it is: a backup taken before an upgrade must not be migrated by it.
    const { db } = await openLockedPglite(dataDir, { migrate: false });
    try {
      return await db.snapshot();
    } finally {
      await db.close();
    }
  });
}

/**
 * Writes `bytes` to `file` so that it is either the whole new content or not there: a temporary
 * file beside it, flushed to disk, then renamed over it.
 */
export function writeFileAtomic(file: string, bytes: Uint8Array): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new StoreCommandError(`Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check that its directory exists and is writable.`);
  }
}
