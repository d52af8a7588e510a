/**
 * Rows for every table of whatever schema a store is at, generated from its catalog rather than
 * written per version, so a table a new migration adds is filled with no fixture to keep.
 *
 * Approach: the tables, columns (type, NOT NULL, identity/generated), foreign keys, CHECK
 * constraints and unique keys are read from pg_catalog, in the connection's schema. Tables are
 * filled parents first (`foreignKeyOrder`); a foreign key's columns take a tuple of keys already in
 * the parent. A column without a foreign key whose name is a one-column foreign key elsewhere in
 * the schema (`analytics_inbox.project_id`) is given the same parent: the app writes it that way,
 * and migrations may rely on it. A column a CHECK limits to a list of literals (`= ANY (ARRAY[…])`,
 * `IN (…)`) takes one of them. Each such finite choice cycles with the row number; the choices of a
 * unique key made only of them are counted through as one mixed-radix number, so no two rows repeat
 * a combination (and such a table gets no more rows than there are combinations). Every
 * other value is made from its type and the row number, so unique keys hold; each table numbers
 * its rows from another start (5 × its place), so like-named columns of two tables share some
 * values and not others (some inbox paths are known pages, some new); a nullable column is
 * NULL in every fourth row. Values travel as text parameters, cast to the column's type. A row the
 * database still refuses (another CHECK form, a key that collides) is tried again with other
 * candidates; a table that cannot be filled fails, naming it.
 */
import { foreignKeyOrder, ident, MIGRATIONS_TABLE } from "../../src/app/store/catalog.js";
import type { Queryable } from "../../src/app/store/db.js";

export interface ShapeColumn {
  name: string;
  type: string;
  notNull: boolean;
  /** Identity or generated: the database writes it. */
  skip: boolean;
}
export interface ShapeReference {
  columns: string[];
  parent: string;
  parentColumns: string[];
  /** false: inferred from the column's name, not a constraint. */
  declared: boolean;
}
export interface TableShape {
  name: string;
  columns: ShapeColumn[];
  references: ShapeReference[];
  /** As pg_get_constraintdef spells them: `CHECK (…)`. */
  checks: string[];
  uniqueKeys: string[][];
}

const IN_SCHEMA = "relnamespace = current_schema()::regnamespace";
const columnNames = (rel: string, keys: string) =>
  `ARRAY(SELECT a.attname::text FROM unnest(${keys}) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.n ORDER BY k.o)`;

