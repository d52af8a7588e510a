/**
 * Many rows as one JSON parameter, read with `json_to_recordset($n::json) AS r (col type, …)`.
 * node-postgres encodes array parameters element by element in JavaScript, which cost more than
 * the statements they fed; PostgreSQL (and PGlite) parse one JSON text in C.
 */
export const recordset = (rows: readonly object[]): string => JSON.stringify(rows);
