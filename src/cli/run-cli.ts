import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import type { Readable } from "node:stream";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ApiKeyView, CreatedKeyView, ProjectView } from "../shared/admin-schemas.js";
import { JOB_STATUSES, type AgentJob, type AgentJobList, type JobEvent } from "../shared/api-schemas.js";
import { CliError, InkwellClient, type Credential } from "./client.js";
import { age, fields, table } from "./format.js";
import type { HitBatchResult } from "../shared/analytics-schemas.js";
import { LOG_FORMATS, type LogFormat } from "./log-formats.js";
import { formatSummary, importLog, progressLine } from "./log-import.js";

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
  readStdin: () => Promise<string>;
  /** Standard input as a stream (log imports read it line by line). */
  stdinStream: () => Readable;
  sleep: (ms: number) => Promise<void>;
}

export const USAGE = `Usage: inkwell <command> [options]

Operator (token: --token or INKWELL_ADMIN_TOKEN):
  projects create <owner/repo|url> [--ref BRANCH] [--name NAME] [--model MODEL] [--rate-limit N]
  projects list
  projects get <projectId>
  projects update <projectId> [--allowed-origin ORIGIN]… [--no-allowed-origins] [--salt-window day|week|month]
  keys create --project ID [--name NAME]
  keys list --project ID
  keys revoke --project ID <keyId>

Agent jobs (key: --key or INKWELL_API_KEY; project: --project or INKWELL_PROJECT):
  jobs create <prompt…>            (or --prompt-file FILE, or - to read stdin) [--idempotency-key K]
  jobs get <jobId>
  jobs message <jobId> <prompt…>   (or --prompt-file FILE, or -)
  jobs list [--status active|completed|failed|archived] [--limit N] [--offset N]
  jobs watch <jobId> [--interval SECONDS]   exits 0 when completed/archived, 3 when failed

Analytics (key and project as above; dates YYYY-MM-DD, --to excluded):
  analytics visitors [--from DATE] [--to DATE] [--limit N] [--offset N] [--all]
  analytics views    [--from DATE] [--to DATE] [--limit N] [--offset N] [--all]
  analytics import --format combined|vercel|cloudflare <FILE|->

Global options:
  --url URL      Inkwell server (INKWELL_URL, default http://localhost:3000)
  --json         print JSON instead of tables
  -h, --help     this help

Exit codes: 0 ok, 1 error, 2 usage error, 3 watched job failed.`;

const OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  key: { type: "string" },
  project: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ref: { type: "string" },
  name: { type: "string" },
  model: { type: "string" },
  "rate-limit": { type: "string" },
  "prompt-file": { type: "string" },
  "idempotency-key": { type: "string" },
  status: { type: "string" },
  limit: { type: "string" },
  offset: { type: "string" },
  interval: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  all: { type: "boolean" },
  format: { type: "string" },
  "allowed-origin": { type: "string", multiple: true },
  "no-allowed-origins": { type: "boolean" },
  "salt-window": { type: "string" },
} as const;

