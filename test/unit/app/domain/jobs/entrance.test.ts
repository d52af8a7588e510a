import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../../../../../src/app/domain/errors.js";
import { cancel, sendMessage, startJob, type JobEntrance } from "../../../../../src/app/domain/jobs/entrance.js";
import { createProject } from "../../../../../src/app/domain/projects.js";
import { openTestStore, type TestStore } from "../../../../helpers/store.js";

let store: TestStore;
let entrance: JobEntrance;
let kicks = 0;
let projects = 0;

// A project of its own per test: the rate limit counts a project's jobs.
const newProject = async () => {
  const repo = `acme/docs-${++projects}`;
  return (await createProject(store.db, { repoName: repo, repository: `https://github.com/${repo}`, model: "anthropic/claude-sonnet-4-5" })).id;
};

beforeAll(async () => {
  store = await openTestStore();
  entrance = { db: store.db, tasks: { kick: () => void kicks++ }, config: { rateLimitPerHour: 2 } };
});
afterAll(() => store.drop());

const kicked = async <T>(step: () => Promise<T>): Promise<number> => {
  const before = kicks;
  await step();
  return kicks - before;
};

describe("the job entrance (REST, the dashboard and MCP)", () => {
  it("kicks the task worker once after a new job commits, and not for a replayed idempotency key", async () => {
    const input = { projectId: await newProject(), prompt: "Document the CLI", idempotencyKey: "k1" };
    expect(await kicked(() => startJob(entrance, input))).toBe(1);
    expect(await kicked(() => startJob(entrance, input))).toBe(0);
  });

  it("kicks after a message only when it started a run, and after a cancel", async () => {
    const projectId = await newProject();
    const { job } = await startJob(entrance, { projectId, prompt: "Fix the install page", idempotencyKey: null });
    // The job is active: the message waits for its next run, so no new work was queued.
    expect(await kicked(() => sendMessage(entrance, { projectId, jobId: job.id, prompt: "and the FAQ", source: "api" }))).toBe(0);
    expect(await kicked(() => cancel(entrance, { projectId, jobId: job.id, cause: "api" }))).toBe(1);
  });

  it("takes the rate limit from the config, and kicks nothing for a refused job", async () => {
    const other = await newProject();
    await startJob(entrance, { projectId: other, prompt: "one", idempotencyKey: null });
    await startJob(entrance, { projectId: other, prompt: "two", idempotencyKey: null });
    const before = kicks;
    await expect(startJob(entrance, { projectId: other, prompt: "three", idempotencyKey: null })).rejects.toBeInstanceOf(RateLimitedError);
    expect(kicks).toBe(before);
  });
});
