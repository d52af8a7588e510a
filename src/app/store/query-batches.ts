import type { Db, Queryable } from "./db.js";

let cursors = 0;

/**
 * The rows of one query, in its order, `batchRows` at a time, all from one snapshot, and never more
 * than one batch in this process: a cursor read with FETCH as the reader asks for the next batch.
 *
 * - PGlite has one session, and a transaction there holds up every other query until it ends, so
 *   the cursor is holdable (WITH HOLD): the query runs once when it is declared, its result stays
 *   in the store, and other requests run between batches however slowly the reader reads.
 * - PostgreSQL: a plain cursor in a transaction on a pooled connection of its own, held until the
 *   last batch is read or the reader stops (other connections are not held up).
 *
 * A reader that stops early (`break` in `for await`, or an error) closes the cursor.
 */
export async function* queryInBatches<Row>(db: Db, sql: string, params: unknown[], batchRows: number): AsyncGenerator<Row[]> {
  if (!Number.isInteger(batchRows) || batchRows < 1) throw new RangeError(`batchRows must be a positive integer, not ${batchRows}`);
  const cursor = `inkwell_rows_${++cursors}`;
  if (db.kind === "pglite") {
    await db.query(`DECLARE ${cursor} NO SCROLL CURSOR WITH HOLD FOR ${sql}`, params);
    try {
      yield* fetchAll<Row>(db, cursor, batchRows);
    } finally {
      // The store may be closing (shutdown); a holdable cursor ends with its session anyway.
      await db.query(`CLOSE ${cursor}`).catch(() => undefined);
    }
    return;
  }
  const lease = await leaseTransaction(db);
  try {
    await lease.tx.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`, params);
    yield* fetchAll<Row>(lease.tx, cursor, batchRows);
  } finally {
    // Ending the transaction closes the cursor and gives the connection back.
    await lease.end();
  }
}

async function* fetchAll<Row>(q: Queryable, cursor: string, batchRows: number): AsyncGenerator<Row[]> {
  for (;;) {
    const rows = await q.query<Row>(`FETCH FORWARD ${batchRows} FROM ${cursor}`);
    if (rows.length > 0) yield rows;
    // Fewer rows than asked for: the cursor is at its end.
    if (rows.length < batchRows) return;
  }
}

/** A transaction kept open for queries issued from outside its callback, until `end()`. */
async function leaseTransaction(db: Db): Promise<{ tx: Queryable; end: () => Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let finished!: Promise<void>;
  const tx = await new Promise<Queryable>((resolve, reject) => {
    finished = db.transaction(async (tx) => {
      resolve(tx);
      await held;
    });
    // BEGIN itself failed: there is no transaction to hand out.
    finished.catch(reject);
  });
  return {
    tx,
    async end() {
      release();
      // A failed statement already told the reader; the transaction is only ended here.
      await finished.catch(() => undefined);
    },
  };
}
