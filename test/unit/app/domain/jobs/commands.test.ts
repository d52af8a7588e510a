import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, IdempotencyKeyReusedError, JobArchivedError, NotFoundError, RateLimitedError } from "../../../../../src/app/domain/errors.js";
import { addMessage, applyTrigger, archiveJob, attachChangeRequest, createJob } from "../../../../../src/app/domain/jobs/commands.js";
import { listJobMessages } from "../../../../../src/app/domain/jobs/messages.js";
import { getJob, jobOnBranch, jobOnChangeRequest, listJobEvents } from "../../../../../src/app/domain/jobs/queries.js";
import { createProject } from "../../../../../src/app/domain/projects.js";
import type { Db } from "../../../../../src/app/store/db.js";
import { openTestStore, type TestStore } from "../../../../helpers/store.js";

const limits = { defaultRateLimitPerHour: 100 };
let store: TestStore;
let db: Db;
let projectId: string;

let repo = "";
let projects = 0;

// One store for the file (migrating one takes a second); each test gets a project of its own.
beforeAll(async () => {
  store = await openTestStore();
  db = store.db;
});
afterAll(() => store.drop());
beforeEach(async () => {
  repo = `acme/docs-${++projects}`;
  projectId = (await createProject(db, { repoName: repo, repository: `https://github.com/${repo}`, model: "anthropic/claude-sonnet-4-5", rateLimitPerHour: 3 })).id;
});

const create = (prompt: string, extra: Partial<Parameters<typeof createJob>[1]> = {}) =>
  db.transaction((tx) => createJob(tx, { projectId, prompt, idempotencyKey: null, ...extra }, limits));
const message = (jobId: string, prompt: string, extra: Partial<Parameters<typeof addMessage>[1]> = {}) =>
  db.transaction((tx) => addMessage(tx, { projectId, jobId, prompt, source: "api", ...extra }, limits));
const tasks = (kind: string, jobId: string) =>
  db.query<{ dedupe_key: string }>(`SELECT dedupe_key FROM tasks WHERE kind = $1 AND state = 'pending' AND dedupe_key LIKE $2 ORDER BY id`, [kind, `%${jobId}%`]);
const finish = (jobId: string, runAttempt = 1) => db.transaction((tx) => applyTrigger(tx, { jobId, trigger: "run_succeeded", cause: "runner", runAttempt }));

