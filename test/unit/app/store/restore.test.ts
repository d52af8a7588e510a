import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { templatePglite } from "../../../helpers/pglite-template.js";
import { countRows } from "../../../../src/app/store/catalog.js";
import { LOCK_FILE } from "../../../../src/app/store/data-dir-lock.js";
import { openPgliteDb } from "../../../../src/app/store/pglite-db.js";
import { restoreSnapshot } from "../../../../src/app/store/restore.js";

const tempDir = (name: string) => mkdtempSync(path.join(tmpdir(), `inkwell-${name}-`));

/** A snapshot file of a migrated store holding `ranges` rows of one table; made once per count (a store's open and dump take seconds), restores never change it. */
const snapshots = new Map<number, Promise<string>>();
function snapshotFile(ranges: number): Promise<string> {
  let file = snapshots.get(ranges);
  if (!file) snapshots.set(ranges, (file = writeSnapshot(ranges)));
  return file;
}

async function writeSnapshot(ranges: number): Promise<string> {
  const db = await templatePglite("migrated");
  await db.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) SELECT 'r' || g, 'u', '{}', now() FROM generate_series(1, $1::int) g`, [ranges]);
  const file = path.join(tempDir("snap"), "backup.tar.gz");
  writeFileSync(file, await db.snapshot());
  await db.close();
  return file;
}

async function rangesIn(dataDir: string): Promise<number> {
  const db = await openPgliteDb(path.join(dataDir, "pglite"));
  try {
    return (await countRows(db, [{ name: "analytics_agent_ranges" }]))[0]?.rows ?? -1;
  } finally {
    await db.close();
  }
}

describe("restoreSnapshot", () => {
  it("restores into an empty data directory, opened and migrated, and releases the lock", async () => {
    const dataDir = tempDir("restore");
    const result = await restoreSnapshot({ file: await snapshotFile(2), dataDir });
    expect(result.movedAside).toBeNull();
    expect(result.storeDir).toBe(path.join(dataDir, "pglite"));
    expect(result.tables).toContainEqual({ table: "analytics_agent_ranges", rows: 2 });
    expect(readdirSync(dataDir).sort()).toEqual(["pglite"]);
    expect(await rangesIn(dataDir)).toBe(2);
  });

  it("refuses a data directory that holds a store unless forced; forced, keeps the old one aside", async () => {
    const dataDir = tempDir("restore");
    await restoreSnapshot({ file: await snapshotFile(1), dataDir });
    const second = await snapshotFile(2);
    await expect(restoreSnapshot({ file: second, dataDir })).rejects.toThrow(/pglite already holds a store\. .*pass --force to move it aside/);
    expect(await rangesIn(dataDir)).toBe(1);

    const forced = await restoreSnapshot({ file: second, dataDir, force: true });
    expect(forced.movedAside).toMatch(/pglite\.before-restore-\d{4}-\d\d-\d\dT/);
    expect(existsSync(path.join(forced.movedAside as string, "PG_VERSION"))).toBe(true);
    expect(await rangesIn(dataDir)).toBe(2);
  });

  it("refuses while a service holds the data directory, saying to stop it", async () => {
    const dataDir = tempDir("restore");
    mkdirSync(dataDir, { recursive: true });
    // The test runner's parent stands in for a live service on this host.
    writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), port: 3000, startedAt: new Date().toISOString() }));
    await expect(restoreSnapshot({ file: await snapshotFile(1), dataDir })).rejects.toThrow(
      new RegExp(`in use by the Inkwell service \\(process ${process.ppid} .*listening on port 3000\\)\\. Stop the service first`),
    );
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("replaces nothing with a snapshot that does not open, and leaves no staging directory", async () => {
    const dataDir = tempDir("restore");
    await restoreSnapshot({ file: await snapshotFile(1), dataDir });
    const broken = path.join(tempDir("snap"), "broken.tar.gz");
    const { gzipSync } = await import("node:zlib");
    writeFileSync(broken, gzipSync("definitely not a data directory"));
    await expect(restoreSnapshot({ file: broken, dataDir, force: true })).rejects.toThrow(/does not open as a store.*Nothing was replaced/);
    expect(readdirSync(dataDir).sort()).toEqual(["pglite"]);
    expect(await rangesIn(dataDir)).toBe(1);
    await expect(restoreSnapshot({ file: path.join(dataDir, "missing.tar.gz"), dataDir })).rejects.toThrow(/Cannot read .*missing\.tar\.gz: ENOENT/);
  });
});
