import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appliedMigrations } from "../../../src/app/store/catalog.js";
import type { Db } from "../../../src/app/store/db.js";
import { migrations } from "../../../src/app/store/migrations.js";
import { openStore } from "../../../src/app/store/open-store.js";
import { seedPgliteDataDir, templatePglite } from "../../helpers/pglite-template.js";

const opened: Db[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});
const keep = <T extends Db>(db: T) => (opened.push(db), db);
const latest = migrations.map((m) => m.version).sort((a, b) => a - b);

describe("PGlite templates", () => {
  it("the migrated one holds every migration and no rows; the empty one holds no schema", async () => {
    const migrated = keep(await templatePglite("migrated"));
    expect(await appliedMigrations(migrated)).toEqual(latest);
    expect(await migrated.query(`SELECT count(*)::int AS n FROM projects`)).toEqual([{ n: 0 }]);
    const empty = keep(await templatePglite("empty"));
    expect(await appliedMigrations(empty)).toEqual([]);
    expect(await empty.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`)).toEqual([{ n: 0 }]);
  });

  it("each store is its own: a row written in one is in no other", async () => {
    const [a, b] = [keep(await templatePglite("migrated")), keep(await templatePglite("migrated"))];
    await a.query(`INSERT INTO projects (id, repository, repo_full_name, model) VALUES ('p1', 'https://github.com/acme/docs', 'acme/docs', 'm')`);
    expect(await a.query(`SELECT id FROM projects`)).toEqual([{ id: "p1" }]);
    expect(await b.query(`SELECT id FROM projects`)).toEqual([]);
  });

  it("a seeded data directory opens as a store that ran before: migrated, nothing left to apply", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-seeded-"));
    await seedPgliteDataDir(dataDir);
    const db = keep(await openStore({ dataDir }));
    expect(await appliedMigrations(db)).toEqual(latest);
  });
});
