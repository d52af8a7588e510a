import { createHash } from "node:crypto";
import type { Db } from "../../store/db.js";
import { classifyHit } from "../classify/classify.js";
import type { SaltWindow } from "../../../shared/analytics-vocabulary.js";
import { DAY_MS, epochDay, windowOf, type DayWindow } from "../../../shared/epoch-days.js";
import type { SaltStore } from "./salts.js";
import { CLASS_CODE } from "../classify/traffic-class.js";
import type { PageIds } from "./page-ids.js";
import type { PageSections } from "../rollup/page-sections.js";
import { fetchedPath, normalizePagePath } from "./page-path.js";
import { recordset } from "../recordset.js";
import type { AgentIds, AgentFacts } from "../classify/agent-ids.js";
import { FORMAT_CODE, pageOfMarkdownTwin, readFormat } from "./read-format.js";
import { VERIFICATION_CODE, type AgentVerifier, type Verification } from "../classify/verification.js";
import type { SignatureCheck, SignedRequest, WebBotAuth } from "../classify/web-bot-auth.js";
import { normalizeIp, visitorId } from "./visitor-id.js";
import { referralOf } from "./referral.js";
import { referralGroups } from "../rollup/referral-groups.js";

/** One page view as it arrives, already shape-checked at the edge. */
export interface PageView {
  /** Epoch milliseconds. */
  at: number;
  path: string;
  ip: string;
  userAgent: string;
  accept?: string | undefined;
  /** The HTTP status the site answered with (access logs, server-side hits); the beacon's page loaded, so 200. */
  status?: number | undefined;
  /** Idempotency id (log imports): a second hit with the same id is not counted again. */
  id?: string | undefined;
  /** The request as signed, when it names a Web Bot Auth signing agent (server-side hits). */
  signed?: SignedRequest | undefined;
  /** The Referer: only its host is kept (referral.ts). */
  referrer?: string | undefined;
  /** The site's own host as the request showed it (the beacon's Origin): a referrer there is a step within the site. */
  siteHost?: string | undefined;
}

export interface IngestPolicy {
  saltWindow: SaltWindow;
  /** Hits older than this many days are refused (their salt would be created only to be deleted). */
  backfillDays: number;
  /** Clock skew tolerated for hits stamped in the future. */
  futureToleranceMs: number;
  /** `/guide.md` and `/guide.mdx` count as reads of `/guide` in format markdown. */
  markdownAsPage: boolean;
  /** The site's own hosts (from its allowed origins): referrers there are steps within the site, not arrivals. */
  ownHosts: ReadonlySet<string>;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; error: string }[];
}

/** A view as the inbox stores it; the field names are the JSON the insert reads. */
interface InboxRow {
  /** Epoch milliseconds. */
  at: number;
  day: number;
  windowStart: number;
  windowEnd: number;
  path: string;
  pathId?: number;
  /**
   * An AI agent's path and query as fetched, when not its page's path (`/fish/`, `/a?b`, `/x.md`):
   * what robots.txt judges (rollup/robots-plan.ts). Kept only until the view is counted.
   */
  fetched: string | null;
  visitor: string;
  classCode: number;
  category: string | null;
  agent: AgentFacts | null;
  agentId?: number | undefined;
  verification: number | null;
  format: number;
  status: number;
  hitKey: string | null;
  /** A person's arrival: where from, and the groups it counts in (referral-groups.ts). */
  referral: { groups: string[] } | null;
  sourceId?: number;
  /** The groups' path ids, comma-separated. */
  referralIds?: string;
  /** A verified signature's identity; its second use anywhere in the project is a replay. */
  replay: { key: string; expiresAt: number } | null;
}

const INBOX_FIELDS = ["at", "day", "windowStart", "windowEnd", "pathId", "fetched", "visitor", "classCode", "category", "agentId", "verification", "format", "status", "sourceId", "referralIds"] satisfies (keyof InboxRow)[];

/** What the pipeline needs besides the store: salt secrets, page and agent ids, and the check of agents' claims. */
export interface IngestContext {
  salts: SaltStore;
  pages: PageIds;
  sections: PageSections;
  agents: AgentIds;
  verifier: AgentVerifier;
  signatures: WebBotAuth;
}

/**
 * The ingestion pipeline every channel shares: check, classify, derive the visitor id, and write
 * to the inbox in one transaction. IP and User-Agent go no further than this function; once it
 * returns, the views are durable and the rollup (rollup.ts) turns them into counts.
 */
