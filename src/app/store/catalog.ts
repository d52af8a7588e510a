import type { Queryable } from "./db.js";

/** A column as the copy reads and writes it: its type, and whether it may be written at all. */
export interface CatalogColumn {
  name: string;
  /** As `format_type` spells it (`bigint`, `text[]`, `timestamp with time zone`, …): values travel as text and are cast back. */
  type: string;
  /** `GENERATED ALWAYS AS (…) STORED`: computed by the target, never copied. */
  generated: boolean;
}

export interface CatalogTable {
  name: string;
  columns: CatalogColumn[];
}

/** A sequence of the schema and, for an identity or serial column, the column it numbers. */
export interface CatalogSequence {
  name: string;
  owner: { table: string; column: string } | null;
}

/** The tables of the store's schema in an order that satisfies every foreign key (parents first), and its sequences. */
export interface Catalog {
  tables: CatalogTable[];
  sequences: CatalogSequence[];
}

/** schema_migrations is written by migrate() on each side; it is compared, never copied. */
export const MIGRATIONS_TABLE = "schema_migrations";

/** A name quoted for SQL, whatever it holds. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

// The schema the connection works in (search_path): `public` on PGlite, the test's own on PostgreSQL.
const IN_SCHEMA = "relnamespace = current_schema()::regnamespace";

/** Reads the tables, columns, foreign keys and sequences of the current schema from the catalog, so a new table is covered without a list to keep. */
export async function readCatalog(db: Queryable): Promise<Catalog> {
  const tables = await db.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE ${IN_SCHEMA} AND relkind IN ('r', 'p') AND NOT relispartition ORDER BY relname`);
  const columns = await db.query<{ table: string; name: string; type: string; generated: boolean }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attgenerated <> '' AS generated
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.${IN_SCHEMA} AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  const references = await db.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent
     FROM pg_constraint con JOIN pg_class ch ON ch.oid = con.conrelid JOIN pg_class pa ON pa.oid = con.confrelid
     WHERE con.contype = 'f' AND ch.${IN_SCHEMA}`,
  );
  const sequences = await db.query<{ name: string; table: string | null; column: string | null }>(
    `SELECT s.relname AS name, t.relname AS table, a.attname AS column
     FROM pg_class s
     LEFT JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
     LEFT JOIN pg_class t ON t.oid = d.refobjid
     LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
     WHERE s.${IN_SCHEMA} AND s.relkind = 'S'
     ORDER BY s.relname`,
  );
  const columnsOf = new Map<string, CatalogColumn[]>();
  for (const { table, ...column } of columns) columnsOf.set(table, [...(columnsOf.get(table) ?? []), column]);
  const ordered = foreignKeyOrder(
    tables.map((t) => t.name),
    references,
  );
  return {
    tables: ordered.map((name) => ({ name, columns: columnsOf.get(name) ?? [] })),
    sequences: sequences.map(({ name, table, column }) => ({ name, owner: table && column ? { table, column } : null })),
  };
}

/**
 * Tables ordered so that each comes after every table it references (a topological sort of the
 * foreign keys; ties by name, so the order is stable). A table referencing itself needs no order
 * among tables; a cycle between tables cannot be copied table by table and is refused.
 */
export function foreignKeyOrder(tables: string[], references: { child: string; parent: string }[]): string[] {
  const parentsOf = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of references) if (child !== parent && parentsOf.has(parent)) parentsOf.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = [...parentsOf.keys()].filter((t) => !placed.has(t) && [...(parentsOf.get(t) ?? [])].every((p) => placed.has(p))).sort();
    if (ready.length === 0) {
      const stuck = [...parentsOf.keys()].filter((t) => !placed.has(t)).sort();
      throw new Error(`The foreign keys between ${stuck.join(", ")} form a cycle: these tables cannot be copied one after another`);
    }
    for (const t of ready) {
      placed.add(t);
      ordered.push(t);
    }
  }
  return ordered;
}

/** Rows per table, in the catalog's order. */
export async function countRows(db: Queryable, tables: readonly { name: string }[]): Promise<{ table: string; rows: number }[]> {
  const counts: { table: string; rows: number }[] = [];
  for (const { name } of tables) {
    const [row] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${ident(name)}`);
    counts.push({ table: name, rows: Number(row?.n ?? 0) });
  }
  return counts;
}

/** The migrations a store has applied, oldest first (none before the first start). */
export async function appliedMigrations(db: Queryable): Promise<number[]> {
  const [exists] = await db.query<{ found: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS found`, [MIGRATIONS_TABLE]);
  if (!exists?.found) return [];
  const rows = await db.query<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE} ORDER BY version`);
  return rows.map((r) => r.version);
}
