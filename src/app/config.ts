import { z } from "zod";
import { DEFAULT_MODEL } from "../shared/api-schemas.js";
import { describeIssues } from "../shared/zod-issues.js";
import { parseTrustedProxies } from "./http-kit/client-ip.js";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

/** Where GitHub Actions on github.com gets its OIDC tokens from (GHES: your instance's). */
const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";

/** PORT when it is unset; the tunnel recipe names any other port so a restart keeps it. */
export const DEFAULT_PORT = 3000;

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/**
 * Every environment variable the service reads, each with its one-line description (and, for an
 * optional one, `unset`: what leaving it out means). The manual's environment reference
 * (docs/configuration.md) is generated from this (src/app/config-reference.ts, `npm run docs:generate`).
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT).meta({ description: "HTTP port (`0` picks a free one)." }),
  HOST: z.string().min(1).default("127.0.0.1").meta({ description: "Address to bind: `127.0.0.1` serves this machine only (a laptop, or a reverse proxy on the same host); `0.0.0.0` (the container image's) every interface." }),
  DATA_DIR: z.string().min(1).default("./data").meta({
    description: "PGlite's files (`DATA_DIR/pglite`) and lock, and the generated operator token (`DATA_DIR/admin-token`, with PostgreSQL too).",
  }),
  DATABASE_URL: z.string().min(1).optional().meta({
    description: "PostgreSQL connection string; when set, PostgreSQL is the store instead of PGlite, and several instances may share it.",
    unset: "PGlite in `DATA_DIR`",
  }),
  INKWELL_ADMIN_TOKEN: z.string().min(16, { error: "INKWELL_ADMIN_TOKEN must be at least 16 characters" }).optional().meta({
    description: "Operator token for `/admin/*`, the CLI's operator commands and the dashboard's sign-in. Set it when several instances share PostgreSQL.",
    unset: "generated once, saved to `DATA_DIR/admin-token`",
  }),
  PUBLIC_URL: z.url().optional().meta({
    description: "The address GitHub, the Actions runners and browsers reach this server at: the audience of the runners' OIDC tokens (no claim without it), the App's webhook URL, links in PR comments, the OpenAPI `servers`.",
  }),
  APP_ID: z.string().min(1).optional().meta({
    description: "The GitHub App's id. APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET go together: all three or none (then the API works and jobs fail saying so).",
  }),
  PRIVATE_KEY: z.string().min(1).optional().meta({ description: "The App's private key: PEM, PEM with `\\n` for its newlines, or base64 of the PEM." }),
  PRIVATE_KEY_PATH: z.string().min(1).optional().meta({ description: "A file holding the App's private key, read at start when PRIVATE_KEY is unset." }),
  WEBHOOK_SECRET: z.string().min(1).optional().meta({ description: "The App's webhook secret: deliveries to `/api/github/webhooks` are verified against it." }),
  WEBHOOK_PROXY_URL: z.url().optional().meta({ description: "A smee.io channel relayed to the webhook path, for local development without a public address." }),
  GHE_HOST: z.string().min(1).optional().meta({
    description: "GitHub Enterprise Server host; repository URLs and the API base (`/api/v3`) follow it.",
    unset: "github.com",
  }),
  GHE_PROTOCOL: z.enum(["https", "http"]).default("https").meta({ description: "Protocol of GHE_HOST." }),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info").meta({ description: "Least level logged. Access lines are logged at `debug`." }),
  LOG_FORMAT: z.enum(["auto", "pretty", "json"]).default("auto").meta({ description: "`auto`: readable lines on a terminal, JSON lines otherwise (a pipe, a file, a container's log)." }),
  INKWELL_DEFAULT_MODEL: z.string().min(1).default(DEFAULT_MODEL).meta({ description: "Model of new projects (a project's or a job's own model overrides it)." }),
  INKWELL_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(100).meta({
    description: "Job creations + messages per project per rolling hour, for projects without their own limit.",
  }),
  INKWELL_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(256 * 1024).meta({
    description: "Largest accepted body of API, operator and runner requests (hit batches and robots.txt versions may be 4 MiB and run transcripts 8 MiB regardless).",
  }),
  INKWELL_DISPATCH_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60).meta({
    description: "With PostgreSQL: how long a background task (dispatch, webhook delivery…) claimed by an instance that died waits before another instance takes it (PGlite releases such claims at start).",
  }),
  INKWELL_OIDC_ISSUER: z.url().default(GITHUB_ACTIONS_ISSUER).meta({ description: "Issuer of the runners' OIDC tokens (GitHub Enterprise Server: your instance's)." }),
  INKWELL_JOB_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(60).meta({
    description: "An active job with no dispatch, claim or heartbeat for this long fails (the watchdog).",
  }),
  INKWELL_HEARTBEAT_SECONDS: z.coerce.number().int().min(5).max(600).default(30).meta({ description: "How often runners are asked to send a heartbeat." }),
  INKWELL_APP_SLUG: z.string().regex(/^[a-z0-9-]+$/).optional().meta({
    description: "The App's slug: `@<slug>` in PR comments addresses the agent, commits are authored as `<slug>[bot]`.",
    unset: "asked of GitHub (`GET /app`)",
  }),
  INKWELL_COMMAND: z.string().regex(/^\S+$/).default("/inkwell").meta({ description: "A PR comment starting with this addresses the agent (as `@<app-slug>` does)." }),
  INKWELL_WORKFLOW_CHECK_SECONDS: z.coerce.number().int().min(0).max(3600).default(180).meta({
    description: "After a dispatch no run has claimed for this long, check that the repository has the Inkwell workflow (and fail the job, saying so, when it has none).",
  }),
  INKWELL_ACTION_REF: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+(@[^\s@]+)?$/, { error: "INKWELL_ACTION_REF must be owner/repo or owner/repo@ref (a tag, branch or commit SHA)" })
    .optional()
    .meta({
      description: "Where docs repositories take the Action from, as the Setup tab's workflow writes it in `uses:`: your fork or mirror of Inkwell, `owner/repo@ref` (a release tag or a commit SHA); a bare `owner/repo` gets `@v<major>` of this server's version ([Releasing the Action](action.md#releasing-the-action)).",
      unset: "this checkout's `origin` on GitHub at `v<major>`, the tag `npm run release` moves; with no checkout (the container image) the Setup tab asks for it",
    }),
  INKWELL_TRUSTED_PROXIES: z.string().optional().meta({
    description: "Addresses or CIDR ranges (comma separated) of your reverse proxies: only from these are `X-Forwarded-For` (beacon visitors' addresses) and `X-Forwarded-Proto` (secure dashboard cookies) believed.",
    unset: "none: the peer is the client",
  }),
  INKWELL_ANALYTICS_RAW_RETENTION_DAYS: z.coerce.number().int().min(0).max(3660).default(30).meta({
    description: "Raw page-view events (visitor id, page, time, class; never IP or User-Agent) are kept this long; `0` keeps none. Counts do not depend on them.",
  }),
  INKWELL_ANALYTICS_BACKFILL_DAYS: z.coerce.number().int().min(1).max(3660).default(400).meta({
    description: "Hits older than this are refused; idempotency ids of imported lines are kept this long.",
  }),
  GITHUB_CLIENT_ID: z.string().min(1).optional().meta({
    description: "The App's OAuth client id: with GITHUB_CLIENT_SECRET (both or neither) turns on \"Sign in with GitHub\" for the dashboard.",
  }),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional().meta({ description: "The App's OAuth client secret (with GITHUB_CLIENT_ID)." }),
  INKWELL_DASHBOARD_MIN_PERMISSION: z.enum(["read", "triage", "write", "maintain", "admin"]).default("write").meta({
    description: "Least repository permission that shows a project to a GitHub user in the dashboard.",
  }),
  INKWELL_WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false"])
    .default("false")
    .meta({ description: "`true` lets project webhooks deliver to loopback, private and link-local addresses (internal targets); by default those are refused, checked again on every delivery." }),
  INKWELL_SLACK_API_URL: z.url().default("https://slack.com/api/").meta({
    description: "Base URL of Slack's Web API, ending in `/api/` (a proxy in front of Slack, or a fake one in tests); the Slack app's tokens are set on the dashboard ([Slack](slack.md)).",
  }),
  INKWELL_MCP_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const item of (value ?? "").split(",").map((part) => part.trim()).filter(Boolean)) {
        const url = URL.canParse(item) ? new URL(item) : null;
        // An origin is scheme, host and port: a path, query, fragment or credentials mean something else was pasted.
        if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash || url.username || url.password || /\/[^/]/.test(item.replace(/^https?:\/\//, ""))) {
          ctx.addIssue({ code: "custom", message: `INKWELL_MCP_ALLOWED_ORIGINS: ${item} is not an origin (http(s)://host[:port], nothing after it)` });
          continue;
        }
        origins.push(url.origin);
      }
      return origins;
    })
    .meta({
      description: "Comma-separated origins (`https://app.example.com`) of browser-based MCP clients allowed to call `/mcp`, besides PUBLIC_URL's and this machine's; a request from any other Origin is refused (DNS rebinding). Clients outside a browser send no Origin.",
      unset: "PUBLIC_URL's origin and loopback only",
    }),
  INKWELL_OAUTH_REDIRECT_HOSTS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const hosts: string[] = [];
      for (const item of (value ?? "").split(",").map((part) => part.trim().toLowerCase()).filter(Boolean)) {
        if (!/^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(item)) {
          ctx.addIssue({ code: "custom", message: `INKWELL_OAUTH_REDIRECT_HOSTS: ${item} is not a host name (claude.ai, chatgpt.com, localhost…: no scheme, port or path)` });
          continue;
        }
        hosts.push(item);
      }
      return hosts.length > 0 ? hosts : null;
    })
    .meta({
      description: "Comma-separated host names (`claude.ai,chatgpt.com`) that MCP clients authorizing through OAuth may send people back to; a client whose redirect URI is on any other host is refused at registration and at authorization ([MCP with OAuth](mcp-oauth.md)).",
      unset: "any `https` host, `http` on loopback (a desktop client), and an app's own scheme",
    }),
  INKWELL_OAUTH_REGISTRATION: z.enum(["true", "false"]).default("true").meta({
    description: "`false` switches Dynamic Client Registration (`POST /register`) off: only clients that identify themselves by a metadata document (an `https` client_id) can then ask for access.",
  }),
  INKWELL_OAUTH_ACCESS_TOKEN_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(60).meta({
    description: "How long an OAuth access token of the MCP endpoint lasts; the client then uses its refresh token.",
  }),
  INKWELL_OAUTH_REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30).meta({
    description: "How long an unused OAuth refresh token lasts (each use replaces it with a new one); a grant unused for longer must be approved again.",
  }),
  INKWELL_SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12).meta({ description: "How long a dashboard sign-in lasts." }),
  INKWELL_ANALYTICS_ROLLUP_CHUNK: z.coerce.number().int().min(100).max(200_000).default(20_000).meta({ description: "Accepted views counted per transaction." }),
  INKWELL_ANALYTICS_ROLLUP_WORKERS: z.coerce.number().int().min(1).max(16).optional().meta({
    description: "Rollup workers in this process: the 16 partitions (by visitor) are dealt out to them; instances over one PostgreSQL share the partitions.",
    unset: "`1` on PGlite, `4` on PostgreSQL",
  }),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminToken: string | undefined;
  publicUrl: string | undefined;
  githubServerUrl: string;
  githubApiUrl: string;
  app: { appId: string; privateKey: string; webhookSecret: string } | null;
  webhookProxyUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `auto`: readable lines on a terminal, JSON otherwise. */
  logFormat: "auto" | "pretty" | "json";
  defaultModel: string;
  rateLimitPerHour: number;
  maxBodyBytes: number;
  dispatchLeaseSeconds: number;
  oidcIssuer: string;
  jobTimeoutMinutes: number;
  heartbeatSeconds: number;
  appSlug: string | undefined;
  command: string;
  workflowCheckSeconds: number;
  /** The Setup tab's `uses:` (INKWELL_ACTION_REF); unset: the checkout's origin, or a placeholder. */
  actionRef: string | undefined;
  /** Comma-separated addresses/CIDRs whose X-Forwarded-For is believed (beacon client IPs). */
  trustedProxies: string | undefined;
  /** Project webhooks may go to loopback, private and link-local addresses (INKWELL_WEBHOOKS_ALLOW_PRIVATE). */
  webhooksAllowPrivate: boolean;
  /** Slack's Web API base (INKWELL_SLACK_API_URL), ending in a slash. */
  slackApiUrl: string;
  /** Origins besides PUBLIC_URL's and loopback whose browser requests /mcp takes (INKWELL_MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: string[];
  /** Inkwell as the OAuth authorization server of /mcp (docs/mcp-oauth.md). */
  oauth: {
    /** Host names redirect URIs may have; null: any https host, http loopback, an app's own scheme. */
    redirectHosts: string[] | null;
    /** Dynamic Client Registration (POST /register) is on. */
    registration: boolean;
    accessTokenSeconds: number;
    refreshTokenSeconds: number;
  };
  analytics: { rawRetentionDays: number; backfillDays: number; rollupChunkSize: number; rollupWorkers: number | undefined };
  dashboard: {
    /** The App's OAuth credentials (sign in with GitHub); null = the operator token signs in. */
    oauth: { clientId: string; clientSecret: string } | null;
    /** The least repository permission that shows a project to a GitHub user. */
    minPermission: "read" | "triage" | "write" | "maintain" | "admin";
    sessionHours: number;
  };
}

