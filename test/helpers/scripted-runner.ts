import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ClaimResponse } from "../../src/shared/runner-schemas.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "inkwell-docs[bot]", GIT_AUTHOR_EMAIL: "bot@inkwell.test", GIT_COMMITTER_NAME: "inkwell-docs[bot]", GIT_COMMITTER_EMAIL: "bot@inkwell.test" } }).trim();

/** A bare repository standing in for the GitHub remote, with one commit on main. */
export function createBareRemote(): string {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-remote-"));
  const remote = path.join(root, "remote.git");
  git(root, "init", "--bare", "--initial-branch=main", remote);
  const seed = path.join(root, "seed");
  git(root, "clone", remote, seed);
  mkdirSync(path.join(seed, "docs"));
  writeFileSync(path.join(seed, "docs", "index.md"), "# Docs\n");
  git(seed, "add", ".");
  git(seed, "commit", "-m", "Initial docs");
  git(seed, "push", "origin", "HEAD:main");
  return remote;
}

export const log = (remote: string, ref: string) => git(remote, "log", "--format=%s", ref).split("\n");
export const show = (remote: string, ref: string, file: string) => git(remote, "show", `${ref}:${file}`);

/**
 * What the Inkwell Action does, scripted: claim with the OIDC token, continue or create the job's
 * branch, write one file per new message, commit, push, open the PR only when there is none, report.
 */
export async function runScriptedRunner(options: {
  serverUrl: string;
  oidcToken: string;
  remote: string;
  jobId: string;
  runAttempt: number;
  workflowRunId: number;
  openPullRequest: (token: string, branch: string, base: string) => Promise<{ number: number; url: string }>;
}) {
  const call = async (endpoint: string, body: unknown) => {
    const res = await fetch(`${options.serverUrl}/v1/runner/${endpoint}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${options.oidcToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${endpoint}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const claimed = (await call("claim", { jobId: options.jobId, runAttempt: options.runAttempt, workflowRunId: options.workflowRunId })) as ClaimResponse;
  const { job, token } = claimed;
  const work = mkdtempSync(path.join(tmpdir(), "inkwell-work-"));
  git(work, "clone", options.remote, ".");
  const branchExists = git(work, "ls-remote", "--heads", "origin", job.branch) !== "";
  if (branchExists) git(work, "checkout", "-b", job.branch, `origin/${job.branch}`);
  else git(work, "checkout", "-b", job.branch);

  await call("heartbeat", { jobId: job.id, runAttempt: job.runAttempt, progress: "Writing pages" });
  for (const message of job.messages.filter((m) => m.seq >= job.newMessagesFrom)) {
    const file = path.join(work, "docs", `note-${message.seq}.md`);
    if (!existsSync(path.dirname(file))) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `# Note ${message.seq}\n\n${message.prompt}\n`);
  }
  git(work, "add", ".");
  git(work, "commit", "-m", `Inkwell: ${job.messages.at(-1)?.prompt.slice(0, 60)}`);
  git(work, "push", "origin", `HEAD:${job.branch}`);
  const pr = job.prNumber ? { number: job.prNumber, url: "" } : await options.openPullRequest(token?.value ?? "", job.branch, job.baseRef ?? "main");
  return call("report", {
    jobId: job.id,
    runAttempt: job.runAttempt,
    outcome: "completed",
    pr: { number: pr.number, url: pr.url || `https://github.com/${job.repository}/pull/${pr.number}` },
    summary: `Wrote ${job.messages.length - job.newMessagesFrom + 1} note(s)`,
    usage: { inputTokens: 100, outputTokens: 50 },
  }) as Promise<{ status: string; prLink: string | null }>;
}
