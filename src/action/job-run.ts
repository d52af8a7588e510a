import { compatibleReleases, incompatibleReleaseMessage } from "../shared/releases.js";
import type { ClaimResponse, ReportRequest } from "../shared/runner-schemas.js";
import { actionVersion } from "./action-version.js";
import { AgentStopped, type AgentSession, type StopReason } from "./agent/agent-loop.js";
import { budgetTokens } from "./agent/context-budget.js";
import { transcriptOf } from "./agent/transcript.js";
import type { FileChange } from "../shared/job-outcome-schemas.js";
import { githubForge } from "./github/forge.js";
import { Heartbeats } from "./heartbeats.js";
import type { JobRunDependencies } from "./job-run-types.js";
import { modelSpecOf, modelUsed, workOnJob, type WorkOutcome } from "./job-work.js";
import { RunPhases, type RunPhase } from "./phases.js";
import { describePhases } from "../shared/run-phases.js";
import type { GateResult } from "./validation/gate.js";

export interface JobRunOutcome {
  jobId: string;
  status: "completed" | "failed" | "cancelled" | "waiting";
  prUrl: string | null;
  error?: string;
  /** Where the run's time went (the report carries the same, without the report itself). */
  phases: RunPhase[];
}

/**
 * One run of an agent job, start to finish: claim → branch → agent → validation gate (with repair
 * rounds) → commit → push → PR → report. Every failure after the claim is reported as `failed`;
 * a report that cannot be delivered fails the run (the error propagates).
 */
export async function runJob(deps: JobRunDependencies): Promise<JobRunOutcome> {
  const { inputs, dispatched, env, inkwell, log } = deps;
  const started = Date.now();
  const phases = new RunPhases();
  const release = deps.actionVersion ?? actionVersion();
  const claimed = await phases.time("claim", () =>
    inkwell.claim({
      jobId: dispatched.jobId,
      runAttempt: dispatched.runAttempt,
      workflowRunId: deps.env.runId,
      actionVersion: release,
      ...(env.runUrl ? { workflowRunUrl: env.runUrl } : {}),
      ...(env.ciJobId ? { ciJobId: env.ciJobId } : {}),
    }),
  );
  const { job } = claimed;
  // A service too old to refuse this Action still says its release: stop before touching anything.
  if (claimed.serviceVersion && !compatibleReleases(claimed.serviceVersion, release)) {
    const error = incompatibleReleaseMessage(claimed.serviceVersion, release);
    await inkwell.report({ jobId: job.id, runAttempt: job.runAttempt, outcome: "failed", error });
    return { jobId: job.id, status: "failed", prUrl: null, error, phases: phases.list() };
  }
  const forge = (deps.forge ?? githubForge)(claimed, deps);
  for (const secret of forge.secrets) log.secret(secret);
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
  const recordFacts = (files: string[], validation?: GateResult, branchFiles?: FileChange[]) => {
    facts.model = modelUsed(session, modelSpec);
    facts.usage = { ...session.usage };
    facts.calls = session.calls.slice(0, 5_000);
    facts.turns = session.turns;
    facts.durationMs = Date.now() - started;
    facts.phases = phases.list();
    facts.filesChanged = files;
    if (validation) facts.validation = validation;
    if (branchFiles) facts.files = branchFiles;
  };

  // Sent before the report (and when the run stops early): a transcript that cannot be delivered is only a warning.
  const sendTranscript = async () => {
    await inkwell.transcript({ ...ref, ...transcriptOf(session) }).catch((error: unknown) => log.warning(`transcript not delivered: ${error instanceof Error ? error.message : String(error)}`));
  };

  // Work that may finish after the report (saving the link checker's install for later runs).
  const leftovers: Array<() => Promise<void>> = [];
  const finish = async (result: Omit<JobRunOutcome, "phases">, reported: boolean): Promise<JobRunOutcome> => {
    for (const leftover of leftovers) await leftover();
    log.info(`Time by phase${reported ? "" : " (not reported)"}: ${describePhases(phases.list())}`);
    return { ...result, phases: phases.list() };
  };
  let outcome: WorkOutcome;
  try {
    outcome = await workOnJob(deps, claimed, forge, session, control.signal, heartbeats, phases, recordFacts, (leftover) => leftovers.push(leftover));
  } catch (error) {
    await heartbeats.stop();
    await sendTranscript();
    if (error instanceof AgentStopped && error.reason === "cancelled") {
      log.warning(`Stopped: ${error.message}. Nothing was pushed.`);
      return finish({ jobId: job.id, status: "cancelled", prUrl: null, error: error.message }, false);
    }
    const message = describeFailure(error, forge.secrets);
    recordFacts(facts.filesChanged ?? []);
    log.warning(`Run failed: ${message}`);
    await phases.time("report", () => inkwell.report({ ...ref, ...facts, outcome: "failed", error: message }));
    return finish({ jobId: job.id, status: "failed", prUrl: null, error: message }, true);
  } finally {
    clearTimeout(deadline);
  }
  await heartbeats.stop();
  await sendTranscript();
  // The work is pushed: an undeliverable report fails the workflow run (the error propagates) rather than claiming the run failed.
  recordFacts(facts.filesChanged ?? []);
  const waiting = outcome.waiting;
  const answer = await phases.time("report", () =>
    inkwell.report({
      ...ref,
      ...facts,
      outcome: "completed",
      pr: outcome.pr,
      summary: outcome.summary,
      ...(waiting ? { waiting } : {}),
      ...(outcome.mergeRequest ? { mergeRequest: outcome.mergeRequest } : {}),
      ...(outcome.pushed ? { pushed: outcome.pushed } : {}),
    }),
  );
  if (waiting) {
    log.info(`Reported: the job waits for ${waiting.for === "approval" ? "approval of its plan" : "an answer to its question"}.`);
    return finish({ jobId: job.id, status: "waiting", prUrl: answer.prLink }, true);
  }
  log.info(outcome.pr || answer.prLink ? `Reported completed: ${outcome.pr?.url ?? answer.prLink}` : "Reported completed: nothing needed to change.");
  return finish({ jobId: job.id, status: "completed", prUrl: answer.prLink }, true);
}

const countBefore = (job: ClaimResponse["job"]) => job.messages.filter((message) => message.seq < job.newMessagesFrom).length;

function describeFailure(error: unknown, secrets: string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const full = error instanceof AgentStopped ? `${message.replace(/\.?$/, ".")} Nothing was pushed.` : message;
  return secrets.reduce((text, secret) => text.replaceAll(secret, "***"), full).slice(0, 4_000);
}