export class ConfigError extends Error {}

/** Reads the environment once at start; a bad value stops the process with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv, readFile: (path: string) => string): Config {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === "" ? undefined : v]));
  const parsed = envSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n  ${describeIssues(parsed.error, "environment", "\n  ")}`);
  }
  const e = parsed.data;
  const privateKey = e.PRIVATE_KEY ?? (e.PRIVATE_KEY_PATH ? readFile(e.PRIVATE_KEY_PATH) : undefined);
  const appParts = { APP_ID: e.APP_ID, "PRIVATE_KEY or PRIVATE_KEY_PATH": privateKey, WEBHOOK_SECRET: e.WEBHOOK_SECRET };
  const present = Object.entries(appParts).filter(([, v]) => v !== undefined);
  if (present.length > 0 && present.length < 3) {
    const missing = Object.entries(appParts)
      .filter(([, v]) => v === undefined)
      .map(([k]) => k);
    throw new ConfigError(`GitHub App configuration is incomplete: set ${missing.join(", ")} too (or none of them to run without GitHub)`);
  }
  try {
    parseTrustedProxies(e.INKWELL_TRUSTED_PROXIES);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  if (Boolean(e.GITHUB_CLIENT_ID) !== Boolean(e.GITHUB_CLIENT_SECRET)) {
    throw new ConfigError(`Sign in with GitHub needs both GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET (the App's OAuth credentials); set ${e.GITHUB_CLIENT_ID ? "GITHUB_CLIENT_SECRET" : "GITHUB_CLIENT_ID"} too, or neither`);
  }
  const githubServerUrl = e.GHE_HOST ? `${e.GHE_PROTOCOL}://${e.GHE_HOST}` : "https://github.com";
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    adminToken: e.INKWELL_ADMIN_TOKEN,
    publicUrl: e.PUBLIC_URL === undefined ? undefined : withoutTrailingSlashes(e.PUBLIC_URL),
    githubServerUrl,
    githubApiUrl: e.GHE_HOST ? `${githubServerUrl}/api/v3` : "https://api.github.com",
    app:
      e.APP_ID && privateKey && e.WEBHOOK_SECRET
        ? { appId: e.APP_ID, privateKey: decodePrivateKey(privateKey), webhookSecret: e.WEBHOOK_SECRET }
        : null,
    webhookProxyUrl: e.WEBHOOK_PROXY_URL,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    defaultModel: e.INKWELL_DEFAULT_MODEL,
    rateLimitPerHour: e.INKWELL_RATE_LIMIT_PER_HOUR,
    maxBodyBytes: e.INKWELL_MAX_BODY_BYTES,
    dispatchLeaseSeconds: e.INKWELL_DISPATCH_LEASE_SECONDS,
    oidcIssuer: withoutTrailingSlashes(e.INKWELL_OIDC_ISSUER),
    jobTimeoutMinutes: e.INKWELL_JOB_TIMEOUT_MINUTES,
    heartbeatSeconds: e.INKWELL_HEARTBEAT_SECONDS,
    appSlug: e.INKWELL_APP_SLUG,
    command: e.INKWELL_COMMAND,
    workflowCheckSeconds: e.INKWELL_WORKFLOW_CHECK_SECONDS,
    actionRef: e.INKWELL_ACTION_REF,
    trustedProxies: e.INKWELL_TRUSTED_PROXIES,
    webhooksAllowPrivate: e.INKWELL_WEBHOOKS_ALLOW_PRIVATE === "true",
    mcpAllowedOrigins: e.INKWELL_MCP_ALLOWED_ORIGINS,
    slackApiUrl: e.INKWELL_SLACK_API_URL.endsWith("/") ? e.INKWELL_SLACK_API_URL : `${e.INKWELL_SLACK_API_URL}/`,
    oauth: {
      redirectHosts: e.INKWELL_OAUTH_REDIRECT_HOSTS,
      registration: e.INKWELL_OAUTH_REGISTRATION === "true",
      accessTokenSeconds: e.INKWELL_OAUTH_ACCESS_TOKEN_MINUTES * 60,
      refreshTokenSeconds: e.INKWELL_OAUTH_REFRESH_TOKEN_DAYS * 86_400,
    },
    analytics: {
      rawRetentionDays: e.INKWELL_ANALYTICS_RAW_RETENTION_DAYS,
      backfillDays: e.INKWELL_ANALYTICS_BACKFILL_DAYS,
      rollupChunkSize: e.INKWELL_ANALYTICS_ROLLUP_CHUNK,
      rollupWorkers: e.INKWELL_ANALYTICS_ROLLUP_WORKERS,
    },
    dashboard: {
      oauth: e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET ? { clientId: e.GITHUB_CLIENT_ID, clientSecret: e.GITHUB_CLIENT_SECRET } : null,
      minPermission: e.INKWELL_DASHBOARD_MIN_PERMISSION,
      sessionHours: e.INKWELL_SESSION_HOURS,
    },
  };
}

/** Accepts PEM with real or escaped newlines, or base64 of the PEM (as Probot does). */
function decodePrivateKey(value: string): string {
  if (value.includes("-----BEGIN")) return value.replace(/\\n/g, "\n");
  return Buffer.from(value, "base64").toString("utf8");
}
