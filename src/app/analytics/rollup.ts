import type { Logger } from "pino";
import type { Db, Queryable } from "../store/db.js";
import { NO_PREVIOUS_DAY, reachDeltas, type Series } from "./reach.js";
import { recordset } from "./recordset.js";
import { CLASS_CODE } from "./traffic-class.js";


export interface RollupOptions {
  /** Inbox rows per transaction: bigger chunks dedupe more and pay per-statement costs less often. */
  chunkSize: number;
  /** Raw events are kept this many days (0: not kept at all; only the aggregates are). */
  rawRetentionDays: number;
}

interface InboxRow {
  project_id: string;
  at: string;
  day: number;
  window_start: number;
  window_end: number;
  path: string;
  visitor: string;
  class: number;
  category: string | null;
}

interface MaskEntry {
  projectId: string;
  windowStart: number;
  pathId: number;
  visitor: string;
  human: number;
  ai: number;
}

type Counts = [human: number, ai: number, total: number];
/** Indexed by class code. */
type ViewCounts = [human: number, ai: number, bot: number];
const SERIES_INDEX: Record<Series, number> = { human: 0, ai: 1, total: 2 };
/** Path id 0 stands for the whole site (the totals row). */
const SITE = 0;

/**
 * Moves inbox rows into the aggregates, one transaction per chunk: views per day and page, AI
 * categories per day, per-visitor day masks and the first-visit / return counters of reach.ts,
 * and optionally the raw events. Rows leave the inbox in the same transaction that counts them,
 * so a crash re-counts nothing and loses nothing. One roller at a time (advisory lock), because
 * mask changes are read-modify-write.
 */
export class AnalyticsRollup {
  readonly #pathIds = new Map<string, number>();
  #running: Promise<number> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly options: RollupOptions,
  ) {}

  /**
   * Rolls up everything in the inbox now. A call during a drain joins it: the flag makes the
   * running drain take one more chunk after the current one, which sees every row committed
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
        for (;;) {
          this.#again = false;
          const done = await this.#rollUpChunk();
          total += done;
          if (done < this.options.chunkSize && !this.#again) return total;
        }
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

  /** Runs `fn` in `tx` holding the rollup's lock (no chunk is being counted meanwhile, on any instance). */
  async locked<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
    // Keyed by schema: deployments (or test runs) sharing one database in separate schemas do not wait on each other.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':inkwell-analytics-rollup'))");
    return fn();
  }

  async #rollUpChunk(): Promise<number> {
    const learned = new Map<string, number>();
    const count = await this.db.transaction((tx) => this.locked(tx, async () => {
      const rows = await tx.query<InboxRow>(
        `DELETE FROM analytics_inbox WHERE id IN (SELECT id FROM analytics_inbox ORDER BY id LIMIT $1)
         RETURNING project_id, at::text AS at, day, window_start, window_end, path, visitor::text AS visitor, class, category`,
        [this.options.chunkSize],
      );
      if (rows.length === 0) return 0;
      const pathIds = await this.#resolvePathIds(tx, rows, learned);
      await recordWindows(tx, rows);
      if (this.options.rawRetentionDays > 0) await keepRawEvents(tx, rows, pathIds);
      await addViews(tx, rows, pathIds);
      await addReach(tx, rows, pathIds);
      return rows.length;
    }));
    for (const [key, id] of learned) this.#pathIds.set(key, id);
    if (this.#pathIds.size > 200_000) this.#pathIds.clear();
    return count;
  }

  /** Path ids for the chunk; new ones are cached only after commit (a rollback would void them). */
  async #resolvePathIds(tx: Queryable, rows: InboxRow[], learned: Map<string, number>): Promise<(row: InboxRow) => number> {
    const keyOf = (row: InboxRow) => `${row.project_id}\n${row.path}`;
    const missing = new Map<string, InboxRow>();
    for (const row of rows) if (!this.#pathIds.has(keyOf(row))) missing.set(keyOf(row), row);
    if (missing.size > 0) {
      const wanted = recordset([...missing.values()].map((r) => ({ p: r.project_id, path: r.path })));
      await tx.query(`INSERT INTO analytics_paths (project_id, path) SELECT r.p, r.path FROM json_to_recordset($1::json) AS r (p text, path text) ON CONFLICT DO NOTHING`, [wanted]);
      const found = await tx.query<{ id: number; project_id: string; path: string }>(
        `SELECT ap.id, ap.project_id, ap.path FROM json_to_recordset($1::json) AS r (p text, path text)
         JOIN analytics_paths ap ON ap.project_id = r.p AND ap.path = r.path`,
        [wanted],
      );
      for (const row of found) learned.set(`${row.project_id}\n${row.path}`, row.id);
    }
    return (row) => (this.#pathIds.get(keyOf(row)) ?? learned.get(keyOf(row))) as number;
  }
}

