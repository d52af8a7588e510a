import type { Logger } from "pino";
import type { DayRange } from "../../shared/epoch-days.js";
import type { Visitors } from "../../shared/api-schemas.js";
import type { AgentPages, Agents, Failures, Views } from "../../shared/analytics-schemas.js";
import { agentDailyViews, agentIdByName, agentPagesReport, agentsReport, failuresReport, formatSplit, type AgentReportOptions } from "./reports/agent-reports.js";
import { notFound } from "../domain/errors.js";
import type { Db, Queryable } from "../store/db.js";
import type { SaltWindow } from "../../shared/analytics-vocabulary.js";
import { ingestPageViews, type IngestResult, type PageView } from "./ingest/ingest.js";
import { DEFAULT_ORDER, visitorsReport } from "./reports/visitors-report.js";
import { viewsReport } from "./reports/views-report.js";
import { operatorRatios } from "./reports/operator-ratios.js";
import { robotsAgentCompliance, robotsDisallowedReport } from "./reports/robots-reports.js";
import type { Page, PageReportOptions } from "./reports/report-rows.js";
import { pruneAnalytics, type Pruned } from "./retention.js";
import { AnalyticsRollup } from "./rollup/rollup.js";
import { PageIds } from "./ingest/page-ids.js";
import { PageSections } from "./rollup/page-sections.js";
import { referrerHost } from "./ingest/referral.js";
import { AgentIds } from "./classify/agent-ids.js";
import type { AgentVerifier } from "./classify/verification.js";
import { vendoredRangeLists, type AgentRangeList } from "./classify/agent-ranges.js";
import { StoredRangeVerifier } from "./classify/agent-range-store.js";
import { SaltStore } from "./ingest/salts.js";
import { KeyDirectories } from "./classify/key-directory.js";
import { vendoredSignatureAgents, WebBotAuth, type SignatureAgent } from "./classify/web-bot-auth.js";

export interface AnalyticsOptions {
  rawRetentionDays: number;
  backfillDays: number;
  rollupChunkSize: number;
  /** Rollup workers, each counting its share of the partitions; default: 1 on PGlite (one connection), 4 on PostgreSQL. */
  rollupWorkers?: number | undefined;
  /** Checks AI agents' claims against where their views came from; default: the published address ranges (agent-ranges.ts). */
  verifier?: AgentVerifier | undefined;
  /** The release's address-range snapshots; default: vendor/agent-ranges. */
  rangeLists?: readonly AgentRangeList[] | undefined;
  /** The Web Bot Auth signing agents; default: vendor/web-bot-auth. */
  signatureAgents?: readonly SignatureAgent[] | undefined;
  /** How agents' key directories are fetched (tests). */
  fetch?: typeof fetch | undefined;
}

export interface ProjectAnalyticsSettings {
  saltWindow: SaltWindow;
  allowedOrigins: string[];
  markdownAsPage: boolean;
  /** The hosts of the allowed origins: referrers there are steps within the site. */
  ownHosts: ReadonlySet<string>;
}

const SETTINGS_TTL_MS = 30_000;
/** How long a report waits for views accepted before it to be counted (a big import can take minutes). */
const REPORT_WAIT_MS = 5_000;
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** Leaves most of the pool (10 connections) to requests. */
const DEFAULT_POSTGRES_ROLLUP_WORKERS = 4;

/**
 * The analytics pipeline of one process: ingestion for every channel, the rollup behind it,
 * reports that first fold in whatever was accepted before they were asked, and retention.
 */
