/** Analytics ingestion and export shapes: validation, OpenAPI and CLI types from one place (docs/architecture.md, "Analytics"). */
import { isIP } from "node:net";
import { z } from "zod";
import { storedText, stringExpected } from "./stored-values.js";
import { AI_CATEGORIES } from "./analytics-vocabulary.js";
import { comparedCountsSchema, previousPeriodSchema, rangeQuerySchema, reportOutputSchema } from "./api-schemas.js";
import { MAX_HITS_PER_BATCH } from "./analytics-vocabulary.js";

export const MAX_PATH_LENGTH = 2_048;

/**
 * A page path (`/guide`) or a full http(s) URL (its path counts); no space or control character
 * anywhere. Every value it matches is a page the server counts.
 */
const NOT_IN_A_PAGE = "\\u0000-\\u0020\\u007F\\uD800-\\uDFFF";
export const PAGE_PATH_PATTERN = `^([hH][tT][tT][pP][sS]?://[^/?#${NOT_IN_A_PAGE}]*)?(/[^${NOT_IN_A_PAGE}]*)?$`;
const pagePathSchema = storedText(MAX_PATH_LENGTH, { min: 1 }).meta({ pattern: PAGE_PATH_PATTERN });

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 date-time with an offset, or epoch milliseconds; parsed to epoch milliseconds. */
const timestampSchema = z
  .union([z.string().regex(ISO_DATE_TIME, { error: "must be an ISO 8601 date-time with an offset (e.g. 2026-11-03T10:15:00Z) or epoch milliseconds" }), z.number().int().min(0)])
  .transform((value, ctx) => {
    const ms = typeof value === "number" ? value : Date.parse(value);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: "custom", message: "is not a real date-time" });
      return z.NEVER;
    }
    return ms;
  })
  .meta({ description: "When the page was served: ISO 8601 date-time with offset, or epoch milliseconds." });

const HOST_PATTERN = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;
/** A header value as received: visible ASCII and spaces (RFC 9110 field-value, without obs-text). */
const headerValue = z
  .string(stringExpected)
  .max(8_192)
  .regex(/^[\x20-\x7E]*$/, { error: "must be a header value (printable ASCII)" })
  .optional();

export const hitSchema = z
  .object({
    timestamp: timestampSchema,
    path: pagePathSchema.meta({ description: "The page path (or full URL; its path is used). Query string and fragment are dropped; a `utm_source` in the query is kept as where a person came from." }),
    ip: z
      .string(stringExpected)
      .max(64)
      .refine((ip) => isIP(ip.trim()) !== 0, { error: "must be an IPv4 or IPv6 address" })
      .meta({ description: "The client's IP address. Used only to derive the visitor id; never stored." }),
    userAgent: z.string(stringExpected).max(1_024).meta({ description: "The client's User-Agent header. Never stored." }),
    accept: z.string().max(1_024).optional().meta({ description: "The request's Accept header (text/markdown fetches by non-browsers are AI)." }),
    status: z
      .int({ error: "must be an HTTP status code (100..599)" })
      .min(100, { error: "must be an HTTP status code (100..599)" })
      .max(599, { error: "must be an HTTP status code (100..599)" })
      .optional()
      .meta({ description: "The HTTP status the site answered with (default 200); 4xx/5xx answers to AI agents are reported as failures." }),
    referrer: z.string().max(MAX_PATH_LENGTH).optional().meta({ description: "The Referer header: for a person's view, only its host is kept, as where they came from (a host of the project's allowed origins is a step within the site)." }),
    id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "Optional idempotency id: a hit whose id was already accepted for this project is not counted again (log imports set it)." }),
    method: z
      .string()
      .regex(/^[A-Z]{1,16}$/, { error: "must be an HTTP method in capitals (GET, HEAD, ...)" })
      .optional()
      .meta({ description: "The request's method (default GET); only a Web Bot Auth signature covering `@method` needs it." }),
    host: z
      .string()
      .max(255)
      .regex(HOST_PATTERN, { error: "must be a host name or address with an optional port (docs.example.com)" })
      .optional()
      .meta({ description: "The request's Host header (the `@authority` a Web Bot Auth signature covers); required with `signatureAgent` unless `path` is a full URL." }),
    signature: headerValue.meta({ description: "The request's `Signature` header (Web Bot Auth, RFC 9421)." }),
    signatureInput: headerValue.meta({ description: "The request's `Signature-Input` header." }),
    signatureAgent: headerValue.meta({
      description: "The request's `Signature-Agent` header. With `signature` and `signatureInput`, a known agent's signature is checked against its published keys: valid → the agent, verified; invalid or replayed → spoofed.",
    }),
  })
  .superRefine((hit, ctx) => {
    if (hit.signatureAgent !== undefined && hit.host === undefined && !/^https?:\/\//i.test(hit.path)) {
      ctx.addIssue({ code: "custom", path: ["host"], message: "is required with signatureAgent unless path is a full URL (it is the @authority the agent signed)" });
    }
  })
  .meta({ id: "Hit" });
export type Hit = z.output<typeof hitSchema>;

export const hitBatchSchema = z
  .object({
    hits: z
      .array(z.unknown())
      .min(1, { error: "must hold at least one hit" })
      .max(MAX_HITS_PER_BATCH, { error: `must hold at most ${MAX_HITS_PER_BATCH} hits; split the batch` })
      .meta({ description: `Up to ${MAX_HITS_PER_BATCH} hits; each is validated on its own.`, items: { $ref: "#/components/schemas/Hit" } }),
  })
  .meta({ id: "HitBatch" });

