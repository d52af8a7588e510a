import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/server.js";
import { drainTasks } from "../helpers/drain.js";
import { eventually } from "../helpers/eventually.js";
import type { FakeGitLab } from "../helpers/fake-gitlab.js";
import { lastUserText, steps } from "../helpers/fake-model.js";
import { runGitLabPipeline, startGitLabInkwell } from "../helpers/gitlab-inkwell.js";

/**
 * The docs repository's own checks as the last word, on GitLab, end to end: the real runner in the
 * pipelines Inkwell starts on a fake GitLab, with a scripted model, and the project's own CI on the
 * merge request (its pipelines, failed jobs and traces through the API, its Pipeline Hooks). The
 * merge request opens as a draft; a failed job's trace goes to the next run's model; a stale commit's
 * pipeline starts nothing; past the project's limit the job names the failing job; a passing
 * pipeline takes the `Draft:` off.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "docs-repos", "mintlify");
const PAGE = "---\ntitle: Export\n---\n\nRun `acme export` to write your data as CSV.\n";

/** A job's trace as GitLab keeps it: colours, collapsible sections, and the runner's last words. */
const FAILED_TRACE = [
  "\u001b[0KRunning with gitlab-runner 17.5.0 (ab1c2d3e)\u001b[0;m",
  "section_start:1732741205:step_script\r\u001b[0K\u001b[0K\u001b[36;1mExecuting \"step_script\" stage of the job script\u001b[0;m\u001b[0;m",
  "\u001b[32;1m$ npx mint broken-links\u001b[0;m",
  "guides/export.mdx",
  " ⎿  /guides/formats",
  "\u001b[31mfound 1 broken link in 1 file\u001b[0m",
  "section_end:1732741210:step_script\r\u001b[0K",
  "\u001b[31;1mERROR: Job failed: exit code 1",
  "\u001b[0;m",
].join("\n");

let setup: Awaited<ReturnType<typeof startGitLabInkwell>>;
let gitlab: FakeGitLab;

beforeAll(async () => {
  setup = await startGitLabInkwell(FIXTURE, "gitlab-checks", { checkRepairRounds: 2 });
  gitlab = setup.gitlab;
});
afterAll(() => setup?.close());

const job = async (id: string) => (await setup.t.call("GET", `/v2/agent/${setup.projectId}/job/${id}`, { token: setup.key })).body;
const events = async (id: string) => (await setup.t.call("GET", `/v2/agent/${setup.projectId}/job/${id}/events`, { token: setup.key })).body.events as { type: string; detail: string | null }[];
const pipelineOf = (jobId: string, attempt: number) =>
  eventually(`the pipeline of ${jobId} run ${attempt}`, () => gitlab.pipelines.find((p) => p.variables.INKWELL_JOB_ID === jobId && p.variables.INKWELL_RUN_ATTEMPT === String(attempt)));
const head = (jobId: string) => execFileSync("git", ["rev-parse", `inkwell/${jobId}`], { cwd: gitlab.remote, encoding: "utf8" }).trim();