type Values = ReturnType<typeof parse>["values"];
const parse = (argv: string[]) => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, action, ...rest] = positionals;
  if (values.help || !group) {
    io.stdout(USAGE);
    return values.help ? 0 : 2;
  }
  const baseUrl = values.url ?? io.env.INKWELL_URL ?? "http://localhost:3000";
  try {
    new URL(baseUrl);
    const ctx: CommandContext = {
      io,
      values,
      args: rest,
      json: values.json ?? false,
      client: new InkwellClient({ baseUrl, fetch: io.fetch }),
      operator: { kind: "operator", token: values.token ?? io.env.INKWELL_ADMIN_TOKEN ?? localOperatorToken(baseUrl, io.env) },
      projectKey: { kind: "project", key: values.key ?? io.env.INKWELL_API_KEY },
    };
    const command = COMMANDS[`${group} ${action ?? ""}`];
    if (!command) throw new CliError(`Unknown command: ${[group, action].filter(Boolean).join(" ")}\n\n${USAGE}`, 2);
    return (await command(ctx)) ?? 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`inkwell: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof TypeError && /Invalid URL/.test(error.message)) {
      io.stderr(`inkwell: --url is not a valid URL: ${baseUrl}`);
      return 2;
    }
    throw error;
  }
}

/** On the server's own machine the generated operator token can be read from DATA_DIR. */
function localOperatorToken(baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  const host = new URL(baseUrl).hostname;
  if (!["localhost", "127.0.0.1", "[::1]"].includes(host)) return undefined;
  const file = path.resolve(env.DATA_DIR ?? "./data", "admin-token");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

interface CommandContext {
  io: CliIo;
  values: Values;
  args: string[];
  json: boolean;
  client: InkwellClient;
  operator: Credential;
  projectKey: Credential;
}

type Command = (ctx: CommandContext) => Promise<number | void>;

const enc = encodeURIComponent;

function need(value: string | undefined, what: string): string {
  if (!value) throw new CliError(`Missing ${what}\n\n${USAGE}`, 2);
  return value;
}

const projectOf = (ctx: CommandContext) => need(ctx.values.project ?? ctx.io.env.INKWELL_PROJECT, "--project (or INKWELL_PROJECT)");

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a non-negative integer`, 2);
  return Number(value);
}

async function promptOf(ctx: CommandContext, words: string[]): Promise<string> {
  if (ctx.values["prompt-file"]) {
    try {
      return readFileSync(ctx.values["prompt-file"], "utf8");
    } catch (error) {
      throw new CliError(`Cannot read --prompt-file: ${error instanceof Error ? error.message : String(error)}`, 2);
    }
  }
  if (words.length === 1 && words[0] === "-") return ctx.io.readStdin();
  return need(words.join(" "), "prompt (as arguments, --prompt-file FILE, or - for stdin)");
}

function print(ctx: CommandContext, data: unknown, human: () => string) {
  ctx.io.stdout(ctx.json ? JSON.stringify(data, null, 2) : human());
}

const projectFields = (p: ProjectView) =>
  fields([
    ["id", p.id],
    ["repository", p.repository],
    ["base ref", p.ref ?? "(default branch)"],
    ["model", p.model],
    ["rate limit", `${p.rateLimitPerHour}/hour`],
    ["analytics", `salt window ${p.analytics.saltWindow}; beacon origins: ${p.analytics.allowedOrigins.join(", ") || "none (the beacon is refused until one is added)"}`],
    ["app installed", p.installation.installed ? `yes (installation ${p.installation.id}${p.installation.suspended ? ", suspended" : ""})` : "no"],
    ["created", p.createdAt],
  ]);

const jobFields = (j: AgentJob) =>
  fields([
    ["id", j.id],
    ["status", j.status],
    ["repository", j.source.repository],
    ["branch", j.source.ref],
    ["model", j.model],
    ["pull request", j.prLink],
    ["created", j.createdAt],
    ["updated", j.updatedAt],
    ["archived", j.archivedAt],
    ...(j.error ? ([["error", j.error]] as [string, string][]) : []),
  ]);

