import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentJobSchema, jobListSchema } from "../../src/shared/api-schemas.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
let projectId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ projectId, key } = await t.newProject("acme/handbook"));
});
afterAll(() => t.close());

const createJob = (prompt: unknown, headers: Record<string, string> = {}, token = key, project = projectId) =>
  t.call("POST", `/v2/agent/${project}/job`, { token, body: { prompt }, headers });

async function countRows(table: string): Promise<number> {
  const rows = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? -1;
}

describe("a docs team creates and polls a job", () => {
  it("creates an active job on the project's repository, working on inkwell/<id>", async () => {
    const res = await createJob("  Add a page about webhooks  ");
    expect(res.status).toBe(201);
    const job = agentJobSchema.parse(res.body);
    expect(job).toMatchObject({
      status: "active",
      source: { repository: "https://github.com/acme/handbook", ref: `inkwell/${job.id}` },
      model: "anthropic/claude-sonnet-4-5",
      prLink: null,
      archivedAt: null,
    });
    expect(job.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const stored = await t.store.db.query<{ prompt: string }>(`SELECT prompt FROM job_messages WHERE job_id = $1`, [job.id]);
    expect(stored).toEqual([{ prompt: "Add a page about webhooks" }]);
  });

  it("without a GitHub App the job fails after commit, with an error that says what to do, recorded as an event", async () => {
    const { body: created } = await createJob("Fix typos");
    await t.inkwell.services.tasks.idle();
    const res = await t.call("GET", `/v2/agent/${projectId}/job/${created.id}`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("failed");
    expect(res.body.error).toMatch(/No GitHub App is configured.*acme\/handbook\. Register it at http:\/\/\S+\/dashboard\/github-app, restart Inkwell, install the App/);
    const events = (await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: key })).body.events;
    expect(events.map((e: any) => [e.type, e.from, e.to, e.cause])).toEqual([
      ["created", null, "active", "api"],
      ["run_failed", "active", "failed", "dispatcher"],
    ]);
  });

  it("a job's history is readable only with a key of its project", async () => {
    const { body: created } = await createJob("History please");
    const other = await t.newProject();
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: other.key })).status).toBe(403);
    expect((await t.call("GET", `/v2/agent/${other.projectId}/job/${created.id}/events`, { token: other.key })).status).toBe(404);
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`)).status).toBe(401);
    const res = await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: key });
    expect(res.status).toBe(200);
    expect(res.body.events[0]).toMatchObject({ type: "created", from: null, to: "active", cause: "api", detail: null });
    expect(res.body.events[0].at).toMatch(/Z$/);
  });

  it("gets 404 for an unknown job and for odd ids", async () => {
    for (const id of ["doesnotexist", "..%2F..%2Fadmin", "x".repeat(200), "UPPER", "a b"]) {
      const res = await t.call("GET", `/v2/agent/${projectId}/job/${id}`, { token: key });
      expect(res.status, id).toBe(404);
      expect(res.body.error).toBe("Job not found");
    }
    // Bytes that are no text at all never reach a handler: the router's plain 404.
    for (const id of ["%E0%A4%A", "%00"]) {
      const res = await t.call("GET", `/v2/agent/${projectId}/job/${id}`, { token: key });
      expect(res.status, id).toBe(404);
      expect(res.body.error).toMatch(/^No such endpoint/);
    }
  });
});

describe("follow-up messages", () => {
  it("re-activates a failed job on the same branch with a new run attempt", async () => {
    const { body: created } = await createJob("Document the CLI");
    await t.inkwell.services.tasks.idle();
    const res = await t.call("POST", `/v2/agent/${projectId}/job/${created.id}/message`, { token: key, body: { prompt: "Also the config table" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: "active", error: null, source: { ref: `inkwell/${created.id}` } });
    const attempts = await t.store.db.query<{ run_attempt: number }>(`SELECT run_attempt FROM jobs WHERE id = $1`, [created.id]);
    expect(attempts).toEqual([{ run_attempt: 2 }]);
    const messages = await t.store.db.query<{ seq: number; prompt: string }>(`SELECT seq, prompt FROM job_messages WHERE job_id = $1 ORDER BY seq`, [created.id]);
    expect(messages).toEqual([
      { seq: 1, prompt: "Document the CLI" },
      { seq: 2, prompt: "Also the config table" },
    ]);
    await t.inkwell.services.tasks.idle();
    const events = (await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: key })).body.events;
    expect(events.map((e: any) => e.type)).toEqual(["created", "run_failed", "reactivated", "run_failed"]);
  });

  it("queues a message on an active job without a second dispatch", async () => {
    const { body: created } = await createJob("Long task");
    // Hold the job active: the dispatcher has not run for it yet if we message inside the same tick.
    await t.store.db.query(`UPDATE tasks SET state = 'done' WHERE dedupe_key = $1`, [`dispatch:${created.id}:1`]);
    await t.inkwell.services.tasks.idle();
    await t.store.db.query(`UPDATE jobs SET status = 'active', error = NULL WHERE id = $1`, [created.id]);
    const res = await t.call("POST", `/v2/agent/${projectId}/job/${created.id}/message`, { token: key, body: { prompt: "and another thing" } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("active");
    const outbox = await t.store.db.query(`SELECT id FROM tasks WHERE kind = 'dispatch' AND payload LIKE $1`, [`%${created.id}%`]);
    expect(outbox).toHaveLength(1);
    const events = (await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: key })).body.events;
    expect(events.at(-1)).toMatchObject({ type: "message_queued", from: "active", to: "active" });
  });

  it("refuses a message to an archived job with 409 and stores nothing", async () => {
    const { body: created } = await createJob("Archive me");
    await t.store.db.query(`UPDATE jobs SET status = 'archived', archived_at = now() WHERE id = $1`, [created.id]);
    const before = await countRows("job_messages");
    const res = await t.call("POST", `/v2/agent/${projectId}/job/${created.id}/message`, { token: key, body: { prompt: "more" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/archived/);
    expect(await countRows("job_messages")).toBe(before);
  });

  it("cancels an active job: failed saying who, recorded, its pending dispatch skipped; again, or on a finished job, it changes nothing", async () => {
    const { body: created } = await createJob("Rewrite everything");
    await t.inkwell.services.tasks.idle();
    // Active with its dispatch still waiting (this server has no GitHub App, which would fail the job).
    await t.store.db.query(`UPDATE jobs SET status = 'active', error = NULL WHERE id = $1`, [created.id]);
    await t.store.db.query(`INSERT INTO tasks (kind, dedupe_key, payload, next_try_at) VALUES ('dispatch', $1, $2, now() + interval '1 hour')`, [
      `dispatch:${created.id}:1`,
      JSON.stringify({ jobId: created.id, runAttempt: 1 }),
    ]);
    const res = await t.call("POST", `/v2/agent/${projectId}/job/${created.id}/cancel`, { token: key });
    expect(res.status).toBe(200);
    expect(agentJobSchema.parse(res.body)).toMatchObject({ id: created.id, status: "failed", error: expect.stringMatching(/^Cancelled by an API key; nothing more was pushed/) });
    const tasks = await t.store.db.query<{ state: string }>(`SELECT state FROM tasks WHERE dedupe_key = $1 ORDER BY id DESC LIMIT 1`, [`dispatch:${created.id}:1`]);
    expect(tasks).toEqual([{ state: "skipped" }]);
    const events = (await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: key })).body.events;
    expect(events.at(-1)).toMatchObject({ type: "cancelled", from: "active", to: "failed", cause: "api", detail: "by an API key" });

    const again = await t.call("POST", `/v2/agent/${projectId}/job/${created.id}/cancel`, { token: key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/events`, { token: key })).body.events).toHaveLength(events.length);
    expect((await t.call("POST", `/v2/agent/${projectId}/job/nosuchjob/cancel`, { token: key })).status).toBe(404);
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${created.id}/runs`, { token: key })).body).toEqual({ runs: [] });
  });

  it("404 for a message to an unknown job", async () => {
    const res = await t.call("POST", `/v2/agent/${projectId}/job/nosuchjob/message`, { token: key, body: { prompt: "hi" } });
    expect(res.status).toBe(404);
  });
});

describe("listing jobs", () => {
  it("pages newest first with hasMore, filters by status, and validates the query", async () => {
    const { projectId: pid, key: k } = await t.newProject();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createJob(`job ${i}`, {}, k, pid)).body.id);
    await t.inkwell.services.tasks.idle();
    const first = await t.call("GET", `/v2/agent/${pid}/jobs?limit=2`, { token: k });
    expect(first.status).toBe(200);
    jobListSchema.parse(first.body);
    const second = await t.call("GET", `/v2/agent/${pid}/jobs?limit=2&offset=2`, { token: k });
    const third = await t.call("GET", `/v2/agent/${pid}/jobs?limit=2&offset=4`, { token: k });
    expect(first.body.hasMore).toBe(true);
    expect(second.body.hasMore).toBe(true);
    expect(third.body.hasMore).toBe(false);
    const seen = [...first.body.jobs, ...second.body.jobs, ...third.body.jobs].map((j: { id: string }) => j.id);
    expect(seen).toEqual([...ids].reverse());

    const exact = await t.call("GET", `/v2/agent/${pid}/jobs?limit=5`, { token: k });
    expect(exact.body.hasMore).toBe(false);
    const failed = await t.call("GET", `/v2/agent/${pid}/jobs?status=failed&limit=100`, { token: k });
    expect(failed.body.jobs).toHaveLength(5);
    const completed = await t.call("GET", `/v2/agent/${pid}/jobs?status=completed`, { token: k });
    expect(completed.body).toEqual({ jobs: [], hasMore: false });

    for (const query of ["limit=0", "limit=101", "limit=abc", "limit=1.5", "limit=", "offset=-1", "offset=1e3", "status=done", "limit=1&limit=2"]) {
      const res = await t.call("GET", `/v2/agent/${pid}/jobs?${query}`, { token: k });
      expect(res.status, query).toBe(400);
      expect(res.body.details?.[0]?.message, query).toBeTruthy();
    }
  });
});

describe("authentication and isolation", () => {
  it("401 for missing, malformed, unknown and revoked keys", async () => {
    const path = `/v2/agent/${projectId}/jobs`;
    expect((await t.call("GET", path)).status).toBe(401);
    expect((await t.call("GET", path, { headers: { Authorization: "Basic abc" } })).status).toBe(401);
    expect((await t.call("GET", path, { token: "ink_short" })).status).toBe(401);
    expect((await t.call("GET", path, { token: `ink_${"A".repeat(43)}` })).status).toBe(401);
    expect((await t.call("GET", path, { token: ADMIN_TOKEN })).status).toBe(401);
    const fresh = await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN });
    expect((await t.call("GET", path, { token: fresh.body.key })).status).toBe(200);
    await t.call("DELETE", `/admin/projects/${projectId}/keys/${fresh.body.id}`, { token: ADMIN_TOKEN });
    const revoked = await t.call("GET", path, { token: fresh.body.key });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toMatch(/Bearer/);
    expect((await createJob("x", {}, fresh.body.key)).status).toBe(401);
  });

  it("a key never reads or writes another project: 403 on every endpoint, nothing changes", async () => {
    const other = await t.newProject();
    const { body: theirJob } = await createJob("their job", {}, other.key, other.projectId);
    const jobsBefore = await countRows("jobs");
    const messagesBefore = await countRows("job_messages");
    const attempts = [
      t.call("POST", `/v2/agent/${other.projectId}/job`, { token: key, body: { prompt: "sneaky" } }),
      t.call("GET", `/v2/agent/${other.projectId}/job/${theirJob.id}`, { token: key }),
      t.call("POST", `/v2/agent/${other.projectId}/job/${theirJob.id}/message`, { token: key, body: { prompt: "sneaky" } }),
      t.call("POST", `/v2/agent/${other.projectId}/job/${theirJob.id}/cancel`, { token: key }),
      t.call("GET", `/v2/agent/${other.projectId}/job/${theirJob.id}/runs`, { token: key }),
      t.call("GET", `/v2/agent/${other.projectId}/jobs`, { token: key }),
      t.call("GET", `/v2/agent/nosuchproject/jobs`, { token: key }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain(theirJob.id);
      // It names the key's own project (a mistyped id shows at once), never anything of the other.
      expect(res.body.error).toMatch(new RegExp(`^This API key belongs to project ${projectId}, not (${other.projectId}|nosuchproject): use ${projectId} in the path`));
    }
    // Their job id under our own project path is simply not there.
    expect((await t.call("GET", `/v2/agent/${projectId}/job/${theirJob.id}`, { token: key })).status).toBe(404);
    expect((await t.call("POST", `/v2/agent/${projectId}/job/${theirJob.id}/message`, { token: key, body: { prompt: "x" } })).status).toBe(404);
    expect((await t.call("POST", `/v2/agent/${projectId}/job/${theirJob.id}/cancel`, { token: key })).status).toBe(404);
    const ours = await t.call("GET", `/v2/agent/${projectId}/jobs?limit=100`, { token: key });
    expect(ours.body.jobs.map((j: { id: string }) => j.id)).not.toContain(theirJob.id);
    expect(await countRows("jobs")).toBe(jobsBefore);
    expect(await countRows("job_messages")).toBe(messagesBefore);
  });
});

describe("bad input gets a clear 4xx and changes nothing", () => {
  it.each([
    ["empty prompt", { prompt: "" }, /prompt: must not be empty/],
    ["whitespace prompt", { prompt: " \n\t " }, /prompt: must not be empty/],
    ["oversized prompt", { prompt: "x".repeat(32_001) }, /prompt: must be at most 32000 characters/],
    ["number prompt", { prompt: 42 }, /prompt: must be a string/],
    ["null prompt", { prompt: null }, /prompt: must be a string/],
    ["missing prompt", {}, /^Invalid request body: prompt: is required$/],
    ["misspelt prompt", { promt: "fix typos" }, /prompt: is required \(the request has "promt": did you mean "prompt"\?\)/],
    ["prompt in the wrong case", { Prompt: "fix typos" }, /prompt: is required \(the request has "Prompt": did you mean "prompt"\?\)/],
    ["array body", [{ prompt: "x" }], /JSON object/],
    ["string body", "just text", /JSON object/],
  ])("%s → 400 naming the field", async (_name, body, message) => {
    const before = await countRows("jobs");
    const res = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(Array.isArray(res.body.details)).toBe(true);
    expect(await countRows("jobs")).toBe(before);
  });

  it("accepts exactly 32,000 characters (counted after trimming, emoji count once)", async () => {
    expect((await createJob(`  ${"y".repeat(32_000)}  `)).status).toBe(201);
    expect((await createJob("😀".repeat(32_000))).status).toBe(201);
    expect((await createJob("😀".repeat(32_001))).status).toBe(400);
  });

  it("invalid JSON and empty bodies → 400; huge bodies → 413", async () => {
    const before = await countRows("jobs");
    const invalid = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, rawBody: '{"prompt":', headers: { "Content-Type": "application/json" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/not valid JSON/);
    expect((await t.call("POST", `/v2/agent/${projectId}/job`, { token: key })).status).toBe(400);
    const huge = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "z".repeat(2_000_000) } });
    expect(huge.status).toBe(413);
    expect(await countRows("jobs")).toBe(before);
  });

  it("ignores unknown fields consistently", async () => {
    // (`model` was the example here until it became a per-job option.)
    const res = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "ok", status: "completed", id: "mine", engine: "x" } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("active");
    expect(res.body.id).not.toBe("mine");
    expect(res.body.model).toBe("anthropic/claude-sonnet-4-5");
  });

  it("unknown paths → 404 and wrong methods → 405, as JSON", async () => {
    const missing = await t.call("GET", "/v2/agent/x/nothing");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/No such endpoint/);
    const wrong = await t.call("DELETE", `/v2/agent/${projectId}/job`, { token: key });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
  });
});

describe("idempotency", () => {
  it("the same Idempotency-Key returns the same job and creates nothing new", async () => {
    const first = await createJob("Write the FAQ", { "Idempotency-Key": "req-123" });
    const jobs = await countRows("jobs");
    const again = await createJob("Write the FAQ", { "Idempotency-Key": "req-123" });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await countRows("jobs")).toBe(jobs);
  });

  it("concurrent requests with one key make one job", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => createJob("Concurrent", { "Idempotency-Key": "race-1" })));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201)).toBe(true);
  });

  it("keys are per project, and a reused key with another prompt is refused", async () => {
    const other = await t.newProject();
    const mine = await createJob("Same key", { "Idempotency-Key": "shared" });
    const theirs = await createJob("Same key", { "Idempotency-Key": "shared" }, other.key, other.projectId);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const conflict = await createJob("Different", { "Idempotency-Key": "shared" });
    expect(conflict.status).toBe(422);
    expect(conflict.body.details).toEqual([{ field: "Idempotency-Key", message: "Idempotency-Key: use a new key for a different request" }]);
    const bad = await createJob("x", { "Idempotency-Key": "k".repeat(256) });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: "Idempotency-Key", message: "Idempotency-Key: must be 1..255 visible ASCII characters" }]);
  });
});

describe("rate limit", () => {
  it("counts creations and messages per project per rolling hour, 429 with Retry-After", async () => {
    const limited = await t.newProject(undefined, { rateLimitPerHour: 3 });
    const a = await createJob("one", {}, limited.key, limited.projectId);
    await createJob("two", {}, limited.key, limited.projectId);
    await t.inkwell.services.tasks.idle();
    const msg = await t.call("POST", `/v2/agent/${limited.projectId}/job/${a.body.id}/message`, { token: limited.key, body: { prompt: "three" } });
    expect(msg.status).toBe(200);
    const over = await createJob("four", {}, limited.key, limited.projectId);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const overMsg = await t.call("POST", `/v2/agent/${limited.projectId}/job/${a.body.id}/message`, { token: limited.key, body: { prompt: "five" } });
    expect(overMsg.status).toBe(429);
    // Other projects are unaffected.
    expect((await createJob("elsewhere")).status).toBe(201);
    // An idempotent replay is not a new creation.
    // Slide the window: the oldest entries leave it and slots free up.
    await t.store.db.query(`UPDATE job_messages SET created_at = created_at - interval '61 minutes' WHERE project_id = $1 AND prompt = 'one'`, [limited.projectId]);
    expect((await createJob("four", {}, limited.key, limited.projectId)).status).toBe(201);
    expect((await createJob("five", {}, limited.key, limited.projectId)).status).toBe(429);
  });

  it("concurrent creations cannot overshoot the limit", async () => {
    const limited = await t.newProject(undefined, { rateLimitPerHour: 4 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createJob(`burst ${i}`, {}, limited.key, limited.projectId)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 429)).toHaveLength(6);
  });

  it("an idempotent replay over the limit still returns the job", async () => {
    const limited = await t.newProject(undefined, { rateLimitPerHour: 1 });
    const first = await createJob("only", { "Idempotency-Key": "once" }, limited.key, limited.projectId);
    const replay = await createJob("only", { "Idempotency-Key": "once" }, limited.key, limited.projectId);
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
  });
});
