import { JOB_TRIGGER_TYPES } from "../../shared/job-vocabulary.js";
import { readFileSync } from "node:fs";
import type { AgentJob, AgentJobList, JobEvent, JobRun } from "../../shared/api-schemas.js";
import { JOB_STATUSES } from "../../shared/job-vocabulary.js";
import { enc, intOption, need, print, projectOf, type CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";
import { age, fields, table } from "../format.js";
import { describePhases } from "../../shared/run-phases.js";
import type { NounRuns } from "./command-usage.js";
import type { ImpactRanking, JobImpact } from "../../shared/impact-schemas.js";
import { impactText, rankingText } from "./impact-text.js";
import { exportCsv, rangeQuery } from "../report-fetch.js";
import { counted } from "../../shared/counted.js";
import { forgeWords } from "../../shared/forge-words.js";

/** A prompt is long prose: it may come as words, from a file, or (`-`) piped in. */
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

const jobFields = (j: AgentJob) =>
  fields([
    ["id", j.id],
    ["status", j.status],
    ["started by", j.trigger ? `${j.trigger.type}${j.trigger.url ? ` ${j.trigger.url}` : ""}` : "api"],
    ["repository", j.source.repository],
    ["branch", j.source.ref],
    ["model", j.model],
    [forgeWords(j.forge).change, j.prLink],
    ["created", j.createdAt],
    ["updated", j.updatedAt],
    ["archived", j.archivedAt],
    ...(j.waitingFor ? ([["waiting for", waitingLine(j)]] as [string, string][]) : []),
    ...(j.waitingFor === "answer" && j.question ? ([["question", j.question]] as [string, string][]) : []),
    ...(j.plan ? ([[j.waitingFor === "approval" ? "plan" : "approved plan", j.plan]] as [string, string][]) : []),
    ...(j.error ? ([["error", j.error]] as [string, string][]) : []),
    ...(j.progress ? ([["progress", j.progress]] as [string, string][]) : []),
    ...(j.summary ? ([["summary", j.summary]] as [string, string][]) : []),
    ...(j.files.length > 0 ? ([["files", j.files.map((f) => `${f.change} ${f.from ? `${f.from} → ` : ""}${f.path}`).join(", ")]] as [string, string][]) : []),
    ...(j.validation ? ([["validation", j.validation.passed ? "passed" : counted(j.validation.problems.length, "problem")]] as [string, string][]) : []),
    ...(j.checks ? ([["checks", checksLine(j.checks)]] as [string, string][]) : []),
    ...(j.usage ? ([["usage", usageLine(j.usage)]] as [string, string][]) : []),
  ]);

/** What a waiting job needs and how to give it. */
/** What the repository's own checks say of the job's pushed commit. */
const checksLine = (checks: NonNullable<AgentJob["checks"]>) =>
  `${checks.state === "failing" ? `failed: ${checks.failing.map((check) => check.name).join(", ")}` : checks.state === "passing" ? "passed" : "running"} on ${checks.sha.slice(0, 7)}${checks.rounds > 0 ? ` (${counted(checks.rounds, "repair round")})` : ""}`;

const waitingLine = (j: AgentJob) =>
  j.waitingFor === "approval" ? `approval of its plan (inkwell jobs approve ${j.id}, or jobs message to revise it)` : `an answer (inkwell jobs message ${j.id} <answer>)`;

/**
 * The API still answers 201 when the server lacks what the job's forge needs (GitHub's App: the
 * contract), but the run cannot start: say so at once, in that forge's words.
 */
async function warnMissingAccess(ctx: CommandContext, job: AgentJob): Promise<void> {
  const missing = (await ctx.client.serverInfo())?.forges?.[job.forge]?.missing;
  if (missing) ctx.io.stderr(`Warning: this Inkwell server has no ${missing.what} yet, so the job will fail without running. Set it up at ${missing.setupUrl}, then send the job a message to run it.`);
}

const usageLine = (u: NonNullable<AgentJob["usage"]>) =>
  `${u.inputTokens} input (${u.cachedInputTokens} cached) / ${u.outputTokens} output tokens, ${u.turns} turns, ${Math.round(u.durationMs / 1000)} s` +
  (u.estimatedCostUsd === null || u.estimatedCostUsd === undefined ? "" : `, ~$${u.estimatedCostUsd.toFixed(4)}`);

export const jobs: NounRuns<"jobs"> = {
  async create(ctx) {
    const projectId = projectOf(ctx);
    const prompt = await promptOf(ctx, ctx.args);
    const idempotencyKey = ctx.values["idempotency-key"];
    const maxQuestions = intOption(ctx.values["max-questions"], "max-questions");
    const job = await ctx.client.request<AgentJob>("POST", `/v2/agent/${enc(projectId)}/job`, ctx.projectKey, {
      body: { prompt, ...(ctx.values["plan-approval"] ? { planApproval: true } : {}), ...(maxQuestions !== undefined ? { maxQuestions } : {}) },
      ...(idempotencyKey ? { headers: { "Idempotency-Key": idempotencyKey } } : {}),
    });
    print(ctx, job, () => `Created job ${job.id}\n${jobFields(job)}\n\nFollow it: inkwell jobs watch ${job.id} --project ${projectId}`);
    await warnMissingAccess(ctx, job);
  },

  async get(ctx) {
    const projectId = projectOf(ctx);
    const path = `/v2/agent/${enc(projectId)}/job/${enc(need(ctx.args[0], "job id"))}`;
    const job = await ctx.client.request<AgentJob>("GET", path, ctx.projectKey);
    if (ctx.json) {
      ctx.io.stdout(JSON.stringify(job, null, 2));
      return;
    }
    const [{ events }, { runs }] = await Promise.all([
      ctx.client.request<{ events: JobEvent[] }>("GET", `${path}/events`, ctx.projectKey),
      ctx.client.request<{ runs: JobRun[] }>("GET", `${path}/runs`, ctx.projectKey),
    ]);
    const history = table(
      ["AT", "EVENT", "STATUS", "CAUSE", "DETAIL"],
      events.map((e) => [e.at, e.type, e.from === e.to ? e.to : `${e.from ?? "-"} → ${e.to ?? "-"}`, e.cause, e.detail?.replace(/\s+/g, " ")]),
    );
    const timed = runs.findLast((run) => run.phases.length > 0);
    const time = timed ? `\n\nTime of run ${timed.attempt}: ${describePhases(timed.phases)}` : "";
    ctx.io.stdout(`${jobFields(job)}${time}\n\nHistory:\n${history}`);
  },

  async message(ctx) {
    const projectId = projectOf(ctx);
    const [jobId, ...words] = ctx.args;
    const prompt = await promptOf(ctx, words);
    const job = await ctx.client.request<AgentJob>("POST", `/v2/agent/${enc(projectId)}/job/${enc(need(jobId, "job id"))}/message`, ctx.projectKey, {
      body: { prompt },
    });
    print(ctx, job, () => `Message sent; job ${job.id} is ${job.status}\n${jobFields(job)}`);
    await warnMissingAccess(ctx, job);
  },

  async approve(ctx) {
    const projectId = projectOf(ctx);
    const job = await ctx.client.request<AgentJob>("POST", `/v2/agent/${enc(projectId)}/job/${enc(need(ctx.args[0], "job id"))}/approve`, ctx.projectKey);
    print(ctx, job, () => `Approved the plan; job ${job.id} carries it out now\n${jobFields(job)}`);
  },

  async cancel(ctx) {
    const projectId = projectOf(ctx);
    const job = await ctx.client.request<AgentJob>("POST", `/v2/agent/${enc(projectId)}/job/${enc(need(ctx.args[0], "job id"))}/cancel`, ctx.projectKey);
    print(ctx, job, () => (job.status === "failed" && job.error?.startsWith("Cancelled") ? `Cancelled job ${job.id}\n${jobFields(job)}` : `Job ${job.id} is ${job.status}: nothing to cancel\n${jobFields(job)}`));
  },

  async runs(ctx) {
    const projectId = projectOf(ctx);
    const { runs } = await ctx.client.request<{ runs: JobRun[] }>("GET", `/v2/agent/${enc(projectId)}/job/${enc(need(ctx.args[0], "job id"))}/runs`, ctx.projectKey);
    print(ctx, { runs }, () =>
      runs.length === 0
        ? "No run has started yet."
        : table(
            ["RUN", "TRIGGER", "STARTED", "OUTCOME", "USAGE", "ON THE FORGE"],
            runs.map((r) => [
              String(r.attempt),
              r.trigger ? `${r.trigger.source}${r.trigger.author ? ` @${r.trigger.author}` : ""}` : null,
              r.claimedAt,
              r.outcome ?? (r.reportedAt ? null : "(working or ended without a report)"),
              r.usage ? usageLine({ ...r.usage }) : null,
              r.workflowRunUrl,
            ]),
          ),
    );
  },

  async impact(ctx) {
    const projectId = projectOf(ctx);
    const path = `/v2/agent/${enc(projectId)}/job/${enc(need(ctx.args[0], "job id"))}/impact`;
    const days = ctx.values.days;
    if (days !== undefined && !["7", "14", "28"].includes(days)) throw new CliError(`--days must be 7, 14 or 28, not ${JSON.stringify(days)}`, 2);
    if (ctx.values.csv) return exportCsv(ctx, path);
    const impact = await ctx.client.request<JobImpact>("GET", path, ctx.projectKey);
    print(ctx, impact, () => impactText(impact, days === undefined ? undefined : Number(days)));
  },

  async ranking(ctx) {
    const projectId = projectOf(ctx);
    const path = `/v2/agent/${enc(projectId)}/jobs/impact`;
    const extra = { days: ctx.values.days, order: ctx.values.order };
    if (ctx.values.csv) return exportCsv(ctx, path, extra);
    const { query } = rangeQuery(ctx, extra);
    for (const name of ["limit", "offset"] as const) {
      const value = intOption(ctx.values[name], name);
      if (value !== undefined) query.set(name, String(value));
    }
    const ranking = await ctx.client.request<ImpactRanking>("GET", `${path}?${query}`, ctx.projectKey);
    print(ctx, ranking, () => rankingText(ranking));
  },

  async list(ctx) {
    const projectId = projectOf(ctx);
    const status = ctx.values.status;
    if (status && !(JOB_STATUSES as readonly string[]).includes(status)) {
      throw new CliError(`--status must be one of ${JOB_STATUSES.join(", ")}`, 2);
    }
    const trigger = ctx.values.trigger;
    if (trigger && !(JOB_TRIGGER_TYPES as readonly string[]).includes(trigger)) throw new CliError(`--trigger must be one of ${JOB_TRIGGER_TYPES.join(", ")}`, 2);
    const query = new URLSearchParams();
    if (status) query.set("status", status);
    if (trigger) query.set("trigger", trigger);
    const limit = intOption(ctx.values.limit, "limit");
    const offset = intOption(ctx.values.offset, "offset");
    if (limit !== undefined) query.set("limit", String(limit));
    if (offset !== undefined) query.set("offset", String(offset));
    const page = await ctx.client.request<AgentJobList>("GET", `/v2/agent/${enc(projectId)}/jobs?${query}`, ctx.projectKey);
    print(ctx, page, () => {
      if (page.jobs.length === 0) return "No jobs.";
      const rows = table(
        ["ID", "STATUS", "STARTED BY", "AGE", "PULL REQUEST"],
        page.jobs.map((j) => [j.id, j.status, j.trigger?.type ?? "api", age(j.createdAt), j.prLink ?? (j.status === "failed" ? "(failed, see jobs get)" : null)]),
      );
      const next = (offset ?? 0) + page.jobs.length;
      return page.hasMore ? `${rows}\n\nMore: inkwell jobs list --project ${projectId} --offset ${next}` : rows;
    });
  },

  async watch(ctx) {
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
      const waitChanged = last?.waitingFor !== job.waitingFor || last?.plan !== job.plan || last?.question !== job.question;
      if (!last || last.status !== job.status || last.prLink !== job.prLink || last.error !== job.error || waitChanged) {
        if (ctx.json) ctx.io.stdout(JSON.stringify(job));
        else {
          ctx.io.stdout(`${new Date().toISOString().slice(11, 19)}  ${job.status}${job.prLink ? `  ${job.prLink}` : ""}${job.error ? `  ${job.error}` : ""}${job.waitingFor ? `  waiting for ${waitingLine(job)}` : ""}`);
          const shown = job.waitingFor === "approval" ? job.plan : job.waitingFor === "answer" ? job.question : null;
          if (shown) ctx.io.stdout(shown.replace(/^/gm, "    "));
        }
      }
      last = job;
      if (job.status === "failed") return 3;
      if (job.status === "completed" || job.status === "archived") return 0;
      await ctx.io.sleep(intervalMs);
    }
  },
};