async function analyticsReport(ctx: CommandContext, endpoint: "visitors" | "views") {
  const projectId = projectOf(ctx);
  const query = new URLSearchParams();
  if (ctx.values.from) query.set("dateFrom", ctx.values.from);
  if (ctx.values.to) query.set("dateTo", ctx.values.to);
  const all = ctx.values.all ?? false;
  const limit = intOption(ctx.values.limit, "limit") ?? (all ? 250 : 50);
  let offset = intOption(ctx.values.offset, "offset") ?? 0;
  type Report = { totals: { human: number; ai: number; total: number }; hasMore: boolean } & Record<typeof endpoint, { path: string; human: number; ai: number; total: number }[]>;
  const rows: Report[typeof endpoint] = [];
  let report: Report;
  do {
    query.set("limit", String(limit));
    query.set("offset", String(offset));
    report = await ctx.client.request<Report>("GET", `/v1/analytics/${enc(projectId)}/${endpoint}?${query}`, ctx.projectKey);
    rows.push(...report[endpoint]);
    offset += limit;
  } while (all && report.hasMore);
  const result = { totals: report.totals, [endpoint]: rows, hasMore: report.hasMore };
  print(ctx, result, () => {
    const unit = endpoint === "visitors" ? "unique visitors" : "views";
    const head = `Total ${unit}: ${report.totals.total} (human ${report.totals.human}, AI ${report.totals.ai})`;
    if (rows.length === 0) return `${head}\nNo pages in this range.`;
    const body = table(["PATH", "HUMAN", "AI", "TOTAL"], rows.map((r) => [r.path, r.human, r.ai, r.total]));
    return `${head}\n\n${body}${report.hasMore ? `\n\nMore: add --offset ${offset} (or --all)` : ""}`;
  });
}

