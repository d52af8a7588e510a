/**
 * Operator API shapes: validation, OpenAPI and CLI types from one place. Request bodies are strict
 * objects: the server refuses a field they do not know (http-kit/body.ts), and the OpenAPI document
 * says so (`additionalProperties: false`), both from the same schema.
 */
import { z } from "zod";
import { refName } from "./git-names.js";
import { httpUrl } from "./http-url.js";
import { storedText, stringExpected } from "./stored-values.js";
import { SALT_WINDOWS } from "./analytics-vocabulary.js";
import { KEY_SCOPES, NEEDED_SCOPES, SCOPE_MEANINGS } from "./key-scopes.js";

/** GitHub's rules: an owner of up to 39 letters, digits and hyphens; a repository name not starting with a dot. */
const OWNER_REPO_PATTERN = "^\\s*[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\\s*$";

/** scheme://host[:port] with an optional trailing slash; the host is a name, an IPv4 or a bracketed IPv6 address. */
const ORIGIN = /^\s*[hH][tT][tT][pP][sS]?:\/\/(\[[0-9A-Fa-f:.]+\]|[^\s/?#@:[\]\\]+)(:[0-9]{1,5})?\/?\s*$/u;

/** The origin as browsers send it (lower case, default port dropped); as written when URL cannot read it. */
function canonicalOrigin(value: string): string {
  const origin = URL.canParse(value) ? new URL(value).origin : "null";
  return (origin === "null" ? value.replace(/\/$/, "") : origin).toLowerCase();
}

/** Page origins allowed to send beacon views: scheme://host[:port], stored in lower case. */
const allowedOriginsSchema = z
  .array(
    z
      .string()
      .trim()
      .max(300, { error: "must be at most 300 characters" })
      .regex(ORIGIN, { error: "must be an origin such as https://docs.example.com" })
      .transform(canonicalOrigin),
  )
  .max(50)
  .meta({ description: "Origins (scheme://host[:port]) whose pages may send views through the beacon script." });

export const analyticsSettingsSchema = z
  .strictObject({
    saltWindow: z
      .enum(SALT_WINDOWS)
      .optional()
      .meta({ description: "How long one person stays one visitor; only settable before the first view. Default month." }),
    allowedOrigins: allowedOriginsSchema.optional(),
    markdownAsPage: z
      .boolean()
      .optional()
      .meta({ description: "Count /x.md and /x.mdx as reads of /x in format markdown (default true); false keeps them pages of their own." }),
  })
  .meta({ id: "AnalyticsSettings" });

/** The most repair rounds a project may give its jobs' failing checks. */
export const MAX_CHECK_REPAIR_ROUNDS = 10;

const modelName = storedText(200, { trim: true, min: 1 });
const allowedModels = z
  .array(modelName)
  .max(50)
  .meta({ description: "Models a job may ask for (`model` on create), besides the project's own." });

export const jobSettingsSchema = z
  .strictObject({
    planApproval: z.boolean().optional().meta({ description: "Every job's first run stops after planning and waits for its plan's approval (a job's own planApproval wins). Default false." }),
    waitLimitDays: z.int().min(1).max(365).optional().meta({ description: "A job waiting for approval or an answer longer than this many days is archived. Default 14." }),
    checkRepairRounds: z
      .int()
      .min(0)
      .max(MAX_CHECK_REPAIR_ROUNDS)
      .optional()
      .meta({
        description: `Repair rounds a job gets when the docs repository's own checks fail on its pull request or merge request (0..${MAX_CHECK_REPAIR_ROUNDS}): each sends the failing checks' log excerpts back to the agent. While this is above 0 the pull request stays a draft until the checks pass; 0 turns watching the checks off. Default 2.`,
      }),
  })
  .meta({ id: "JobSettings" });

export const updateProjectSchema = z
  .strictObject({ analytics: analyticsSettingsSchema.optional(), allowedModels: allowedModels.optional(), jobs: jobSettingsSchema.optional() })
  .meta({ id: "UpdateProjectRequest", description: "What to change; a field left out stays as it is." });

export const createProjectSchema = z
  .strictObject({
    repository: z
      .string(stringExpected)
      .trim()
      .min(1, { error: "must not be empty" })
      .max(300, { error: "must be at most 300 characters" })
      .meta({
        description: "owner/repo. The server also takes the repository's URL on its GitHub (GITHUB_SERVER_URL), with or without .git.",
        pattern: OWNER_REPO_PATTERN,
      }),
    ref: refName.optional().meta({ description: "Base branch for pull requests; default: the repository's default branch." }),
    name: storedText(200, { trim: true, min: 1 }).optional(),
    model: modelName.optional().meta({ description: "Model for this project's jobs, e.g. anthropic/claude-sonnet-4-5." }),
    allowedModels: allowedModels.optional(),
    rateLimitPerHour: z.int().min(1).max(1_000_000).optional().meta({ description: "Job creations + messages per rolling hour; default from INKWELL_RATE_LIMIT_PER_HOUR." }),
    analytics: analyticsSettingsSchema.optional(),
    jobs: jobSettingsSchema.optional(),
  })
  .meta({ id: "CreateProjectRequest" });

// GitLab paths and ids hold at least one letter, digit or underscore ("/" alone would name the project list); storable text.
const NAMES_A_PROJECT = "^[^A-Za-z0-9_\\u0000\\uD800-\\uDFFF]*[A-Za-z0-9_][^\\u0000\\uD800-\\uDFFF]*$";

export const connectGitLabProjectSchema = createProjectSchema
  .omit({ repository: true })
  .extend({
    gitlabUrl: httpUrl(300, "The GitLab instance: https://gitlab.com or a self-managed one's URL (with its relative path, if any)."),
    project: storedText(300, { trim: true, min: 1 })
      .refine((value) => /[A-Za-z0-9_]/.test(value), { error: "must name a project: its path, its URL or its numeric id" })
      .meta({ pattern: NAMES_A_PROJECT, description: "The docs project: its path (group/subgroup/project), its URL on that instance, or its numeric id." }),
    // Access tokens are printable ASCII (glpat-…); anything else could not even be sent in a header.
    token: z
      .string(stringExpected)
      .max(500, { error: "must be at most 500 characters" })
      .regex(/^\s*[!-~]+\s*$/, { error: "must be a GitLab access token: printable ASCII, no spaces inside" })
      .trim()
      .meta({ description: "A project (or group) access token with the Maintainer role and the `api` scope: Inkwell registers the project webhook, starts pipelines and opens merge requests with it. Kept by the server, never shown again." }),
  })
  .meta({ id: "ConnectGitLabProjectRequest" });

/** A new key's scopes (shared/key-scopes.ts), listed once each in their canonical order. */
const keyScopesSchema = z
  .array(z.enum(KEY_SCOPES))
  .min(1, { error: "must name at least one scope" })
  .max(KEY_SCOPES.length)
  .refine((scopes) => !scopes.includes("all") || scopes.length === 1, { error: "all already includes every scope: give it alone" })
  .transform((scopes) => [...new Set(scopes)].sort((a, b) => KEY_SCOPES.indexOf(a) - KEY_SCOPES.indexOf(b)))
  .meta({
    // The refinement above, for the OpenAPI document: no list of two or more that holds `all`.
    not: { contains: { const: "all" }, minItems: 2 },
    description: `What the key may do: ${KEY_SCOPES.map((scope) => `\`${scope}\` (${SCOPE_MEANINGS[scope]})`).join(", ")}. A request outside them is refused with 403 naming the scope it needs.`,
  });

export const createKeySchema = z
  .strictObject({
    name: storedText(200, { trim: true, min: 1 }).optional(),
    // Left out: all, as every key made before scopes (the seed's contract creates keys without a body).
    scopes: keyScopesSchema.default(["all"]),
  })
  .meta({ id: "CreateKeyRequest" });

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    repository: z.string(),
    ref: z.string().nullable(),
    model: z.string(),
    allowedModels: z.array(z.string()),
    rateLimitPerHour: z.int(),
    installation: z.object({ installed: z.boolean(), id: z.int().nullable(), suspended: z.boolean() }),
    forge: z.enum(["github", "gitlab"]).optional().meta({ description: "Where the repository lives; GitLab projects are connected with POST /admin/gitlab/projects." }),
    gitlab: z
      .object({
        url: z.string().meta({ description: "The GitLab instance." }),
        projectId: z.int(),
        projectPath: z.string(),
        webhookId: z.int().nullable().meta({ description: "The project webhook Inkwell registered (merge request, note, pipeline and issue events)." }),
        warnings: z
          .array(z.string())
          .optional()
          .meta({ description: "Only in the answer to connecting: what in the project's settings would stop its first job (pipeline variables, the job token's push permission, a local PUBLIC_URL), each with what to change." }),
      })
      .nullable()
      .optional()
      .meta({ description: "A GitLab project's connection (the access token and the webhook's tokens are never shown); null for GitHub." }),
    analytics: z.object({ saltWindow: z.enum(SALT_WINDOWS), allowedOrigins: z.array(z.string()), markdownAsPage: z.boolean() }),
    jobs: z.object({ planApproval: z.boolean(), waitLimitDays: z.int(), checkRepairRounds: z.int().meta({ description: "Repair rounds a job gets from the repository's failing checks; 0: the checks are not watched." }) }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Project" });
export type ProjectView = z.infer<typeof projectSchema>;

export const apiKeySchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string().nullable(),
    prefix: z.string().meta({ description: "The first characters of the key, to recognise it." }),
    scopes: z.array(z.enum(KEY_SCOPES)).meta({ description: "What the key may do (`all`: everything)." }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKeyView = z.infer<typeof apiKeySchema>;

/** A hosted assistant's access to a project through OAuth (docs/mcp-oauth.md), as the operator API lists it. */
export const oauthGrantSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    clientId: z.string().meta({ description: "The client's id: the https URL of its metadata document, or the id Dynamic Client Registration gave it." }),
    clientName: z.string().nullable(),
    clientKind: z.enum(["metadata_document", "registered"]).meta({ description: "`metadata_document`: verified by the document at its client_id; `registered`: registered itself (DCR)." }),
    redirectHost: z.string().nullable().meta({ description: "Where the client sends people back (its first redirect URI's host)." }),
    scopes: z.array(z.enum(NEEDED_SCOPES)),
    grantedBy: z.string().meta({ description: "Who approved: `operator` or `github:<login>`." }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: "OAuthGrant" });
export type OAuthGrantView = z.infer<typeof oauthGrantSchema>;

export const createdKeySchema = apiKeySchema
  .extend({ key: z.string().meta({ description: "The secret key. Shown only in this response." }) })
  .meta({ id: "CreatedApiKey" });
export type CreatedKeyView = z.infer<typeof createdKeySchema>;

export const agentRangeListSchema = z
  .object({
    id: z.string(),
    url: z.string().meta({ description: "Where the operator publishes the list." }),
    operator: z.string(),
    agents: z.array(z.string()).meta({ description: "The agents (User-Agent names) it verifies." }),
    asOf: z.string().meta({ description: "When the list in use was published (its creationTime) or fetched." }),
    prefixes: z.int().min(0),
  })
  .meta({ id: "AgentRangeList" });
export type AgentRangeListView = z.infer<typeof agentRangeListSchema>;

export const agentRangeRefreshSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    ok: z.boolean(),
    prefixes: z.int().min(0).optional(),
    asOf: z.string().optional(),
    error: z.string().optional().meta({ description: "Why the list was not replaced (the copy in use stays)." }),
  })
  .meta({ id: "AgentRangeRefresh" });
export type AgentRangeRefreshView = z.infer<typeof agentRangeRefreshSchema>;

export const agentRangeListsSchema = z.object({ lists: z.array(agentRangeListSchema) }).meta({ id: "AgentRangeLists" });
export const agentRangeRefreshResultsSchema = z.object({ results: z.array(agentRangeRefreshSchema) }).meta({ id: "AgentRangeRefreshResults" });
