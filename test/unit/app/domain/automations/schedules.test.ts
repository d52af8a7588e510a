import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAutomation, fireScheduleNow, getAutomation, setAutomationPaused } from "../../../../../src/app/domain/automations/automations.js";
import { fireDueSchedule } from "../../../../../src/app/domain/automations/schedules.js";
import { InvalidInputError } from "../../../../../src/app/domain/errors.js";
import { applyTrigger, archiveJob, attachChangeRequest } from "../../../../../src/app/domain/jobs/commands.js";
import { getJob, listJobs } from "../../../../../src/app/domain/jobs/queries.js";
import { listJobMessages } from "../../../../../src/app/domain/jobs/messages.js";
import { createProject } from "../../../../../src/app/domain/projects.js";
import type { Db } from "../../../../../src/app/store/db.js";
import { openTestStore, type TestStore } from "../../../../helpers/store.js";

const limits = { defaultRateLimitPerHour: 100 };
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
  const repo = `acme/scheduled-${++projects}`;
  projectId = (await createProject(db, { repoName: repo, repository: `https://github.com/${repo}`, model: "anthropic/claude-sonnet-4-5" })).id;
});

const at = (iso: string) => new Date(iso);
const schedule = (cron: string, now: Date) =>
  db.transaction((tx) => createAutomation(tx, projectId, { kind: "schedule", cron, instruction: "Fix broken links and outdated version numbers." }, now));
/** Fires every due schedule of every project at `now`, as the background scan does. */
async function fireAll(now: Date) {
  const firings = [];
  for (;;) {
    const firing = await db.transaction((tx) => fireDueSchedule(tx, now, limits));
    if (!firing) return firings;
    firings.push(firing);
  }
}
const mine = <T extends { projectId: string }>(firings: T[]) => firings.filter((f) => f.projectId === projectId);

