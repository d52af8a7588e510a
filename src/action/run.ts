import * as core from "@actions/core";
import { checkEnvironment } from "./environment.js";

/** Reads inputs and the runner environment, and owns the run's outcome (`core.setFailed`). */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const problems = checkEnvironment(env, { inkwellUrl: core.getInput("inkwell-url") });
  if (problems.length > 0) {
    core.setFailed(`Inkwell cannot run here: ${problems.join("; ")}`);
    return;
  }
  core.setFailed(
    `The Inkwell agent runner is not available in this version of the Action (workflow run ${env.GITHUB_RUN_ID} in ${env.GITHUB_REPOSITORY}). ` +
      "Pin a release of the Action that includes the runner.",
  );
}
