import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeToMarkReady, jobWatchingHead, recordChecksVerdict, repairRoundDue, watchedHead, type ChecksVerdict } from "../../../../../src/app/domain/jobs/checks.js";
import { createJob } from "../../../../../src/app/domain/jobs/commands.js";
import { listJobMessages } from "../../../../../src/app/domain/jobs/messages.js";
import { getJob, listJobEvents } from "../../../../../src/app/domain/jobs/queries.js";
import { claimRun, reportRun } from "../../../../../src/app/domain/jobs/runs.js";
import { createProject, updateJobSettings } from "../../../../../src/app/domain/projects.js";
import type { Db } from "../../../../../src/app/store/db.js";
import { openTestStore, type TestStore } from "../../../../helpers/store.js";

let store: TestStore;
let db: Db;
let projectId: string;
let repo = "";
let projects = 0;

beforeAll(async () => {
  store = await openTestStore();
  db = store.db;
});
afterAll(() => store.drop());
beforeEach(async () => {
  repo = `acme/checks-${++projects}`;
  projectId = (await createProject(db, { repoName: repo, repository: `https://github.com/${repo}`, model: "anthropic/claude-sonnet-4-5" })).id;
  await db.query(`UPDATE projects SET installation_id = 42 WHERE id = $1`, [projectId]);
});

const sha = (n: number) => n.toString(16).padStart(40, "a");
const caller = () => ({ repository: repo, repositoryId: null });
const limits = { timeoutMinutes: 60, heartbeatSeconds: 30 };