export class Analytics {
  readonly salts: SaltStore;
  readonly #pages: PageIds;
  readonly #sections: PageSections;
  readonly #agents: AgentIds;
  readonly ranges: StoredRangeVerifier;
  readonly #signatures: WebBotAuth;
  readonly rollup: AnalyticsRollup;
  readonly #settings = new Map<string, { value: ProjectAnalyticsSettings; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly options: AnalyticsOptions,
  ) {
    this.salts = new SaltStore(db);
    this.#pages = new PageIds(db);
    this.#sections = new PageSections(db, this.#pages);
    this.#agents = new AgentIds(db);
    this.ranges = new StoredRangeVerifier(db, options.rangeLists ?? vendoredRangeLists());
    this.#signatures = new WebBotAuth(options.signatureAgents ?? vendoredSignatureAgents(), new KeyDirectories({ fetch: options.fetch }));
    this.rollup = new AnalyticsRollup(db, log, {
      chunkSize: options.rollupChunkSize,
      rawRetentionDays: options.rawRetentionDays,
      workers: options.rollupWorkers ?? (db.kind === "postgres" ? DEFAULT_POSTGRES_ROLLUP_WORKERS : 1),
    });
  }

  /** The project's analytics settings (cached briefly: the beacon endpoint asks on every view); 404 for no such project. */
  async settings(projectId: string, now = Date.now()): Promise<ProjectAnalyticsSettings> {
    const cached = this.#settings.get(projectId);
    if (cached && cached.until > now) return cached.value;
    const rows = await this.db.query<{ analytics_salt_window: SaltWindow; analytics_origins: string[]; analytics_markdown_as_page: boolean }>(
      `SELECT analytics_salt_window, analytics_origins, analytics_markdown_as_page FROM projects WHERE id = $1`,
      [projectId],
    );
    const row = rows[0];
    if (!row) throw notFound("Project");
    const ownHosts = new Set(row.analytics_origins.flatMap((origin) => referrerHost(origin) ?? []));
    const value = { saltWindow: row.analytics_salt_window, allowedOrigins: row.analytics_origins, markdownAsPage: row.analytics_markdown_as_page, ownHosts };
    if (this.#settings.size > 10_000) this.#settings.clear();
    this.#settings.set(projectId, { value, until: now + SETTINGS_TTL_MS });
    return value;
  }

  forgetSettings(projectId: string): void {
    this.#settings.delete(projectId);
  }

  async ingest(projectId: string, views: { index: number; view: PageView }[], now = Date.now()): Promise<IngestResult> {
    const { saltWindow, markdownAsPage, ownHosts } = await this.settings(projectId, now);
    const result = await ingestPageViews(
      this.db,
      { salts: this.salts, pages: this.#pages, sections: this.#sections, agents: this.#agents, verifier: this.options.verifier ?? (await this.ranges.current(now)), signatures: this.#signatures },
      projectId,
      views,
      { saltWindow, markdownAsPage, ownHosts, backfillDays: this.options.backfillDays, futureToleranceMs: FUTURE_TOLERANCE_MS },
      now,
    );
    if (result.accepted > result.duplicates) this.rollup.kick();
    return result;
  }

  /** A report read after folding in what was accepted before the call; `pending` when that took too long. */
  async fresh<T>(read: (db: Queryable) => Promise<T>): Promise<{ report: T; pending: boolean }> {
    const pending = !(await this.#caughtUp());
    return { report: await read(this.db), pending };
  }

  /** An export's rows (read lazily, in batches: e.g. visitorRows in reports/visitors-report.ts) after folding in what was accepted before the call; `pending` as for `fresh`. */
  async freshRows<T>(read: (db: Db) => AsyncIterable<T> | Promise<AsyncIterable<T>>): Promise<{ rows: AsyncIterable<T>; pending: boolean }> {
    const pending = !(await this.#caughtUp());
    return { rows: await read(this.db), pending };
  }

  /** Visitors after folding in what was accepted before the call; `pending` when that took too long. */
  async visitors(projectId: string, range: DayRange, page: Page, options?: PageReportOptions): Promise<{ report: Visitors; pending: boolean }> {
    const pending = !(await this.#caughtUp());
    return { report: await visitorsReport(this.db, projectId, range, page, DEFAULT_ORDER, options), pending };
  }

  async views(projectId: string, range: DayRange, page: Page, options?: PageReportOptions): Promise<{ report: Views; pending: boolean }> {
    const pending = !(await this.#caughtUp());
    return { report: await viewsReport(this.db, projectId, range, page, options), pending };
  }

  async agents(projectId: string, range: DayRange, page: Page, options?: AgentReportOptions): Promise<{ report: Agents; pending: boolean }> {
    const pending = !(await this.#caughtUp());
    return { report: await agentsReport(this.db, projectId, range, page, options), pending };
  }

  /** One agent's pages; 404 when no view ever claimed an agent of that name. */
  async agentPages(projectId: string, agent: string, range: DayRange, page: Page): Promise<{ report: AgentPages; pending: boolean }> {
    const agentId = await this.#agentId(agent);
    const pending = !(await this.#caughtUp());
    return { report: await agentPagesReport(this.db, projectId, agentId, range, page), pending };
  }

  async failures(projectId: string, range: DayRange, page: Page): Promise<{ report: Failures; pending: boolean }> {
    const pending = !(await this.#caughtUp());
    return { report: await failuresReport(this.db, projectId, range, page), pending };
  }

  /** What the dashboard's agents page shows for a bounded range: the agents, the format split, the worst failures and each operator's crawl-to-referral ratio. */
  async agentsOverview(projectId: string, range: { from: number; to: number }, page: Page) {
    const pending = !(await this.#caughtUp());
    const [agents, formats, failures, operators] = await Promise.all([
      agentsReport(this.db, projectId, range, page),
      formatSplit(this.db, projectId, range),
      failuresReport(this.db, projectId, range, { limit: 20, offset: 0 }),
      operatorRatios(this.db, projectId, range),
    ]);
    return { agents, formats, failures, operators, pending };
  }

  /** One agent on the dashboard: its pages and its views per day; 404 for a name no view claimed. */
  async agentOverview(projectId: string, agent: string, range: { from: number; to: number }, page: Page) {
    const agentId = await this.#agentId(agent);
    const pending = !(await this.#caughtUp());
    const [pages, daily, robots, disallowed] = await Promise.all([
      agentPagesReport(this.db, projectId, agentId, range, page),
      agentDailyViews(this.db, projectId, agentId, range),
      robotsAgentCompliance(this.db, projectId, range, agentId),
      robotsDisallowedReport(this.db, projectId, range, page, agentId),
    ]);
    return { pages, daily, robots: { totals: robots, ...disallowed }, pending };
  }

  /** The id of the agent of this name; 404 when no view ever claimed it. */
  async #agentId(name: string): Promise<number> {
    const agentId = await agentIdByName(this.db, name);
    if (agentId === null) throw notFound("Agent");
    return agentId;
  }

  /** Drains the inbox, waiting at most REPORT_WAIT_MS; the drain goes on in the background. */
  async #caughtUp(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const drained = this.rollup.drainOrRetry();
    const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), REPORT_WAIT_MS)));
    try {
      return await Promise.race([drained, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Retention pass: drains first so no waiting view of a deleted window is left behind. */
  async prune(now = Date.now()): Promise<Pruned> {
    await this.rollup.drain();
    const { windows, ...pruned } = await this.db.transaction((tx) => this.rollup.locked(tx, () => pruneAnalytics(tx, this.options, now)));
    for (const w of windows) this.salts.forget(w.projectId, w.windowStart);
    if (pruned.salts + pruned.rawEvents + pruned.hitIds + pruned.signatureUses > 0) this.log.info(pruned, "analytics retention pass deleted expired data");
    return pruned;
  }
}
