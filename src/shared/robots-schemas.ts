import { z } from "zod";
import { AI_CATEGORIES } from "./analytics-vocabulary.js";
import { queryInt, rangeQuerySchema, reportOutputSchema } from "./api-schemas.js";
import { storedText } from "./stored-values.js";
import { httpUrl } from "./http-url.js";

// robots.txt history and AI agents' compliance with it (docs/analytics/robots.md).

/** RFC 9309 2.5: parsers read at least 500 KiB; Inkwell keeps versions up to that. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

export const robotsVersionInputSchema = z
  .strictObject({
    body: z.string().max(MAX_ROBOTS_BYTES).meta({ description: "The robots.txt file as served (at most 500 KiB). An empty body is a site without rules." }),
    effectiveAt: z.iso.datetime({ offset: true }).optional().meta({
      description: "When it took effect; default now. Not before the latest version's, and not in the future: a version takes effect when it is served (a time up to 5 minutes ahead, clock skew, is taken as now).",
      // Not after the service's clock: a constraint JSON Schema cannot state (test/helpers/openapi-arbitraries.ts reads it).
      "x-not-after": "now",
    }),
  })
  .meta({ id: "RobotsVersionInput" });

const contentSignalsSchema = z.object({
  userAgents: z.array(z.string()).meta({ description: "The group's user agents (`*` for a line outside any group)." }),
  line: z.int().min(1),
  search: z.boolean().optional(),
  aiInput: z.boolean().optional(),
  aiTrain: z.boolean().optional(),
});

export const robotsVersionSchema = z
  .object({
    id: z.int().min(1),
    effectiveAt: z.string().meta({ description: "When it took effect (ISO 8601)." }),
    source: z.enum(["fetch", "repository", "api"]).meta({ description: "Fetched from the site's URL, taken from the docs repository, or sent through the API." }),
    origin: z.string().nullable().meta({ description: "The URL it was fetched from, when fetched." }),
    sha256: z.string(),
    bytes: z.int().min(0),
    body: z.string(),
    contentSignals: z.array(contentSignalsSchema).meta({ description: "Its Content-Signal lines (contentsignals.org: search, ai-input, ai-train), with the group each is in." }),
  })
  .meta({ id: "RobotsVersion" });

export const robotsVersionsSchema = z.object({ versions: z.array(robotsVersionSchema), hasMore: z.boolean() }).meta({ id: "RobotsVersions", description: "robots.txt versions, the latest first." });
export type RobotsVersions = z.infer<typeof robotsVersionsSchema>;

export const robotsVersionsQuerySchema = z.object({ limit: queryInt(1, 100, 20), offset: queryInt(0, 1_000_000_000, 0) });

export const robotsSourceInputSchema = z
  .strictObject({
    url: httpUrl(2_000, "The site's robots.txt URL (http or https, public addresses only)."),
    everyMinutes: z.int().min(5).max(10_080).default(60).meta({ description: "How often it is fetched (5 minutes to a week; default hourly)." }),
  })
  .meta({ id: "RobotsSourceInput" });

export const robotsSourceSchema = z
  .object({
    source: z.object({ url: z.string(), everyMinutes: z.int(), nextFetchAt: z.string() }).nullable(),
    fetches: z.array(
      z.object({
        fetchedAt: z.string(),
        url: z.string(),
        outcome: z.enum(["new_version", "unchanged", "failed"]),
        status: z.int().nullable(),
        error: z.string().nullable(),
        versionId: z.int().nullable(),
      }),
    ),
  })
  .meta({ id: "RobotsSource", description: "Where robots.txt is fetched from, and the latest fetches (failures included)." });
export type RobotsSource = z.infer<typeof robotsSourceSchema>;

const complianceCountsSchema = {
  allowed: z.int().min(0).meta({ description: "Views the robots.txt in force allowed." }),
  disallowed: z.int().min(0).meta({ description: "Views of pages it disallowed for the agent's product token." }),
  unknown: z.int().min(0).meta({ description: "Views before the first known version: never violations." }),
  robotsReads: z.int().min(0).meta({ description: "Fetches of /robots.txt itself." }),
};

export const robotsComplianceQuerySchema = rangeQuerySchema({ output: reportOutputSchema });

export const robotsComplianceSchema = z
  .object({
    totals: z.object(complianceCountsSchema),
    agents: z.array(z.object({ agent: z.string(), operator: z.string(), category: z.enum(AI_CATEGORIES), ...complianceCountsSchema })),
    hasMore: z.boolean(),
  })
  .meta({ id: "RobotsCompliance", description: "AI agents' views judged against the robots.txt in force at each view's time, most disallowed first (then by name). Spoofed claims are not counted." });
export type RobotsCompliance = z.infer<typeof robotsComplianceSchema>;

export const robotsOperatorsSchema = z
  .object({ operators: z.array(z.object({ operator: z.string(), agents: z.int().min(0), ...complianceCountsSchema })), hasMore: z.boolean() })
  .meta({ id: "RobotsOperators", description: "The compliance report per operator (every agent of the company), most disallowed first." });
export type RobotsOperators = z.infer<typeof robotsOperatorsSchema>;

export const robotsDisallowedQuerySchema = rangeQuerySchema({
  output: reportOutputSchema,
  agent: storedText(200, { min: 1 }).optional().meta({ description: "Only this agent's views." }),
});

export const robotsDisallowedSchema = z
  .object({
    disallowed: z.array(
      z.object({
        agent: z.string(),
        operator: z.string(),
        path: z.string().meta({ description: "The page (the views were judged on the URLs fetched: path and query, trailing slash kept)." }),
        versionId: z.int().min(1),
        versionEffectiveAt: z.string(),
        rule: z.string().nullable().meta({ description: "The directive that disallowed it, as written (`Disallow: /private`)." }),
        line: z.int().min(1).nullable(),
        views: z.int().min(0),
        firstSeen: z.string(),
        lastSeen: z.string(),
      }),
    ),
    hasMore: z.boolean(),
  })
  .meta({ id: "RobotsDisallowed", description: "Disallowed views per agent, page, robots.txt version and rule, with the rule that disallowed them; most views first." });
export type RobotsDisallowed = z.infer<typeof robotsDisallowedSchema>;

export const robotsChangesSchema = z
  .object({
    versions: z.array(
      z.object({
        versionId: z.int().min(1),
        effectiveAt: z.string(),
        agents: z.array(z.object({ agent: z.string(), ...complianceCountsSchema, before: z.object(complianceCountsSchema).meta({ description: "The same agent under the version before (or before any), over the same range." }) })),
      }),
    ),
    hasMore: z.boolean(),
  })
  .meta({ id: "RobotsChanges", description: "Per robots.txt version, the latest first: each agent's views while it was in force beside its views under the version before, so a change shows whether agents changed their behaviour." });
export type RobotsChanges = z.infer<typeof robotsChangesSchema>;
