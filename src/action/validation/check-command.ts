import { spawn } from "node:child_process";

/** The end of a long build log is where its errors are. */
const KEPT_OUTPUT_CHARS = 4_000;
const MAX_FILE_PROBLEMS = 50;

export type CheckCommandResult = { passed: true; durationMs: number } | { passed: false; durationMs: number; problems: string[] };

/**
 * The environment the command runs with: enough to find tools and build, and nothing of the run's
 * secrets (the model's key, the repository token, the OIDC request token are all in this process's
 * environment). The command runs the repository's own scripts, which the agent may have edited.
 */
export function commandEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "RUNNER_TEMP", "RUNNER_TOOL_CACHE", "NODE_OPTIONS", "PYTHONPATH", "JAVA_HOME", "GOPATH"];
  return { CI: "true", ...Object.fromEntries(keep.flatMap((name) => (env[name] ? [[name, env[name] as string]] : []))) };
}

export interface CommandRun {
  /** The exit code; null when it could not start or was stopped at the time limit. */
  code: number | null;
  timedOut: boolean;
  /** Why it could not start, if it could not. */
  startError: string | null;
  /** The end of stdout and stderr together. */
  output: string;
  durationMs: number;
}

/** Runs a shell command in `cwd` with a time limit, its whole process group stopped at the limit. */
export function runCommand(command: string, cwd: string, options: { timeoutMs: number; env: Record<string, string> }): Promise<CommandRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("bash", ["-o", "pipefail", "-c", command], { cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-4 * KEPT_OUTPUT_CHARS);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const finish = (code: number | null, error?: Error) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? null : code, timedOut, startError: error ? error.message : null, output, durationMs: Date.now() - started });
    };
    child.on("error", (error) => finish(null, error));
    child.on("close", (code) => finish(code));
  });
}

/** How a command that did not pass ended, for a message. */
export const howItEnded = (run: CommandRun, timeoutMs: number) =>
  run.startError ? `could not start: ${run.startError}` : run.timedOut ? `did not finish within ${Math.round(timeoutMs / 1000)} s` : `failed (exit ${run.code})`;

/**
 * Runs the workflow's `check-command` (the docs' own build, e.g. `npm run build` or `mkdocs build
 * --strict`) in the workspace. A failure becomes problems for the agent: each `file:line: message`
 * line of the output, then the end of the output itself.
 */
export async function runCheckCommand(command: string, cwd: string, options: { timeoutMs: number; env: Record<string, string> }): Promise<CheckCommandResult> {
  const run = await runCommand(command, cwd, options);
  if (run.code === 0) return { passed: true, durationMs: run.durationMs };
  const tail = run.output.trim().slice(-KEPT_OUTPUT_CHARS);
  return { passed: false, durationMs: run.durationMs, problems: [...fileProblems(tail), `check-command \`${command}\` ${howItEnded(run, options.timeoutMs)}${tail ? `; the end of its output:\n${tail}` : ""}`] };
}

/**
 * The gate's result, then the project's own check on top when the gate passed (a build of pages
 * that do not compile would only repeat the gate's problems, slower): the first that fails is the result.
 */
export async function withCheckCommand(
  gate: { passed: boolean; problems: string[] },
  check: { command: string | null; cwd: string; timeoutMs: number; env: NodeJS.ProcessEnv },
  log: (message: string) => void,
): Promise<{ passed: boolean; problems: string[] }> {
  if (!gate.passed || !check.command) return gate;
  const result = await runCheckCommand(check.command, check.cwd, { timeoutMs: check.timeoutMs, env: commandEnvironment(check.env) });
  log(result.passed ? `check-command passed in ${Math.round(result.durationMs / 1000)} s.` : `check-command failed after ${Math.round(result.durationMs / 1000)} s.`);
  return result.passed ? gate : { passed: false, problems: result.problems };
}

/** `docs/a.md:12: message`, `docs/a.md:12:3 - error …`, `[WARNING] docs/a.md:12 …` lines of a build's output. */
export function fileProblems(output: string): string[] {
  const found = new Set<string>();
  for (const line of output.split("\n")) {
    const match = /(?:^|\s)((?:[\w@.-]+\/)*[\w@.-]+\.(?:mdx?|ya?ml|json|js|ts|tsx|rst)):(\d+)(?::\d+)?[\s:-]+(.+)$/.exec(line.trim());
    if (match) found.add(`${match[1]}:${match[2]}: ${(match[3] as string).trim()}`);
    if (found.size >= MAX_FILE_PROBLEMS) break;
  }
  return [...found];
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
