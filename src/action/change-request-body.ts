import type { JobTrigger } from "../shared/automation-schemas.js";
import type { JobMessage } from "../shared/runner-schemas.js";
import { shownInstruction } from "../shared/shown-instruction.js";
import type { ChangedFile } from "./git.js";
import type { GateResult } from "./validation/gate.js";
import { forgeWords, type ForgeName, type ForgeWords } from "../shared/forge-words.js";

const BODY_LIMIT = 60_000;
const CHANGES_HEADER = "Changes:";

/** The commit message of one run: title, then one line per file with why it changed (read back by `reasonsFromCommits`). */
export function commitMessage(title: string, jobId: string, runAttempt: number, reasons: Map<string, string[]>): string {
  const lines = [...reasons].sort(([a], [b]) => a.localeCompare(b)).map(([file, why]) => `- ${file}: ${why.join("; ").replace(/\s+/g, " ")}`);
  return `${title}\n\nInkwell job ${jobId}, run ${runAttempt}.\n\n${CHANGES_HEADER}\n${lines.join("\n")}\n`;
}

/** Why each file changed, across every run of the branch, from its commit messages. */
export function reasonsFromCommits(messages: string[]): Map<string, string[]> {
  const reasons = new Map<string, string[]>();
  for (const message of messages) {
    const start = message.indexOf(`\n${CHANGES_HEADER}\n`);
    if (start === -1) continue;
    for (const line of message.slice(start + CHANGES_HEADER.length + 2).split("\n")) {
      const match = /^- (.+?): (.+)$/.exec(line);
      if (!match) continue;
      const [, file, why] = match as unknown as [string, string, string];
      const list = reasons.get(file) ?? [];
      if (!list.includes(why)) list.push(why);
      reasons.set(file, list);
    }
  }
  return reasons;
}

