import { compatibleReleases, incompatibleReleaseMessage } from "../shared/releases.js";
import type { ClaimResponse, ReportRequest } from "../shared/runner-schemas.js";
import { actionVersion } from "./action-version.js";
import { AgentStopped, runAgentRound, throwIfStopped, userMessage, type AgentCaps, type AgentSession, type RetryPolicy, type StopReason } from "./agent/agent-loop.js";
import { resolveModel } from "./agent/model.js";
import { budgetTokens } from "./agent/context-budget.js";
import { transcriptOf } from "./agent/transcript.js";
import { buildInstructions, buildSystemPrompt } from "./agent/prompt.js";
import { ChangeJournal, createDocsTools, type ToolStats } from "./agent/tools.js";
import { sourceToolsFor } from "./agent/source-tools.js";
import type { DispatchedRun } from "./dispatch-event.js";
import { detectDocsProject } from "./docs/framework.js";
import { GitRepository, type ChangedFile, type GitIdentity } from "./git.js";
import { commitMessage, reasonsFromCommits, renderPullRequestBody, splitSummary } from "./github/pull-request-body.js";
import { publishCheckRun } from "./github/check-run.js";
import { createOctokit, dressPullRequest, upsertPullRequest } from "./github/pull-request.js";
import { Heartbeats } from "./heartbeats.js";
import type { RunnerClient } from "./runner-client.js";
import type { ActionInputs } from "./inputs.js";
import { DocsWorkspace } from "./sandbox/workspace.js";
import type { GateResult } from "./validation/gate.js";
import { startRunValidation } from "./validation/run-validation.js";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

export interface RunnerEnvironment {
  /** GITHUB_WORKSPACE: the checkout the agent edits (cloned there when empty). */
  workspace: string;
  /** GITHUB_REPOSITORY (owner/repo). */
  repository: string;
  serverUrl: string;
  apiUrl: string;
  runId: number;
  runUrl: string | null;
  /** Where to fetch and push; default `${serverUrl}/${repository}.git`. */
  remoteUrl?: string;
}

export interface RunLog {
  info(message: string): void;
  warning(message: string): void;
  /** Masks a value in every later log line. */
  secret(value: string): void;
}

export interface JobRunDependencies {
  inputs: ActionInputs;
  dispatched: DispatchedRun;
  env: RunnerEnvironment;
  inkwell: RunnerClient;
  log: RunLog;
  /** For the model provider and GitHub's API (tests point both at loopback doubles). */
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  requestTimeoutMs?: number;
  /** Validation feedback rounds after the first attempt. */
  repairRounds?: number;
  /** The process's environment, of which check-command sees only a safe part (default: process.env). */
  processEnv?: NodeJS.ProcessEnv;
  /** This Action's release (default: the bundle's or package.json's). */
  actionVersion?: string;
}

export interface JobRunOutcome {
  jobId: string;
  status: "completed" | "failed" | "cancelled";
  prUrl: string | null;
  error?: string;
}

const PROGRESS_EVERY_TOOL_CALLS = 3;

/**
 * One run of an agent job, start to finish: claim → branch → agent → validation gate (with repair
 * rounds) → commit → push → PR → report. Every failure after the claim is reported as `failed`;
 * a report that cannot be delivered fails the run (the error propagates).
 */
