import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appliedMigrations, foreignKeyOrder, readCatalog, type Catalog } from "../../../../src/app/store/catalog.js";
import type { Db } from "../../../../src/app/store/db.js";
import { migrations } from "../../../../src/app/store/migrations.js";
import { templatePglite } from "../../../helpers/pglite-template.js";

describe("foreignKeyOrder", () => {
  it("puts every table after the tables it references, ties by name", () => {
    const order = foreignKeyOrder(["c", "b", "a", "d"], [
      { child: "c", parent: "b" },
      { child: "b", parent: "a" },
      { child: "d", parent: "a" },
    ]);
    expect(order).toEqual(["a", "b", "d", "c"]);
  });

  it("needs no order for a table that references itself, and ignores references out of the schema", () => {
    expect(foreignKeyOrder(["tree", "leaf"], [{ child: "tree", parent: "tree" }, { child: "leaf", parent: "tree" }, { child: "leaf", parent: "elsewhere" }])).toEqual(["tree", "leaf"]);
  });

  it("refuses a cycle between tables, naming them", () => {
    expect(() => foreignKeyOrder(["a", "b", "c"], [{ child: "a", parent: "b" }, { child: "b", parent: "a" }])).toThrow(/a, b form a cycle/);
  });
});

describe("readCatalog on the migrated schema", () => {
  let db: Db;
  let catalog: Catalog;
  beforeAll(async () => {
    db = await templatePglite("migrated");
    catalog = await readCatalog(db);
  });
  afterAll(() => db.close());

  it("lists every table once, each after the tables its foreign keys reference", async () => {
    const names = catalog.tables.map((t) => t.name);
    const all = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
    expect([...names].sort()).toEqual(all.map((t) => t.name).sort());
    const references = await db.query<{ child: string; parent: string }>(
      `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint WHERE contype = 'f'`,
    );
    expect(references.length).toBeGreaterThan(5);
    for (const { child, parent } of references) expect(names.indexOf(parent), `${parent} before ${child}`).toBeLessThan(names.indexOf(child));
  });

  it("knows the generated column, the types to cast back to, and each identity's sequence and column", () => {
    const inbox = catalog.tables.find((t) => t.name === "analytics_inbox");
    expect(inbox?.columns.find((c) => c.name === "part")).toEqual({ name: "part", type: "smallint", generated: true });
    expect(inbox?.columns.find((c) => c.name === "at")).toEqual({ name: "at", type: "timestamp with time zone", generated: false });
    expect(catalog.tables.find((t) => t.name === "projects")?.columns.find((c) => c.name === "allowed_models")?.type).toBe("text[]");
    expect(catalog.sequences).toContainEqual({ name: "job_events_id_seq", owner: { table: "job_events", column: "id" } });
    expect(catalog.sequences).toContainEqual({ name: "analytics_inbox_id_seq", owner: { table: "analytics_inbox", column: "id" } });
    expect(catalog.sequences.every((s) => s.owner !== null)).toBe(true);
  });

  it("reads the applied migrations, and none from a store never migrated", async () => {
    expect(await appliedMigrations(db)).toEqual(migrations.map((m) => m.version).sort((a, b) => a - b));
    const bare = await templatePglite("empty");
    expect(await appliedMigrations(bare)).toEqual([]);
    await bare.close();
  });
});
