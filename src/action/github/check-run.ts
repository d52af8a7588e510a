import type { getOctokit } from "@actions/github";
import { parseProblem } from "../../shared/job-outcome-schemas.js";
import type { GateResult } from "../validation/gate.js";

type Octokit = ReturnType<typeof getOctokit>;

export const CHECK_NAME = "Inkwell docs validation";
/** GitHub takes at most 50 annotations per request; more are added by updating the run. */
const ANNOTATIONS_PER_REQUEST = 50;
/** GitHub shows at most 50 per run in the UI and keeps 1,000; a gate rarely has more. */
const MAX_ANNOTATIONS = 1_000;

export interface CheckRunInput {
  owner: string;
  repo: string;
  /** The commit this run pushed: the check is on it, so the PR shows it. */
  headSha: string;
  validation: GateResult;
  /** Files in the commit: an annotation must name one of them, else it goes in the summary. */
  files: Set<string>;
  detailsUrl?: string | null;
}

/** The annotation for each problem that names a file of the commit (a problem without a line is about line 1). */
export function annotationsOf(validation: GateResult, files: Set<string>) {
  return validation.problems.flatMap((text) => {
    const problem = parseProblem(text);
    if (!problem.file || !files.has(problem.file)) return [];
    const line = problem.line ?? 1;
    return [{ path: problem.file, start_line: line, end_line: line, annotation_level: "failure" as const, title: "Inkwell validation", message: problem.message }];
  });
}

export function checkSummary(validation: GateResult): { title: string; summary: string } {
  if (validation.passed) return { title: "Passed", summary: "Pages compile, frontmatter is valid, internal links and anchors resolve, and navigation lists every new page." };
  const count = validation.problems.length;
  return {
    title: `${count} problem${count === 1 ? "" : "s"}`,
    summary: [`${count} problem(s) remain after the agent's repair rounds; the pull request stays a draft until they are fixed.`, "", ...validation.problems.slice(0, 200).map((problem) => `- ${problem}`)].join("\n"),
  };
}

/**
 * The validation result as a GitHub check run on the pushed commit, with an annotation at the file
 * and line of each problem, so reviewers see it where they look. Needs the App's Checks: write
 * permission: without it (an App registered before it was asked for) this is a warning, and the
 * PR body still carries the result.
 */
export async function publishCheckRun(octokit: Octokit, input: CheckRunInput, warn: (message: string) => void): Promise<string | null> {
  const { title, summary } = checkSummary(input.validation);
  const annotations = annotationsOf(input.validation, input.files).slice(0, MAX_ANNOTATIONS);
  try {
    const { data } = await octokit.rest.checks.create({
      owner: input.owner,
      repo: input.repo,
      name: CHECK_NAME,
      head_sha: input.headSha,
      status: "completed",
      conclusion: input.validation.passed ? "success" : "failure",
      ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
      output: { title, summary, annotations: annotations.slice(0, ANNOTATIONS_PER_REQUEST) },
    });
    for (let start = ANNOTATIONS_PER_REQUEST; start < annotations.length; start += ANNOTATIONS_PER_REQUEST) {
      await octokit.rest.checks.update({ owner: input.owner, repo: input.repo, check_run_id: data.id, output: { title, summary, annotations: annotations.slice(start, start + ANNOTATIONS_PER_REQUEST) } });
    }
    return data.html_url ?? null;
  } catch (error) {
    const status = (error as { status?: number }).status;
    const hint = status === 403 ? " (the App needs the Checks: write permission: accept it in the App's installation settings)" : "";
    warn(`Could not publish the validation as a check run${hint}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
