import type { FileChange } from "../shared/job-outcome-schemas.js";
import type { ClaimResponse } from "../shared/runner-schemas.js";
import { runAgentRound, throwIfStopped, userMessage, type AgentCaps, type AgentSession } from "./agent/agent-loop.js";
import { resolveModel } from "./agent/model.js";
import { buildInstructions, buildSystemPrompt } from "./agent/prompt.js";
import { ChangeJournal, createDocsTools, type ToolStats } from "./agent/tools.js";
import { sourceToolsFor } from "./agent/source-tools.js";
import { createWaitingTools, WaitingNote, WRITE_TOOLS, type Waiting } from "./agent/waiting-tools.js";
import { MAX_PLAN_CHARS } from "../shared/job-vocabulary.js";
import { detectDocsProject } from "./docs/framework.js";
import { pagePaths, reportedFiles } from "./docs/page-paths.js";
import type { Published, RunnerForge } from "./forge.js";
import { GitRepository, type ChangedFile } from "./git.js";
import { commitMessage, reasonsFromCommits, splitSummary } from "./change-request-body.js";
import type { Heartbeats } from "./heartbeats.js";
import type { ActionInputs } from "./inputs.js";
import type { JobRunDependencies } from "./job-run-types.js";
import type { RunPhases } from "./phases.js";
import { DocsWorkspace } from "./sandbox/workspace.js";
import type { GateResult } from "./validation/gate.js";
import { prepareLinkChecker, toolRootOf } from "./validation/link-checker.js";
import { startRunValidation } from "./validation/run-validation.js";
import { actionsCacheArchive } from "./validation/tool-archive.js";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

export interface WorkOutcome extends Published {
  summary: string;
  /** What the run pushed (the report's `pushed`): the repository's checks on that commit are the job's. */
  pushed?: { sha: string; draft: boolean };
  /** The run stopped for the user (a plan to approve, a question to answer): nothing was pushed. */
  waiting?: Waiting;
}

const PROGRESS_EVERY_TOOL_CALLS = 3;