/** The tables of the connection's schema (schema_migrations aside), parents before children. */
export async function readShapes(db: Queryable): Promise<TableShape[]> {
  const columns = await db.query<{ table: string; name: string; type: string; not_null: boolean; skip: boolean }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
            (a.attidentity <> '' OR a.attgenerated <> '') AS skip
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.${IN_SCHEMA} AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped AND c.relname <> $1
     ORDER BY c.relname, a.attnum`,
    [MIGRATIONS_TABLE],
  );
  const constraints = await db.query<{ kind: string; table: string; parent: string | null; columns: string[]; parent_columns: string[]; def: string }>(
    `SELECT con.contype AS kind, c.relname AS table, p.relname AS parent, ${columnNames("con.conrelid", "con.conkey")} AS columns,
            ${columnNames("con.confrelid", "con.confkey")} AS parent_columns, pg_get_constraintdef(con.oid) AS def
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid LEFT JOIN pg_class p ON p.oid = con.confrelid
     WHERE c.${IN_SCHEMA} AND con.contype IN ('f', 'c') ORDER BY c.relname, con.conname`,
  );
  const uniques = await db.query<{ table: string; columns: string[] }>(
    `SELECT c.relname AS table, ${columnNames("i.indrelid", "i.indkey::int2[]")} AS columns
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.${IN_SCHEMA} AND i.indisunique AND 0 <> ALL (i.indkey::int2[])`,
  );
  const shapes = new Map<string, TableShape>();
  for (const { table, not_null, ...column } of columns) {
    const shape = shapes.get(table) ?? { name: table, columns: [], references: [], checks: [], uniqueKeys: [] };
    shape.columns.push({ ...column, notNull: not_null });
    shapes.set(table, shape);
  }
  for (const con of constraints) {
    const shape = shapes.get(con.table);
    if (con.kind === "c") shape?.checks.push(con.def);
    else if (con.parent && shapes.has(con.parent)) shape?.references.push({ columns: con.columns, parent: con.parent, parentColumns: con.parent_columns, declared: true });
  }
  for (const { table, columns: key } of uniques) shapes.get(table)?.uniqueKeys.push(key);
  // Inferred references: a column named like a one-column foreign key elsewhere, with one parent.
  const byName = new Map<string, ShapeReference[]>();
  for (const ref of [...shapes.values()].flatMap((s) => s.references))
    if (ref.columns.length === 1) byName.set(ref.columns[0] as string, [...(byName.get(ref.columns[0] as string) ?? []), ref]);
  for (const shape of shapes.values())
    for (const column of shape.columns) {
      const candidates = new Set((byName.get(column.name) ?? []).map((r) => `${r.parent}.${r.parentColumns[0]}`));
      const ref = byName.get(column.name)?.[0];
      if (!ref || candidates.size !== 1 || ref.parent === shape.name || shape.references.some((r) => r.columns.includes(column.name))) continue;
      // Only a column of the parent key's type refers to it (gitlab_connections.webhook_id is GitLab's number, not a project_webhooks id).
      const parentType = shapes.get(ref.parent)?.columns.find((c) => c.name === ref.parentColumns[0])?.type;
      if (parentType !== undefined && parentType !== column.type) continue;
      shape.references.push({ columns: [column.name], parent: ref.parent, parentColumns: ref.parentColumns, declared: false });
    }
  const order = foreignKeyOrder(
    [...shapes.keys()],
    [...shapes.values()].flatMap((s) => s.references.map((r) => ({ child: s.name, parent: r.parent }))),
  );
  return order.map((name) => shapes.get(name) as TableShape);
}

/** The literals a CHECK of the form `col = ANY (ARRAY[…])` or `col IN (…)` allows, by column. */
export function listedLiterals(checks: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const def of checks) {
    const match = /^CHECK \(+"?(\w+)"?\)?(?:::\w+)?\s*(?:= ANY \(+ARRAY\[(.*)\]|IN \((.*)\))/s.exec(def);
    if (!match?.[1]) continue;
    const literals = [...(match[2] ?? match[3] ?? "").matchAll(/'((?:[^']|'')*)'/g)].map((m) => (m[1] as string).replaceAll("''", "'"));
    if (literals.length > 0) found.set(match[1], literals);
  }
  return found;
}

const quoteElement = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

/** A value of `type` for row `i`, as the text PostgreSQL reads it; undefined for a type it does not know. */
export function valueOfType(type: string, column: string, i: number): string | undefined {
  if (type.endsWith("[]")) {
    const element = type.slice(0, -2);
    const values = [valueOfType(element, column, i), valueOfType(element, column, i + 1)];
    if (values.some((v) => v === undefined)) return undefined;
    return i % 3 === 2 ? "{}" : `{${values.map((v) => quoteElement(v as string)).join(",")}}`;
  }
  const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000);
  switch (type.replace(/\(.*\)$/, "")) {
    case "smallint":
      return String(1 + (i % 30_000));
    case "integer":
      return String(20_000 + i); // about now as an epoch day, which analytics columns hold
    case "bigint":
      return String(2 ** 32 + i);
    case "numeric":
    case "real":
    case "double precision":
      return `${i}.5`;
    case "boolean":
      return String(i % 2 === 0);
    case "text":
    case "character varying":
      return `${column}-${i}${i % 3 === 1 ? " «é» 'q' \"d\" \\" : ""}`;
    case "timestamp with time zone":
    case "timestamp without time zone":
      return new Date(day(0).getTime() + i * 3_600_000).toISOString();
    case "date":
      return day(i).toISOString().slice(0, 10);
    case "json":
    case "jsonb":
      return JSON.stringify({ column, row: i, list: [i, "x"], nested: { ok: i % 2 === 0 } });
    case "bytea":
      return `\\x${Buffer.from(`${column}-${i}`).toString("hex")}`;
    case "uuid":
      return `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
    default:
      return undefined;
  }
}

export interface FillOptions {
  /** Rows wanted per table. */
  rows: (table: string) => number;
  /** Added to every row number: a second fill of the same store starts past the first's values. */
  offset?: number;
  attempts?: number;
}

/** Fills every table of the schema; returns the rows inserted per table. Throws naming a table it cannot fill. */
export async function fillTables(db: Queryable, options: FillOptions): Promise<Map<string, number>> {
  const inserted = new Map<string, number>();
  const shapes = await readShapes(db);
  for (const [place, shape] of shapes.entries()) inserted.set(shape.name, await fillTable(db, shape, options, place * 5));
  return inserted;
}

