import { randomBytes } from "node:crypto";
import type { Queryable } from "../../store/db.js";
import { DAY_MS, type DayWindow } from "../../../shared/epoch-days.js";

/** A window's secret outlives the window, and its last use, by this long (docs/architecture.md, "Analytics"). */
export const SALT_GRACE_MS = 48 * 3_600_000;
/**
 * How long a secret is used from memory before the store is asked again. Every ask pushes the
 * secret's deletion to 48 h after now, so a secret in use is never deleted under a cache.
 */
const CACHE_MS = 10 * 60_000;
const MAX_CACHED = 10_000;

/**
 * The per-project, per-window secrets visitor ids are keyed with. Created on first use — also for
 * a past window being backfilled — and deleted 48 h after the later of the window's end and
 * their last use (see retention.ts), after which that window's ids can never be recomputed.
 */
export class SaltStore {
  readonly #cache = new Map<string, { secret: Buffer; until: number }>();

  constructor(private readonly db: Queryable) {}

  /** The secret when it is in memory and fresh: the common case, without a promise per view. */
  cached(projectId: string, window: DayWindow, now: number): Buffer | undefined {
    const cached = this.#cache.get(`${projectId}:${window.start}`);
    return cached && cached.until > now ? cached.secret : undefined;
  }

  async secretFor(projectId: string, window: DayWindow, now: number): Promise<Buffer> {
    const key = `${projectId}:${window.start}`;
    const cached = this.cached(projectId, window, now);
    if (cached) return cached;
    const deleteAfter = new Date(Math.max(window.end * DAY_MS, now) + SALT_GRACE_MS);
    const rows = await this.db.query<{ secret: Uint8Array }>(
      `INSERT INTO analytics_salts (project_id, window_start, secret, delete_after) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id, window_start)
       DO UPDATE SET delete_after = GREATEST(analytics_salts.delete_after, excluded.delete_after)
       RETURNING secret`,
      [projectId, window.start, randomBytes(32), deleteAfter],
    );
    const secret = Buffer.from(rows[0]?.secret as Uint8Array);
    if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
    this.#cache.set(key, { secret, until: now + CACHE_MS });
    return secret;
  }

  /** Drops cached secrets of windows whose secret was deleted. */
  forget(projectId: string, windowStart: number): void {
    this.#cache.delete(`${projectId}:${windowStart}`);
  }
}
