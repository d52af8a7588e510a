import { appliedMigrations, countRows, ident, MIGRATIONS_TABLE, readCatalog, type Catalog, type CatalogSequence, type CatalogTable } from "./catalog.js";
import type { Db, Queryable } from "./db.js";
import { StoreCommandError } from "./offline-store.js";

/** After each batch of a table, and once more when the table is done. */
export interface CopyProgress {
  table: string;
  copied: number;
  /** The table's rows in the source. */
  total: number;
  done: boolean;
  ms: number;
}

export interface CopyOptions {
  /** Replace what the target holds (it is emptied in the copy's transaction). */
  force?: boolean;
  /** The most rows read and written at once; fewer when rows are large. */
  maxBatchRows?: number;
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopiedTable {
  table: string;
  source: number;
  target: number;
}

export interface CopyResult {
  schemaVersion: number;
  tables: CopiedTable[];
  /** What the target held before (`force`), per table with rows. */
  replaced: { table: string; rows: number }[];
  sequences: number;
  ms: number;
}

const DEFAULT_MAX_BATCH_ROWS = 5_000;
/** About this many characters of values per batch: a batch of large rows (transcripts, documents) stays small. */
const BATCH_CHARS = 8_000_000;
const FIRST_BATCH_ROWS = 200;
const CURSOR = "inkwell_store_copy";

/**
 * Copies every table of `source` into `target`, both migrated to the same schema: tables in
 * foreign-key order from the catalog, each read through a cursor in batches, the whole copy one
 * transaction on the target (a failure leaves it as it was), then sequences set past the copied
 * ids, and every table's count checked against the source before committing.
 */
export async function copyStore(source: Db, target: Db, options: CopyOptions = {}): Promise<CopyResult> {
  const started = performance.now();
  const schemaVersion = await sameMigrations(source, target);
  const catalog = await readCatalog(source);
  sameSchema(catalog, await readCatalog(target));
  const tables = catalog.tables.filter((t) => t.name !== MIGRATIONS_TABLE);
  const replaced = (await countRows(target, tables)).filter((c) => c.rows > 0);
  if (replaced.length > 0 && !options.force) {
    throw new StoreCommandError(
      `The target database already holds data: ${describeCounts(replaced)}. Copy into an empty database (or schema), or pass --force to replace what it holds.`,
    );
  }
  const copied = await source.transaction((src) =>
    target.transaction(async (dst) => {
      if (replaced.length > 0) await dst.query(`TRUNCATE ${tables.map((t) => ident(t.name)).join(", ")}`);
      const counts: CopiedTable[] = [];
      for (const table of tables) counts.push(await copyTable(src, dst, table, options));
      await copySequences(src, dst, catalog.sequences);
      // Counted again on the target, inside the transaction that commits them.
      const after = await countRows(dst, tables);
      return counts.map((count, i) => {
        const target = after[i]?.rows ?? -1;
        if (target !== count.source) throw new StoreCommandError(`Table ${count.table}: ${count.source} rows in the source, ${target} in the target after copying. Nothing was committed.`);
        return { ...count, target };
      });
    }),
  );
  return { schemaVersion, tables: copied, replaced, sequences: catalog.sequences.length, ms: Math.round(performance.now() - started) };
}

export const describeCounts = (counts: { table: string; rows: number }[]) => counts.map((c) => `${c.table} ${c.rows.toLocaleString("en")}`).join(", ");

async function sameMigrations(source: Queryable, target: Queryable): Promise<number> {
  const [from, to] = [await appliedMigrations(source), await appliedMigrations(target)];
  if (from.join() !== to.join()) {
    throw new StoreCommandError(`The source has migrations ${from.join(",") || "none"} and the target ${to.join(",") || "none"}: both must be migrated by the same Inkwell version first.`);
  }
  return from.at(-1) ?? 0;
}

function sameSchema(source: Catalog, target: Catalog): void {
  const shape = (catalog: Catalog) =>
    new Map(catalog.tables.map((t) => [t.name, t.columns.map((c) => `${c.name} ${c.type}${c.generated ? " generated" : ""}`).sort().join(", ")]));
  const [from, to] = [shape(source), shape(target)];
  const differing = [...new Set([...from.keys(), ...to.keys()])].filter((name) => from.get(name) !== to.get(name)).sort();
  if (differing.length > 0) {
    throw new StoreCommandError(`The source and target schemas differ in ${differing.join(", ")}: the target must hold only what Inkwell's migrations create (use an empty database or schema).`);
  }
}

/** One table through a cursor: batches sized to the rows seen so far, values as text, cast back to each column's type. */
async function copyTable(src: Queryable, dst: Queryable, table: CatalogTable, options: CopyOptions): Promise<CopiedTable> {
  const started = performance.now();
  const columns = table.columns.filter((c) => !c.generated);
  const [counted] = await src.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${ident(table.name)}`);
  const total = Number(counted?.n ?? 0);
  const progress = (copied: number, done: boolean) => options.onProgress?.({ table: table.name, copied, total, done, ms: Math.round(performance.now() - started) });
  const maxRows = options.maxBatchRows ?? DEFAULT_MAX_BATCH_ROWS;
  const insert =
    `INSERT INTO ${ident(table.name)} (${columns.map((c) => ident(c.name)).join(", ")}) OVERRIDING SYSTEM VALUE ` +
    `SELECT ${columns.map((c, i) => `CAST(u.c${i} AS ${c.type})`).join(", ")} ` +
    `FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(", ")}) AS u(${columns.map((_, i) => `c${i}`).join(", ")})`;
  await src.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR SELECT ${columns.map((c, i) => `${ident(c.name)}::text AS c${i}`).join(", ")} FROM ${ident(table.name)}`);
  let copied = 0;
  let batchRows = Math.min(FIRST_BATCH_ROWS, maxRows);
  for (;;) {
    const rows = await src.query<Record<string, string | null>>(`FETCH FORWARD ${batchRows} FROM ${CURSOR}`);
    if (rows.length === 0) break;
    const values = columns.map((_, i) => rows.map((row) => row[`c${i}`] ?? null));
    await dst.query(insert, values);
    copied += rows.length;
    progress(copied, false);
    // The cursor had fewer rows than asked for: it is at its end.
    if (rows.length < batchRows) break;
    const chars = values.reduce((sum, column) => sum + column.reduce((s, v) => s + (v?.length ?? 0), 0), 0);
    batchRows = Math.max(1, Math.min(maxRows, Math.floor(BATCH_CHARS / Math.max(1, chars / rows.length))));
  }
  await src.query(`CLOSE ${CURSOR}`);
  progress(copied, true);
  if (copied !== total) throw new StoreCommandError(`Table ${table.name}: counted ${total} rows but read ${copied}. Nothing was committed.`);
  return { table: table.name, source: total, target: copied };
}

/** Each sequence where the source left it, and never below the largest id copied into its column. */
async function copySequences(src: Queryable, dst: Queryable, sequences: CatalogSequence[]): Promise<void> {
  for (const sequence of sequences) {
    const [state] = await src.query<{ value: string; called: boolean }>(`SELECT last_value::text AS value, is_called AS called FROM ${ident(sequence.name)}`);
    if (!state) continue;
    let value = BigInt(state.value);
    let called = state.called;
    if (sequence.owner) {
      const [max] = await dst.query<{ max: string | null }>(`SELECT max(${ident(sequence.owner.column)})::text AS max FROM ${ident(sequence.owner.table)}`);
      if (max?.max !== null && max?.max !== undefined && BigInt(max.max) >= value) {
        value = BigInt(max.max);
        called = true;
      }
    }
    await dst.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [ident(sequence.name), value.toString(), called]);
  }
}
