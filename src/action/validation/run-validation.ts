import type { DocsProject } from "../docs/framework.js";
import type { ChangedFile } from "../git.js";
import { withCheckCommand } from "./check-command.js";
import { brokenLinkProblems, frameworkCheckFor, runFrameworkCheck, runFrameworkCheckBefore, type FrameworkCheckRun } from "./framework-check.js";
import { navigationProblems, runGate, type GateResult } from "./gate.js";

export interface RunValidationOptions {
  repoRoot: string;
  project: DocsProject;
  git: { git(args: string[]): Promise<string> };
  /** The navigation file as the run found it (null: none). */
  navigationBefore: string | null;
  /** The workflow's `check-command`; null: none. */
  checkCommand: string | null;
  /** Whether to run the framework's own checker where there is one (`framework-check`). */
  frameworkCheck: boolean;
  /** The time limit of each command. */
  timeoutMs: number;
  /** The process's environment, of which the commands see only a safe part. */
  env: NodeJS.ProcessEnv;
  log: { info(message: string): void; warning(message: string): void };
  /** A progress line for the job while a command runs. */
  beat: (progress: string) => void;
}

/** What validates a run's changes, in order: the gate, the framework's own checker, the project's check-command. */
export interface RunValidation {
  validate(changedThisRun: string[], branchChanges: ChangedFile[]): Promise<GateResult>;
}

/**
 * Starts a run's validation: notes what was already wrong before the agent touches anything (the
 * navigation's problems now; the framework checker's findings in the background, on a separate
 * checkout, while the model works), so only what the run breaks goes back to the agent.
 */
export function startRunValidation(options: RunValidationOptions): RunValidation {
  const { repoRoot, project, log } = options;
  const knownNavigationProblems = new Set(navigationProblems({ repoRoot, project, branchChanges: [], knownNavigationProblems: new Set() }));
  const check = options.frameworkCheck ? frameworkCheckFor(project) : null;
  const commandOptions = { timeoutMs: options.timeoutMs, env: options.env };
  let before: Promise<FrameworkCheckRun> | null = check ? runFrameworkCheckBefore(check, options.git, commandOptions) : null;
  // Noted now, read when the first validation needs it.
  before?.catch(() => undefined);

  return {
    async validate(changedThisRun, branchChanges) {
      let result = await runGate({ repoRoot, project, changedThisRun, branchChanges, knownNavigationProblems, navigationBefore: options.navigationBefore });
      if (result.passed && check && before) {
        options.beat(`Running ${check.name}`);
        const [found, previously] = await Promise.all([runFrameworkCheck(check, repoRoot, commandOptions), before]);
        if (!found.ran) {
          log.warning(`${check.name} could not run, so only the gate's own link check stands: ${found.why}`);
        } else {
          if (!previously.ran) log.warning(`${check.name} could not run on the starting commit, so only links in the changed files count: ${previously.why}`);
          const problems = await brokenLinkProblems(check, found.broken, previously, changedThisRun, repoRoot);
          log.info(problems.length ? `${check.name} found ${problems.length} link(s) this run broke.` : `${check.name} passed.`);
          if (problems.length) result = { passed: false, problems };
        }
        if (!previously.ran && !found.ran) before = null;
      }
      if (result.passed && options.checkCommand) options.beat(`Running check-command: ${options.checkCommand}`);
      return withCheckCommand(result, { command: options.checkCommand, cwd: repoRoot, timeoutMs: options.timeoutMs, env: options.env }, (message) => log.info(message));
    },
  };
}