describe("schedules", () => {
  it("is due at its next cron time in UTC, and fires once then, starting a job with the standing instruction and a schedule trigger", async () => {
    const automation = await schedule("30 6 * * 1", at("2026-11-26T10:00:00Z"));
    expect(automation.nextRunAt).toBe("2026-11-30T06:30:00.000Z");
    expect(mine(await fireAll(at("2026-11-30T06:29:59Z")))).toEqual([]);
    const [firing] = mine(await fireAll(at("2026-11-30T06:30:05Z")));
    expect(firing?.jobId).toEqual(expect.any(String));
    const job = await getJob(db, projectId, firing?.jobId as string);
    expect(job).toMatchObject({ status: "active", trigger: { type: "schedule", automationId: automation.id } });
    expect(await listJobMessages(db, projectId, job.id)).toMatchObject([{ seq: 1, prompt: "Fix broken links and outdated version numbers.", source: "automation" }]);
    expect(await getAutomation(db, projectId, automation.id)).toMatchObject({ nextRunAt: "2026-12-07T06:30:00.000Z", lastOutcome: `started job ${job.id}` });
    expect(mine(await fireAll(at("2026-11-30T06:31:00Z")))).toEqual([]);
  });

  it("starts no second job while its job is open (running, or its PR not yet merged or closed), and starts one again after", async () => {
    const automation = await schedule("0 * * * *", at("2026-11-26T10:30:00Z"));
    const [first] = mine(await fireAll(at("2026-11-26T11:00:00Z")));
    const jobId = first?.jobId as string;
    expect(mine(await fireAll(at("2026-11-26T12:00:00Z")))).toMatchObject([{ jobId: null, outcome: `skipped: job ${jobId} is still open` }]);
    await db.transaction(async (tx) => {
      await attachChangeRequest(tx, jobId, { number: 4, url: "https://github.com/acme/docs/pull/4" }, { replace: true });
      await applyTrigger(tx, { jobId, trigger: "run_succeeded", cause: "runner", runAttempt: 1 });
    });
    expect(mine(await fireAll(at("2026-11-26T13:00:00Z")))).toMatchObject([{ jobId: null, outcome: expect.stringContaining("pull/4") }]);
    await db.transaction((tx) => archiveJob(tx, jobId, { mergedAt: null }));
    const [again] = mine(await fireAll(at("2026-11-26T14:00:00Z")));
    expect(again?.jobId).not.toBeNull();
    expect((await listJobs(db, projectId, { limit: 10, offset: 0, trigger: "schedule" })).jobs.map((j) => j.id)).toEqual([again?.jobId, jobId]);
    expect(automation.id).toBe(again?.automationId);
  });

  it("a job that completed with nothing to change is not open: the next firing starts a job", async () => {
    await schedule("*/10 * * * *", at("2026-11-26T10:01:00Z"));
    const [first] = mine(await fireAll(at("2026-11-26T10:10:00Z")));
    await db.transaction((tx) => applyTrigger(tx, { jobId: first?.jobId as string, trigger: "run_succeeded", cause: "runner", runAttempt: 1 }));
    expect(mine(await fireAll(at("2026-11-26T10:20:00Z")))[0]?.jobId).toEqual(expect.any(String));
  });

  it("paused fires nothing; resumed it is due at its next time from then, without making up missed firings", async () => {
    const automation = await schedule("0 0 * * *", at("2026-11-26T10:00:00Z"));
    await db.transaction((tx) => setAutomationPaused(tx, projectId, automation.id, true, at("2026-11-26T11:00:00Z")));
    expect(mine(await fireAll(at("2026-11-29T00:00:00Z")))).toEqual([]);
    const resumed = await db.transaction((tx) => setAutomationPaused(tx, projectId, automation.id, false, at("2026-11-29T05:00:00Z")));
    expect(resumed).toMatchObject({ paused: false, nextRunAt: "2026-11-30T00:00:00.000Z" });
    expect(mine(await fireAll(at("2026-11-29T06:00:00Z")))).toEqual([]);
  });

  it("run now makes it due at once; a refusal (the rate limit) skips that firing and the schedule goes on", async () => {
    const automation = await schedule("0 0 1 1 *", at("2026-11-26T10:00:00Z"));
    await db.transaction((tx) => fireScheduleNow(tx, projectId, automation.id, at("2026-11-26T10:05:00Z")));
    const [firing] = await db.transaction(async (tx) => [await fireDueSchedule(tx, at("2026-11-26T10:05:00Z"), { defaultRateLimitPerHour: 0 })]);
    expect(firing).toMatchObject({ automationId: automation.id, jobId: null, outcome: expect.stringMatching(/^skipped: Rate limit reached/) });
    expect(await getAutomation(db, projectId, automation.id)).toMatchObject({ nextRunAt: "2027-01-01T00:00:00.000Z" });
  });

  it("a schedule that cannot fire is recorded and paused, and does not hold up the others", async () => {
    const broken = await schedule("0 3 * * *", at("2026-11-26T10:00:00Z"));
    const healthy = await schedule("30 3 * * *", at("2026-11-26T10:00:00Z"));
    // As if a later version read its stored cron differently: the firing throws.
    await db.query(`UPDATE automations SET config = $2 WHERE id = $1`, [broken.id, JSON.stringify({ kind: "schedule", cron: "99 99 * * *", instruction: "x" })]);
    const firings = mine(await fireAll(at("2026-11-27T04:00:00Z")));
    expect(firings.map((f) => f.automationId)).toEqual([broken.id, healthy.id]);
    expect(firings[1]?.jobId).toEqual(expect.any(String));
    expect(await getAutomation(db, projectId, broken.id)).toMatchObject({ paused: true, lastOutcome: expect.stringMatching(/^skipped: .*; paused$/) });
  });

  it("says what the user wrote wrong: the field out of range, a zero step, the number of fields", async () => {
    const cases: [string, string][] = [
      ["0 0 0 0 0", "cron: the day of month field is 0 in '0 0 0 0 0', but it must be 1–31"],
      ["0 24 * * *", "cron: the hour field is 24 in '0 24 * * *', but it must be 0–23"],
      ["*/0 * * * *", "cron: the minute field '*/0' steps by 0: a step must be at least 1"],
      ["0 6 * *", "cron: needs five fields (minute hour day-of-month month day-of-week, e.g. '0 6 * * 1'), but '0 6 * *' has 4"],
      ["0 6 * 13 1", "cron: the month field is 13 in '0 6 * 13 1', but it must be 1–12"],
    ];
    for (const [cron, message] of cases) {
      const error = (await schedule(cron, at("2026-11-26T10:00:00Z")).catch((e: unknown) => e)) as InvalidInputError;
      expect(error, cron).toBeInstanceOf(InvalidInputError);
      expect(error.message, cron).toBe(message);
    }
    expect((await schedule("0 6 1-7 1,JAN-MAR MON-FRI", at("2026-11-26T10:00:00Z"))).id).toBeTruthy();
  });

  it("refuses cron it cannot read, naming the field", async () => {
    for (const cron of ["5-2 * * * *", "*/0 * * * *", "0 0 31 2 *", "61 * * * *"]) {
      const error = await schedule(cron, at("2026-11-26T10:00:00Z")).catch((e: unknown) => e);
      expect(error, cron).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).problems[0]?.field).toBe("cron");
    }
  });
});
