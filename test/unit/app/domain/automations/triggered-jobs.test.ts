import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAutomation, deleteAutomation, setAutomationPaused } from "../../../../../src/app/domain/automations/automations.js";
import { automationsFor, startIssueJob, startSourceJob } from "../../../../../src/app/domain/automations/triggered-jobs.js";
import { applyTrigger, archiveJob, attachChangeRequest } from "../../../../../src/app/domain/jobs/commands.js";
import { listJobMessages } from "../../../../../src/app/domain/jobs/messages.js";
import { getJob, listJobs } from "../../../../../src/app/domain/jobs/queries.js";
import { createProject } from "../../../../../src/app/domain/projects.js";
import { linkedSourceOf } from "../../../../../src/app/domain/jobs/source-context.js";
import type { Db } from "../../../../../src/app/store/db.js";
import { openTestStore, type TestStore } from "../../../../helpers/store.js";

const limits = { defaultRateLimitPerHour: 100 };
const now = new Date("2026-11-26T10:00:00Z");
let store: TestStore;
let db: Db;
let projects = 0;

beforeAll(async () => {
  store = await openTestStore();
  db = store.db;
});
afterAll(() => store.drop());

async function project() {
  const repo = `acme/triggered-${++projects}`;
  return (await createProject(db, { repoName: repo, repository: `https://github.com/${repo}`, model: "anthropic/claude-sonnet-4-5" })).id;
}
const sha = (n: number) => String(n).padStart(40, "0");
const merge = (n: number) => ({
  url: `https://github.com/acme/shared-api/pull/${n}`,
  key: `acme/shared-api#${n}`,
  prompt: `Merged #${n}`,
  author: "octocat",
  source: { repository: "acme/shared-api", sha: sha(n), installationId: 7, pullRequestUrl: `https://github.com/acme/shared-api/pull/${n}` },
});
/** Every automation of the repository takes merge `n`, as the webhook task does; the outcomes in `projects` order. */
const take = async (n: number, projects: string[]) => {
  const out = new Map<string, Awaited<ReturnType<typeof startSourceJob>>>();
  for (const automation of await automationsFor(db, "source", "ACME/Shared-API")) out.set(automation.project_id, await db.transaction((tx) => startSourceJob(tx, automation, merge(n), limits, now)));
  return projects.map((p) => out.get(p));
};

describe("source merges", () => {
  it("one code repository feeding two projects: each gets its own job, each takes a merge once, and a paused one takes none", async () => {
    const [a, b] = [await project(), await project()];
    for (const p of [a, b]) await db.transaction((tx) => createAutomation(tx, p, { kind: "source", repository: "acme/shared-api", followUps: true }, now));
    const first = await take(1, [a, b]);
    expect(first).toEqual([expect.objectContaining({ followedUp: false }), expect.objectContaining({ followedUp: false })]);
    expect(new Set(first.map((s) => (s && "job" in s ? s.job.id : null))).size).toBe(2);
    expect(await take(1, [a, b])).toEqual([{ skipped: "already taken" }, { skipped: "already taken" }]);

    const jobA = (first[0] as { job: { id: string } }).job.id;
    expect((await take(2, [a, b]))[0]).toMatchObject({ followedUp: true, job: { id: jobA } });
    expect((await listJobMessages(db, a, jobA)).map((m) => m.prompt)).toEqual(["Merged #1", "Merged #2"]);

    // Archived since: a late redelivery of a merge it took is still taken, not a new job.
    await db.transaction(async (tx) => {
      await attachChangeRequest(tx, jobA, { number: 3, url: "https://github.com/acme/docs/pull/3" }, { replace: true });
      await archiveJob(tx, jobA, { mergedAt: null });
    });
    expect((await take(2, [a, b]))[0]).toEqual({ skipped: "already taken" });

    const [automationB] = (await automationsFor(db, "source", "acme/shared-api")).filter((x) => x.project_id === b);
    await db.transaction((tx) => setAutomationPaused(tx, b, automationB?.id as string, true, now));
    expect(await db.transaction((tx) => startSourceJob(tx, automationB as never, merge(4), limits, now))).toEqual({ skipped: "the automation was paused or deleted" });
    expect((await listJobs(db, b, { limit: 10, offset: 0, trigger: "source-merge" })).jobs).toHaveLength(1);
  });

  it("a job keeps its trigger after its automation is deleted", async () => {
    const p = await project();
    const automation = await db.transaction((tx) => createAutomation(tx, p, { kind: "source", repository: "acme/deleted-api", followUps: true }, now));
    const [row] = await automationsFor(db, "source", "acme/deleted-api");
    const started = await db.transaction((tx) => startSourceJob(tx, row as never, { ...merge(9), key: "acme/deleted-api#9", source: { ...merge(9).source, repository: "acme/deleted-api" } }, limits, now));
    const jobRow = async () => (await db.query<{ source_context: string | null; automation_id: string | null }>(`SELECT source_context, automation_id FROM jobs WHERE id = $1`, [(started as { job: { id: string } }).job.id]))[0] as never;
    expect(await linkedSourceOf(db, await jobRow())).toMatchObject({ repository: "acme/deleted-api", sha: sha(9) });
    await db.transaction((tx) => deleteAutomation(tx, p, automation.id));
    // Unlinked: its runs get no token for that repository any more.
    expect(await linkedSourceOf(db, await jobRow())).toBeNull();
    expect((await getJob(db, p, (started as { job: { id: string } }).job.id)).trigger).toEqual({ type: "source-merge", url: "https://github.com/acme/shared-api/pull/9" });
  });
});

describe("issues", () => {
  it("a label starts one job while it is open, again once it completed without a PR; a mention follows up on the open one, once", async () => {
    const p = await project();
    await db.transaction((tx) => createAutomation(tx, p, { kind: "issues", label: "inkwell", mention: true }, now));
    const repo = `acme/triggered-${projects}`;
    const [automation] = await automationsFor(db, "issues", repo);
    const issue = { url: `https://github.com/${repo}/issues/5`, prompt: "Resolve issue #5", author: "writer" };
    const label = () => db.transaction((tx) => startIssueJob(tx, automation as never, issue, limits, now));
    const first = await label();
    const jobId = (first as { job: { id: string } }).job.id;
    expect(await label()).toEqual({ skipped: `job ${jobId} is already working on this issue` });
    const mention = () => db.transaction((tx) => startIssueJob(tx, automation as never, { ...issue, prompt: "and retries", commentId: 9001 }, limits, now));
    expect(await mention()).toMatchObject({ followedUp: true, job: { id: jobId } });
    expect(await mention()).toEqual({ skipped: "already taken" });
    await db.transaction((tx) => applyTrigger(tx, { jobId, trigger: "run_succeeded", cause: "runner", runAttempt: 1 }));
    expect(await label()).toMatchObject({ followedUp: false });
  });
});