export async function runJob(deps: JobRunDependencies): Promise<JobRunOutcome> {
  const { inputs, dispatched, env, inkwell, log } = deps;
  const started = Date.now();
  const release = deps.actionVersion ?? actionVersion();
  const claimed = await inkwell.claim({
    jobId: dispatched.jobId,
    runAttempt: dispatched.runAttempt,
    workflowRunId: deps.env.runId,
    actionVersion: release,
    ...(env.runUrl ? { workflowRunUrl: env.runUrl } : {}),
  });
  const { job } = claimed;
  // A service too old to refuse this Action still says its release: stop before touching anything.
  if (claimed.serviceVersion && !compatibleReleases(claimed.serviceVersion, release)) {
    const error = incompatibleReleaseMessage(claimed.serviceVersion, release);
    await inkwell.report({ jobId: job.id, runAttempt: job.runAttempt, outcome: "failed", error });
    return { jobId: job.id, status: "failed", prUrl: null, error };
  }
  for (const token of [claimed.token, claimed.source?.token]) if (token) log.secret(token.value);
  log.info(`Claimed job ${job.id} (run ${job.runAttempt}) on ${job.repository}, branch ${job.branch}; ${job.messages.length - countBefore(job)} new instruction(s).`);

  const control = new AbortController();
  const stop = (reason: StopReason) => control.abort(reason);
  const deadline = setTimeout(() => stop("timeout"), inputs.timeoutMinutes * 60_000);
  deadline.unref();
  const ref = { jobId: job.id, runAttempt: job.runAttempt };
  const heartbeats = new Heartbeats({
    send: (progress) => inkwell.heartbeat({ ...ref, ...(progress ? { progress } : {}) }),
    periodSeconds: job.limits.heartbeatSeconds,
    onCancel: () => stop("cancelled"),
    onError: (error) => log.warning(`heartbeat not delivered: ${error instanceof Error ? error.message : String(error)}`),
  });
  heartbeats.start();

  const modelSpec = modelSpecOf(job, inputs);
  const facts: Omit<ReportRequest & { outcome: "failed" }, "outcome" | "error" | "jobId" | "runAttempt"> = { model: modelSpec };
  const session: AgentSession = {
    system: "",
    messages: [],
    turns: 0,
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 },
    calls: [],
    modelId: null,
    // The service knows the context window of the job's own model only.
    budget: { limitTokens: budgetTokens(inputs.contextBudget, modelSpec === (job.requestedModel ?? job.model) ? job.limits.contextWindow : null), measured: null },
  };
  const recordFacts = (files: string[], validation?: GateResult, branchFiles?: ChangedFile[]) => {
    facts.model = modelUsed(session, modelSpec);
    facts.usage = { ...session.usage };
    facts.calls = session.calls.slice(0, 5_000);
    facts.turns = session.turns;
    facts.durationMs = Date.now() - started;
    facts.filesChanged = files;
    if (validation) facts.validation = validation;
    if (branchFiles) facts.files = branchFiles.map((file) => ({ path: file.path, change: file.status, ...(file.from ? { from: file.from } : {}) }));
  };

  // Sent before the report (and when the run stops early): a transcript that cannot be delivered is only a warning.
  const sendTranscript = async () => {
    await inkwell.transcript({ ...ref, ...transcriptOf(session) }).catch((error: unknown) => log.warning(`transcript not delivered: ${error instanceof Error ? error.message : String(error)}`));
  };

  let outcome: WorkOutcome;
  try {
    outcome = await work(deps, claimed, session, control.signal, heartbeats, recordFacts);
  } catch (error) {
    await heartbeats.stop();
    await sendTranscript();
    if (error instanceof AgentStopped && error.reason === "cancelled") {
      log.warning(`Stopped: ${error.message}. Nothing was pushed.`);
      return { jobId: job.id, status: "cancelled", prUrl: null, error: error.message };
    }
    const message = describeFailure(error, claimed.token.value);
    recordFacts(facts.filesChanged ?? []);
    log.warning(`Run failed: ${message}`);
    await inkwell.report({ ...ref, ...facts, outcome: "failed", error: message });
    return { jobId: job.id, status: "failed", prUrl: null, error: message };
  } finally {
    clearTimeout(deadline);
  }
  await heartbeats.stop();
  await sendTranscript();
  // The work is pushed: an undeliverable report fails the workflow run (the error propagates) rather than claiming the run failed.
  const answer = await inkwell.report({ ...ref, ...facts, outcome: "completed", pr: outcome.pr, summary: outcome.summary });
  log.info(outcome.pr ? `Reported completed: ${outcome.pr.url}` : "Reported completed: nothing needed to change.");
  return { jobId: job.id, status: "completed", prUrl: answer.prLink };
}

interface WorkOutcome {
  pr: { number: number; url: string } | null;
  summary: string;
}

