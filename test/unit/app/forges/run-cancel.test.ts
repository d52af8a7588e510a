import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cancelJob } from "../../../../src/app/domain/jobs/cancel.js";
import { createJob, recordDispatched } from "../../../../src/app/domain/jobs/commands.js";
import { listJobEvents } from "../../../../src/app/domain/jobs/queries.js";
import { createProject } from "../../../../src/app/domain/projects.js";
import { runCancelTask, type RunCancelForge, type RunCancelOutcome } from "../../../../src/app/forges/run-cancel.js";
import type { RunToCancel } from "../../../../src/app/domain/jobs/run-cancel.js";
import type { Db } from "../../../../src/app/store/db.js";
import type { TaskOutcome } from "../../../../src/app/tasks/task-definition.js";
import { openTestStore, type TestStore } from "../../../helpers/store.js";

let store: TestStore;
let db: Db;
let projectId: string;
let projects = 0;

beforeAll(async () => {
  store = await openTestStore();
  db = store.db;
});
afterAll(() => store.drop());
beforeEach(async () => {
  const repo = `acme/cancel-${++projects}`;
  projectId = (await createProject(db, { repoName: repo, repository: `https://github.com/${repo}`, model: "anthropic/claude-sonnet-4-5", rateLimitPerHour: 100 })).id;
});

/** A forge that answers from a script and keeps what it was asked. */
function scripted(...answers: RunCancelOutcome[]): RunCancelForge & { asked: RunToCancel[] } {
  const asked: RunToCancel[] = [];
  return {
    asked,
    async cancelRun(run) {
      asked.push(run);
      return answers[Math.min(asked.length - 1, answers.length - 1)] as RunCancelOutcome;
    },
  };
}

const newJob = async () => (await db.transaction((tx) => createJob(tx, { projectId, prompt: "Document it", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }))).job.id;
/** The dispatch task as the worker leaves it once GitHub took it. */
const dispatch = async (jobId: string, detail?: string) => {
  await db.query(`UPDATE tasks SET state = 'done' WHERE dedupe_key = $1`, [`dispatch:${jobId}:1`]);
  await db.transaction((tx) => recordDispatched(tx, jobId, 1, detail));
};
const cancel = (jobId: string) => db.transaction((tx) => cancelJob(tx, { projectId, jobId, cause: "api" }));
const cancelTasks = (jobId: string) => db.query<{ payload: string }>(`SELECT payload FROM tasks WHERE kind = 'cancel_run' AND dedupe_key = $1`, [`cancel-run:${jobId}:1`]);
const lastEvent = async (jobId: string) => (await listJobEvents(db, projectId, jobId)).at(-1);

describe("the cancel_run task", () => {
  it("is queued with the forge when a dispatched run is cancelled, and records what the forge did on the timeline", async () => {
    const jobId = await newJob();
    await dispatch(jobId);
    await cancel(jobId);
    const [queued] = await cancelTasks(jobId);
    expect(JSON.parse(queued!.payload)).toEqual({ jobId, runAttempt: 1, forge: "github" });
    const forge = scripted({ cancelled: "workflow run 11 cancelled" });
    const outcome = await runCancelTask(db, { github: forge }, pino({ level: "silent" })).run({ jobId, runAttempt: 1, forge: "github" }, 1);
    expect(outcome).toEqual({ ok: true, detail: "workflow run 11 cancelled" });
    expect(forge.asked[0]).toMatchObject({ runAttempt: 1, claimedRunId: null, dispatchDetail: null, dispatchPending: false, dispatchedAt: expect.stringMatching(/Z$/) });
    expect(await lastEvent(jobId)).toMatchObject({ type: "run_cancelled", from: "failed", to: "failed", cause: "github", detail: "workflow run 11 cancelled" });
  });

  it("reads the pipeline GitLab named at dispatch; a refusal is run_not_cancelled, recorded once", async () => {
    const jobId = await newJob();
    await dispatch(jobId, "pipeline 4321");
    await cancel(jobId);
    const forge = scripted({ notCancelled: "pipeline 4321 not cancelled: GitLab refused (403)" });
    const task = runCancelTask(db, { gitlab: forge }, pino({ level: "silent" }));
    await task.run({ jobId, runAttempt: 1, forge: "gitlab" }, 1);
    await task.run({ jobId, runAttempt: 1, forge: "gitlab" }, 2);
    expect(forge.asked[0]?.dispatchDetail).toBe("pipeline 4321");
    const refusals = (await listJobEvents(db, projectId, jobId)).filter((e) => e.type === "run_not_cancelled");
    expect(refusals).toMatchObject([{ cause: "gitlab", detail: "pipeline 4321 not cancelled: GitLab refused (403)" }]);
  });

  it("waits for a dispatch still being sent and for a run the forge has not listed yet, then says it gave up", async () => {
    const jobId = await newJob();
    // A worker has the dispatch: the cancel cannot skip it, and the run it starts is cancelled once it is known.
    await db.query(`UPDATE tasks SET claimed_until = now() + interval '1 minute' WHERE dedupe_key = $1`, [`dispatch:${jobId}:1`]);
    await cancel(jobId);
    expect(await cancelTasks(jobId)).toHaveLength(1);
    const forge = scripted({ retry: "GitHub lists no workflow run named it yet" });
    const task = runCancelTask(db, { github: forge }, pino({ level: "silent" }), [1, 1]);
    const pending: TaskOutcome = await task.run({ jobId, runAttempt: 1, forge: "github" }, 1);
    expect(pending).toEqual({ ok: false, retryable: true, error: "the dispatch of run attempt 1 is still being sent" });
    expect(forge.asked).toHaveLength(0);
    await dispatch(jobId);
    expect(await task.run({ jobId, runAttempt: 1, forge: "github" }, 2)).toEqual({ ok: false, retryable: true, error: "GitHub lists no workflow run named it yet" });
    await db.transaction((tx) => task.onGiveUp!(tx, { jobId, runAttempt: 1, forge: "github" }, "GitHub lists no workflow run named it yet"));
    expect(await lastEvent(jobId)).toMatchObject({ type: "run_not_cancelled", detail: "run attempt 1 not cancelled: GitHub lists no workflow run named it yet" });
  });

  it("is not queued for a dispatch never sent, nor for a job waiting for the user; a forge without a canceller skips", async () => {
    const neverSent = await newJob();
    await cancel(neverSent);
    expect(await cancelTasks(neverSent)).toHaveLength(0);

    const waiting = await newJob();
    await dispatch(waiting);
    await db.query(`UPDATE jobs SET waiting_for = 'answer', question = 'Which page?' WHERE id = $1`, [waiting]);
    await cancel(waiting);
    expect(await cancelTasks(waiting)).toHaveLength(0);

    const noApp = await newJob();
    await dispatch(noApp);
    expect(await runCancelTask(db, {}, pino({ level: "silent" })).run({ jobId: noApp, runAttempt: 1, forge: "github" }, 1)).toEqual({ skipped: "no GitHub App to cancel the run with" });
  });
});
