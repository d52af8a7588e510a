import { existsSync } from "node:fs";
import path from "node:path";
import type { DocsProject } from "../docs/framework.js";
import type { ChangedFile } from "../git.js";
import type { RunPhases } from "../phases.js";
import { withCheckCommand } from "./check-command.js";
import { brokenPromises, configPromises } from "./config-keeps.js";
import { frameworkCheckFor, introducedBrokenLinks, type FrameworkCheck } from "./framework-check.js";
import { runGate, type GateResult, type PageAnalyses } from "./gate.js";
import type { BrokenLink, PreparedLinkChecker } from "./link-checker.js";
import { writeStartingTree, type StartingTree } from "./starting-tree.js";

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
 * Starts a run's validation: writes the tree the run starts from to a folder of its own (every
 * check runs on it as on the workspace, and only what the run introduced blocks it), and gets the
 * framework's checker ready, reading that tree's pages in the background while the model works and
 * then finding the site's broken links before the run, once.
 */
export function startRunValidation(options: RunValidationOptions): RunValidation {
  const { repoRoot, project, log, phases } = options;
  const promisesBefore = configPromises(repoRoot, project);
  const startedAt = performance.now();
  const starting = settled(writeStartingTree(repoRoot).then((tree) => (phases.add("the starting tree written", performance.now() - startedAt, { background: true }), tree)));
  const pages: PageAnalyses = new Map();
  const check = options.frameworkCheck ? frameworkCheckFor(project) : null;
  // Once ready, the checker reads the starting tree's pages while the model works (a round re-reads only what the run wrote), then finds the links broken before the run.
  const reading = new AbortController();
  const preparing = check ? settled(options.prepareLinkChecker()) : null;
  const brokenBefore = check && preparing ? settled(baseline(check, preparing, starting, reading.signal, phases)) : null;
  let round = 0;
  let checkerUsed = false;

  const frameworkProblems = async (check: FrameworkCheck, branchChanges: ChangedFile[]): Promise<Awaited<ReturnType<typeof introducedBrokenLinks>> | null> => {
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
    const before = await (brokenBefore as Promise<Settled<BrokenLink[]>>);
    if (!before.ok) {
      if (firstUse) log.warning(`${check.name} could not read the site as the run found it, so only the gate's own link check stands: ${before.error}`);
      return null;
    }
    return phases.time(`link check (round ${round})`, async () => {
      const found = inRepository(check, await checker.check(path.join(repoRoot, check.siteDir)));
      return introducedBrokenLinks(check, found, before.value, movedFrom(branchChanges), repoRoot);
    });
  };

  return {
    async validate(changedThisRun, branchChanges) {
      round++;
      const tree = await starting;
      if (!tree.ok && round === 1) log.warning(`The tree the run started from could not be written, so every problem in the pages the run changed counts: ${tree.error}`);
      let result = await phases.time(`gate (round ${round})`, async () => {
        const gate = await runGate({ repoRoot, project, changedThisRun, branchChanges, navigationBefore: options.navigationBefore, beforeRoot: tree.ok ? tree.value.root : undefined, pages });
        const broken = brokenPromises(promisesBefore, configPromises(repoRoot, project), branchChanges, project, (file) => existsSync(path.join(repoRoot, file)));
        return broken.length === 0 ? gate : { ...gate, passed: false, problems: [...broken, ...gate.problems].slice(0, MAX_REPORTED_PROBLEMS) };
      });
      if (result.passed && check && preparing) {
        try {
          const links = await frameworkProblems(check, branchChanges);
          if (links) {
            log.info(links.problems.length ? `${check.name} found ${links.problems.length} link(s) this run broke.` : `${check.name} passed.`);
            if (links.alreadyOnSiteCount) log.info(`${check.name}: ${links.alreadyOnSiteCount} broken link(s) were on the site before the run; they are listed, not the agent's to fix.`);
            const alreadyOnSiteCount = (result.alreadyOnSiteCount ?? 0) + links.alreadyOnSiteCount;
            result = {
              passed: links.problems.length === 0,
              problems: links.problems,
              ...(alreadyOnSiteCount > 0 ? { alreadyOnSite: [...(result.alreadyOnSite ?? []), ...links.alreadyOnSite].slice(0, MAX_REPORTED_PROBLEMS), alreadyOnSiteCount } : {}),
            };
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
      await brokenBefore;
      const tree = await starting;
      if (tree.ok) await tree.value.remove();
      if (prepared?.ok && prepared.value.saving) await phases.time("saving the link checker to the Actions cache", () => prepared.value.saving as Promise<void>);
    },
  };
}

/**
 * The site's broken links as the run found it: the checker reads the starting tree's pages while the
 * model works (stopping when the run settles), then checks that tree once. Its page parses are kept
 * by path and content, so the rounds re-read only what the run wrote.
 */
async function baseline(check: FrameworkCheck, preparing: Promise<Settled<PreparedLinkChecker>>, starting: Promise<Settled<StartingTree>>, signal: AbortSignal, phases: RunPhases): Promise<BrokenLink[]> {
  const [prepared, tree] = await Promise.all([preparing, starting]);
  if (!prepared.ok) throw new Error(prepared.error);
  if (!tree.ok) throw new Error(tree.error);
  const siteRoot = path.join(tree.value.root, check.siteDir);
  const started = performance.now();
  await prepared.value.checker.warm(siteRoot, signal).catch(() => undefined);
  phases.add("link checker read the site", performance.now() - started, { background: true });
  const checked = performance.now();
  const found = inRepository(check, await prepared.value.checker.check(siteRoot));
  phases.add("link checker found the site's broken links", performance.now() - checked, { background: true });
  return found;
}

/** The checker names files relative to the site's folder; the gate, relative to the repository. */
const inRepository = (check: FrameworkCheck, links: BrokenLink[]): BrokenLink[] => links.map((link) => ({ ...link, file: path.posix.join(check.siteDir, link.file) }));

const movedFrom = (changes: ChangedFile[]) => new Map(changes.flatMap((change) => (change.status === "renamed" && change.from ? [[change.path, change.from] as const] : [])));

type Settled<T> = { ok: true; value: T } | { ok: false; error: string };

/** A promise that never rejects (it is read later, perhaps never). */
const settled = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }),
  );
