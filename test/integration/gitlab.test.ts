import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliFor } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { GITLAB_BOT, GITLAB_TOKEN, startFakeGitLab, type FakeGitLab, type FakeGitLabUser } from "../helpers/fake-gitlab.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

/**
 * A docs project on GitLab, served end to end over HTTP with GitLab faked at its edge: connecting
 * it (the webhook Inkwell registers), a job's pipeline, the runner's claim with a CI ID token, the
 * merge request Inkwell opens and updates, notes as follow-ups, the merge; and what is refused.
 */
const PUBLIC_URL = "https://inkwell.test";

let t: TestServer;
let gitlab: FakeGitLab;
let projectId: string;
let key: string;
let developer: FakeGitLabUser;
let guest: FakeGitLabUser;
let otherBot: FakeGitLabUser;

beforeAll(async () => {
  gitlab = await startFakeGitLab();
  developer = gitlab.addUser({ username: "dana", name: "Dana Dev", bot: false, accessLevel: 30 });
  guest = gitlab.addUser({ username: "gus", name: "Gus Guest", bot: false, accessLevel: 10 });
  otherBot = gitlab.addUser({ username: "group_7_bot_renovate", name: "Renovate", bot: true, accessLevel: 40 });
  t = await startTestServer({ env: { PUBLIC_URL } });
});
afterAll(async () => {
  await t?.close();
  await gitlab?.close();
});

const hookPath = () => new URL(gitlab.hooks[0]!.url).pathname;
const deliver = (event: Parameters<FakeGitLab["deliver"]>[0], payload: unknown, tamper: Parameters<FakeGitLab["deliver"]>[2] = {}) =>
  gitlab.deliver(event, payload, { to: `${t.url}${hookPath()}`, ...tamper });
const runner = (path: string, token: string, body: unknown) => t.call("POST", `/v1/runner/${path}`, { token, body });
const idToken = (claims: Record<string, unknown> = {}, options: Partial<Parameters<FakeGitLab["idToken"]>[1]> = {}) =>
  gitlab.idToken({ pipeline_id: String(gitlab.pipelines.at(-1)!.id), ...claims }, { audience: PUBLIC_URL, ...options });
const job = async (id: string) => (await t.call("GET", `/v2/agent/${projectId}/job/${id}`, { token: key })).body;
const gitlabTasks = async () =>
  t.store.db.query<{ state: string; last_error: string | null; payload: string }>(`SELECT state, last_error, payload FROM tasks WHERE kind = 'gitlab_event' ORDER BY id`);

describe("connecting a GitLab project", () => {
  it("refuses a token GitLab refuses and a project it cannot see, naming the field", async () => {
    const wrongToken = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: gitlab.url, project: gitlab.projectPath, token: "glpat-wrong" } });
    expect(wrongToken.status).toBe(400);
    expect(wrongToken.body.error).toMatch(/token: GitLab refused the token \(401\)/);
    const unknown = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: gitlab.url, project: "acme/elsewhere", token: GITLAB_TOKEN } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/project: GitLab has no project acme\/elsewhere/);
    expect(gitlab.hooks).toEqual([]);
  });

  it("registers the project webhook with a secret token and a signing token, and keeps both out of the answer", async () => {
    const res = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: `${gitlab.url}/`, project: `${gitlab.url}/${gitlab.projectPath}.git`, token: GITLAB_TOKEN } });
    expect(res.status).toBe(201);
    projectId = res.body.id;
    expect(res.body).toMatchObject({ forge: "gitlab", repository: `${gitlab.url}/${gitlab.projectPath}`, ref: "main", gitlab: { url: gitlab.url, projectId: gitlab.projectId, projectPath: gitlab.projectPath } });
    expect(gitlab.hooks).toHaveLength(1);
    const hook = gitlab.hooks[0]!;
    expect(hook).toMatchObject({ url: `${PUBLIC_URL}/api/gitlab/webhooks/${projectId}`, merge_requests_events: true, note_events: true, pipeline_events: true, issues_events: true });
    expect(hook.token.length).toBeGreaterThanOrEqual(32);
    expect(hook.signing_token).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.gitlab.webhookId).toBe(hook.id);
    expect(JSON.stringify(res.body)).not.toContain(hook.token);
    expect(JSON.stringify(res.body)).not.toContain(GITLAB_TOKEN);

    const again = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: gitlab.url, project: String(gitlab.projectId), token: GITLAB_TOKEN } });
    expect(again.status).toBe(409);
    expect(gitlab.hooks).toHaveLength(1);
    const created = await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN, body: { name: "gitlab" } });
    key = created.body.key;
  });
});

