import type { AgentRangeRefreshView } from "../../../shared/admin-schemas.js";
import type { Queryable } from "../../store/db.js";
import { RangeVerifier, rangeDocumentSchema, type AgentRangeList, type RangeDocument } from "./agent-ranges.js";
import type { AgentVerifier } from "./verification.js";

/** How one list fared in a refresh. */
export type RangeRefresh = AgentRangeRefreshView;

const FETCH_TIMEOUT_MS = 15_000;
/** Google's largest list is about 150 kB; anything far beyond is not a range list. */
const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/**
 * The release's snapshots, each replaced by the copy `refreshAgentRanges` stored last (shared by
 * every instance through the store).
 */
export async function currentRangeLists(db: Queryable, vendored: readonly AgentRangeList[]): Promise<AgentRangeList[]> {
  const stored = await db.query<{ id: string; document: RangeDocument; fetched_at: Date }>(`SELECT id, document, fetched_at FROM analytics_agent_ranges`);
  const byId = new Map(stored.map((row) => [row.id, row]));
  return vendored.map((list) => {
    const fresh = byId.get(list.source.id);
    if (!fresh) return list;
    return { source: list.source, asOf: fresh.document.creationTime ?? fresh.fetched_at.toISOString(), document: fresh.document };
  });
}

/** When the stored lists last changed (null: never refreshed): instances reload their verifier when it moves. */
export async function rangesVersion(db: Queryable): Promise<string | null> {
  const rows = await db.query<{ latest: Date | null }>(`SELECT max(fetched_at) AS latest FROM analytics_agent_ranges`);
  return rows[0]?.latest ? new Date(rows[0].latest).toISOString() : null;
}

/**
 * Fetches every list from its operator's URL and stores the valid ones; a list that cannot be
 * fetched or does not parse keeps the copy in use, and is reported with the reason.
 */
export async function refreshAgentRanges(db: Queryable, lists: readonly AgentRangeList[], fetchImpl: typeof fetch = fetch, now = new Date()): Promise<RangeRefresh[]> {
  return Promise.all(
    lists.map(async ({ source }): Promise<RangeRefresh> => {
      try {
        const response = await fetchImpl(source.url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: "application/json" } });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const text = await response.text();
        if (text.length > MAX_DOCUMENT_BYTES) throw new Error(`larger than ${MAX_DOCUMENT_BYTES} bytes`);
        const parsed = rangeDocumentSchema.safeParse(JSON.parse(text));
        if (!parsed.success) throw new Error(`not a range list: ${parsed.error.issues[0]?.message ?? "unexpected shape"}`);
        await db.query(
          `INSERT INTO analytics_agent_ranges (id, url, document, fetched_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (id) DO UPDATE SET url = excluded.url, document = excluded.document, fetched_at = excluded.fetched_at`,
          [source.id, source.url, JSON.stringify(parsed.data), now],
        );
        return { id: source.id, url: source.url, ok: true, prefixes: parsed.data.prefixes.length, asOf: parsed.data.creationTime ?? now.toISOString() };
      } catch (error) {
        return { id: source.id, url: source.url, ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

const RELOAD_CHECK_MS = 60_000;

/**
 * The verifier every ingest uses: built from the current lists, and rebuilt within a minute after
 * any instance refreshes them.
 */
export class StoredRangeVerifier {
  #verifier: RangeVerifier;
  #version: string | null | undefined;
  #checkedAt = -Infinity;

  constructor(
    private readonly db: Queryable,
    private readonly vendored: readonly AgentRangeList[],
  ) {
    this.#verifier = new RangeVerifier(vendored);
  }

  /** The verifier to use now; looks for refreshed lists at most once a minute. */
  async current(now = Date.now()): Promise<AgentVerifier> {
    if (now - this.#checkedAt < RELOAD_CHECK_MS) return this.#verifier;
    this.#checkedAt = now;
    const version = await rangesVersion(this.db);
    if (version !== this.#version) {
      this.#verifier = new RangeVerifier(await currentRangeLists(this.db, this.vendored));
      this.#version = version;
    }
    return this.#verifier;
  }

  /** Refreshes the lists from their URLs and starts using them here at once (other instances within a minute). */
  async refresh(fetchImpl?: typeof fetch): Promise<RangeRefresh[]> {
    const results = await refreshAgentRanges(this.db, this.vendored, fetchImpl);
    this.#checkedAt = -Infinity;
    await this.current();
    return results;
  }

  /** The lists in use and how old each is (for the operator). */
  lists(): Promise<AgentRangeList[]> {
    return currentRangeLists(this.db, this.vendored);
  }
}