async function fillTable(db: Queryable, shape: TableShape, options: FillOptions, start: number): Promise<number> {
  const literals = listedLiterals(shape.checks);
  const columns = shape.columns.filter((c) => !c.skip);
  for (const c of columns)
    if (!literals.has(c.name) && !shape.references.some((r) => r.columns.includes(c.name)) && valueOfType(c.type, c.name, 0) === undefined)
      throw new Error(`catalog-rows: no generator for ${shape.name}.${c.name} of type ${c.type}: add it to valueOfType`);
  // The finite choices: a tuple of each referenced parent's keys, a listed literal.
  const choices: { columns: string[]; options: string[][] }[] = [];
  for (const ref of shape.references) {
    const selected = ref.parentColumns.map((c) => `${ident(c)}::text`).join(", ");
    const keys = await db.query<Record<string, string>>(`SELECT DISTINCT ${selected} FROM ${ident(ref.parent)} ORDER BY ${selected}`);
    const tuples = keys.map((k) => Object.values(k));
    if (tuples.length === 0) throw new Error(`catalog-rows: ${shape.name} references ${ref.parent}, which has no rows to pick from`);
    choices.push({ columns: ref.columns, options: tuples });
  }
  for (const [column, values] of literals)
    if (columns.some((c) => c.name === column) && !choices.some((ch) => ch.columns.includes(column))) choices.push({ columns: [column], options: values.map((v) => [v]) });
  // Unique keys made only of choices: count through their combinations first, and no further.
  const chosen = (key: string[]) => key.every((col) => choices.some((ch) => ch.columns.includes(col)));
  const limiting = shape.uniqueKeys.filter(chosen);
  const leading = new Set(limiting.flat());
  const combinations = (key: string[]) => choices.filter((ch) => ch.columns.some((c) => key.includes(c))).reduce((n, ch) => n * ch.options.length, 1);
  const wanted = Math.min(options.rows(shape.name), ...limiting.map(combinations));

  const offset = (options.offset ?? 0) + start;
  const rowValues = (n: number): (string | null)[] => {
    const picked = new Map<string, string>();
    let rest = n;
    for (const choice of choices) {
      const size = choice.options.length;
      const lead = choice.columns.some((c) => leading.has(c));
      const tuple = choice.options[lead ? rest % size : n % size] as string[];
      if (lead) rest = Math.floor(rest / size);
      choice.columns.forEach((c, k) => picked.set(c, tuple[k] as string));
    }
    return columns.map((c) => {
      if (!c.notNull && n % 4 === 3 && !leading.has(c.name)) return null;
      return picked.get(c.name) ?? (valueOfType(c.type, c.name, n) as string);
    });
  };
  const insert = async (rows: (string | null)[][]) => {
    if (columns.length === 0) {
      for (const _ of rows) await db.query(`INSERT INTO ${ident(shape.name)} DEFAULT VALUES`);
      return;
    }
    const params = rows.flat();
    const tuples = rows.map((_, r) => `(${columns.map((c, k) => `$${r * columns.length + k + 1}::text::${c.type}`).join(", ")})`);
    await db.query(`INSERT INTO ${ident(shape.name)} (${columns.map((c) => ident(c.name)).join(", ")}) VALUES ${tuples.join(", ")}`, params);
  };

  const numbers = Array.from({ length: wanted }, (_, i) => offset + i);
  try {
    await insert(numbers.map(rowValues));
    return wanted;
  } catch {
    // One row at a time, each tried with other candidates until one is accepted.
  }
  const attempts = options.attempts ?? 8;
  let count = 0;
  for (const n of numbers) {
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      try {
        await insert([rowValues(n + attempt * 10_007)]);
        lastError = undefined;
        count++;
        break;
      } catch (error) {
        lastError = error;
      }
    }
    if (lastError !== undefined) throw new Error(`catalog-rows: cannot fill ${shape.name} generically (row ${n}): ${(lastError as Error).message}`);
  }
  return count;
}

/** What the schema's own constraints say of the rows in it, checked again by query: a list of violations (none expected). */
export async function constraintViolations(db: Queryable): Promise<string[]> {
  const violations: string[] = [];
  const count = async (sql: string) => Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${sql}`))[0]?.n);
  for (const shape of await readShapes(db)) {
    const t = ident(shape.name);
    await db.query(`SELECT * FROM ${t} LIMIT 5`);
    for (const c of shape.columns.filter((col) => col.notNull))
      if ((await count(`${t} WHERE ${ident(c.name)} IS NULL`)) > 0) violations.push(`${shape.name}.${c.name} holds NULL`);
    for (const def of shape.checks)
      if ((await count(`${t} WHERE NOT (${def.replace(/^CHECK /, "").replace(/ NOT VALID$/, "")})`)) > 0) violations.push(`${shape.name}: ${def}`);
    for (const ref of shape.references.filter((r) => r.declared)) {
      const joined = ref.columns.map((c, k) => `p.${ident(ref.parentColumns[k] as string)} = c.${ident(c)}`).join(" AND ");
      const present = ref.columns.map((c) => `c.${ident(c)} IS NOT NULL`).join(" AND ");
      if ((await count(`${t} c WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${ident(ref.parent)} p WHERE ${joined})`)) > 0)
        violations.push(`${shape.name} (${ref.columns.join(", ")}) → ${ref.parent}: missing parent`);
    }
  }
  return violations;
}
