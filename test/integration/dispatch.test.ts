import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { dispatchTask } from "../../src/app/dispatch/dispatch-task.js";
import { TaskWorker } from "../../src/app/tasks/task-worker.js";
import type { DispatchOutcome, DispatchRequest, Dispatcher } from "../../src/app/dispatch/dispatcher.js";
import { applyTrigger, createJob } from "../../src/app/domain/jobs/commands.js";
import { listJobEvents } from "../../src/app/domain/jobs/queries.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

/** Answers from a script of outcomes (the last one repeats) and records every request. */
class ScriptedDispatcher implements Dispatcher {
  readonly requests: DispatchRequest[] = [];
  constructor(private readonly script: (DispatchOutcome | Error)[]) {}
  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    this.requests.push(request);
    const next = this.script[Math.min(this.requests.length - 1, this.script.length - 1)] as DispatchOutcome | Error;
    if (next instanceof Error) throw next;
    return next;
  }
}

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const fast = { backoffBaseMs: 5, backoffCapMs: 20, maxTries: 4, pollIntervalMs: 60_000 };

async function settle(server: TestServer, jobId: string, until: (status: string) => boolean) {
  for (let i = 0; i < 200; i++) {
    await server.inkwell.services.tasks.idle();
    const [row] = await server.store.db.query<{ status: string; state: string }>(
      `SELECT j.status, o.state FROM jobs j JOIN tasks o ON o.dedupe_key = 'dispatch:' || j.id || ':' || j.run_attempt WHERE j.id = $1`,
      [jobId],
    );
    if (row && row.state !== "pending" && until(row.status)) return row;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("dispatch did not settle");
}

describe("dispatch after commit", () => {
  it("dispatches a new job once with its repository and run attempt, and records the event", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: true }]);
    t = await startTestServer({ dispatcher, taskWorkerOptions: fast });
    const { projectId, key } = await t.newProject("acme/dispatch-docs");
    const { body: job } = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "go" } });
    expect(job.status).toBe("active");
    const row = await settle(t, job.id, () => true);
    expect(row).toEqual({ status: "active", state: "done" });
    expect(dispatcher.requests).toEqual([{ jobId: job.id, runAttempt: 1, projectId, forge: "github", baseRef: null, repoName: "acme/dispatch-docs", installationId: null, installationSuspended: false }]);
    expect((await listJobEvents(t.store.db, projectId, job.id)).map((e) => e.type)).toEqual(["created", "dispatched"]);
  });

  it("retries transient failures with backoff, then succeeds", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: false, retryable: true, error: "502 from GitHub" }, new Error("socket hang up"), { ok: true }]);
    t = await startTestServer({ dispatcher, taskWorkerOptions: fast });
    const { projectId, key } = await t.newProject();
    const { body: job } = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "go" } });
    const row = await settle(t, job.id, () => true);
    expect(row.state).toBe("done");
    expect(dispatcher.requests).toHaveLength(3);
    const [outbox] = await t.store.db.query<{ tries: number }>(`SELECT tries FROM tasks WHERE dedupe_key = $1`, [`dispatch:${job.id}:1`]);
    expect(outbox?.tries).toBe(3);
  });

  it("gives up after maxTries and fails the job with the last error", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: false, retryable: true, error: "GitHub is down (503)" }]);
    t = await startTestServer({ dispatcher, taskWorkerOptions: fast });
    const { projectId, key } = await t.newProject();
    const { body: job } = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "go" } });
    await settle(t, job.id, (s) => s === "failed");
    expect(dispatcher.requests).toHaveLength(4);
    const res = await t.call("GET", `/v2/agent/${projectId}/job/${job.id}`, { token: key });
    expect(res.body).toMatchObject({ status: "failed", error: "GitHub is down (503)" });
  });

  it("a permanent failure fails the job at the first try", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: false, retryable: false, error: "The Inkwell GitHub App is not installed on acme/x." }]);
    t = await startTestServer({ dispatcher, taskWorkerOptions: fast });
    const { projectId, key } = await t.newProject();
    const { body: job } = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "go" } });
    await settle(t, job.id, (s) => s === "failed");
    expect(dispatcher.requests).toHaveLength(1);
    const events = await listJobEvents(t.store.db, projectId, job.id);
    expect(events.at(-1)).toMatchObject({ type: "run_failed", cause: "dispatcher", detail: "The Inkwell GitHub App is not installed on acme/x." });
  });

  it("a message on a completed job dispatches run attempt 2; on an active job it only queues", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: true }]);
    t = await startTestServer({ dispatcher, taskWorkerOptions: fast });
    const { projectId, key } = await t.newProject();
    const { body: job } = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "go" } });
    await settle(t, job.id, () => true);
    const queued = await t.call("POST", `/v2/agent/${projectId}/job/${job.id}/message`, { token: key, body: { prompt: "also this" } });
    expect(queued.body.status).toBe("active");
    await t.inkwell.services.tasks.idle();
    expect(dispatcher.requests).toHaveLength(1);

    await t.store.db.transaction((tx) => applyTrigger(tx, { jobId: job.id, trigger: "run_succeeded", cause: "runner", runAttempt: 1 }));
    const again = await t.call("POST", `/v2/agent/${projectId}/job/${job.id}/message`, { token: key, body: { prompt: "one more" } });
    expect(again.body.status).toBe("active");
    await settle(t, job.id, () => true);
    expect(dispatcher.requests.map((r) => r.runAttempt)).toEqual([1, 2]);
    // A stale trigger for the old attempt changes nothing.
    const stale = await t.store.db.transaction((tx) => applyTrigger(tx, { jobId: job.id, trigger: "run_failed", cause: "runner", error: "late", runAttempt: 1 }));
    expect(stale).toBeNull();
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${job.id}`, { token: key })).body.status).toBe("active");
  });

  it("pending dispatches left by a crash are sent when a worker starts", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: true }]);
    t = await startTestServer({ dispatcher: new ScriptedDispatcher([{ ok: true }]), taskWorkerOptions: fast });
    const { projectId } = await t.newProject("acme/crashed");
    // Committed but never kicked: as if the process died right after the 201.
    const { job } = await t.store.db.transaction((tx) => createJob(tx, { projectId, prompt: "survive", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
    const worker = new TaskWorker(t.store.db, [dispatchTask(t.store.db, dispatcher)], pino({ level: "silent" }), fast);
    await worker.start();
    await worker.idle();
    await worker.stop();
    expect(dispatcher.requests.map((r) => r.jobId)).toContain(job.id);
  });

  it("a claim left by a dead worker is released at start on an exclusive store, and only after its lease otherwise", async () => {
    t = await startTestServer({ dispatcher: new ScriptedDispatcher([{ ok: true }]), taskWorkerOptions: fast });
    const { projectId } = await t.newProject();
    const { job } = await t.store.db.transaction((tx) => createJob(tx, { projectId, prompt: "x", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
    await t.store.db.query(`UPDATE tasks SET claimed_until = now() + interval '1 hour' WHERE dedupe_key = $1`, [`dispatch:${job.id}:1`]);

    const shared = new ScriptedDispatcher([{ ok: true }]);
    const sharedWorker = new TaskWorker(t.store.db, [dispatchTask(t.store.db, shared)], pino({ level: "silent" }), { ...fast, exclusiveStore: false });
    await sharedWorker.start();
    await sharedWorker.idle();
    await sharedWorker.stop();
    expect(shared.requests.map((r) => r.jobId)).not.toContain(job.id);

    const exclusive = new ScriptedDispatcher([{ ok: true }]);
    const exclusiveWorker = new TaskWorker(t.store.db, [dispatchTask(t.store.db, exclusive)], pino({ level: "silent" }), { ...fast, exclusiveStore: true });
    await exclusiveWorker.start();
    await exclusiveWorker.idle();
    await exclusiveWorker.stop();
    expect(exclusive.requests.map((r) => r.jobId)).toContain(job.id);
  });

  it("skips a dispatch whose job moved on before it was sent", async () => {
    const dispatcher = new ScriptedDispatcher([{ ok: true }]);
    t = await startTestServer({ dispatcher, taskWorkerOptions: fast });
    const { projectId } = await t.newProject();
    const { job } = await t.store.db.transaction((tx) => createJob(tx, { projectId, prompt: "x", idempotencyKey: null }, { defaultRateLimitPerHour: 100 }));
    await t.store.db.transaction((tx) => applyTrigger(tx, { jobId: job.id, trigger: "pr_closed", cause: "github" }));
    t.inkwell.services.tasks.kick();
    await t.inkwell.services.tasks.idle();
    expect(dispatcher.requests.map((r) => r.jobId)).not.toContain(job.id);
    const [row] = await t.store.db.query<{ state: string }>(`SELECT state FROM tasks WHERE dedupe_key = $1`, [`dispatch:${job.id}:1`]);
    expect(row?.state).toBe("skipped");
    const res = await t.call("GET", `/v2/agent/${projectId}/job/${job.id}`, { token: (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN })).body.key });
    expect(res.body.status).toBe("archived");
    expect(res.body.archivedAt).not.toBeNull();
  });
});
