import { existsSync } from "node:fs";
import path from "node:path";
import type { DocsProject } from "../docs/framework.js";
import type { ChangedFile } from "../git.js";
import type { RunPhases } from "../phases.js";
import { withCheckCommand } from "./check-command.js";
import { brokenPromises, configPromises } from "./config-keeps.js";
import { brokenLinkProblems, frameworkCheckFor, writtenLines, type FrameworkCheck, type RunChange } from "./framework-check.js";
import { runGate, type GateResult } from "./gate.js";
import { navigationProblems } from "./navigation-check.js";
import type { PreparedLinkChecker } from "./link-checker.js";

/** As many problems as a report carries (the runner protocol's limit). */
const MAX_REPORTED_PROBLEMS = 200;

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
  /** Gets the framework's checker ready (install, cache, load); called once, when the run starts. */
  prepareLinkChecker: () => Promise<PreparedLinkChecker>;
  /** The time limit of each command. */
  timeoutMs: number;
  /** The process's environment, of which the commands see only a safe part. */
  env: NodeJS.ProcessEnv;
  log: { info(message: string): void; warning(message: string): void };
  /** A progress line for the job while a command runs. */
  beat: (progress: string) => void;
  phases: RunPhases;
}

/** What validates a run's changes, in order: the gate, the framework's own checker, the project's check-command. */
export interface RunValidation {
  validate(changedThisRun: string[], branchChanges: ChangedFile[]): Promise<GateResult>;
  /** Stops reading ahead and waits for work the run leaves behind (saving the checker's install to the Actions cache). */
  settle(): Promise<void>;
}

/**
 * Starts a run's validation: notes the navigation's problems before the agent touches anything,
 * and gets the framework's checker ready, and reading the site, in the background while the model
 * works. The checker runs once per round, on the workspace; what it finds counts against the run only where the run
 * wrote the link or removed its target (framework-check.ts), so the starting commit is never checked.
 */
export function startRunValidation(options: RunValidationOptions): RunValidation {
  const { repoRoot, project, log, phases } = options;
  const knownNavigationProblems = new Set(navigationProblems({ repoRoot, project, branchChanges: [], knownNavigationProblems: new Set() }));
  const promisesBefore = configPromises(repoRoot, project);
  // The starting commit's version of a changed file: what it already had is not the agent's.
  const readBefore = (file: string) => options.git.git(["show", `HEAD:${file}`]).catch(() => null);
  const check = options.frameworkCheck ? frameworkCheckFor(project) : null;
  // Once ready, the checker reads the site's pages while the model works, so a round re-reads only what the run wrote.
  const reading = new AbortController();
  const preparing = check ? settled(options.prepareLinkChecker().then((prepared) => warmed(prepared, path.join(repoRoot, check.siteDir), reading.signal, phases))) : null;
  let filesBefore: Promise<Set<string>> | null = null;
  let round = 0;
  let checkerUsed = false;

  const frameworkProblems = async (check: FrameworkCheck, changedThisRun: string[]): Promise<string[] | null> => {
    const waitStarted = performance.now();
    const prepared = await (preparing as Promise<Settled<PreparedLinkChecker>>);
    const firstUse = !checkerUsed;
    checkerUsed = true;
    if (firstUse) {
      const waited = performance.now() - waitStarted;
      if (prepared.ok) phases.add(`link checker ready (${prepared.value.source})`, prepared.value.ms, { background: true });
      if (waited >= 50) phases.add("waiting for the link checker", waited);
    }
    if (!prepared.ok) {
      if (firstUse) log.warning(`${check.name} is not available, so only the gate's own link check stands: ${prepared.error}`);
      return null;
    }
    const { checker } = prepared.value;
    options.beat(`Running ${check.name}`);
    return phases.time(`link check (round ${round})`, async () => {
      const found = (await checker.check(path.join(repoRoot, check.siteDir))).map((link) => ({ ...link, file: path.posix.join(check.siteDir, link.file) }));
      filesBefore ??= options.git.git(["ls-tree", "-r", "--name-only", "-z", "HEAD"]).then((out) => new Set(out.split("\0").filter(Boolean)));
      const diff = await options.git.git(["-c", "core.quotepath=false", "diff", "--unified=0", "--no-color", "--no-ext-diff", "--no-renames", "HEAD", "--", ...changedThisRun]);
      const change: RunChange = { written: writtenLines(diff), filesBefore: await filesBefore };
      return brokenLinkProblems(check, found, change, repoRoot);
    });
  };

  return {
    async validate(changedThisRun, branchChanges) {
      round++;
      let result = await phases.time(`gate (round ${round})`, async () => {
        const gate = await runGate({ repoRoot, project, changedThisRun, branchChanges, knownNavigationProblems, navigationBefore: options.navigationBefore, readBefore });
        const broken = brokenPromises(promisesBefore, configPromises(repoRoot, project), branchChanges, project, (file) => existsSync(path.join(repoRoot, file)));
        return broken.length === 0 ? gate : { passed: false, problems: [...broken, ...gate.problems].slice(0, MAX_REPORTED_PROBLEMS) };
      });
      if (result.passed && check && preparing) {
        try {
          const problems = await frameworkProblems(check, changedThisRun);
          if (problems) {
            log.info(problems.length ? `${check.name} found ${problems.length} link(s) this run broke.` : `${check.name} passed.`);
            if (problems.length) result = { passed: false, problems };
          }
        } catch (error) {
          log.warning(`${check.name} failed, so only the gate's own link check stands: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (result.passed && options.checkCommand) options.beat(`Running check-command: ${options.checkCommand}`);
      const commandResult = result;
      return options.checkCommand && result.passed
        ? phases.time(`check-command (round ${round})`, () => withCheckCommand(commandResult, { command: options.checkCommand, cwd: repoRoot, timeoutMs: options.timeoutMs, env: options.env }, (message) => log.info(message)))
        : result;
    },
    async settle() {
      reading.abort();
      const prepared = await preparing;
      if (prepared?.ok && prepared.value.saving) await phases.time("saving the link checker to the Actions cache", () => prepared.value.saving as Promise<void>);
    },
  };
}

/** Starts the checker reading the site; a page it cannot parse now is the round's to report. */
function warmed(prepared: PreparedLinkChecker, siteRoot: string, signal: AbortSignal, phases: RunPhases): PreparedLinkChecker {
  const started = performance.now();
  prepared.checker.warm(siteRoot, signal).then(
    () => phases.add("link checker read the site", performance.now() - started, { background: true }),
    () => undefined,
  );
  return prepared;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: string };

/** A promise that never rejects (it is read later, perhaps never). */
const settled = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }),
  );