async function work(
  deps: JobRunDependencies,
  claimed: ClaimResponse,
  session: AgentSession,
  signal: AbortSignal,
  heartbeats: Heartbeats,
  recordFacts: (files: string[], validation?: GateResult, branchFiles?: ChangedFile[]) => void,
): Promise<WorkOutcome> {
  const { inputs, env, log } = deps;
  const { job, token } = claimed;
  const [owner = "", repo = ""] = job.repository.split("/");
  const git = new GitRepository({ directory: env.workspace, remoteUrl: env.remoteUrl ?? `${withoutTrailingSlashes(env.serverUrl)}/${job.repository}.git`, serverUrl: env.serverUrl, token: token.value });
  const { base, branchExisted } = await git.checkoutJobBranch(job.branch, job.baseRef);
  log.info(branchExisted ? `Continuing ${job.branch} (base ${base}).` : `Starting ${job.branch} from ${base}.`);

  const project = detectDocsProject(env.workspace, inputs.docsDir ?? undefined);
  log.info(`Docs: ${project.framework} in ${project.docsDir}${project.navigationFiles.length ? `, navigation in ${project.navigationFiles.join(", ")}` : ""}.`);
  const workspace = new DocsWorkspace(env.workspace, project.docsDir, undefined, project.navigationFiles);
  const navigationBefore = project.navigationFiles[0] ? await workspace.read(project.navigationFiles[0]).catch(() => null) : null;
  const { checkCommand, frameworkCheck } = inputs;
  const commands = { checkCommand, frameworkCheck, timeoutMs: inputs.checkTimeoutMinutes * 60_000, env: deps.processEnv ?? process.env };
  const validator = startRunValidation({ repoRoot: env.workspace, project, git, navigationBefore, ...commands, log, beat: (progress) => heartbeats.beat(progress) });
  const branchFilesBefore = branchExisted ? (await git.changedFiles(base)).map((file) => file.path) : [];

  const model = resolveModel(modelSpecOf(job, inputs), { apiKey: inputs.apiKey, baseUrl: inputs.baseUrl, fetch: deps.fetch });
  const journal = new ChangeJournal();
  const stats: ToolStats = { calls: 0, failures: 0, totalMs: 0 };
  const onCall = (name: string) => {
    if (stats.calls % PROGRESS_EVERY_TOOL_CALLS === 0) heartbeats.beat(`Working: ${stats.calls} tool calls in ${session.turns + 1} turns (last: ${name})`);
  };
  const tools = { ...createDocsTools(workspace, project, journal, stats, onCall), ...sourceToolsFor(claimed.source, stats, onCall, { baseUrl: env.apiUrl, fetch: deps.fetch }) };
  session.system = buildSystemPrompt(env.workspace, project);
  session.messages.push(userMessage(buildInstructions(job.messages, job.newMessagesFrom, branchFilesBefore)));
  const caps: AgentCaps = { maxTurns: inputs.maxTurns, maxOutputTokens: inputs.maxOutputTokens, requestTimeoutMs: deps.requestTimeoutMs ?? 5 * 60_000 };

  let answer = "";
  let validation: GateResult = { passed: true, problems: [] };
  const repairRounds = deps.repairRounds ?? 2;
  for (let round = 0; ; round++) {
    try {
      answer = await runAgentRound(session, { model, tools, caps, signal, retry: deps.retry });
    } finally {
      recordFacts(workspace.changedPaths(), round > 0 ? validation : undefined);
    }
    const changed = workspace.changedPaths();
    if (changed.length === 0) break;
    heartbeats.beat(`Validating ${changed.length} changed file(s)`);
    validation = await validator.validate(changed, await git.stagedChanges(base, changed));
    recordFacts(changed, validation);
    log.info(validation.passed ? "Validation passed." : `Validation found ${validation.problems.length} problem(s):\n  ${validation.problems.join("\n  ")}`);
    if (validation.passed || round >= repairRounds) break;
    heartbeats.beat(`Repairing ${validation.problems.length} validation problem(s) (round ${round + 1} of ${repairRounds})`);
    session.messages.push(
      userMessage(`Validation found these problems in your changes. Fix them (the pages must compile, links must resolve), then answer with the summary again:\n${validation.problems.map((p) => `- ${p}`).join("\n")}`),
    );
  }
  log.info(`Agent finished: ${session.turns} turn(s), ${stats.calls} tool call(s) (${stats.failures} refused or failed), ${session.usage.inputTokens} input / ${session.usage.outputTokens} output tokens.`);

  const fallbackTitle = `Docs: ${(job.messages.at(-1)?.prompt ?? "update").split("\n")[0]}`;
  const { title, summary } = splitSummary(answer, fallbackTitle);
  const changed = workspace.changedPaths();
  // A cancel that arrived while the agent finished or validation ran: nothing half-made is pushed.
  throwIfStopped(signal);
  const committed = await git.commit(changed, commitMessage(title, job.id, job.runAttempt, reasonsFor(changed, journal)), await commitAuthor(claimed, deps));
  if (!committed) {
    log.info("No file differs after the run: nothing to push.");
    if (branchExisted) recordFacts([], undefined, await git.changedFiles(base));
    const existing = job.prNumber ? { number: job.prNumber, url: `${withoutTrailingSlashes(env.serverUrl)}/${job.repository}/pull/${job.prNumber}` } : null;
    return { pr: existing, summary: answer || "No changes were needed." };
  }
  throwIfStopped(signal);
  heartbeats.beat(`Pushing ${changed.length} file(s) to ${job.branch}`);
  await git.push(job.branch);
  const files = await git.changedFiles(base);
  recordFacts(changed, validation, files);
  const octokit = createOctokit(token.value, { baseUrl: env.apiUrl, fetch: deps.fetch });
  const checkRunUrl = await publishCheckRun(
    octokit,
    { owner, repo, headSha: (await git.git(["rev-parse", "HEAD"])).trim(), validation, files: new Set(files.filter((f) => f.status !== "deleted").map((f) => f.path)), detailsUrl: claimed.jobPageUrl ?? null },
    (message) => log.warning(message),
  );
  const body = renderPullRequestBody({
    summary,
    jobId: job.id,
    model: modelUsed(session, modelSpecOf(job, inputs)),
    messages: job.messages,
    files,
    reasons: reasonsFromCommits(await git.commitMessages(base)),
    validation,
    workflowRunUrl: env.runUrl,
    jobPageUrl: claimed.jobPageUrl ?? null,
    checkRunUrl,
    trigger: job.trigger,
    closesIssue: job.closesIssue,
  });
  const pr = await upsertPullRequest(octokit, { owner, repo, branch: job.branch, base, prNumber: job.prNumber }, { title, body, draft: inputs.draft || job.draft === true || !validation.passed }, (message) => log.warning(message));
  log.info(`${pr.created ? "Opened" : "Updated"} pull request #${pr.number}: ${pr.url}`);
  if (pr.created) await dressPullRequest(octokit, { owner, repo, number: pr.number }, { labels: job.labels ?? [], reviewers: job.reviewers ?? [] }, log);
  return { pr: { number: pr.number, url: pr.url }, summary: summary || title };
}