async function recordWindows(tx: Queryable, rows: InboxRow[]): Promise<void> {
  const windows = new Map<string, InboxRow>();
  for (const row of rows) windows.set(`${row.project_id}\n${row.window_start}`, row);
  const list = [...windows.values()];
  await tx.query(
    `INSERT INTO analytics_windows (project_id, window_start, window_end)
     SELECT r.p, r.ws, r.we FROM json_to_recordset($1::json) AS r (p text, ws int, we int) ON CONFLICT DO NOTHING`,
    [recordset(list.map((r) => ({ p: r.project_id, ws: r.window_start, we: r.window_end })))],
  );
}

async function keepRawEvents(tx: Queryable, rows: InboxRow[], pathId: (row: InboxRow) => number): Promise<void> {
  await tx.query(
    `INSERT INTO analytics_events (project_id, at, path_id, visitor, class, category)
     SELECT r.p, r.at, r.pa, r.v, r.c, r.cat FROM json_to_recordset($1::json) AS r (p text, at timestamptz, pa int, v bigint, c smallint, cat text)`,
    [recordset(rows.map((r) => ({ p: r.project_id, at: r.at, pa: pathId(r), v: r.visitor, c: r.class, cat: r.category })))],
  );
}

async function addViews(tx: Queryable, rows: InboxRow[], pathId: (row: InboxRow) => number): Promise<void> {
  const views = new Map<string, { projectId: string; day: number; pathId: number; counts: ViewCounts }>();
  const categories = new Map<string, { projectId: string; day: number; category: string; views: number }>();
  for (const row of rows) {
    const id = pathId(row);
    const entry = upsertCounter(views, `${row.project_id}\n${row.day}\n${id}`, () => ({ projectId: row.project_id, day: row.day, pathId: id, counts: [0, 0, 0] as ViewCounts }));
    entry.counts[row.class] = (entry.counts[row.class] ?? 0) + 1;
    const category = row.class === CLASS_CODE.ai ? row.category : null;
    if (category) upsertCounter(categories, `${row.project_id}\n${row.day}\n${category}`, () => ({ projectId: row.project_id, day: row.day, category, views: 0 })).views++;
  }
  const v = [...views.values()];
  await tx.query(
    `INSERT INTO analytics_daily_views AS t (project_id, day, path_id, human, ai, bot)
     SELECT r.p, r.d, r.pa, r.h, r.a, r.b FROM json_to_recordset($1::json) AS r (p text, d int, pa int, h bigint, a bigint, b bigint)
     ON CONFLICT (project_id, day, path_id) DO UPDATE SET human = t.human + excluded.human, ai = t.ai + excluded.ai, bot = t.bot + excluded.bot`,
    [recordset(v.map((e) => ({ p: e.projectId, d: e.day, pa: e.pathId, h: e.counts[0], a: e.counts[1], b: e.counts[2] })))],
  );
  if (categories.size === 0) return;
  const c = [...categories.values()];
  await tx.query(
    `INSERT INTO analytics_daily_categories AS t (project_id, day, class, category, views)
     SELECT r.p, r.d, ${CLASS_CODE.ai}, r.cat, r.n FROM json_to_recordset($1::json) AS r (p text, d int, cat text, n bigint)
     ON CONFLICT (project_id, day, class, category) DO UPDATE SET views = t.views + excluded.views`,
    [recordset(c.map((e) => ({ p: e.projectId, d: e.day, cat: e.category, n: e.views })))],
  );
}