export async function ingestPageViews(
  db: Db,
  { salts, pages, sections, agents, verifier, signatures }: IngestContext,
  projectId: string,
  views: { index: number; view: PageView }[],
  policy: IngestPolicy,
  now = Date.now(),
): Promise<IngestResult> {
  const rejected: IngestResult["rejected"] = [];
  const rows: InboxRow[] = [];
  const oldest = now - policy.backfillDays * DAY_MS;
  // A batch spans a few days: each day's window and secret are looked up once.
  const windows = new Map<number, { window: DayWindow; secret: Buffer }>();
  const signed = await Promise.all(views.map(({ view }) => (view.signed ? signatures.check(view.signed, view.at) : null)));
  for (const [position, { index, view }] of views.entries()) {
    const problem =
      view.at > now + policy.futureToleranceMs
        ? "timestamp: is in the future"
        : view.at < oldest
          ? `timestamp: is more than ${policy.backfillDays} days old (INKWELL_ANALYTICS_BACKFILL_DAYS)`
          : null;
    const ip = normalizeIp(view.ip);
    const path = normalizePagePath(view.path);
    if (problem || !ip || !path) {
      rejected.push({ index, error: problem ?? (ip ? "path: must be a URL path starting with / (or a full http(s) URL)" : "ip: must be an IPv4 or IPv6 address") });
      continue;
    }
    const day = epochDay(view.at);
    let keyed = windows.get(day);
    if (!keyed) {
      const window = windowOf(policy.saltWindow, day);
      keyed = { window, secret: salts.cached(projectId, window, now) ?? (await salts.secretFor(projectId, window, now)) };
      windows.set(day, keyed);
    }
    const format = readFormat(path, view.accept);
    const reader = identify(view.userAgent, format, ip, verifier, signed[position] ?? null);
    const page = policy.markdownAsPage && format === "markdown" ? pageOfMarkdownTwin(path) : path;
    // Referrals count people: an agent's fetch is no arrival.
    const referral = reader.counted === "human" ? referralOf(view, view.siteHost ? new Set([...policy.ownHosts, view.siteHost]) : policy.ownHosts) : null;
    rows.push({
      at: view.at,
      day,
      windowStart: keyed.window.start,
      windowEnd: keyed.window.end,
      path: page,
      fetched: reader.counted === "ai" && reader.agent ? fetchedOf(view.path, page) : null,
      visitor: visitorId(keyed.secret, ip, view.userAgent),
      classCode: CLASS_CODE[reader.counted],
      category: reader.agent && reader.counted === "ai" ? reader.agent.category : null,
      agent: reader.agent,
      verification: reader.verification && VERIFICATION_CODE[reader.verification],
      format: FORMAT_CODE[format],
      status: view.status ?? 200,
      hitKey: view.id === undefined ? null : hitKey(projectId, view.id),
      replay: reader.replay,
      referral: referral && { groups: referralGroups(referral, page) },
    });
  }
  if (rows.length === 0) return { accepted: 0, duplicates: 0, rejected };
  const pageId = await pages.resolve(projectId, rows.map((row) => row.path));
  for (const row of rows) row.pathId = pageId(row.path);
  await sections.link(projectId, rows as { path: string; pathId: number }[]);
  const referred = rows.filter((row) => row.referral !== null);
  if (referred.length > 0) {
    const groupId = await pages.resolve(projectId, referred.flatMap((row) => row.referral?.groups ?? []));
    for (const row of referred) {
      const ids = (row.referral?.groups ?? []).map((group) => groupId(group) as number);
      row.sourceId = ids[0];
      row.referralIds = ids.join(",");
    }
  }
  const withAgent = rows.filter((row) => row.agent !== null);
  if (withAgent.length > 0) {
    const agentId = await agents.resolve(withAgent.map((row) => row.agent as AgentFacts));
    for (const row of withAgent) row.agentId = agentId((row.agent as AgentFacts).name);
  }
  const written = await db.transaction(async (tx) => {
    const fresh = await claimHitKeys(tx, projectId, rows);
    const toWrite = rows.filter((row) => row.hitKey === null || fresh.delete(row.hitKey));
    for (const row of await replayedSignatures(tx, projectId, toWrite)) {
      row.classCode = CLASS_CODE.bot;
      row.category = null;
      row.verification = VERIFICATION_CODE.spoofed;
    }
    if (toWrite.length > 0) {
      await tx.query(
        `INSERT INTO analytics_inbox (project_id, at, day, window_start, window_end, path_id, fetched, visitor, class, category, agent_id, verification, format, status, source_id, referral_ids)
         SELECT $1, to_timestamp(r.at / 1000), r.day, r."windowStart", r."windowEnd", r."pathId", r.fetched, r.visitor, r."classCode", r.category, r."agentId", r.verification, r.format, r.status,
           r."sourceId", r."referralIds"
         FROM json_to_recordset($2::json) AS r (at float8, day int, "windowStart" int, "windowEnd" int, "pathId" int, fetched text, visitor bigint, "classCode" smallint, category text,
           "agentId" int, verification smallint, format smallint, status smallint, "sourceId" int, "referralIds" text)`,
        [projectId, JSON.stringify(toWrite, INBOX_FIELDS)],
      );
    }
    return toWrite.length;
  });
  return { accepted: rows.length, duplicates: rows.length - written, rejected };
}