/** The model to run: the one the job asked for, else the workflow's `model` input, else the project's. */
const modelSpecOf = (job: ClaimResponse["job"], inputs: ActionInputs) => job.requestedModel ?? inputs.model ?? job.model;

/** `provider/<model id the provider answered with>`, which may be more exact than what was asked for. */
const modelUsed = (session: AgentSession, spec: string) => (session.modelId ? `${spec.slice(0, spec.indexOf("/"))}/${session.modelId}` : spec);

function reasonsFor(paths: string[], journal: ChangeJournal): Map<string, string[]> {
  return new Map(paths.map((file) => [file, journal.reasonsFor(file)]));
}

const countBefore = (job: ClaimResponse["job"]) => job.messages.filter((message) => message.seq < job.newMessagesFrom).length;

/** The App's bot account, as GitHub shows it on commits: `<slug>[bot]` with its noreply address. */
async function commitAuthor(claimed: ClaimResponse, deps: JobRunDependencies): Promise<GitIdentity> {
  const slug = claimed.appSlug ?? "inkwell";
  const name = `${slug}[bot]`;
  try {
    const octokit = createOctokit(claimed.token.value, { baseUrl: deps.env.apiUrl, fetch: deps.fetch });
    const { data } = await octokit.rest.users.getByUsername({ username: name });
    return { name, email: `${data.id}+${name}@users.noreply.github.com` };
  } catch {
    return { name, email: `${name}@users.noreply.github.com` };
  }
}

function describeFailure(error: unknown, token: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const full = error instanceof AgentStopped ? `${message.replace(/\.?$/, ".")} Nothing was pushed.` : message;
  return full.replaceAll(token, "***").slice(0, 4_000);
}