export const hitBatchResultSchema = z
  .object({
    accepted: z.int().min(0).meta({ description: "Hits stored (durably) or already stored under the same id: it includes `duplicates`, so `accepted - duplicates` hits are new." }),
    duplicates: z.int().min(0).meta({ description: "Of the accepted, hits whose id had been accepted before (not counted again)." }),
    rejected: z.array(z.object({ index: z.int().min(0), error: z.string() })).meta({ description: "Invalid hits, by their index in the batch." }),
  })
  .meta({ id: "HitBatchResult" });
export type HitBatchResult = z.infer<typeof hitBatchResultSchema>;

/** What the beacon script sends; the server adds time, IP and User-Agent. */
export const beaconEventSchema = z.object({
  path: pagePathSchema,
  referrer: z.string().max(MAX_PATH_LENGTH).optional(),
});


export const agentPagesQuerySchema = rangeQuerySchema({ output: reportOutputSchema });
/** An agent's name as the agents report gives it (URL-encoded in the path). */
export const agentNameSchema = storedText(200, { min: 1 }).meta({ description: "The agent's name, as the agents report gives it." });
export const failuresQuerySchema = rangeQuerySchema({ output: reportOutputSchema });

const verificationCountsSchema = z
  .object({ verified: z.int().min(0), spoofed: z.int().min(0), unverifiable: z.int().min(0) })
  .meta({
    description:
      "Views by how the agent's claim checked out: verified (address in the operator's published ranges), spoofed (it publishes ranges and the address is in none: counted as an unknown bot, not as this agent), unverifiable (nothing published to check).",
  });

const agentTotalsSchema = z.object({ views: z.int().min(0), visitors: z.int().min(0) });
export const agentsSchema = z
  .object({
    totals: agentTotalsSchema.extend({ previous: agentTotalsSchema.optional().meta({ description: "With compare=previous: the previous period's." }) }),
    agents: z.array(
      z.object({
        agent: z.string(),
        operator: z.string(),
        category: z.enum(AI_CATEGORIES),
        verification: verificationCountsSchema,
        views: z.int().min(0).meta({ description: "Views counted as this agent's (verified + unverifiable)." }),
        visitors: z.int().min(0),
        pages: z.int().min(0).meta({ description: "Distinct pages it read." }),
        robotsDisallowed: z.int().min(0).meta({ description: "Its views of pages the robots.txt in force at the time disallowed for it (the robots report has the rest: docs/analytics/robots.md)." }),
        previous: z
          .object({ views: z.int().min(0), visitors: z.int().min(0), pages: z.int().min(0) })
          .optional()
          .meta({ description: "With compare=previous: the agent's views, visitors and pages over the previous period." }),
      }),
    ),
    hasMore: z.boolean(),
    previous: previousPeriodSchema,
  })
  .meta({ id: "Agents", description: "AI agents that read the project's pages, most views first (then by name)." });
export type Agents = z.infer<typeof agentsSchema>;

export const agentPagesSchema = z
  .object({
    pages: z.array(
      z.object({
        path: z.string(),
        views: z.int().min(0),
        visitors: z.int().min(0),
        failed: z.int().min(0).meta({ description: "Views answered with a 4xx or 5xx status." }),
      }),
    ),
    hasMore: z.boolean(),
  })
  .meta({ id: "AgentPages", description: "What one agent read, most views first (then by path)." });
export type AgentPages = z.infer<typeof agentPagesSchema>;

export const failuresSchema = z
  .object({
    failures: z.array(z.object({ path: z.string(), status: z.int().min(400).max(599), views: z.int().min(0), agents: z.array(z.string()) })),
    hasMore: z.boolean(),
  })
  .meta({ id: "Failures", description: "Pages AI agents failed to fetch (4xx/5xx answers), most failed views first (then by path and status)." });
export type Failures = z.infer<typeof failuresSchema>;

export const viewsSchema = z
  .object({
    totals: comparedCountsSchema,
    views: z.array(comparedCountsSchema.extend({ path: z.string() })),
    hasMore: z.boolean(),
    previous: previousPeriodSchema,
  })
  .meta({ id: "Views", description: "Content views (page loads), not distinct visitors; total = human + ai; bot: other bots' views, apart." });
export type Views = z.infer<typeof viewsSchema>;

export const operatorRatiosQuerySchema = rangeQuerySchema({ output: reportOutputSchema });

export const operatorRatiosSchema = z
  .object({
    operators: z.array(
      z.object({
        operator: z.string().meta({ description: "The operator's key: its company's list in v2fly/domain-list-community (openai, anthropic, alphabet…), or the registrable domain of a company with none; `agent:<name>` for an agent no list places." }),
        name: z.string(),
        crawlerViews: z.int().min(0).meta({ description: "Views by its AI crawlers (verified or unverifiable; failed fetches included)." }),
        searchViews: z.int().min(0).meta({ description: "Views by its AI search bots (the same)." }),
        people: z.int().min(0).meta({ description: "Distinct people who arrived from its AI answers (any of its answer engines), counted since this report exists." }),
        arrivals: z.int().min(0).meta({ description: "Their views that arrived from those answers." }),
        crawlsPerPerson: z.number().min(0).nullable().meta({ description: "(crawlerViews + searchViews) / people, to two decimals; null when no one arrived." }),
      }),
    ),
    hasMore: z.boolean(),
  })
  .meta({ id: "OperatorRatios", description: "The crawl-to-referral ratio per AI operator, most crawled first." });
export type OperatorRatios = z.infer<typeof operatorRatiosSchema>;