/** The run's side of the work: checkout → agent → validation rounds → commit → push → PR (or MR). The caller claims, beats and reports. */
export async function workOnJob(
  deps: JobRunDependencies,
  claimed: ClaimResponse,
  forge: RunnerForge,
  session: AgentSession,
  signal: AbortSignal,
  heartbeats: Heartbeats,
  phases: RunPhases,
  recordFacts: (files: string[], validation?: GateResult, branchFiles?: FileChange[]) => void,
  /** Hands over work that may end after the report. */
  later: (leftover: () => Promise<void>) => void,
): Promise<WorkOutcome> {
  const { inputs, env, log } = deps;
  const { job } = claimed;
  const git = new GitRepository({ directory: env.workspace, remoteUrl: env.remoteUrl ?? `${withoutTrailingSlashes(env.serverUrl)}/${job.repository}.git`, serverUrl: env.serverUrl, ...forge.gitAuth });
  const { base, branchExisted } = await phases.time("checkout", () => git.checkoutJobBranch(job.branch, job.baseRef));
  log.info(branchExisted ? `Continuing ${job.branch} (base ${base}).` : `Starting ${job.branch} from ${base}.`);

  const project = detectDocsProject(env.workspace, inputs.docsDir ?? undefined);
  log.info(`Docs: ${project.framework} in ${project.docsDir}${project.navigationFiles.length ? `, navigation in ${project.navigationFiles.join(", ")}` : ""}.`);
  const workspace = new DocsWorkspace(env.workspace, project.docsDir, undefined, project.navigationFiles);
  const navigationBefore = project.navigationFiles[0] ? await workspace.read(project.navigationFiles[0]).catch(() => null) : null;
  const processEnv = deps.processEnv ?? process.env;
  const timeoutMs = inputs.checkTimeoutMinutes * 60_000;
  const validator = startRunValidation({
    repoRoot: env.workspace,
    project,
    git,
    navigationBefore,
    checkCommand: inputs.checkCommand,
    frameworkCheck: inputs.frameworkCheck,
    prepareLinkChecker: async () => prepareLinkChecker({ toolRoot: toolRootOf(processEnv), archive: await actionsCacheArchive(), env: processEnv, timeoutMs, log }),
    timeoutMs,
    env: processEnv,
    log,
    beat: (progress) => heartbeats.beat(progress),
    phases,
  });
  later(() => validator.settle());
  return agentRoundsAndPublish();

  async function agentRoundsAndPublish(): Promise<WorkOutcome> {
    const branchFilesBefore = branchExisted ? (await git.changedFiles(base)).map((file) => file.path) : [];
    const model = resolveModel(modelSpecOf(job, inputs), { apiKey: inputs.apiKey, baseUrl: inputs.baseUrl, fetch: deps.fetch });
    const journal = new ChangeJournal();
    const stats: ToolStats = { calls: 0, failures: 0, totalMs: 0 };
    const onCall = (name: string) => {
      if (stats.calls % PROGRESS_EVERY_TOOL_CALLS === 0) heartbeats.beat(`Working: ${stats.calls} tool calls in ${session.turns + 1} turns (last: ${name})`);
    };
    const stage = job.stage ?? "work";
    const note = new WaitingNote(job.maxQuestions ?? 0);
    const docsTools = createDocsTools(workspace, project, journal, stats, onCall);
    // A planning run reads only: nothing is written before the plan is approved.
    if (stage === "plan") for (const name of WRITE_TOOLS) delete docsTools[name];
    const tools = { ...docsTools, ...sourceToolsFor(claimed.source, stats, onCall, { baseUrl: env.apiUrl, fetch: deps.fetch }), ...createWaitingTools(note, stage, stats, onCall) };
    session.system = buildSystemPrompt(env.workspace, project);
    session.messages.push(userMessage(buildInstructions(job.messages, job.newMessagesFrom, branchFilesBefore, job)));
    const caps: AgentCaps = { maxTurns: inputs.maxTurns, maxOutputTokens: inputs.maxOutputTokens, requestTimeoutMs: deps.requestTimeoutMs ?? 5 * 60_000 };

    const { answer, validation } = await agentRounds(
      async () => runAgentRound(session, { model, tools, caps, signal, retry: deps.retry, stopAfterTools: () => note.stopping }),
      () => note.stopping,
    );
    log.info(`Agent finished: ${session.turns} turn(s), ${stats.calls} tool call(s) (${stats.failures} refused or failed), ${session.usage.inputTokens} input / ${session.usage.outputTokens} output tokens.`);
    // A plan given as the answer instead of through submit_plan is still the plan.
    const waiting = note.waiting() ?? (stage === "plan" ? { for: "approval" as const, plan: (answer || "The agent gave no plan: ask it for one.").slice(0, MAX_PLAN_CHARS) } : null);
    if (waiting) {
      throwIfStopped(signal);
      log.info(waiting.for === "approval" ? "Stopping with a plan for approval; nothing is pushed." : "Stopping with a question for the user; nothing is pushed.");
      recordFacts([]);
      return { pr: null, summary: answer, waiting };
    }

    const fallbackTitle = `Docs: ${(job.messages.at(-1)?.prompt ?? "update").split("\n")[0]}`;
    const { title, summary } = splitSummary(answer, fallbackTitle);
    const changed = workspace.changedPaths();
    // A cancel that arrived while the agent finished or validation ran: nothing half-made is pushed.
    throwIfStopped(signal);
    // The branch's files as reported: pages with their site paths, a moved page's from its content on the base.
    const branchFiles = (files: ChangedFile[]) => reportedFiles(files, pagePaths(env.workspace, project), (file) => git.git(["show", `${base}:${file}`]));
    const committed = await phases.time("commit", async () => git.commit(changed, commitMessage(title, job.id, job.runAttempt, reasonsFor(changed, journal)), await forge.commitAuthor()));
    if (!committed) {
      log.info("No file differs after the run: nothing to push.");
      if (branchExisted) recordFacts([], undefined, await branchFiles(await git.changedFiles(base)));
      const existing = job.prNumber ? { number: job.prNumber, url: forge.changeUrl(job.prNumber) } : null;
      return { pr: existing, summary: answer || "No changes were needed." };
    }
    throwIfStopped(signal);
    heartbeats.beat(`Pushing ${changed.length} file(s) to ${job.branch}`);
    await phases.time("push", () => git.push(job.branch));
    const files = await git.changedFiles(base);
    recordFacts(changed, validation, await branchFiles(files));
    const headSha = (await git.git(["rev-parse", "HEAD"])).trim();
    // A draft for the run's own reasons stays one; a draft while the repository's checks run is made ready by Inkwell when they pass.
    const keepDraft = inputs.draft || job.draft === true || !validation.passed;
    const published = await phases.time(forge.changePhase, async () =>
      forge.publish(
        {
          title,
          draft: keepDraft || job.draftUntilChecksPass === true,
          branch: job.branch,
          base,
          headSha,
          files,
          body: {
            summary,
            jobId: job.id,
            model: modelUsed(session, modelSpecOf(job, inputs)),
            messages: job.messages,
            files,
            reasons: reasonsFromCommits(await git.commitMessages(base)),
            validation,
            workflowRunUrl: env.runUrl,
            jobPageUrl: claimed.jobPageUrl ?? null,
            trigger: job.trigger,
            closesIssue: job.closesIssue,
            draftUntilChecksPass: job.draftUntilChecksPass === true,
          },
        },
        log,
      ),
    );
    return { ...published, summary: summary || title, pushed: { sha: headSha, draft: keepDraft } };
  }

  /** The agent's first attempt, then a repair round per failed validation, up to `repairRounds`. */
  async function agentRounds(attempt: () => Promise<string>, waits: () => boolean): Promise<{ answer: string; validation: GateResult }> {
    let answer = "";
    let validation: GateResult = { passed: true, problems: [] };
    const repairRounds = deps.repairRounds ?? 2;
    for (let round = 0; ; round++) {
      try {
        answer = await phases.time(`agent (round ${round + 1})`, attempt);
      } finally {
        recordFacts(workspace.changedPaths(), round > 0 ? validation : undefined);
      }
      const changed = workspace.changedPaths();
      if (changed.length === 0 || waits()) break;
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
    return { answer, validation };
  }
}

/** The model to run: the one the job asked for, else the workflow's `model` input, else the project's. */
export const modelSpecOf = (job: ClaimResponse["job"], inputs: ActionInputs) => job.requestedModel ?? inputs.model ?? job.model;

/** `provider/<model id the provider answered with>`, which may be more exact than what was asked for. */
export const modelUsed = (session: AgentSession, spec: string) => (session.modelId ? `${spec.slice(0, spec.indexOf("/"))}/${session.modelId}` : spec);

function reasonsFor(paths: string[], journal: ChangeJournal): Map<string, string[]> {
  return new Map(paths.map((file) => [file, journal.reasonsFor(file)]));
}
