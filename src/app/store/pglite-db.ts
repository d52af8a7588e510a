import { mkdirSync } from "node:fs";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import type { Db, Queryable } from "./db.js";

const gzipAsync = promisify(gzip);

/** PGlite's store can always be snapshotted. */
export type PgliteDb = Db & Required<Pick<Db, "snapshot">>;

/**
 * Embedded PostgreSQL (WASM). `dataDir` undefined keeps everything in memory (tests).
 * `loadDataDir`: a snapshot (`Db.snapshot`) to start from, into a directory that holds no store yet.
 */
export async function openPgliteDb(dataDir: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<PgliteDb> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  const asQueryable = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await q.query<Row>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const root = asQueryable(pg);
  return {
    kind: "pglite",
    query: root.query,
    exec: root.exec,
    transaction: (fn) => pg.transaction((tx) => fn(asQueryable(tx))),
    close: () => pg.close(),
    // dumpDataDir alone waits only for the statement running, and a transaction lets go of that
    // between its statements; the transaction lock is held from BEGIN to COMMIT (and by every
    // query), so under it the dump sees only committed work and no transaction is half done.
    // Only reading the files holds up requests: the tarball is compressed after, off the event loop.
    async snapshot() {
      const tar = await pg._runExclusiveTransaction(async () => (await pg.dumpDataDir("none")).arrayBuffer());
      return new Uint8Array(await gzipAsync(new Uint8Array(tar)));
    },
  };
}
