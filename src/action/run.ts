import * as core from "@actions/core";
import { readDispatchedRun } from "./dispatch-event.js";
import { checkEnvironment } from "./environment.js";
import { RunnerClient } from "./runner-client.js";
import { readInputs, type InputName } from "./inputs.js";
import { runJob } from "./job-run.js";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

/** Reads inputs and the runner environment, and owns the run's outcome (`core.setFailed`). */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    const problems = checkEnvironment(env, { inkwellUrl: core.getInput("inkwell-url") });
    if (problems.length > 0) {
      core.setFailed(`Inkwell cannot run here: ${problems.join("; ")}`);
      return;
    }
    const inputs = readInputs((name: InputName) => core.getInput(name));
    if (inputs.apiKey) core.setSecret(inputs.apiKey);
    const dispatched = await readDispatchedRun(env);
    core.setOutput("job-id", dispatched.jobId);
    const serverUrl = env.GITHUB_SERVER_URL ?? "https://github.com";
    const runId = Number(env.GITHUB_RUN_ID ?? 0);
    const outcome = await runJob({
      inputs,
      dispatched,
      inkwell: new RunnerClient({ baseUrl: inputs.inkwellUrl, idToken: (audience) => core.getIDToken(audience) }),
      env: {
        workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
        repository: env.GITHUB_REPOSITORY ?? "",
        serverUrl,
        apiUrl: env.GITHUB_API_URL ?? "https://api.github.com",
        runId,
        runUrl: runId ? `${withoutTrailingSlashes(serverUrl)}/${env.GITHUB_REPOSITORY}/actions/runs/${runId}` : null,
      },
      log: { info: core.info, warning: core.warning, secret: core.setSecret },
    });
    core.setOutput("status", outcome.status);
    core.setOutput("pr-url", outcome.prUrl ?? "");
    core.setOutput("phases", JSON.stringify(outcome.phases));
    if (outcome.status === "failed") core.setFailed(`Inkwell job ${outcome.jobId} failed: ${outcome.error}`);
  } catch (error) {
    core.setOutput("status", "failed");
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}
