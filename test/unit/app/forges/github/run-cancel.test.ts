import { describe, expect, it } from "vitest";
import type { RunToCancel } from "../../../../../src/app/domain/jobs/run-cancel.js";
import type { GitHubApi } from "../../../../../src/app/forges/github/api.js";
import { gitHubRunCancel } from "../../../../../src/app/forges/github/run-cancel.js";

type Listed = Awaited<ReturnType<GitHubApi["dispatchedRuns"]>>;

/** The two GitHub calls the canceller makes, answered from fixed data. */
function fakeGitHub(listed: Listed, answer: Awaited<ReturnType<GitHubApi["cancelWorkflowRun"]>> = "cancelled") {
  const calls: { since?: string; cancelled?: number }[] = [];
  const api = {
    async dispatchedRuns(_installation: number, _repo: string, since: string) {
      calls.push({ since });
      return listed;
    },
    async cancelWorkflowRun(_installation: number, _repo: string, runId: number) {
      calls.push({ cancelled: runId });
      return answer;
    },
  } as unknown as GitHubApi;
  return { api, calls };
}

const run = (over: Partial<RunToCancel> = {}): RunToCancel => ({
  job: { id: "job1", installationId: 42, repoName: "acme/docs" } as RunToCancel["job"],
  runAttempt: 2,
  claimedRunId: null,
  dispatchedAt: "2026-11-27T21:00:30.123Z",
  dispatchDetail: null,
  dispatchPending: false,
  ...over,
});

describe("gitHubRunCancel", () => {
  it("before the claim, finds the attempt's run by its run name among the dispatched runs since a minute before the dispatch", async () => {
    const { api, calls } = fakeGitHub([
      { id: 3, title: "inkwell job1 #3", status: "queued", conclusion: null },
      { id: 2, title: "inkwell job1 #2", status: "in_progress", conclusion: null },
      { id: 1, title: "inkwell job1 #1", status: "completed", conclusion: "failure" },
    ]);
    expect(await gitHubRunCancel(api).cancelRun(run())).toEqual({ cancelled: "workflow run 2 cancelled" });
    expect(calls).toEqual([{ since: "2026-11-27T20:59:30Z" }, { cancelled: 2 }]);
  });

  it("takes a run named without its attempt (an older run-name), says a finished one had ended, and waits for one not listed yet", async () => {
    expect(await gitHubRunCancel(fakeGitHub([{ id: 9, title: "inkwell job1", status: "queued", conclusion: null }]).api).cancelRun(run())).toEqual({ cancelled: "workflow run 9 cancelled" });
    const ended = fakeGitHub([{ id: 8, title: "inkwell job1 #2", status: "completed", conclusion: "failure" }]);
    expect(await gitHubRunCancel(ended.api).cancelRun(run())).toEqual({ cancelled: "workflow run 8 had already ended (failure)" });
    expect(ended.calls).toHaveLength(1);
    expect(await gitHubRunCancel(fakeGitHub([{ id: 7, title: "inkwell otherjob #2", status: "queued", conclusion: null }]).api).cancelRun(run())).toEqual({
      retry: 'GitHub lists no workflow run named "inkwell job1 #2" yet',
    });
  });

  it("after the claim, cancels the claimed run; GitHub's 409, 404 and 403 are said as what they mean", async () => {
    const claimed = run({ claimedRunId: 55 });
    const { api, calls } = fakeGitHub([]);
    expect(await gitHubRunCancel(api).cancelRun(claimed)).toEqual({ cancelled: "workflow run 55 cancelled" });
    expect(calls).toEqual([{ cancelled: 55 }]);
    expect(await gitHubRunCancel(fakeGitHub([], "ended").api).cancelRun(claimed)).toEqual({ cancelled: "workflow run 55 had already ended" });
    expect(await gitHubRunCancel(fakeGitHub([], "not_found").api).cancelRun(claimed)).toEqual({ notCancelled: "workflow run 55 not cancelled: GitHub does not know it (404)" });
    const forbidden = await gitHubRunCancel(fakeGitHub([], "forbidden").api).cancelRun(claimed);
    expect("notCancelled" in forbidden && forbidden.notCancelled).toMatch(/^workflow run 55 not cancelled: GitHub refused \(403\).*Actions: Read and write/);
    expect(await gitHubRunCancel(api).cancelRun(run({ job: { ...claimed.job, installationId: null } }))).toEqual({
      notCancelled: "run attempt 2's workflow run not cancelled: the App is not installed on acme/docs any more",
    });
  });
});