/** The title (first line) and the rest of the agent's final answer. */
export function splitSummary(answer: string, fallbackTitle: string): { title: string; summary: string } {
  const lines = answer.trim().split("\n");
  const first = (lines[0] ?? "").replace(/^#+\s*|^title:\s*/i, "").replace(/^["*_`]+|["*_`]+$/g, "").trim();
  const title = (first || fallbackTitle).slice(0, 72);
  return { title, summary: lines.slice(1).join("\n").trim() };
}

export interface PullRequestBodyInput {
  summary: string;
  jobId: string;
  model: string;
  messages: JobMessage[];
  files: ChangedFile[];
  reasons: Map<string, string[]>;
  validation: GateResult;
  workflowRunUrl: string | null;
  /** The job's page on the Inkwell dashboard (its runs' transcripts, usage and history). */
  jobPageUrl?: string | null;
  /** The validation's check run on the pushed commit, with its annotations. */
  checkRunUrl?: string | null;
  /** What started the job (shown under the summary). */
  trigger?: JobTrigger | undefined;
  /** The docs repository's issue the job came from: `Fixes #n` closes it on merge. */
  closesIssue?: number | null | undefined;
  /** Whose words: a GitHub pull request and workflow run (default), or a GitLab merge request and pipeline. */
  forge?: ForgeName;
  /** The project watches the repository's own checks: the change request is a draft until they pass on this commit. */
  draftUntilChecksPass?: boolean | undefined;
}


const STARTED_BY: Record<JobTrigger["type"], string> = {
  api: "a request to the API",
  dashboard: "a request on the dashboard",
  comment: "a pull request comment",
  "source-merge": "a merged pull request",
  issue: "an issue",
  schedule: "a schedule",
  suggestion: "a suggestion from the site's analytics",
  slack: "a Slack thread",
};

/** What started the job, linked where it has a page; nothing for a plain request (the Instructions say who asked). */
function startedBy(trigger: JobTrigger | undefined, words: ForgeWords): string | null {
  if (!trigger || trigger.type === "api" || trigger.type === "dashboard") return null;
  const what = trigger.type === "comment" ? `a ${words.change} ${words.comment}` : trigger.type === "source-merge" ? `a merged ${words.change}` : STARTED_BY[trigger.type];
  return `Started by ${trigger.url ? `[${what}](${trigger.url})` : what}.`;
}

export function renderPullRequestBody(input: PullRequestBodyInput): string {
  const words = forgeWords(input.forge);
  const out: string[] = [];
  if (input.summary) out.push(input.summary, "");
  const started = startedBy(input.trigger, words);
  if (started) out.push(started, "");
  if (input.closesIssue) out.push(`Fixes #${input.closesIssue}`, "");
  out.push("### Changes", "");
  if (input.files.length === 0) out.push("No file differs from the base branch.");
  for (const file of input.files) {
    const what = file.status === "renamed" ? `renamed from \`${file.from}\`` : file.status;
    const why = input.reasons.get(file.path) ?? [];
    out.push(`- \`${file.path}\` (${what})${why.length ? `: ${why.join("; ")}` : ""}`);
  }
  out.push("", "### Instructions", "");
  for (const message of input.messages) {
    const who = messageOrigin(message);
    const shown = shownInstruction(message);
    const text = shown.length > 2_000 ? `${shown.slice(0, 2_000)}…` : shown;
    out.push(`${message.seq}. ${who}:`, ...text.split("\n").map((line) => `   > ${line}`));
  }
  out.push("", "### Validation", "");
  if (input.checkRunUrl) out.push(`See the [check run](${input.checkRunUrl}) for each problem at its file and line.`, "");
  if (input.validation.passed) out.push("Passed: pages compile, frontmatter is valid, internal links and anchors resolve, navigation lists every new page.");
  else {
    out.push(`**${input.validation.problems.length} problem(s) remain** after the agent's repair rounds, so this ${words.changeShort} is a draft until they are fixed:`, "");
    for (const problem of input.validation.problems) out.push(`- ${problem}`);
  }
  if (input.draftUntilChecksPass && input.validation.passed) {
    out.push("", `This ${words.changeShort} stays a draft until the repository's own checks pass on its latest commit; Inkwell then marks it ready for review. A failing check's log goes back to the agent.`);
  }
  out.push(...alreadyOnSite(input.validation));
  out.push(
    "",
    "---",
    `Inkwell job \`${input.jobId}\` · model \`${input.model}\`${input.workflowRunUrl ? ` · [${words.run}](${input.workflowRunUrl})` : ""}${input.jobPageUrl ? ` · [transcript, cost and history](${input.jobPageUrl})` : ""}. Comment on this ${words.changeShort} to ask for changes.`,
  );
  const body = out.join("\n");
  return body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}\n\n… (truncated)` : body;
}

/** How many problems of the site's own a body lists (the report carries up to 200). */
const LISTED_ALREADY_ON_SITE = 20;

/** Problems the site had before the run and still has: counted and listed, folded, never blocking. */
function alreadyOnSite(validation: GateResult): string[] {
  const listed = validation.alreadyOnSite ?? [];
  const count = Math.max(validation.alreadyOnSiteCount ?? 0, listed.length);
  if (count === 0) return [];
  const shown = listed.slice(0, LISTED_ALREADY_ON_SITE);
  return [
    "",
    `<details><summary>Already on the site: ${count} problem(s) that were there before this change (not this change's, and not blocking)</summary>`,
    "",
    ...shown.map((problem) => `- ${problem}`),
    ...(count > shown.length ? [`- … and ${count - shown.length} more`] : []),
    "",
    "</details>",
  ];
}

/** Who sent a message, as the PR body says it. */
function messageOrigin(message: Pick<JobMessage, "source" | "author">): string {
  if (message.source === "comment" && message.author) return `@${message.author} in a comment`;
  if (message.source === "dashboard") return message.author ? `@${message.author} on the dashboard` : "on the dashboard";
  if (message.source === "automation") return message.author ? `an automation, for @${message.author}` : "an automation";
  if (message.source === "checks") return "the repository's checks";
  return "via the API";
}
