import type { Logger } from "pino";
import type { Db, Queryable } from "../../store/db.js";
import { recordset } from "../recordset.js";
import type { ChunkView } from "./plan-types.js";
import { countChunk } from "./chunk.js";
import { RobotsJudge } from "./robots-plan.js";
import { SectionLookup } from "./page-sections.js";
import type { ClassCode } from "../classify/traffic-class.js";

export interface RollupOptions {
  /** Inbox rows per transaction: bigger chunks dedupe more and pay per-statement costs less often. */
  chunkSize: number;
  /** Raw events are kept this many days (0: not kept at all; only the aggregates are). */
  rawRetentionDays: number;
  /** Partitions this process counts at once (each one transaction and connection at a time). */
  workers: number;
}

/**
 * The inbox is split by the visitor's low bits (migration 7 stores `visitor & 15` as `part`): every
 * mask of a visitor lives in one partition, so partitions never read or write the same mask and
 * can be counted in parallel; the counters they share are additive upserts.
 */
export const ROLLUP_PARTITIONS = 16;

interface InboxRow {
  project_id: string;
  /** The view's time, epoch milliseconds. */
  at_ms: number;
  day: number;
  window_start: number;
  window_end: number;
  path_id: number;
  fetched: string | null;
  visitor: string;
  class: ClassCode;
  category: string | null;
  agent_id: number | null;
  verification: number | null;
  format: number;
  status: number;
  source_id: number | null;
  referral_ids: string | null;
}

const NO_GROUPS: readonly number[] = [];

/** A worker's turn at some partitions: rows counted, and the partitions another worker (here or on another instance) held. */
interface Turn {
  counted: number;
  busy: number[];
}

/**
 * Moves inbox rows into the aggregates, one transaction per chunk of one partition: views per day
 * and page, AI categories per day, per-visitor day masks and the first-visit / return counters of
 * reach.ts, and optionally the raw events. Rows leave the inbox in the same transaction that counts
 * them, so a crash re-counts nothing and loses nothing. A partition is counted by one worker at a
 * time across all instances (an advisory lock per partition), because mask changes are
 * read-modify-write; `locked()` excludes every partition at once.
 */
export class AnalyticsRollup {
  #running: Promise<number> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  /** Where this process starts its passes: instances spread over the partitions instead of queueing on the same one. */
  readonly #firstPartition = Math.floor(Math.random() * ROLLUP_PARTITIONS);
  readonly #sections = new SectionLookup();
  readonly #robots = new RobotsJudge();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly options: RollupOptions,
  ) {}

  /**
   * Rolls up everything in the inbox now. A call during a drain joins it: the flag makes the
   * running drain make one more pass after the current one, which sees every row committed
   * before the call. (Chaining a new drain per caller instead piled up thousands of empty runs
   * behind a long import.)
   */
  drain(): Promise<number> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const run = (async () => {
      let total = 0;
      try {
        do {
          this.#again = false;
          total += await this.#pass();
        } while (this.#again);
        return total;
      } finally {
        this.#running = null;
      }
    })();
    this.#running = run;
    return run;
  }

  /** Drains; a failure is logged and retried a little later (the views stay in the inbox). Resolves to whether it completed. */
  drainOrRetry(): Promise<boolean> {
    return this.drain().then(
      () => true,
      (error: unknown) => {
        this.log.error({ err: error }, "analytics rollup failed; the views stay in the inbox and are retried");
        this.kick(5_000);
        return false;
      },
    );
  }

  /** Schedules a drain soon; views arriving meanwhile are rolled up together. */
  kick(delayMs = 200): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.drainOrRetry();
    }, delayMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => undefined);
  }

  /** Runs `fn` in `tx` holding every partition (no chunk is being counted meanwhile, on any instance). */
  async locked<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
    await tx.query(`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK})`);
    return fn();
  }

  /**
   * Every partition until its inbox share is empty. The partitions holding views are dealt out to
   * the workers, and each worker counts its share together, one chunk across them (one worker
   * counts the whole inbox in one chunk, as a single process on PGlite does). Partitions another
   * worker holds are skipped first, then waited for and finished one by one, so the pass ends only
   * when everything committed before it has been counted.
   */
  async #pass(): Promise<number> {
    const waiting = new Set(await this.#partitionsWithViews());
    const order = Array.from({ length: ROLLUP_PARTITIONS }, (_, i) => (this.#firstPartition + i) % ROLLUP_PARTITIONS).filter((p) => waiting.has(p));
    const shares = Array.from({ length: Math.min(this.options.workers, order.length) }, (_, w) => order.filter((_, i) => i % this.options.workers === w));
    const turns = await Promise.all(shares.map((share) => this.#drain(share, "skip-if-busy")));
    const busy = turns.flatMap((turn) => turn.busy);
    let counted = turns.reduce((sum, turn) => sum + turn.counted, 0);
    const queue = [...busy];
    const finishBusy = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) counted += (await this.#drain([next], "wait")).counted;
    };
    await Promise.all(Array.from({ length: Math.min(this.options.workers, queue.length) }, finishBusy));
    return counted;
  }

  /** One index probe per partition, in one statement: an empty inbox costs one query, not a transaction per partition. */
  async #partitionsWithViews(): Promise<number[]> {
    const rows = await this.db.query<{ part: number }>(
      `SELECT p AS part FROM generate_series(0, $1::int - 1) AS p WHERE EXISTS (SELECT 1 FROM analytics_inbox i WHERE i.part = p)`,
      [ROLLUP_PARTITIONS],
    );
    return rows.map((row) => row.part);
  }

  /** Chunks across `partitions` until their inbox share is empty, leaving out those found busy. */
  async #drain(partitions: number[], mode: "skip-if-busy" | "wait"): Promise<Turn> {
    let remaining = partitions;
    const turn: Turn = { counted: 0, busy: [] };
    while (remaining.length > 0) {
      const chunk = await this.#rollUpChunk(remaining, mode);
      turn.counted += chunk.counted;
      turn.busy.push(...chunk.busy);
      remaining = remaining.filter((p) => !chunk.busy.includes(p));
      if (chunk.counted < this.options.chunkSize) break;
    }
    return turn;
  }

  #rollUpChunk(partitions: number[], mode: "skip-if-busy" | "wait"): Promise<Turn> {
    return this.db.transaction(async (tx): Promise<Turn> => {
      // Shared: any number of partitions at once; locked() takes it exclusively.
      await tx.query(`SELECT pg_advisory_xact_lock_shared(${ROLLUP_LOCK})`);
      let held = partitions;
      if (mode === "wait") {
        for (const partition of partitions) await tx.query(`SELECT pg_advisory_xact_lock(${PARTITION_LOCK_SPACE}, $1)`, [partition]);
      } else {
        const got = await tx.query<{ p: number }>(
          `SELECT p FROM unnest($1::int[]) AS p WHERE pg_try_advisory_xact_lock(${PARTITION_LOCK_SPACE}, p)`,
          [partitions],
        );
        held = got.map((row) => row.p);
      }
      const busy = partitions.filter((p) => !held.includes(p));
      if (held.length === 0) return { counted: 0, busy };
      const rows = await takeFromInbox(tx, held, this.options.chunkSize, this.options.rawRetentionDays > 0);
      if (rows.length === 0) return { counted: 0, busy };
      await recordWindows(tx, rows);
      const views = rows.map((row): ChunkView => ({
        projectId: row.project_id,
        at: Number(row.at_ms),
        day: row.day,
        windowStart: row.window_start,
        pathId: row.path_id,
        fetched: row.fetched,
        visitor: row.visitor,
        trafficClass: row.class,
        category: row.category,
        agentId: row.agent_id,
        verification: row.verification,
        format: row.format,
        status: row.status,
        sourceId: row.source_id,
        groupIds: row.referral_ids ? row.referral_ids.split(",").map(Number) : NO_GROUPS,
      }));
      await countChunk(tx, views, await this.#sections.of(tx, views.map((view) => view.pathId)));
      await this.#robots.count(tx, views);
      return { counted: rows.length, busy };
    });
  }
}

