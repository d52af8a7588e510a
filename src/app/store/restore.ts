import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { appliedMigrations } from "./catalog.js";
import { checkSchemaKnown, holdsStore, pgliteDirOf, stopServiceFirst, StoreCommandError, withDataDirLock } from "./offline-store.js";
import { migrate } from "./migrate.js";
import { openPgliteDb } from "./pglite-db.js";
import { readSnapshotFile, snapshotBlob, storeContents, type SnapshotContents } from "./snapshot.js";

export interface RestoreOptions {
  file: string;
  dataDir: string;
  /** Replace a store the data directory already holds (it is moved aside, never deleted). */
  force?: boolean;
}

export interface RestoreResult extends SnapshotContents {
  /** Where the store now is. */
  storeDir: string;
  /** Migrations the restored store was brought up to now (a snapshot of an older version). */
  migrated: number[];
  /** Where the store that was there before went (`force`), or null. */
  movedAside: string | null;
}

/**
 * Puts a snapshot in place as the data directory's store, offline: under the directory's lock
 * (so never under a running service), into a directory beside the store first, opened and
 * migrated there, and only then moved to where the service looks; a store already there is
 * refused, or with `force` moved aside.
 */
export async function restoreSnapshot(options: RestoreOptions): Promise<RestoreResult> {
  const bytes = readSnapshotFile(options.file);
  const blob = snapshotBlob(bytes, options.file);
  const storeDir = pgliteDirOf(options.dataDir);
  return withDataDirLock(options.dataDir, stopServiceFirst("a store cannot be replaced under the service that runs on it"), async () => {
    const occupied = existsSync(storeDir) && readdirSync(storeDir).length > 0;
    if (occupied && !options.force) {
      const what = holdsStore(storeDir) ? "a store" : "files";
      throw new StoreCommandError(`${storeDir} already holds ${what}. Restore into another --data-dir, or pass --force to move it aside (it is kept, not deleted) and restore in its place.`);
    }
    const staging = `${storeDir}.restoring-${randomBytes(4).toString("hex")}`;
    let restored: { contents: SnapshotContents; migrated: number[] };
    try {
      restored = await openAndMigrate(staging, blob, options.file);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    const movedAside = occupied ? `${storeDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}` : null;
    if (movedAside) renameSync(storeDir, movedAside);
    else rmSync(storeDir, { recursive: true, force: true });
    renameSync(staging, storeDir);
    return { ...restored.contents, storeDir, migrated: restored.migrated, movedAside };
  });
}

/** Unpacks the snapshot into `dir` by opening it there, brings it to this version, and reads what it holds. */
async function openAndMigrate(dir: string, blob: Blob, source: string): Promise<{ contents: SnapshotContents; migrated: number[] }> {
  let db;
  try {
    db = await openPgliteDb(dir, { loadDataDir: blob });
  } catch (error) {
    throw new StoreCommandError(`${source} does not open as a store (${(error as Error).message}): it is damaged or not an Inkwell snapshot. Nothing was replaced.`);
  }
  try {
    checkSchemaKnown(await appliedMigrations(db), source);
    const migrated = await migrate(db);
    return { contents: await storeContents(db), migrated };
  } finally {
    await db.close();
  }
}