/** A job whose first run pushed `head` and opened PR #5. */
async function pushedJob(head: string, draft = false) {
  const { job } = await db.transaction((tx) => createJob(tx, { projectId, prompt: "Document the export command", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
  await run(job.id, 1, head, draft);
  return job.id;
}

/** One run of the job: claimed by workflow run 500 + attempt, then reported with what it pushed (nothing when `head` is null). */
async function run(jobId: string, attempt: number, head: string | null, draft = false) {
  const claimed = await db.transaction((tx) => claimRun(tx, { jobId, runAttempt: attempt, workflowRunId: 500 + attempt }, caller(), limits));
  await db.transaction((tx) =>
    reportRun(tx, { jobId, runAttempt: attempt, outcome: "completed", pr: { number: 5, url: `https://github.com/${repo}/pull/5` }, ...(head ? { pushed: { sha: head, draft } } : {}) }, caller()),
  );
  return claimed;
}

const failing = (repair: string | null = "The docs repository's own checks failed.\n\n<check>log</check>"): ChecksVerdict => ({
  state: "failing",
  failing: [{ name: "docs build", url: "https://github.com/acme/docs/actions/runs/9/job/7" }],
  detail: "1 of 2 check(s) failed",
  repair,
});
const passing: ChecksVerdict = { state: "passing", failing: [], detail: "2 check(s) passed", repair: null };
const verdict = (jobId: string, head: string, v: ChecksVerdict) => db.transaction((tx) => recordChecksVerdict(tx, jobId, head, v));
const pendingTasks = (kind: string, jobId: string) =>
  db.query<{ dedupe_key: string; next_try_at: Date }>(`SELECT dedupe_key, next_try_at FROM tasks WHERE kind = $1 AND state = 'pending' AND dedupe_key LIKE $2 ORDER BY id`, [kind, `%${jobId}%`]);

describe("a job's head and whose checks an event is about", () => {
  it("the report's pushed commit becomes the watched head, checks pending, a look due after the grace period; the claim asked for a draft", async () => {
    const { job } = await db.transaction((tx) => createJob(tx, { projectId, prompt: "x", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
    const claimed = await run(job.id, 1, sha(1));
    expect(claimed.context.draftUntilChecksPass).toBe(true);
    expect((await getJob(db, projectId, job.id)).checks).toEqual({ state: "pending", sha: sha(1), failing: [], rounds: 0 });
    const [settle] = await pendingTasks("checks", job.id);
    expect(settle?.dedupe_key).toBe(`checks-settle:${job.id}:${sha(1)}`);
    expect(new Date(settle!.next_try_at).getTime() - Date.now()).toBeGreaterThan(290_000);
    expect((await watchedHead(db, job.id, sha(1)))?.ownRuns).toEqual(new Set([501]));
  });

  it("an event on the head names the job (by repository, any case, or by project); another commit, another repository or a head moved on names none", async () => {
    const jobId = await pushedJob(sha(1));
    expect(await jobWatchingHead(db, { repoName: repo.toUpperCase() }, sha(1))).toBe(jobId);
    expect(await jobWatchingHead(db, { projectId }, sha(1))).toBe(jobId);
    expect(await jobWatchingHead(db, { repoName: "acme/elsewhere" }, sha(1))).toBeNull();
    expect(await jobWatchingHead(db, { repoName: repo }, sha(2))).toBeNull();
    // A follow-up run pushed a new head: the old commit's checks are nobody's business any more.
    await db.query(`UPDATE jobs SET status = 'active', run_attempt = 2 WHERE id = $1`, [jobId]);
    await run(jobId, 2, sha(2));
    expect(await jobWatchingHead(db, { repoName: repo }, sha(1))).toBeNull();
    expect(await jobWatchingHead(db, { repoName: repo }, sha(2))).toBe(jobId);
    expect(await verdict(jobId, sha(1), failing())).toBe("the job's head moved on");
  });

  it("a project that does not watch its checks (checkRepairRounds 0): the head is kept, nothing watched, no draft asked", async () => {
    await db.transaction((tx) => updateJobSettings(tx, projectId, { checkRepairRounds: 0 }));
    const { job } = await db.transaction((tx) => createJob(tx, { projectId, prompt: "x", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
    const claimed = await run(job.id, 1, sha(1));
    expect(claimed.context.draftUntilChecksPass).toBe(false);
    expect((await getJob(db, projectId, job.id)).checks).toBeNull();
    expect(await jobWatchingHead(db, { repoName: repo }, sha(1))).toBeNull();
    expect(await pendingTasks("checks", job.id)).toEqual([]);
  });
});

describe("what a verdict does", () => {
  it("a failure starts a repair round on the same branch: a message from the checks, the next run dispatched, the job's history naming the check", async () => {
    const jobId = await pushedJob(sha(1));
    expect(await repairRoundDue(db, (await watchedHead(db, jobId, sha(1)))!)).toBe(true);
    expect(await verdict(jobId, sha(1), failing())).toBe("repair round 1 of 2");
    const job = await getJob(db, projectId, jobId);
    expect(job).toMatchObject({ status: "active", checks: { state: "failing", failing: [{ name: "docs build" }], rounds: 1 } });
    expect((await listJobMessages(db, projectId, jobId)).at(-1)).toMatchObject({ source: "checks", author: null, prompt: expect.stringContaining("<check>log</check>") });
    expect((await pendingTasks("dispatch", jobId)).map((task) => task.dedupe_key)).toEqual([`dispatch:${jobId}:1`, `dispatch:${jobId}:2`]);
    const events = await listJobEvents(db, projectId, jobId);
    expect(events.slice(-2)).toMatchObject([
      { type: "checks_failed", cause: "github", detail: `docs build failed on ${sha(1).slice(0, 7)}: repair round 1 of 2` },
      { type: "reactivated", from: "completed", to: "active", cause: "checks" },
    ]);
  });

  it("once per commit, never while a run is going; the run that pushed nothing leaves the head, whose checks are looked at again", async () => {
    const jobId = await pushedJob(sha(1));
    await verdict(jobId, sha(1), failing());
    // The repair run is going: the same commit's failure (another delivery) starts nothing.
    expect(await repairRoundDue(db, (await watchedHead(db, jobId, sha(1)))!)).toBe(false);
    expect(await verdict(jobId, sha(1), failing())).toBe("failing, as recorded");
    // It changed nothing: the head stays, a look is queued now, and that commit's round ran already.
    await run(jobId, 2, null);
    expect((await pendingTasks("checks", jobId)).map((task) => task.dedupe_key)).toContain(`checks:${jobId}:${sha(1)}`);
    expect(await repairRoundDue(db, (await watchedHead(db, jobId, sha(1)))!)).toBe(false);
    expect(await verdict(jobId, sha(1), failing())).toBe("failing, as recorded");
    expect((await getJob(db, projectId, jobId)).status).toBe("completed");
    expect((await listJobMessages(db, projectId, jobId)).filter((m) => m.source === "checks")).toHaveLength(1);
  });

  it("the round limit holds: past it the job stays completed, naming what failed, and no run starts", async () => {
    const jobId = await pushedJob(sha(1));
    expect(await verdict(jobId, sha(1), failing())).toBe("repair round 1 of 2");
    await run(jobId, 2, sha(2));
    expect(await verdict(jobId, sha(2), failing())).toBe("repair round 2 of 2");
    await run(jobId, 3, sha(3));
    expect(await repairRoundDue(db, (await watchedHead(db, jobId, sha(3)))!)).toBe(false);
    expect(await verdict(jobId, sha(3), failing(null))).toBe("failing: no repair round left (2 of 2 used)");
    const job = await getJob(db, projectId, jobId);
    expect(job).toMatchObject({ status: "completed", checks: { state: "failing", sha: sha(3), failing: [{ name: "docs build" }], rounds: 2 } });
    expect((await listJobEvents(db, projectId, jobId)).at(-1)).toMatchObject({ type: "checks_failed", detail: `docs build failed on ${sha(3).slice(0, 7)}: no repair round left (2 of 2 used)` });
    expect((await pendingTasks("dispatch", jobId)).map((task) => task.dedupe_key)).not.toContain(`dispatch:${jobId}:4`);
  });

  it("a pass marks the change request ready (a task), once; a job that keeps its draft gets none", async () => {
    const jobId = await pushedJob(sha(1));
    expect(await verdict(jobId, sha(1), passing)).toBe("passed");
    expect(await verdict(jobId, sha(1), passing)).toBe("passed, as recorded");
    expect((await getJob(db, projectId, jobId)).checks).toMatchObject({ state: "passing", failing: [] });
    expect((await pendingTasks("change_ready", jobId)).map((task) => task.dedupe_key)).toEqual([`change-ready:${jobId}:${sha(1)}`]);
    expect(await changeToMarkReady(db, jobId, sha(1))).toMatchObject({ id: jobId, changeNumber: 5 });
    expect(await changeToMarkReady(db, jobId, sha(2))).toBeNull();
    expect((await listJobEvents(db, projectId, jobId)).at(-1)).toMatchObject({ type: "checks_passed", detail: `2 check(s) passed on ${sha(1).slice(0, 7)}` });

    const drafted = await pushedJob(sha(9), true);
    expect(await verdict(drafted, sha(9), passing)).toBe("passed");
    expect(await pendingTasks("change_ready", drafted)).toEqual([]);
    expect(await changeToMarkReady(db, drafted, sha(9))).toBeNull();
  });
});