/** A map's values in the order of its keys: the order shared inserts take their locks in. */
const valuesInKeyOrder = <T>(map: Map<string, T>): T[] => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, value]) => value);

async function recordWindows(tx: Queryable, rows: InboxRow[]): Promise<void> {
  const windows = new Map<string, InboxRow>();
  for (const row of rows) windows.set(`${row.project_id}\n${row.window_start}`, row);
  const list = valuesInKeyOrder(windows);
  await tx.query(
    `INSERT INTO analytics_windows (project_id, window_start, window_end)
     SELECT r.p, r.ws, r.we FROM json_to_recordset($1::json) AS r (p text, ws int, we int) ON CONFLICT DO NOTHING`,
    [recordset(list.map((r) => ({ p: r.project_id, ws: r.window_start, we: r.window_end })))],
  );
}

/**
 * Deletes up to `limit` views of `partitions` from the inbox and returns them, keeping them as raw
 * events in the same statement when asked (they never travel to this process and back). Rows are
 * deleted where they lie (ctid): only the partitions' holder deletes them, so they cannot move
 * meanwhile. In index order, without sorting: a backlog costs each chunk no more than the chunk.
 */
function takeFromInbox(tx: Queryable, partitions: number[], limit: number, keepRawEvents: boolean): Promise<InboxRow[]> {
  return tx.query<InboxRow>(
    `WITH taken AS (
       DELETE FROM analytics_inbox WHERE ctid = ANY(ARRAY(SELECT ctid FROM analytics_inbox WHERE part = ANY($2::int[]) LIMIT $1))
       RETURNING project_id, at, day, window_start, window_end, path_id, fetched, visitor, class, category, agent_id, verification, format, status, source_id, referral_ids
     ), kept AS (
       INSERT INTO analytics_events (project_id, at, path_id, visitor, class, category, agent_id, verification, format, status)
       SELECT project_id, at, path_id, visitor, class, category, agent_id, verification, format, status FROM taken WHERE $3
     )
     SELECT project_id, (extract(epoch FROM at) * 1000)::float8 AS at_ms, day, window_start, window_end, path_id, fetched, visitor::text AS visitor, class, category, agent_id, verification, format, status, source_id, referral_ids FROM taken`,
    [limit, partitions, keepRawEvents],
  );
}

/**
 * Advisory lock keys, per schema so deployments (or test runs) sharing one database in separate
 * schemas do not wait on each other: one bigint key for the whole rollup (taken shared by every
 * chunk, exclusively by locked()), and a two-int key space for the partitions.
 */
const ROLLUP_LOCK = "hashtext(current_schema() || ':inkwell-analytics-rollup')";
const PARTITION_LOCK_SPACE = "hashtext(current_schema() || ':inkwell-analytics-rollup-partition')";
