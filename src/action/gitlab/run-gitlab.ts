import { writeFileSync } from "node:fs";
import path from "node:path";
import { readInputs } from "../inputs.js";
import { runJob, type JobRunOutcome } from "../job-run.js";
import type { RunLog } from "../job-run-types.js";
import { RunnerClient } from "../runner-client.js";
import { gitlabForge } from "./forge.js";
import { gitlabInputVariable, readGitLabJob } from "./gitlab-job.js";

export interface GitLabRunOptions {
  /** Where log lines go (default: stdout, which is the job's log). */
  write?: (line: string) => void;
  fetch?: typeof fetch;
}

/**
 * The runner in a GitLab CI/CD job (`node dist/index.js gitlab`, as the component runs it): the
 * same run as the Action's, with the job's ID token for Inkwell and its CI_JOB_TOKEN for git.
 * Returns the exit code; the outcome also goes to INKWELL_DOTENV when set (a dotenv report).
 */
export async function runInGitLab(env: NodeJS.ProcessEnv = process.env, options: GitLabRunOptions = {}): Promise<number> {
  const secrets = new Set<string>();
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const masked = (message: string) => [...secrets].reduce((text, secret) => text.replaceAll(secret, "[MASKED]"), message);
  const log: RunLog = {
    info: (message) => write(masked(message)),
    warning: (message) => write(masked(`WARNING: ${message}`)),
    secret: (value) => void (value && secrets.add(value)),
  };
  const fail = (message: string, jobId = env.INKWELL_JOB_ID ?? "") => {
    write(masked(`ERROR: ${message}`));
    writeOutcome(env, { jobId, status: "failed", prUrl: null }, log);
    return 1;
  };
  try {
    const { job, problems } = readGitLabJob(env);
    if (!job) return fail(`Inkwell cannot run here: ${problems.join("; ")}`);
    log.secret(job.idToken);
    log.secret(job.identity.jobToken);
    const inputs = readInputs((name) => env[gitlabInputVariable(name)] ?? "");
    if (inputs.apiKey) log.secret(inputs.apiKey);
    const outcome = await runJob({
      inputs,
      dispatched: job.dispatched,
      inkwell: new RunnerClient({ baseUrl: inputs.inkwellUrl, idToken: async () => job.idToken, ...(options.fetch ? { fetch: options.fetch } : {}) }),
      env: job.env,
      log,
      forge: (claimed) => gitlabForge(claimed, job.identity),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    if (outcome.status === "failed") return fail(`Inkwell job ${outcome.jobId} failed: ${outcome.error}`, outcome.jobId);
    writeOutcome(env, outcome, log);
    log.info(outcome.prUrl ? `Merge request: ${outcome.prUrl}` : `Inkwell job ${outcome.jobId}: ${outcome.status}.`);
    return 0;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

/** The run's outcome as a dotenv report (INKWELL_JOB_ID, INKWELL_STATUS, INKWELL_MR_URL) for later jobs of the pipeline. */
function writeOutcome(env: NodeJS.ProcessEnv, outcome: Pick<JobRunOutcome, "jobId" | "status" | "prUrl">, log: RunLog): void {
  if (!env.INKWELL_DOTENV) return;
  const file = path.resolve(env.CI_PROJECT_DIR ?? process.cwd(), env.INKWELL_DOTENV);
  try {
    writeFileSync(file, `INKWELL_JOB_ID=${outcome.jobId}\nINKWELL_STATUS=${outcome.status}\nINKWELL_MR_URL=${outcome.prUrl ?? ""}\n`);
  } catch (error) {
    log.warning(`could not write the outcome to ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