function openLogInput(ctx: CommandContext): { input: Readable; totalBytes: number | null } {
  const source = need(ctx.args[0], "log file (or - for stdin)");
  if (source === "-") return { input: ctx.io.stdinStream(), totalBytes: null };
  try {
    const totalBytes = statSync(source).size;
    return { input: createReadStream(source), totalBytes };
  } catch (error) {
    throw new CliError(`Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
}

const COMMANDS: Record<string, Command> = {
  "analytics visitors": (ctx) => analyticsReport(ctx, "visitors"),
  "analytics views": (ctx) => analyticsReport(ctx, "views"),

  async "analytics import"(ctx) {
    const projectId = projectOf(ctx);
    const format = ctx.values.format;
    if (!format || !(LOG_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${LOG_FORMATS.join(", ")}`, 2);
    const { input, totalBytes } = openLogInput(ctx);
    let lastProgress = 0;
    const summary = await importLog({
      format: format as LogFormat,
      input,
      totalBytes,
      send: (hits) => sendWithRetry(ctx, () => ctx.client.request<HitBatchResult>("POST", `/v1/analytics/${enc(projectId)}/hits`, ctx.projectKey, { body: { hits } })),
      progress: (current, bytesRead) => {
        if (ctx.json || Date.now() - lastProgress < 1_000) return;
        lastProgress = Date.now();
        ctx.io.stderr(progressLine(current, bytesRead, totalBytes));
      },
    });
    print(ctx, summary, () => formatSummary(summary));
  },

  async "projects update"(ctx) {
    const id = need(ctx.args[0] ?? ctx.values.project, "project id");
    const saltWindow = ctx.values["salt-window"];
    if (saltWindow && !["day", "week", "month"].includes(saltWindow)) throw new CliError("--salt-window must be day, week or month", 2);
    const origins = ctx.values["no-allowed-origins"] ? [] : ctx.values["allowed-origin"];
    if (!saltWindow && !origins) throw new CliError("Nothing to change: pass --allowed-origin ORIGIN (repeatable), --no-allowed-origins or --salt-window", 2);
    const analytics = { ...(saltWindow ? { saltWindow } : {}), ...(origins ? { allowedOrigins: origins } : {}) };
    const project = await ctx.client.request<ProjectView>("PATCH", `/admin/projects/${enc(id)}`, ctx.operator, { body: { analytics } });
    print(ctx, project, () => `Updated project ${project.id}\n${projectFields(project)}`);
  },

  async "projects create"(ctx) {
    const [repository] = ctx.args;
    const body = {
      repository: need(repository, "repository (owner/repo or URL)"),
      ...(ctx.values.ref ? { ref: ctx.values.ref } : {}),
      ...(ctx.values.name ? { name: ctx.values.name } : {}),
      ...(ctx.values.model ? { model: ctx.values.model } : {}),
      ...(ctx.values["rate-limit"] ? { rateLimitPerHour: intOption(ctx.values["rate-limit"], "rate-limit") } : {}),
    };
    const project = await ctx.client.request<ProjectView>("POST", "/admin/projects", ctx.operator, { body });
    print(ctx, project, () => `Created project ${project.id}\n${projectFields(project)}`);
  },

  async "projects list"(ctx) {
    const { projects } = await ctx.client.request<{ projects: ProjectView[] }>("GET", "/admin/projects", ctx.operator);
    print(ctx, projects, () =>
      projects.length === 0
        ? "No projects yet. Create one: inkwell projects create owner/repo"
        : table(
            ["ID", "REPOSITORY", "REF", "APP", "CREATED"],
            projects.map((p) => [p.id, p.repository, p.ref, p.installation.installed ? "installed" : "not installed", p.createdAt]),
          ),
    );
  },

  async "projects get"(ctx) {
    const id = need(ctx.args[0] ?? ctx.values.project, "project id");
    const project = await ctx.client.request<ProjectView>("GET", `/admin/projects/${enc(id)}`, ctx.operator);
    print(ctx, project, () => projectFields(project));
  },

  async "keys create"(ctx) {
    const projectId = projectOf(ctx);
    const created = await ctx.client.request<CreatedKeyView>("POST", `/admin/projects/${enc(projectId)}/keys`, ctx.operator, {
      body: ctx.values.name ? { name: ctx.values.name } : {},
    });
    print(ctx, created, () => `${created.key}\n\nKey ${created.id} for project ${projectId}. Store it now: it is not shown again.`);
  },

  async "keys list"(ctx) {
    const projectId = projectOf(ctx);
    const { keys } = await ctx.client.request<{ keys: ApiKeyView[] }>("GET", `/admin/projects/${enc(projectId)}/keys`, ctx.operator);
    print(ctx, keys, () =>
      keys.length === 0
        ? "No keys. Create one: inkwell keys create --project " + projectId
        : table(
            ["ID", "NAME", "PREFIX", "CREATED", "LAST USED", "REVOKED"],
            keys.map((k) => [k.id, k.name, `${k.prefix}…`, k.createdAt, k.lastUsedAt, k.revokedAt]),
          ),
    );
  },

  async "keys revoke"(ctx) {
    const projectId = projectOf(ctx);
    const keyId = need(ctx.args[0], "key id");
    const key = await ctx.client.request<ApiKeyView>("DELETE", `/admin/projects/${enc(projectId)}/keys/${enc(keyId)}`, ctx.operator);
    print(ctx, key, () => `Revoked key ${key.id} (${key.prefix}…) at ${key.revokedAt}`);
  },

  async "jobs create"(ctx) {
    const projectId = projectOf(ctx);
    const prompt = await promptOf(ctx, ctx.args);
    const idempotencyKey = ctx.values["idempotency-key"];
    const job = await ctx.client.request<AgentJob>("POST", `/v2/agent/${enc(projectId)}/job`, ctx.projectKey, {
      body: { prompt },
      ...(idempotencyKey ? { headers: { "Idempotency-Key": idempotencyKey } } : {}),
    });
    print(ctx, job, () => `Created job ${job.id}\n${jobFields(job)}\n\nFollow it: inkwell jobs watch ${job.id} --project ${projectId}`);
  },

  async "jobs get"(ctx) {
    const projectId = projectOf(ctx);
    const path = `/v2/agent/${enc(projectId)}/job/${enc(need(ctx.args[0], "job id"))}`;
    const job = await ctx.client.request<AgentJob>("GET", path, ctx.projectKey);
    if (ctx.json) {
      ctx.io.stdout(JSON.stringify(job, null, 2));
      return;
    }
    const { events } = await ctx.client.request<{ events: JobEvent[] }>("GET", `${path}/events`, ctx.projectKey);
    const history = table(
      ["AT", "EVENT", "STATUS", "CAUSE"],
      events.map((e) => [e.at, e.type, e.from === e.to ? e.to : `${e.from ?? "-"} → ${e.to ?? "-"}`, e.cause]),
    );
    ctx.io.stdout(`${jobFields(job)}\n\nHistory:\n${history}`);
  },

  async "jobs message"(ctx) {
    const projectId = projectOf(ctx);
    const [jobId, ...words] = ctx.args;
    const prompt = await promptOf(ctx, words);
    const job = await ctx.client.request<AgentJob>("POST", `/v2/agent/${enc(projectId)}/job/${enc(need(jobId, "job id"))}/message`, ctx.projectKey, {
      body: { prompt },
    });
    print(ctx, job, () => `Message sent; job ${job.id} is ${job.status}\n${jobFields(job)}`);
  },

  async "jobs list"(ctx) {
    const projectId = projectOf(ctx);
    const status = ctx.values.status;
    if (status && !(JOB_STATUSES as readonly string[]).includes(status)) {
      throw new CliError(`--status must be one of ${JOB_STATUSES.join(", ")}`, 2);
    }
    const query = new URLSearchParams();
    if (status) query.set("status", status);
    const limit = intOption(ctx.values.limit, "limit");
    const offset = intOption(ctx.values.offset, "offset");
    if (limit !== undefined) query.set("limit", String(limit));
    if (offset !== undefined) query.set("offset", String(offset));
    const page = await ctx.client.request<AgentJobList>("GET", `/v2/agent/${enc(projectId)}/jobs?${query}`, ctx.projectKey);
    print(ctx, page, () => {
      if (page.jobs.length === 0) return "No jobs.";
      const rows = table(
        ["ID", "STATUS", "AGE", "PULL REQUEST"],
        page.jobs.map((j) => [j.id, j.status, age(j.createdAt), j.prLink ?? (j.status === "failed" ? "(failed, see jobs get)" : null)]),
      );
      const next = (offset ?? 0) + page.jobs.length;
      return page.hasMore ? `${rows}\n\nMore: inkwell jobs list --project ${projectId} --offset ${next}` : rows;
    });
  },

  async "jobs watch"(ctx) {
    const projectId = projectOf(ctx);
    const jobId = need(ctx.args[0], "job id");
    const intervalMs = (intOption(ctx.values.interval, "interval") ?? 2) * 1000;
    const path = `/v2/agent/${enc(projectId)}/job/${enc(jobId)}`;
    let last: AgentJob | null = null;
    let failures = 0;
    for (;;) {
      let job: AgentJob;
      try {
        job = await ctx.client.request<AgentJob>("GET", path, ctx.projectKey);
        failures = 0;
      } catch (error) {
        // A server restart or a blip must not end a watch; answers from the API (4xx) do.
        if (!(error instanceof CliError) || !error.message.startsWith("Cannot reach") || ++failures > 30) throw error;
        if (failures === 1) ctx.io.stderr(`inkwell: ${error.message} Retrying…`);
        await ctx.io.sleep(Math.min(intervalMs * failures, 10_000));
        continue;
      }
      if (!last || last.status !== job.status || last.prLink !== job.prLink || last.error !== job.error) {
        if (ctx.json) ctx.io.stdout(JSON.stringify(job));
        else ctx.io.stdout(`${new Date().toISOString().slice(11, 19)}  ${job.status}${job.prLink ? `  ${job.prLink}` : ""}${job.error ? `  ${job.error}` : ""}`);
      }
      last = job;
      if (job.status === "failed") return 3;
      if (job.status === "completed" || job.status === "archived") return 0;
      await ctx.io.sleep(intervalMs);
    }
  },
};

/** A batch is safe to resend (its hits carry ids): ride out a restart or a 5xx/429 blip. */
async function sendWithRetry<T>(ctx: CommandContext, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const transient = error instanceof CliError && /^(Cannot reach|5\d\d:|429:)/.test(error.message);
      if (!transient || attempt >= 5) throw error;
      await ctx.io.sleep(500 * 2 ** attempt);
    }
  }
}