interface Reader {
  counted: keyof typeof CLASS_CODE;
  agent: AgentFacts | null;
  verification: Verification | null;
  replay: InboxRow["replay"];
}

/**
 * Who read the page. A Web Bot Auth signature that proves or disproves an agent decides (whatever
 * the User-Agent says); otherwise the User-Agent does, and an AI agent's claim is checked against
 * its operator's address ranges. A spoofed claim is an unknown bot's view; its agent is kept only
 * to report the spoofing.
 */
function identify(userAgent: string, format: ReturnType<typeof readFormat>, ip: string, verifier: AgentVerifier, signed: SignatureCheck | null): Reader {
  if (signed?.outcome === "verified" || signed?.outcome === "invalid") {
    const { agent, operator, category } = signed.agent;
    const verified = signed.outcome === "verified";
    return { counted: verified ? "ai" : "bot", agent: { name: agent, operator, category }, verification: verified ? "verified" : "spoofed", replay: signed.replay ?? null };
  }
  const verdict = classifyHit({ userAgent, format });
  if (verdict.class !== "ai") return { counted: verdict.class, agent: null, verification: null, replay: null };
  const verification = verifier.verify(verdict.agent, ip);
  return {
    counted: verification === "spoofed" ? "bot" : "ai",
    agent: { name: verdict.agent, operator: verdict.operator, category: verdict.category },
    verification,
    replay: null,
  };
}

/** The path and query an agent fetched, when robots.txt could judge it otherwise than its page (null: the page's path is what it fetched). */
function fetchedOf(raw: string, page: string): string | null {
  const fetched = fetchedPath(raw);
  return fetched === page ? null : fetched;
}

/** Records the verified signatures about to be written; returns the rows whose signature was used before (or twice in the batch). */
async function replayedSignatures(tx: Pick<Db, "query">, projectId: string, rows: InboxRow[]): Promise<InboxRow[]> {
  const signed = rows.filter((row) => row.replay !== null);
  if (signed.length === 0) return [];
  const inserted = await tx.query<{ signature: string }>(
    `INSERT INTO analytics_signature_uses (project_id, signature, expires_at)
     SELECT $1, r.k, to_timestamp(r.e / 1000) FROM json_to_recordset($2::json) AS r (k text, e float8) ON CONFLICT DO NOTHING RETURNING signature`,
    [projectId, recordset([...new Map(signed.map((row) => [row.replay?.key, { k: row.replay?.key, e: row.replay?.expiresAt }])).values()])],
  );
  const fresh = new Set(inserted.map((row) => row.signature));
  return signed.filter((row) => !fresh.delete(row.replay?.key as string));
}

/** Records the batch's idempotency ids; returns those not seen before (each at most once). */
async function claimHitKeys(tx: Pick<Db, "query">, projectId: string, rows: InboxRow[]): Promise<Set<string>> {
  const keyed = rows.filter((row) => row.hitKey !== null);
  if (keyed.length === 0) return new Set();
  const days = new Map<string, number>();
  for (const row of keyed) if (!days.has(row.hitKey as string)) days.set(row.hitKey as string, row.day);
  const inserted = await tx.query<{ hit_key: string | number }>(
    `INSERT INTO analytics_hit_ids (project_id, hit_key, day)
     SELECT $1, r.k, r.d FROM json_to_recordset($2::json) AS r (k bigint, d int) ON CONFLICT DO NOTHING RETURNING hit_key::text AS hit_key`,
    [projectId, recordset([...days].map(([k, d]) => ({ k, d })))],
  );
  return new Set(inserted.map((row) => String(row.hit_key)));
}

function hitKey(projectId: string, id: string): string {
  return createHash("sha256").update(projectId).update("\n").update(id).digest().readBigInt64BE(0).toString();
}