describe("a job on GitLab", () => {
  let jobId: string;

  it("starts a pipeline on the default branch through the pipeline API", async () => {
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Document the export command", labels: ["docs"], reviewers: ["dana"] } });
    expect(created.status).toBe(201);
    jobId = created.body.id;
    expect(created.body.source).toEqual({ repository: `${gitlab.url}/${gitlab.projectPath}`, ref: `inkwell/${jobId}` });
    const pipeline = await eventually("the pipeline", () => gitlab.pipelines[0]);
    expect(pipeline).toEqual({ id: pipeline.id, ref: "main", sha: expect.stringMatching(/^[0-9a-f]{40}$/), source: "api", variables: { INKWELL_JOB_ID: jobId, INKWELL_RUN_ATTEMPT: "1", INKWELL_URL: PUBLIC_URL } });
  });

  it("refuses forged ID tokens: wrong audience, another project, expired, wrong key, a pipeline Inkwell did not start, another pipeline's token", async () => {
    const claim = { jobId, runAttempt: 1, workflowRunId: gitlab.pipelines[0]!.id };
    const cases: [Promise<string>, number, RegExp][] = [
      [idToken({}, { audience: "https://elsewhere.test" }), 401, /audience is not https:\/\/inkwell\.test/],
      [idToken({ project_id: "999", project_path: "mallory/docs" }), 401, /project_id 999\) is not connected/],
      [idToken({ project_path: "acme/other" }), 401, /project_path acme\/other is not the connected project's/],
      [idToken({}, { issuedAt: Math.floor(Date.now() / 1000) - 7200, expiresIn: Math.floor(Date.now() / 1000) - 3600 }), 401, /expired/],
      [idToken({}, { wrongKey: true }), 401, /signature does not verify/],
      [idToken({ pipeline_source: "push" }), 401, /started by push/],
      [idToken({ ref_type: "tag", ref: "v1" }), 401, /runs on a tag/],
      [idToken({ pipeline_id: "1" }), 403, /pipeline 1, not of workflowRunId/],
    ];
    for (const [token, status, message] of cases) {
      const res = await runner("claim", await token, claim);
      expect(res.status, String(message)).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    expect((await job(jobId)).status).toBe("active");
  });

  it("on this server without a GitHub App, a token neither GitLab's nor GitHub's gets 401 as documented, not 'no GitHub App configured'", async () => {
    const claim = { jobId, runAttempt: 1, workflowRunId: gitlab.pipelines[0]!.id };
    const cases: [string, RegExp][] = [
      ["not-a-jwt", /not a JWT/],
      [await idToken({}, { issuer: "https://gitlab.elsewhere.test" }), /issued neither by the GitHub Actions OIDC issuer nor by a connected GitLab instance/],
    ];
    for (const [token, message] of cases) {
      for (const path of ["claim", "heartbeat", "report"]) {
        const res = await runner(path, token, { ...claim, outcome: "failed", error: "x" });
        expect(res.status, `${path} ${message}`).toBe(401);
        expect(res.body.error).toMatch(message);
        expect(res.body.error).not.toMatch(/GitHub App/);
      }
    }
    // A GitHub Actions token is one this server could take once the App is set up: that is what 503 says.
    const github = await idToken({}, { issuer: "https://token.actions.githubusercontent.com" });
    expect(await runner("claim", github, claim)).toMatchObject({ status: 503, body: { error: expect.stringMatching(/no GitHub App configured/) } });
    expect((await job(jobId)).status).toBe("active");
  });

  it("lets the pipeline's job claim with its ID token: no token is handed out, the job pushes with its own", async () => {
    const token = await idToken();
    const res = await runner("claim", token, { jobId, runAttempt: 1, workflowRunId: gitlab.pipelines[0]!.id, workflowRunUrl: `${gitlab.url}/${gitlab.projectPath}/-/pipelines/${gitlab.pipelines[0]!.id}`, ciJobId: 5001 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      forge: "gitlab",
      token: null,
      appSlug: null,
      gitlab: { projectId: gitlab.projectId, projectUrl: `${gitlab.url}/${gitlab.projectPath}`, serverUrl: gitlab.url },
      job: { id: jobId, runAttempt: 1, repository: gitlab.projectPath, branch: `inkwell/${jobId}`, baseRef: "main", prNumber: null, labels: ["docs"], reviewers: ["dana"] },
    });
    expect((await runner("heartbeat", token, { jobId, runAttempt: 1, progress: "Editing docs" })).body).toEqual({ status: "active", cancel: false });
  });

  it("opens the merge request from the pushed branch when the run reports, and prLink is its URL", async () => {
    gitlab.pushBranch(`inkwell/${jobId}`, { "export.mdx": "---\ntitle: Export\n---\n\nRun `inkwell export`.\n" });
    const res = await runner("report", await idToken(), {
      jobId,
      runAttempt: 1,
      outcome: "completed",
      pr: null,
      summary: "Added the export page",
      mergeRequest: { title: "Document the export command", description: "Adds export.mdx.", draft: false },
    });
    expect(res.status).toBe(200);
    const mr = gitlab.mergeRequests[0]!;
    expect(res.body).toMatchObject({ status: "completed", prLink: mr.web_url });
    expect(mr).toMatchObject({ iid: 1, source_branch: `inkwell/${jobId}`, target_branch: "main", title: "Document the export command", description: "Adds export.mdx.", labels: ["docs"], reviewer_ids: [developer.id], draft: false });
  });

  it("ignores notes by a guest, a bot, Inkwell's own user and notes not addressed to it; takes a developer's", async () => {
    const mr = gitlab.mergeRequests[0]!;
    const mention = `@${GITLAB_BOT.username}`;
    const notes = [
      gitlab.payloads.note(mr, guest, `${mention} rewrite everything`),
      gitlab.payloads.note(mr, otherBot, `${mention} bump versions`),
      gitlab.payloads.note(mr, { ...GITLAB_BOT, accessLevel: 40 }, `${mention} talking to myself`),
      gitlab.payloads.note(mr, developer, "Looks good to me"),
    ];
    for (const note of notes) expect((await deliver("Note Hook", note)).status).toBe(202);
    const skipped = await eventually("the four notes handled", async () => {
      const tasks = await gitlabTasks();
      return tasks.length === 4 && tasks.every((task) => task.state !== "pending") && tasks;
    });
    expect(skipped.map((task) => [task.state, task.last_error])).toEqual([
      ["skipped", "author has guest access"],
      ["skipped", "comment by a bot or an app"],
      ["skipped", "comment by a bot or an app"],
      ["skipped", "comment does not address the agent"],
    ]);
    expect((await job(jobId)).status).toBe("completed");

    const diffNote = gitlab.payloads.note(mr, developer, `${mention} say which formats it writes`, {
      type: "DiffNote",
      position: { base_sha: "a".repeat(40), head_sha: "b".repeat(40), start_sha: "a".repeat(40), position_type: "text", old_path: "export.mdx", new_path: "export.mdx", old_line: null, new_line: 5 },
    });
    expect((await deliver("Note Hook", diffNote)).status).toBe(202);
    // GitLab retries a delivery it did not see answered: the same note is one message.
    expect((await deliver("Note Hook", diffNote)).status).toBe(202);
    const pipeline = await eventually("the follow-up's pipeline", () => gitlab.pipelines[1]);
    expect(pipeline.variables).toEqual({ INKWELL_JOB_ID: jobId, INKWELL_RUN_ATTEMPT: "2", INKWELL_URL: PUBLIC_URL });
    expect((await job(jobId)).status).toBe("active");
    await eventually("the 👀 on the note", () => gitlab.awards.find((a) => a.noteId === diffNote.object_attributes.id && a.name === "eyes"));
    const messages = await t.store.db.query<{ prompt: string; source: string; author: string }>(`SELECT prompt, source, author FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId]);
    expect(messages.slice(1)).toEqual([{ prompt: "Review comment on `export.mdx` line 5:\nsay which formats it writes", source: "comment", author: "dana" }]);
  });

  it("updates the same merge request on the follow-up's report", async () => {
    const token = await idToken();
    const claim = await runner("claim", token, { jobId, runAttempt: 2, workflowRunId: gitlab.pipelines[1]!.id });
    expect(claim.status).toBe(200);
    expect(claim.body.job).toMatchObject({ prNumber: 1, newMessagesFrom: 2 });
    gitlab.pushBranch(`inkwell/${jobId}`, { "export.mdx": "---\ntitle: Export\n---\n\nRun `inkwell export`; it writes CSV and JSON.\n" });
    const res = await runner("report", token, {
      jobId,
      runAttempt: 2,
      outcome: "completed",
      pr: null,
      mergeRequest: { title: "Document the export command", description: "Adds export.mdx, with its formats.", draft: true },
    });
    expect(res.status).toBe(200);
    expect(gitlab.mergeRequests).toHaveLength(1);
    expect(gitlab.mergeRequests[0]).toMatchObject({ iid: 1, title: "Draft: Document the export command", description: "Adds export.mdx, with its formats.", draft: true });
    expect(res.body).toMatchObject({ status: "completed", prLink: gitlab.mergeRequests[0]!.web_url });
  });

  it("takes `approve` on the merge request by GitHub's rules: a guest's is ignored, a developer's approves the plan the job waits with", async () => {
    const mr = gitlab.mergeRequests[0]!;
    const before = gitlab.pipelines.length;
    expect((await deliver("Note Hook", gitlab.payloads.note(mr, developer, `@${GITLAB_BOT.username} plan a section on filters first`))).status).toBe(202);
    const planned = await eventually("the follow-up's pipeline", () => gitlab.pipelines[before]);
    const token = await idToken({ pipeline_id: String(planned.id) });
    expect((await runner("claim", token, { jobId, runAttempt: 3, workflowRunId: planned.id })).status).toBe(200);
    const plan = "1. Add a Filters section to export.mdx.";
    expect((await runner("report", token, { jobId, runAttempt: 3, outcome: "completed", pr: null, waiting: { for: "approval", plan } })).body).toMatchObject({ status: "active", waitingFor: "approval", plan });
    const posted = await eventually("the plan as a note on the merge request", () => gitlab.notes.find((n) => n.mrIid === mr.iid && n.body.includes("has a plan")));
    expect(posted.body).toContain(`> ${plan}`);
    expect(posted.body).toContain(`Reply \`/inkwell approve\` to carry it out, or \`/inkwell <what to change>\` (or mention @${GITLAB_BOT.username})`);

    const approvals = [gitlab.payloads.note(mr, guest, "/inkwell approve"), gitlab.payloads.note(mr, developer, "/inkwell approve")];
    expect((await deliver("Note Hook", approvals[0]))).toMatchObject({ status: 202 });
    await eventually("the guest's approve handled", async () => (await gitlabTasks()).at(-1)?.state === "skipped");
    expect((await gitlabTasks()).at(-1)?.last_error).toBe("author has guest access");
    expect((await job(jobId)).waitingFor).toBe("approval");

    expect((await deliver("Note Hook", approvals[1]))).toMatchObject({ status: 202 });
    const approved = await eventually("the carried-out plan's pipeline", () => gitlab.pipelines[before + 1]);
    expect(approved.variables).toMatchObject({ INKWELL_JOB_ID: jobId, INKWELL_RUN_ATTEMPT: "4" });
    expect(await job(jobId)).toMatchObject({ status: "active", waitingFor: null });
    const events = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/events`, { token: key })).body.events as Array<{ type: string; detail?: string }>;
    expect(events.find((event) => event.type === "plan_approved")).toMatchObject({ detail: "by @dana" });
    await eventually("the 👀 on the approval", () => gitlab.awards.find((a) => a.noteId === approvals[1]!.object_attributes.id && a.name === "eyes"));

    const work = await idToken({ pipeline_id: String(approved.id) });
    expect((await runner("claim", work, { jobId, runAttempt: 4, workflowRunId: approved.id })).body.job).toMatchObject({ stage: "work", plan });
    gitlab.pushBranch(`inkwell/${jobId}`, { "export.mdx": "---\ntitle: Export\n---\n\nRun `inkwell export`; it writes CSV and JSON.\n\n## Filters\n" });
    const done = await runner("report", work, { jobId, runAttempt: 4, outcome: "completed", pr: null, mergeRequest: { title: "Document the export command", description: "Adds export.mdx, with its formats and filters.", draft: false } });
    expect(done.body).toMatchObject({ status: "completed", prLink: mr.web_url });
  });

  it("is archived when the merge request is merged, with GitLab's merge time kept", async () => {
    const mr = gitlab.mergeRequests[0]!;
    mr.state = "merged";
    mr.merged_at = "2026-11-20T09:30:00.000Z";
    expect((await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(mr, "merge", developer))).status).toBe(202);
    const archived = await eventually("the job archived", async () => {
      const current = await job(jobId);
      return current.status === "archived" && current;
    });
    expect(archived.archivedAt).not.toBeNull();
    const [row] = await t.store.db.query<{ merged_at: Date | string }>(`SELECT merged_at FROM jobs WHERE id = $1`, [jobId]);
    expect(new Date(row!.merged_at).toISOString()).toBe("2026-11-20T09:30:00.000Z");
    // The tracking note: one note on the merge request, edited in place through the runs (beside the plan's own note).
    const notes = await eventually("the tracking note showing the archive", () => {
      const ours = gitlab.notes.filter((n) => n.mrIid === mr.iid && !n.body.includes("has a plan"));
      return ours.some((n) => n.body.includes("📦 Archived")) && ours;
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(`<!-- inkwell:tracking:${jobId} -->`);
    expect(notes[0]!.body).toContain("@dana");
    const followUp = await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/message`, { token: key, body: { prompt: "one more" } });
    expect(followUp.status).toBe(409);
  });

  it("archives a job whose merge request is closed without a merge", async () => {
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Fix a typo" } });
    const id = created.body.id as string;
    const pipeline = await eventually("its pipeline", () => gitlab.pipelines.find((p) => p.variables.INKWELL_JOB_ID === id));
    const token = await idToken({ pipeline_id: String(pipeline.id) });
    expect((await runner("claim", token, { jobId: id, runAttempt: 1, workflowRunId: pipeline.id })).status).toBe(200);
    gitlab.pushBranch(`inkwell/${id}`, { "index.mdx": "---\ntitle: Home\n---\n\nWelcome!\n" });
    const report = await runner("report", token, { jobId: id, runAttempt: 1, outcome: "failed", error: "validation failed" });
    expect(report.body.status).toBe("failed");
    expect(gitlab.mergeRequests).toHaveLength(1);
    const mr = { ...gitlab.mergeRequests[0]!, id: 77, iid: 2, source_branch: `inkwell/${id}`, state: "closed" as const };
    expect((await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(mr, "close", developer))).status).toBe(202);
    await eventually("the closed job archived", async () => (await job(id)).status === "archived");
    const [row] = await t.store.db.query<{ merged_at: unknown }>(`SELECT merged_at FROM jobs WHERE id = $1`, [id]);
    expect(row!.merged_at).toBeNull();
  });
});