/** Folds the chunk's visits into the per-visitor day masks and the counters they imply. */
async function addReach(tx: Queryable, rows: InboxRow[], pathId: (row: InboxRow) => number): Promise<void> {
  const added = new Map<string, MaskEntry>();
  const note = (row: InboxRow, id: number) => {
    const entry = upsertCounter(added, `${row.project_id}\n${row.window_start}\n${id}\n${row.visitor}`, () => ({
      projectId: row.project_id,
      windowStart: row.window_start,
      pathId: id,
      visitor: row.visitor,
      human: 0,
      ai: 0,
    }));
    const bit = 1 << (row.day - row.window_start);
    if (row.class === CLASS_CODE.human) entry.human |= bit;
    else entry.ai |= bit;
  };
  for (const row of rows) {
    if (row.class === CLASS_CODE.bot) continue;
    note(row, pathId(row));
    note(row, SITE);
  }
  if (added.size === 0) return;
  const entries = [...added.values()];
  const before = new Map<string, { human: number; ai: number }>();
  const existing = await tx.query<{ project_id: string; window_start: number; path_id: number; visitor: string; human: number; ai: number }>(
    `SELECT d.project_id, d.window_start, d.path_id, d.visitor::text AS visitor, d.human, d.ai
     FROM json_to_recordset($1::json) AS k (p text, ws int, pa int, v bigint)
     JOIN analytics_visitor_days d ON d.project_id = k.p AND d.window_start = k.ws AND d.path_id = k.pa AND d.visitor = k.v`,
    [recordset(entries.map((e) => ({ p: e.projectId, ws: e.windowStart, pa: e.pathId, v: e.visitor })))],
  );
  for (const row of existing) before.set(`${row.project_id}\n${row.window_start}\n${row.path_id}\n${row.visitor}`, row);

  const changed: MaskEntry[] = [];
  const wholeWindow = new Map<string, { projectId: string; windowStart: number; pathId: number; counts: Counts }>();
  const firsts = new Map<string, { projectId: string; windowStart: number; day: number; pathId: number; counts: Counts }>();
  const returns = new Map<string, { projectId: string; windowStart: number; day: number; prev: number; pathId: number; counts: Counts }>();
  for (const [key, entry] of added) {
    const old = before.get(key) ?? { human: 0, ai: 0 };
    const next = { ...entry, human: old.human | entry.human, ai: old.ai | entry.ai };
    if (next.human === old.human && next.ai === old.ai) continue;
    changed.push(next);
    const newcomer: Counts = [old.human === 0 && next.human !== 0 ? 1 : 0, old.ai === 0 && next.ai !== 0 ? 1 : 0, (old.human | old.ai) === 0 ? 1 : 0];
    if (newcomer.some((n) => n !== 0)) {
      const counter = upsertCounter(wholeWindow, `${entry.projectId}\n${entry.windowStart}\n${entry.pathId}`, () => ({
        projectId: entry.projectId,
        windowStart: entry.windowStart,
        pathId: entry.pathId,
        counts: [0, 0, 0] as Counts,
      }));
      newcomer.forEach((n, i) => (counter.counts[i] = (counter.counts[i] ?? 0) + n));
    }
    reachDeltas({ human: [old.human, next.human], ai: [old.ai, next.ai] }, (series, day, prev, delta) => {
      const counter =
        prev === NO_PREVIOUS_DAY
          ? upsertCounter(firsts, `${entry.projectId}\n${entry.windowStart}\n${day}\n${entry.pathId}`, () => ({
              projectId: entry.projectId,
              windowStart: entry.windowStart,
              day,
              pathId: entry.pathId,
              counts: [0, 0, 0] as Counts,
            }))
          : upsertCounter(returns, `${entry.projectId}\n${entry.windowStart}\n${day}\n${prev}\n${entry.pathId}`, () => ({
              projectId: entry.projectId,
              windowStart: entry.windowStart,
              day,
              prev,
              pathId: entry.pathId,
              counts: [0, 0, 0] as Counts,
            }));
      const i = SERIES_INDEX[series];
      counter.counts[i] = (counter.counts[i] ?? 0) + delta;
    });
  }
  if (changed.length === 0) return;
  await tx.query(
    `INSERT INTO analytics_visitor_days (project_id, window_start, path_id, visitor, human, ai)
     SELECT r.p, r.ws, r.pa, r.v, r.h, r.a FROM json_to_recordset($1::json) AS r (p text, ws int, pa int, v bigint, h int, a int)
     ON CONFLICT (project_id, window_start, path_id, visitor) DO UPDATE SET human = excluded.human, ai = excluded.ai`,
    [recordset(changed.map((e) => ({ p: e.projectId, ws: e.windowStart, pa: e.pathId, v: e.visitor, h: e.human, a: e.ai })))],
  );
  const w = [...wholeWindow.values()];
  if (w.length > 0) {
    await tx.query(
      `INSERT INTO analytics_window_reach AS t (project_id, window_start, path_id, human, ai, total)
       SELECT r.p, r.ws, r.pa, r.h, r.a, r.t FROM json_to_recordset($1::json) AS r (p text, ws int, pa int, h int, a int, t int)
       ON CONFLICT (project_id, window_start, path_id) DO UPDATE SET human = t.human + excluded.human, ai = t.ai + excluded.ai, total = t.total + excluded.total`,
      [recordset(w.map((c) => ({ p: c.projectId, ws: c.windowStart, pa: c.pathId, h: c.counts[0], a: c.counts[1], t: c.counts[2] })))],
    );
  }
  const f = [...firsts.values()].filter((c) => c.counts.some((n) => n !== 0));
  if (f.length > 0) {
    await tx.query(
      `INSERT INTO analytics_first_visits AS t (project_id, window_start, day, path_id, human, ai, total)
       SELECT r.p, r.ws, r.d, r.pa, r.h, r.a, r.t FROM json_to_recordset($1::json) AS r (p text, ws int, d int, pa int, h int, a int, t int)
       ON CONFLICT (project_id, window_start, day, path_id) DO UPDATE SET human = t.human + excluded.human, ai = t.ai + excluded.ai, total = t.total + excluded.total`,
      [recordset(f.map((c) => ({ p: c.projectId, ws: c.windowStart, d: c.day, pa: c.pathId, h: c.counts[0], a: c.counts[1], t: c.counts[2] })))],
    );
  }
  const r = [...returns.values()].filter((c) => c.counts.some((n) => n !== 0));
  if (r.length > 0) {
    await tx.query(
      `INSERT INTO analytics_returns AS t (project_id, window_start, day, prev, path_id, human, ai, total)
       SELECT r.p, r.ws, r.d, r.pr, r.pa, r.h, r.a, r.t FROM json_to_recordset($1::json) AS r (p text, ws int, d int, pr int, pa int, h int, a int, t int)
       ON CONFLICT (project_id, window_start, day, prev, path_id) DO UPDATE SET human = t.human + excluded.human, ai = t.ai + excluded.ai, total = t.total + excluded.total`,
      [recordset(r.map((c) => ({ p: c.projectId, ws: c.windowStart, d: c.day, pr: c.prev, pa: c.pathId, h: c.counts[0], a: c.counts[1], t: c.counts[2] })))],
    );
  }
}

function upsertCounter<T>(map: Map<string, T>, key: string, create: () => T): T {
  let found = map.get(key);
  if (!found) map.set(key, (found = create()));
  return found;
}