/** The project's own CI ended on the merge request: its hook delivered, and what Inkwell does with it finished. */
async function ownCiEnded(jobId: string, sha: string, status: "success" | "failed", jobs: Parameters<FakeGitLab["runOwnCi"]>[0]["jobs"]) {
  const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`)!;
  const { payload } = gitlab.runOwnCi({ ref: `refs/merge-requests/${mr.iid}/head`, sha, source: "merge_request_event", status, jobs }, mr);
  expect((await gitlab.deliver("Pipeline Hook", payload)).status).toBe(202);
  await drainTasks(setup.t);
}

const brokenLinks = { name: "mint broken-links", status: "failed" as const, allowFailure: false, trace: FAILED_TRACE };
/** A job allowed to fail fails no pipeline: never a failing check. */
const styleAdvice = { name: "vale (advisory)", status: "failed" as const, allowFailure: true, trace: "vale: 3 suggestions" };

describe("a GitLab docs project whose merge request pipeline judges the agent's change", () => {
  let jobId: string;
  let first: string;

  it("the first run opens its merge request as a draft: the project watches the checks on the pushed commit", async () => {
    setup.model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "guides/export.mdx", content: PAGE, reason: "The page asked for." } }] },
        { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/export"]', reason: "Lists the new page." } }] },
        { text: "Document the export command\n\nA guide to `acme export`." },
      ),
    );
    jobId = (await setup.t.call("POST", `/v2/agent/${setup.projectId}/job`, { token: setup.key, body: { prompt: "Document the export command" } })).body.id;
    const run = await runGitLabPipeline(setup, await pipelineOf(jobId, 1));
    expect(run.code, run.logs).toBe(0);
    first = head(jobId);
    const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`);
    expect(mr).toMatchObject({ title: "Draft: Document the export command", draft: true });
    expect(mr?.description).toContain("stays a draft until the repository's own checks pass");
    expect(await job(jobId)).toMatchObject({ status: "completed", checks: { state: "pending", sha: first, failing: [], rounds: 0 } });
  });

  it("the merge request pipeline failed: the failed job's trace, cleaned, is what the next run's model reads", async () => {
    await ownCiEnded(jobId, first, "failed", [brokenLinks, styleAdvice, { name: "spelling", status: "success", allowFailure: false, trace: "ok" }]);
    const failedJob = gitlab.ciPipelines.at(-1)!.jobs[0]!;
    expect(await job(jobId)).toMatchObject({ status: "active", checks: { state: "failing", rounds: 1, failing: [{ name: "mint broken-links", url: `${gitlab.url}/${gitlab.projectPath}/-/jobs/${failedJob.id}` }] } });
    expect((await events(jobId)).find((e) => e.type === "checks_failed")?.detail).toBe(`mint broken-links failed on ${first.slice(0, 7)}: repair round 1 of 2`);

    setup.model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "guides/export.mdx", find: "as CSV.", replace: "as CSV (see the formats list).", reason: "The link the checks found broken is gone." } }] },
        { text: "Fix the broken link\n\nThe guide no longer links to a missing page." },
      ),
    );
    const run = await runGitLabPipeline(setup, await pipelineOf(jobId, 2));
    expect(run.code, run.logs).toBe(0);
    const instruction = lastUserText(setup.model.requests[0]!);
    expect(instruction).toContain("The docs repository's own checks failed on the commit this job pushed");
    expect(instruction).toContain("$ npx mint broken-links\nguides/export.mdx\n ⎿  /guides/formats\nfound 1 broken link in 1 file");
    expect(instruction).toContain("ERROR: Job failed: exit code 1");
    for (const gone of ["\u001b", "section_", "vale: 3 suggestions"]) expect(instruction).not.toContain(gone);
    // The merge request stays a draft: its new head has not passed yet.
    expect(gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`)).toMatchObject({ draft: true });
    expect((await job(jobId)).checks).toMatchObject({ state: "pending", sha: head(jobId), rounds: 1 });
  });

  it("a pipeline of the commit before (a stale head) starts nothing", async () => {
    const pipelines = gitlab.pipelines.length;
    const before = await events(jobId);
    await ownCiEnded(jobId, first, "failed", [brokenLinks]);
    expect(gitlab.pipelines.length).toBe(pipelines);
    expect(await events(jobId)).toEqual(before);
  });

  it("past the project's limit the job stays completed, naming the failed job; a passing pipeline then takes the Draft: off", async () => {
    expect((await setup.t.call("PATCH", `/admin/projects/${setup.projectId}`, { token: ADMIN_TOKEN, body: { jobs: { checkRepairRounds: 1 } } })).body.jobs.checkRepairRounds).toBe(1);
    const pipelines = gitlab.pipelines.length;
    const second = head(jobId);
    await ownCiEnded(jobId, second, "failed", [brokenLinks]);
    expect(gitlab.pipelines.length).toBe(pipelines);
    expect(await job(jobId)).toMatchObject({ status: "completed", checks: { state: "failing", sha: second, rounds: 1, failing: [{ name: "mint broken-links" }] } });
    expect((await events(jobId)).at(-1)).toMatchObject({ type: "checks_failed", detail: `mint broken-links failed on ${second.slice(0, 7)}: no repair round left (1 of 1 used)` });

    // Someone re-ran the pipeline and it passed.
    await ownCiEnded(jobId, second, "success", [{ name: "mint broken-links", status: "success", allowFailure: false, trace: "no broken links" }]);
    const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`);
    expect(mr).toMatchObject({ title: "Fix the broken link", draft: false });
    expect(await job(jobId)).toMatchObject({ status: "completed", checks: { state: "passing", sha: second, failing: [] } });
    expect((await events(jobId)).slice(-2).map((e) => [e.type, e.detail])).toEqual([
      ["checks_passed", `1 check(s) passed on ${second.slice(0, 7)}`],
      ["marked_ready", `merge request !${mr?.iid} marked ready for review`],
    ]);
  });
});
