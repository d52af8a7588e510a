import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { templatePglite } from "../../../helpers/pglite-template.js";
import { countRows } from "../../../../src/app/store/catalog.js";
import { migrate } from "../../../../src/app/store/migrate.js";
import { LATEST_SCHEMA_VERSION, StoreCommandError } from "../../../../src/app/store/offline-store.js";
import { openPgliteDb, type PgliteDb } from "../../../../src/app/store/pglite-db.js";
import { describeSnapshot, snapshotBlob, writeFileAtomic } from "../../../../src/app/store/snapshot.js";

const opened: PgliteDb[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

async function memoryStore(): Promise<PgliteDb> {
  const db = await templatePglite("migrated");
  opened.push(db);
  return db;
}

async function restored(snapshot: Uint8Array): Promise<PgliteDb> {
  const db = await openPgliteDb(undefined, { loadDataDir: snapshotBlob(snapshot, "test") });
  opened.push(db);
  return db;
}

describe("PGlite snapshots", () => {
  it("wait for an open transaction to end, and hold all of it", async () => {
    const db = await memoryStore();
    // How long a dump takes here: the wait below is several of them.
    const started = performance.now();
    await db.snapshot();
    const dumpMs = performance.now() - started;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writing = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ('first', 'u', '{}', now())`);
      await gate;
      await tx.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ('second', 'u', '{}', now())`);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    let taken = false;
    const snapshot = db.snapshot().then((bytes) => ((taken = true), bytes));
    await new Promise((resolve) => setTimeout(resolve, Math.max(500, 3 * dumpMs)));
    // Between the transaction's two statements the dump must not run (PGlite's dumpDataDir alone would).
    expect(taken).toBe(false);
    release();
    await writing;
    const copy = await restored(await snapshot);
    expect((await copy.query<{ id: string }>(`SELECT id FROM analytics_agent_ranges ORDER BY id`)).map((r) => r.id)).toEqual(["first", "second"]);
  });

  it("hold every committed row and keep working as a store", async () => {
    const db = await memoryStore();
    await db.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) SELECT 'r' || g, 'u', '{}', now() FROM generate_series(1, 500) g`);
    const bytes = await db.snapshot();
    await db.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ('after', 'u', '{}', now())`);
    const copy = await restored(bytes);
    expect(await countRows(copy, [{ name: "analytics_agent_ranges" }])).toEqual([{ table: "analytics_agent_ranges", rows: 500 }]);
    expect(await migrate(copy)).toEqual([]);
    await copy.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ('after', 'u', '{}', now())`);
  });

  it("describe what they hold: schema version and rows per table", async () => {
    const db = await memoryStore();
    await db.query(`INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ('a', 'u', '{}', now()), ('b', 'u', '{}', now())`);
    const contents = await describeSnapshot(await db.snapshot(), "the test's snapshot");
    expect(contents.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(contents.tables).toContainEqual({ table: "analytics_agent_ranges", rows: 2 });
    expect(contents.tables).toContainEqual({ table: "jobs", rows: 0 });
  });

  it("refuse what is not one: not gzip, gzip of something else, a PGlite store that is not Inkwell's", async () => {
    await expect(describeSnapshot(new TextEncoder().encode("hello"), "notes.txt")).rejects.toThrow(/notes.txt is not an Inkwell snapshot \(not a gzip file\)/);
    const { gzipSync } = await import("node:zlib");
    await expect(describeSnapshot(gzipSync("not a tar"), "junk.gz")).rejects.toThrow(StoreCommandError);
    const bare = await templatePglite("empty");
    opened.push(bare);
    await expect(describeSnapshot(await bare.snapshot(), "bare.tar.gz")).rejects.toThrow(/bare.tar.gz is not an Inkwell store/);
  });
});

describe("writeFileAtomic", () => {
  it("replaces the file whole and leaves no temporary file behind", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inkwell-atomic-"));
    const file = path.join(dir, "backup.tar.gz");
    writeFileSync(file, "old");
    writeFileAtomic(file, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(["backup.tar.gz"]);
  });

  it("says what to check when the directory is not there", () => {
    const file = path.join(tmpdir(), "no-such-dir-inkwell", "backup.tar.gz");
    expect(() => writeFileAtomic(file, new Uint8Array([1]))).toThrow(/Cannot write .*ENOENT.*Check that its directory exists/);
    expect(existsSync(path.dirname(file))).toBe(false);
  });
});