describe("createJob", () => {
  it("creates an active job on its own branch with its first message, a 'created' event and a queued dispatch", async () => {
    const { job, replayed } = await create("Document the CLI");
    expect(replayed).toBe(false);
    expect(job).toMatchObject({ status: "active", source: { repository: `https://github.com/${repo}`, ref: `inkwell/${job.id}` }, prLink: null, archivedAt: null });
    expect(await listJobMessages(db, projectId, job.id)).toMatchObject([{ seq: 1, prompt: "Document the CLI", source: "api", author: null }]);
    expect(await listJobEvents(db, projectId, job.id)).toMatchObject([{ type: "created", from: null, to: "active", cause: "api" }]);
    expect(await tasks("dispatch", job.id)).toEqual([{ dedupe_key: `dispatch:${job.id}:1` }]);
  });

  it("records a dashboard job as the dashboard's, with the user's login", async () => {
    const { job } = await create("From the dashboard", { source: "dashboard", author: "octocat" });
    expect(await listJobMessages(db, projectId, job.id)).toMatchObject([{ source: "dashboard", author: "octocat" }]);
    expect((await listJobEvents(db, projectId, job.id))[0]?.cause).toBe("dashboard");
  });

  it("returns the same job for the same idempotency key, and refuses the key with another prompt, naming the field", async () => {
    const first = await create("Once", { idempotencyKey: "k1" });
    const again = await create("Once", { idempotencyKey: "k1" });
    expect(again).toEqual({ job: first.job, replayed: true });
    const refused = await create("Something else", { idempotencyKey: "k1" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IdempotencyKeyReusedError);
    expect((refused as IdempotencyKeyReusedError).problems).toEqual([{ field: "Idempotency-Key", message: "use a new key for a different request" }]);
    expect(await tasks("dispatch", first.job.id)).toHaveLength(1);
  });

  it("counts creations and API/dashboard messages against the project's hourly limit, not PR comments", async () => {
    const { job } = await create("one");
    await message(job.id, "comment", { source: "comment", author: "alice", origin: { kind: "comment", commentId: 11 } });
    await message(job.id, "two", { source: "dashboard" });
    await create("three");
    const refused = await create("four").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(3500);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(3600);
  });
});

describe("addMessage", () => {
  it("queues a message on an active job without a new dispatch", async () => {
    const { job } = await create("first");
    const { job: after, dispatched } = await message(job.id, "also this");
    expect(dispatched).toBe(false);
    expect(after.status).toBe("active");
    expect((await listJobEvents(db, projectId, job.id)).at(-1)).toMatchObject({ type: "message_queued", from: "active", to: "active", cause: "api" });
    expect(await tasks("dispatch", job.id)).toHaveLength(1);
  });

  it("re-activates a finished job on the next run attempt and queues its dispatch", async () => {
    const { job } = await create("first");
    await finish(job.id);
    const { job: after, dispatched } = await message(job.id, "again");
    expect(dispatched).toBe(true);
    expect(after.status).toBe("active");
    expect((await listJobEvents(db, projectId, job.id)).at(-1)).toMatchObject({ type: "reactivated", from: "completed", to: "active" });
    expect((await tasks("dispatch", job.id)).map((t) => t.dedupe_key)).toEqual([`dispatch:${job.id}:1`, `dispatch:${job.id}:2`]);
  });

  it("refuses an archived job with JobArchivedError, and an unknown or other project's job as not found", async () => {
    const { job } = await create("first");
    await db.transaction((tx) => archiveJob(tx, job.id, { mergedAt: null }));
    const archived = await message(job.id, "too late").catch((e: unknown) => e);
    expect(archived).toBeInstanceOf(JobArchivedError);
    expect(archived).toBeInstanceOf(ConflictError);
    const other = (await createProject(db, { repoName: `${repo}-other`, repository: `https://github.com/${repo}-other`, model: "m" })).id;
    await expect(db.transaction((tx) => addMessage(tx, { projectId: other, jobId: job.id, prompt: "x", source: "api" }, limits))).rejects.toBeInstanceOf(NotFoundError);
  });

  it("takes a PR comment once, however often it is delivered", async () => {
    const { job } = await create("first");
    expect((await message(job.id, "from a comment", { source: "comment", author: "alice", origin: { kind: "comment", commentId: 42 } })).alreadyTaken).toBeUndefined();
    // The second delivery (maybe on another instance) is told, so it does not react to the comment again.
    expect((await message(job.id, "from a comment", { source: "comment", author: "alice", origin: { kind: "comment", commentId: 42 } })).alreadyTaken).toBe(true);
    expect((await listJobMessages(db, projectId, job.id)).map((m) => m.source)).toEqual(["api", "comment"]);
  });

  it("takes a submitted review once, and its inline comments with it", async () => {
    const { job } = await create("first");
    const review = { source: "comment" as const, author: "bob", origin: { kind: "review" as const, reviewId: 77 } };
    expect((await message(job.id, "the whole review", review)).alreadyTaken).toBeUndefined();
    expect((await message(job.id, "the whole review", review)).alreadyTaken).toBe(true);
    // A comment of that review, delivered on its own, was taken with it; a comment of another review was not.
    expect((await message(job.id, "one comment", { source: "comment", author: "bob", origin: { kind: "comment", commentId: 501, reviewId: 77 } })).alreadyTaken).toBe(true);
    expect((await message(job.id, "another", { source: "comment", author: "bob", origin: { kind: "comment", commentId: 502, reviewId: 78 } })).alreadyTaken).toBeUndefined();
    expect((await listJobMessages(db, projectId, job.id)).map((m) => m.prompt)).toEqual(["first", "the whole review", "another"]);
  });
});

describe("pull requests", () => {
  it("a webhook attaches the first PR and queues the tracking comment; a later one does not replace it, a runner's report does", async () => {
    const { job } = await create("first");
    expect(await tasks("tracking_comment", job.id)).toHaveLength(0);
    expect(await db.transaction((tx) => attachChangeRequest(tx, job.id, { number: 7, url: `https://github.com/${repo}/pull/7` }, { replace: false }))).toBe(true);
    expect(await tasks("tracking_comment", job.id)).toEqual([{ dedupe_key: `tracking:${job.id}` }]);
    expect(await db.transaction((tx) => attachChangeRequest(tx, job.id, { number: 8, url: `https://github.com/${repo}/pull/8` }, { replace: false }))).toBe(false);
    expect((await getJob(db, projectId, job.id)).prLink).toBe(`https://github.com/${repo}/pull/7`);
    expect(await db.transaction((tx) => attachChangeRequest(tx, job.id, { number: 8, url: `https://github.com/${repo}/pull/8` }, { replace: true }))).toBe(true);
    expect((await jobOnChangeRequest(db, repo.toUpperCase(), 8))?.id).toBe(job.id);
    expect(await jobOnChangeRequest(db, repo, 7)).toBeNull();
  });

  it("finds a job by its branch only in its own repository", async () => {
    const { job } = await create("first");
    expect((await jobOnBranch(db, repo, `inkwell/${job.id}`))?.id).toBe(job.id);
    expect(await jobOnBranch(db, "acme/elsewhere", `inkwell/${job.id}`)).toBeNull();
    expect(await jobOnBranch(db, repo, `feature/${job.id}`)).toBeNull();
  });

  it("archiving sets archivedAt and records whether the PR was merged", async () => {
    const { job } = await create("first");
    const archived = await db.transaction((tx) => archiveJob(tx, job.id, null));
    expect(archived?.status).toBe("archived");
    expect(archived?.archivedAt).not.toBeNull();
    expect((await listJobEvents(db, projectId, job.id)).at(-1)).toMatchObject({ type: "pr_closed", to: "archived", cause: "github", detail: "pull request closed" });
  });
});

describe("applyTrigger", () => {
  it("ignores a trigger for another run attempt or one the lifecycle does not allow", async () => {
    const { job } = await create("first");
    expect(await finish(job.id, 2)).toBeNull();
    expect(await finish(job.id, 1)).toMatchObject({ status: "completed" });
    expect(await finish(job.id, 1)).toBeNull();
    expect((await getJob(db, projectId, job.id)).status).toBe("completed");
  });
});