describe("GitLab webhook deliveries", () => {
  it("refuses a wrong or missing X-Gitlab-Token with 401 before reading the body, even an oversized one", async () => {
    const before = (await gitlabTasks()).length;
    const mr = gitlab.mergeRequests[0]!;
    const payload = gitlab.payloads.mergeRequest(mr, "close");
    expect(await deliver("Merge Request Hook", payload, { token: "wrong" })).toMatchObject({ status: 401, body: { error: expect.stringMatching(/X-Gitlab-Token is missing or wrong/) } });
    expect((await deliver("Merge Request Hook", payload, { token: "" })).status).toBe(401);
    // A project id that names nothing is answered the same way.
    expect((await deliver("Merge Request Hook", payload, { to: `${t.url}/api/gitlab/webhooks/nosuchproject` })).status).toBe(401);
    // The forge's webhook path takes deliveries only: another method is refused, saying which it takes.
    expect(await t.call("GET", `/api/gitlab/webhooks/${projectId}`)).toMatchObject({ status: 405, body: { error: expect.stringMatching(/takes GitLab's webhook deliveries \(POST\)/) } });
    const huge = JSON.stringify({ object_kind: "note", padding: "x".repeat(6 * 1024 * 1024) });
    expect((await deliver("Note Hook", {}, { token: "wrong", body: huge })).status).toBe(401);
    expect((await deliver("Note Hook", {}, { body: huge })).status).toBe(413);
    expect((await gitlabTasks()).length).toBe(before);
  });

  it("refuses a delivery whose Standard Webhooks signature does not verify", async () => {
    const before = (await gitlabTasks()).length;
    const payload = gitlab.payloads.note(gitlab.mergeRequests[0]!, developer, `@${GITLAB_BOT.username} forged`);
    const res = await deliver("Note Hook", payload, { signature: `v1,${Buffer.alloc(32).toString("base64")}` });
    expect(res).toMatchObject({ status: 401, body: { error: expect.stringMatching(/webhook-signature does not verify/) } });
    expect((await gitlabTasks()).length).toBe(before);
  });

  it("answers events it does not use with 200 and queues nothing", async () => {
    const before = (await gitlabTasks()).length;
    const opened = await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(gitlab.mergeRequests[0]!, "update"));
    expect(opened).toMatchObject({ status: 200, body: { ignored: "merge request update" } });
    expect((await deliver("Pipeline Hook", { object_kind: "pipeline" })).status).toBe(200);
    expect((await gitlabTasks()).length).toBe(before);
  });
});

describe("connecting from the CLI and the dashboard", () => {
  it("inkwell projects connect-gitlab takes the token from INKWELL_GITLAB_TOKEN and shows the connection", async () => {
    const other = await startFakeGitLab({ projectId: 43, projectPath: "acme/cli-docs" });
    try {
      const cli = cliFor(t);
      const missing = await cli(["projects", "connect-gitlab", "acme/cli-docs", "--gitlab-url", other.url]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/--gitlab-token \(or INKWELL_GITLAB_TOKEN\)/);
      const res = await cli(["projects", "connect-gitlab", "acme/cli-docs", "--gitlab-url", other.url], { INKWELL_GITLAB_TOKEN: GITLAB_TOKEN });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/Connected GitLab project acme\/cli-docs as [a-z0-9]+/);
      expect(res.stdout).toContain(`acme/cli-docs (project 43) on ${other.url}; webhook ${other.hooks[0]!.id}`);
    } finally {
      await other.close();
    }
  });

  it("the dashboard's form connects a project for the operator and opens its setup; a GitLab refusal is shown on the form", async () => {
    const other = await startFakeGitLab({ projectId: 44, projectPath: "acme/dashboard-docs" });
    try {
      const v = new Visitor(t.url, PUBLIC_URL);
      await v.signInAsOperator();
      const csrf = await v.csrf("/dashboard/gitlab");
      const refused = await v.post("/dashboard/gitlab", { csrf, gitlabUrl: other.url, project: "acme/dashboard-docs", token: "glpat-wrong" });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("GitLab refused the token (401)");
      expect(refused.text).not.toContain("glpat-wrong");
      const connected = await v.post("/dashboard/gitlab", { csrf, gitlabUrl: other.url, project: "acme/dashboard-docs", token: GITLAB_TOKEN });
      expect(connected.status).toBe(303);
      const setup = connected.headers.get("location") ?? "";
      expect(setup).toMatch(/^\/dashboard\/projects\/[a-z0-9]+\/setup$/);
      expect(other.hooks).toHaveLength(1);
      const page = await v.get(setup);
      expect(page.text).toContain(`${other.url}/acme/dashboard-docs is connected`);
      expect(page.text).toContain(`inkwell-url: ${PUBLIC_URL}`);
      expect(page.text).not.toContain("Install the GitHub App");
    } finally {
      await other.close();
    }
  });
});

describe("automations on GitLab", () => {
  const issue = { iid: 12, title: "Export docs are missing", description: "Nothing explains `inkwell export`." };

  it("an issue labelled by a developer starts a job from the issue, answered on the issue; a guest's label and other labels start none", async () => {
    const created = await t.call("POST", `/admin/projects/${projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "issues", label: "inkwell", mention: true } });
    expect(created.status).toBe(201);
    const pipelinesBefore = gitlab.pipelines.length;
    const deliveries = [
      gitlab.issuePayloads.issue(issue, guest, { action: "update", labels: ["inkwell"], previousLabels: [] }),
      gitlab.issuePayloads.issue(issue, developer, { action: "update", labels: ["bug"], previousLabels: [] }),
      gitlab.issuePayloads.issue(issue, developer, { action: "update", labels: ["bug", "inkwell"], previousLabels: ["bug"] }),
    ];
    for (const payload of deliveries) expect((await deliver("Issue Hook", payload)).status).toBe(202);
    const outcomes = await eventually("the three issue events handled", async () => {
      const tasks = (await gitlabTasks()).filter((task) => JSON.parse(task.payload).type === "issue_labeled");
      return tasks.length === 3 && tasks.every((task) => task.state !== "pending") && tasks;
    });
    expect(outcomes.map((task) => [task.state, task.last_error])).toEqual([
      ["skipped", `@gus has less than Developer access to ${gitlab.projectPath}`],
      ["skipped", "label bug starts no job"],
      ["done", null],
    ]);
    const pipeline = await eventually("the issue job's pipeline", () => gitlab.pipelines[pipelinesBefore]);
    const jobId = pipeline.variables.INKWELL_JOB_ID!;
    const job = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key })).body;
    expect(job.trigger).toMatchObject({ type: "issue", url: `${gitlab.url}/${gitlab.projectPath}/-/issues/12` });
    const reply = await eventually("the answer on the issue", () => gitlab.issueNotes.find((n) => n.issueIid === 12));
    expect(reply.body).toContain(`Inkwell started job \`${jobId}\``);
    // The claim tells the runner which issue the merge request closes.
    const claim = await runner("claim", await idToken({ pipeline_id: String(pipeline.id) }), { jobId, runAttempt: 1, workflowRunId: pipeline.id });
    expect(claim.body.job.closesIssue).toBe(12);
  });

  it("a developer's mention on that issue becomes the open job's follow-up, once however often it is delivered", async () => {
    const note = gitlab.issuePayloads.issueNote(issue, developer, `@${GITLAB_BOT.username} also cover the CSV columns`);
    expect((await deliver("Note Hook", note)).status).toBe(202);
    expect((await deliver("Note Hook", note)).status).toBe(202);
    await eventually("the mention handled twice", async () => {
      const tasks = (await gitlabTasks()).filter((task) => JSON.parse(task.payload).type === "issue_note");
      return tasks.length === 2 && tasks.every((task) => task.state !== "pending");
    });
    const [row] = await t.store.db.query<{ count: number | string }>(`SELECT count(*) AS count FROM job_messages WHERE author = 'dana' AND prompt LIKE '%also cover the CSV columns%'`);
    expect(Number(row!.count)).toBe(1);
    await eventually("the 👀 on the issue note", () => gitlab.awards.find((a) => a.issueIid === 12 && a.noteId === note.object_attributes.id));
  });

  it("a linked source project's merge starts a job from its changes; its webhook is registered on the source project; bots, other branches and unlabelled merges start none", async () => {
    const source = gitlab.addSourceProject(77, "acme/api-server");
    const refused = await t.call("POST", `/admin/projects/${projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "source", repository: "acme/not-visible" } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/cannot see acme\/not-visible .*group access token/);
    const created = await t.call("POST", `/admin/projects/${projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "source", repository: "acme/api-server", label: "docs", paths: ["src/**"] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The docs project's endpoint and secret token, merge request events only.
    expect(source.hooks).toEqual([expect.objectContaining({ url: `${PUBLIC_URL}/api/gitlab/webhooks/${projectId}`, token: gitlab.hooks[0]!.token, signing_token: gitlab.hooks[0]!.signing_token, merge_requests_events: true, note_events: false })]);
    // Linking it again is refused as a duplicate, and adds no second hook.
    expect((await t.call("POST", `/admin/projects/${projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "source", repository: "acme/api-server" } })).status).toBe(409);
    expect(source.hooks).toHaveLength(1);

    const diff = (path: string, lines: string) => ({ old_path: path, new_path: path, new_file: false, renamed_file: false, deleted_file: false, diff: lines });
    const change = { description: "Adds `--since` to `inkwell export`.", diffs: [diff("src/export.ts", "@@ -1 +1,2 @@\n-old\n+new\n+since")] };
    const merges = [
      gitlab.sourceMerge(77, { iid: 5, title: "Bump deps", author: otherBot, labels: ["docs"], ...change }, developer),
      gitlab.sourceMerge(77, { iid: 6, title: "Backport", author: developer, labels: ["docs"], targetBranch: "release-1", ...change }, developer),
      gitlab.sourceMerge(77, { iid: 7, title: "Refactor", author: developer, labels: [], ...change }, developer),
      gitlab.sourceMerge(77, { iid: 8, title: "Tests only", author: developer, labels: ["docs"], description: "", diffs: [diff("test/export.test.ts", "@@ -1 +1 @@\n-a\n+b")] }, developer),
      gitlab.sourceMerge(77, { iid: 9, title: "Export since a date", author: developer, labels: ["docs"], ...change }, guest),
    ];
    const before = gitlab.pipelines.length;
    for (const merge of merges) expect((await deliver("Merge Request Hook", merge)).status).toBe(202);
    const outcomes = await eventually("the five merges handled", async () => {
      const tasks = (await gitlabTasks()).filter((task) => JSON.parse(task.payload).type === "source_merged");
      return tasks.length === 5 && tasks.every((task) => task.state !== "pending") && tasks;
    });
    expect(outcomes.map((task) => [task.state, task.last_error])).toEqual([
      ["skipped", `opened by a bot (@${otherBot.username})`],
      ["skipped", "merged into release-1, not the default branch"],
      ["skipped", "the merge request lacks the label its automations require"],
      ["skipped", "no changed file matches src/**"],
      ["done", null],
    ]);
    const pipeline = await eventually("the merge's job's pipeline", () => gitlab.pipelines[before]);
    const jobId = pipeline.variables.INKWELL_JOB_ID!;
    const job = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key })).body;
    expect(job.trigger).toMatchObject({ type: "source-merge", url: `${gitlab.url}/acme/api-server/-/merge_requests/9`, automationId: created.body.id });
    const [first] = await t.store.db.query<{ prompt: string }>(`SELECT prompt FROM job_messages WHERE job_id = $1 ORDER BY seq LIMIT 1`, [jobId]);
    expect(first!.prompt).toContain("A merge request opened by @dana was merged into acme/api-server (main): !9 \"Export since a date\"");
    expect(first!.prompt).toContain("- modified src/export.ts (+2 −1)");
    expect(first!.prompt).toContain("+since");
    expect(first!.prompt).toContain("acme/api-server's code cannot be read from here");
    // A GitLab source is not readable from the docs project's pipeline: the claim hands out no source.
    const claim = await runner("claim", await idToken({ pipeline_id: String(pipeline.id) }), { jobId, runAttempt: 1, workflowRunId: pipeline.id });
    expect(claim.body.job.source ?? null).toBeNull();

    // Deleting the automation removes its webhook from the source project: its merges stop reaching Inkwell.
    expect((await t.call("DELETE", `/admin/projects/${projectId}/automations/${created.body.id}`, { token: ADMIN_TOKEN })).status).toBe(204);
    await eventually("the source project's webhook removed", () => source.hooks.length === 0);
    // The hook is gone a moment before the task records its outcome.
    await eventually("the unlink task done", async () => (await t.store.db.query<{ state: string }>(`SELECT state FROM tasks WHERE kind = 'gitlab_source_unlink'`))[0]?.state === "done");
  });

  it("a schedule fires a job that runs as a pipeline like any other", async () => {
    const created = await t.call("POST", `/admin/projects/${projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "schedule", cron: "0 6 * * 1", instruction: "Check the docs for stale versions" } });
    expect(created.status).toBe(201);
    const before = gitlab.pipelines.length;
    expect((await t.call("POST", `/admin/projects/${projectId}/automations/${created.body.id}/run`, { token: ADMIN_TOKEN })).status).toBeLessThan(300);
    const pipeline = await eventually("the schedule's pipeline", () => gitlab.pipelines[before]);
    expect(pipeline).toMatchObject({ ref: "main", source: "api", variables: { INKWELL_RUN_ATTEMPT: "1", INKWELL_URL: PUBLIC_URL } });
  });
});

describe("a pipeline that ends before its job reports", () => {
  const startJob = async (prompt: string) => {
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const pipeline = await eventually("its pipeline", () => gitlab.pipelines.find((p) => p.variables.INKWELL_JOB_ID === id));
    // The pipeline the API answered with is kept in the job's history: the event is matched by it.
    await eventually("the dispatch recorded", async () => {
      const rows = await t.store.db.query<{ detail: string }>(`SELECT detail FROM job_events WHERE job_id = $1 AND type = 'dispatched'`, [id]);
      return rows.some((row) => row.detail === `run attempt 1: pipeline ${pipeline.id}`);
    });
    return { id, pipeline };
  };
  const pipelineTask = (pipelineId: number) =>
    eventually(`the task of pipeline ${pipelineId}`, async () => {
      const task = (await gitlabTasks()).findLast((row) => row.payload.includes(`"pipelineId":${pipelineId}`));
      return task && task.state !== "pending" && task;
    });

  it("fails the job at once when its pipeline fails before the runner claims, naming the pipeline; statuses on the way are ignored", async () => {
    const { id, pipeline } = await startJob("Document the import command");
    for (const status of ["pending", "running"] as const) {
      expect(await deliver("Pipeline Hook", gitlab.pipelinePayload(pipeline, status))).toMatchObject({ status: 200, body: { ignored: `pipeline ${status}` } });
    }
    expect((await deliver("Pipeline Hook", gitlab.pipelinePayload(pipeline, "failed"))).status).toBe(202);
    const failed = await eventually("the job failed", async () => {
      const current = await job(id);
      return current.status === "failed" && current;
    });
    expect(failed.error).toBe(`The pipeline ended "failed" without reporting back: ${gitlab.url}/${gitlab.projectPath}/-/pipelines/${pipeline.id}`);
    const [event] = await t.store.db.query<{ cause: string }>(`SELECT cause FROM job_events WHERE job_id = $1 AND type = 'run_failed'`, [id]);
    expect(event!.cause).toBe("gitlab");
  });

  it("fails the claimed run whose pipeline is canceled without a report", async () => {
    const { id, pipeline } = await startJob("Document the sync command");
    expect((await runner("claim", await idToken({ pipeline_id: String(pipeline.id) }), { jobId: id, runAttempt: 1, workflowRunId: pipeline.id })).status).toBe(200);
    expect((await deliver("Pipeline Hook", gitlab.pipelinePayload(pipeline, "canceled"))).status).toBe(202);
    await eventually("the canceled run failed", async () => (await job(id)).error === `The pipeline ended "canceled" without reporting back: ${gitlab.url}/${gitlab.projectPath}/-/pipelines/${pipeline.id}`);
  });

  it("leaves a run that reported as it is, and ignores other pipelines: another source, one Inkwell did not start, an older attempt's", async () => {
    const { id, pipeline } = await startJob("Document the status command");
    const token = await idToken({ pipeline_id: String(pipeline.id) });
    expect((await runner("claim", token, { jobId: id, runAttempt: 1, workflowRunId: pipeline.id })).status).toBe(200);
    expect((await runner("report", token, { jobId: id, runAttempt: 1, outcome: "completed", pr: null, summary: "Nothing to change" })).body.status).toBe("completed");
    // A later step of the same pipeline failed after the report: the job stays completed.
    expect((await deliver("Pipeline Hook", gitlab.pipelinePayload(pipeline, "failed"))).status).toBe(202);
    expect((await pipelineTask(pipeline.id)).state).toBe("skipped");
    expect((await job(id)).status).toBe("completed");

    const second = await startJob("Document the login command");
    // Another source is the project's own CI: at most a job's checks (gitlab-checks.test.ts), never a run of Inkwell's; this commit is no job's head.
    const pushed = gitlab.pipelinePayload(second.pipeline, "failed", "push");
    expect((await deliver("Pipeline Hook", pushed)).status).toBe(202);
    expect(await pipelineTask(second.pipeline.id)).toMatchObject({ state: "skipped", last_error: "not the head of a job whose checks are watched" });
    expect((await job(second.id)).status).toBe("active");
    const unknown = gitlab.pipelinePayload({ id: 99_999, ref: "main" }, "failed");
    expect((await deliver("Pipeline Hook", unknown)).status).toBe(202);
    expect(await pipelineTask(99_999)).toMatchObject({ state: "skipped", last_error: "no unreported run of a job" });
    // Its first attempt's pipeline fails; a follow-up starts attempt 2; a late delivery about the first pipeline leaves attempt 2 alone.
    expect((await deliver("Pipeline Hook", gitlab.pipelinePayload(second.pipeline, "failed"))).status).toBe(202);
    await eventually("the second job failed", async () => (await job(second.id)).status === "failed");
    const followUp = await t.call("POST", `/v2/agent/${projectId}/job/${second.id}/message`, { token: key, body: { prompt: "and the logout command" } });
    expect(followUp.status).toBeLessThan(300);
    await eventually("attempt 2's pipeline", () => gitlab.pipelines.find((p) => p.variables.INKWELL_JOB_ID === second.id && p.variables.INKWELL_RUN_ATTEMPT === "2"));
    expect((await deliver("Pipeline Hook", gitlab.pipelinePayload(second.pipeline, "canceled"))).status).toBe(202);
    expect(await pipelineTask(second.pipeline.id)).toMatchObject({ state: "skipped", last_error: "no unreported run of a job" });
    expect((await job(second.id)).status).toBe("active");
  });
});

describe("robots.txt from the docs project's merges", () => {
  const versions = async () =>
    (await t.call("GET", `/v1/analytics/${projectId}/robots/versions`, { token: key })).body.versions as Array<{ source: string; effectiveAt: string; origin: string | null; bytes: number }>;
  const robotsTasks = async () => t.store.db.query<{ state: string; last_error: string | null }>(`SELECT state, last_error FROM tasks WHERE kind = 'robots_merge' ORDER BY id`);
  const settled = (count: number) => eventually(`${count} robots.txt merge tasks settled`, async () => {
    const tasks = await robotsTasks();
    return tasks.length >= count && tasks.every((task) => task.state === "done" || task.state === "skipped") && tasks;
  });
  const repository = () => `${new URL(gitlab.url).host}/${gitlab.projectPath}`;

  it("a merge into the default branch that changes public/robots.txt is a version at GitLab's merged_at, read at the merge commit; one that leaves it alone adds none; a removal leaves the site without rules", async () => {
    const before = (await robotsTasks()).length;
    const added = gitlab.openChange("block-gptbot", { "public/robots.txt": "User-agent: GPTBot\nDisallow: /\n", "index.mdx": "---\ntitle: Home\n---\n\nWelcome, people.\n" }, "Block GPTBot");
    gitlab.merge(added, "2026-11-24T08:00:00.000Z");
    expect((await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(added, "merge", developer))).status).toBe(202);
    const untouched = gitlab.openChange("typo", { "index.mdx": "---\ntitle: Home\n---\n\nWelcome, everyone.\n" }, "Fix a word");
    gitlab.merge(untouched, "2026-11-24T09:00:00.000Z");
    expect((await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(untouched, "merge", developer))).status).toBe(202);
    expect((await settled(before + 2)).slice(before).map((task) => [task.state, task.last_error])).toEqual([
      ["done", null],
      ["skipped", "robots.txt unchanged"],
    ]);
    expect(await versions()).toEqual([
      expect.objectContaining({ source: "repository", effectiveAt: "2026-11-24T08:00:00.000Z", origin: `${repository()}@${added.merge_commit_sha!.slice(0, 12)}:public/robots.txt`, bytes: 31 }),
    ]);

    const removed = gitlab.openChange("unblock", { "public/robots.txt": null }, "Let every agent in");
    gitlab.merge(removed, "2026-11-25T08:00:00.000Z");
    expect((await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(removed, "merge", developer))).status).toBe(202);
    await settled(before + 3);
    const [latest] = await versions();
    expect(latest).toMatchObject({ source: "repository", effectiveAt: "2026-11-25T08:00:00.000Z", bytes: 0 });
  });
});

describe("a server with GitLab projects and no GitHub App", () => {
  const NO_APP = /no GitHub App/;

  it("says nothing of a missing GitHub App where a GitLab job runs: the API's job (forge gitlab), the job page, the jobs list, automations, the CLI and MCP", async () => {
    const cli = cliFor(t);
    const env = { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId };
    const created = await cli(["jobs", "create", "Explain", "the", "export", "flags"], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).not.toMatch(NO_APP);
    expect(created.stdout).toMatch(/merge request:\s+-/);
    const jobId = /Created job (\S+)/.exec(created.stdout)![1]!;
    expect(await job(jobId)).toMatchObject({ forge: "gitlab" });
    const messaged = await cli(["jobs", "message", jobId, "Also", "the", "import", "flags"], env);
    expect(messaged.stderr).not.toMatch(NO_APP);

    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    for (const page of [`/dashboard/projects/${projectId}/jobs`, `/dashboard/projects/${projectId}/jobs/${jobId}`, `/dashboard/projects/${projectId}/automations`]) {
      const html = (await v.get(page)).text;
      expect(html, page).not.toMatch(NO_APP);
      expect(html, page).not.toMatch(/pull request|mentioning the App/i);
    }

    const client = await connectMcp(t.url, key);
    try {
      const made = await callTool(client, "create_job", { prompt: "Document the config file" });
      expect(firstText(made)).toMatch(/^Created\. Job \S+ is active .*; no merge request yet\.$/);
      expect(firstText(made)).not.toMatch(NO_APP);
    } finally {
      await client.close();
    }
  });

  it("still warns for a GitHub project on the same server, whose job cannot run", async () => {
    const github = await t.newProject("acme/github-docs");
    const created = await cliFor(t)(["jobs", "create", "Add", "a", "page"], { INKWELL_API_KEY: github.key, INKWELL_PROJECT: github.projectId });
    expect(created.stderr).toMatch(/Warning: this Inkwell server has no GitHub App yet/);
    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    expect((await v.get(`/dashboard/projects/${github.projectId}/jobs`)).text).toMatch(/This server has no GitHub App yet/);
  });
});
