import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import nock from "nock";
import { archiveExpiredWaits, failStalledJobs } from "../../src/app/domain/jobs/watchdog.js";
import { gitHubTime, issueComment, issueCommentOnIssue, pullRequest } from "../fixtures/webhooks.js";
import { deliver, GITHUB_API } from "../helpers/github.js";
import { git, startActionHarness, type ActionHarness } from "../helpers/action-harness.js";
import { cliFor } from "../helpers/cli.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { Visitor } from "../helpers/visitor.js";
import { drainTasks } from "../helpers/drain.js";
import { lastUserText, steps, type ChatRequest } from "../helpers/fake-model.js";
import { ADMIN_TOKEN } from "../helpers/server.js";

// Plans to approve and questions to answer (docs/jobs.md, "Plans and questions"): the Action's real
// run against the real service, once per store, with a scripted model.

const PAGE = "---\ntitle: Retries\n---\n\nHow retries work.\n";
const PLAN = "- Add guides/retries.mdx: a page on retries, because the webhooks guide mentions them without explaining.\n- Change docs.json: list the new page.";
const planning = (plan = PLAN) =>
  steps({ tools: [{ name: "list_files", args: {} }] }, { tools: [{ name: "submit_plan", args: { plan } }] });
const carryOut = () =>
  steps(
    { tools: [{ name: "write_file", args: { path: "guides/retries.mdx", content: PAGE, reason: "The page the plan adds." } }] },
    { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/retries"]', reason: "Lists it." } }] },
    { text: "Add a page on retries\n\nAs planned." },
  );
const toolNames = (request: ChatRequest | undefined) => (request?.tools ?? []).map((tool) => tool.function.name);
const branchPushed = (h: ActionHarness, jobId: string) => git(h.remote, "branch", "--list", `inkwell/${jobId}`) !== "";

/** The fields the seed's contract knows: a client written against it alone parses jobs with this. */
const seedJob = z.object({
  id: z.string(),
  status: z.enum(["active", "completed", "archived", "failed"]),
  source: z.object({ repository: z.string(), ref: z.string() }),
  model: z.string(),
  prLink: z.string().nullable(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
});

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

async function startReceiver() {
  const received: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let h: ActionHarness;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;
beforeAll(async () => {
  receiver = await startReceiver();
  // The receiver listens on loopback, which only the operator's setting allows.
  h = await startActionHarness("mintlify", steps({ text: "unused" }), { env: { INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true" } });
  const created = await h.server.call("POST", `/admin/projects/${h.projectId}/webhooks`, { token: ADMIN_TOKEN, body: { url: receiver.url } });
  expect(created.body.events).toEqual(expect.arrayContaining(["job.created", "job.run_started", "job.waiting", "job.run_finished"]));
  secret = created.body.secret;
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

const api = (method: string, path: string, body?: unknown) => h.server.call(method, `/v2/agent/${h.projectId}${path}`, { token: h.apiKey, ...(body === undefined ? {} : { body }) });

/** The verified deliveries about one job, in the order they were sent. */
async function deliveriesOf(jobId: string): Promise<Array<{ type: string; data: Record<string, any> }>> {
  await drainTasks(h.server);
  return receiver.received
    .map((delivery) => new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: Record<string, any> })
    .filter((payload) => payload.data.id === jobId);
}

describe("plans to approve", () => {
  it("the first run reads and plans, pushes nothing and waits as active; approving runs the plan and opens the PR; a seed client sees active, then completed", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Explain retries", { planApproval: true });
    const outcome = await h.run(dispatched);
    expect(outcome.status).toBe("waiting");
    // The planning run could only read, plan and ask.
    expect(toolNames(h.model.requests.at(-1))).toEqual(expect.arrayContaining(["list_files", "read_file", "submit_plan", "ask_question"]));
    expect(toolNames(h.model.requests.at(-1))).not.toContain("write_file");
    const waiting = await h.job(dispatched.jobId);
    expect(waiting).toMatchObject({ status: "active", waitingFor: "approval", plan: PLAN, question: null, planApproval: true, prLink: null });
    expect(seedJob.parse(waiting).status).toBe("active");
    expect(branchPushed(h, dispatched.jobId)).toBe(false);
    expect(h.github.pulls.some((pr) => pr.head === `inkwell/${dispatched.jobId}`)).toBe(false);

    h.model.setScript(carryOut());
    const approved = await api("POST", `/job/${dispatched.jobId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "active", waitingFor: null, plan: PLAN });
    const second = await h.run({ jobId: dispatched.jobId, runAttempt: 2 });
    expect(second.status).toBe("completed");
    expect(lastUserText(h.model.requests.at(-3) as ChatRequest)).toContain(`The user approved this plan. Carry it out now:\n<plan>\n${PLAN}`);
    const done = await h.job(dispatched.jobId);
    expect(seedJob.parse(done)).toMatchObject({ status: "completed", prLink: expect.stringMatching(/\/pull\/\d+$/) });
    expect(done).toMatchObject({ waitingFor: null, plan: PLAN });
    expect(git(h.remote, "show", `inkwell/${dispatched.jobId}:guides/retries.mdx`)).toBe(PAGE.trim());
    expect((await h.events(dispatched.jobId)).map((event) => event.type)).toEqual(expect.arrayContaining(["waiting", "plan_approved", "run_succeeded"]));

    // Every step announced, each event once, signed: created, run 1 started, finished waiting, waiting; approval's run 2 started and finished, completed.
    const deliveries = await deliveriesOf(dispatched.jobId);
    expect(deliveries.map((d) => `${d.type}${d.data.run ? ` ${d.data.run.attempt}${d.data.run.outcome ? ` ${d.data.run.outcome}` : ""}` : ""}`)).toEqual([
      "job.created",
      "job.run_started 1",
      "job.run_finished 1 waiting",
      "job.waiting",
      "job.run_started 2",
      "job.run_finished 2 completed",
      "job.pull_request_opened",
      "job.completed",
    ]);
    expect(deliveries.find((d) => d.type === "job.waiting")?.data).toMatchObject({ waitingFor: "approval", plan: PLAN });
    expect(new Set(receiver.received.map((d) => d.headers["webhook-id"])).size).toBe(receiver.received.length);
  });

  it("a message revises the plan, which is shown again; approving a job that waits for no approval is a 409", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Explain retries, again", { planApproval: true });
    expect((await h.run(dispatched)).status).toBe("waiting");

    const revised = `${PLAN}\n- Move guides/webhooks.mdx to guides/events/webhooks.mdx.`;
    h.model.setScript(planning(revised));
    const next = await h.followUp(dispatched.jobId, "Also move the webhooks page under events/");
    expect(next.runAttempt).toBe(2);
    expect((await h.run(next)).status).toBe("waiting");
    const sent = lastUserText(h.model.requests.at(-2) as ChatRequest);
    expect(sent).toContain(`Your previous plan:\n<plan>\n${PLAN}`);
    expect(sent).toContain("Also move the webhooks page under events/");
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: "approval", plan: revised });
    expect(branchPushed(h, dispatched.jobId)).toBe(false);

    const plain = await h.createJob("No plan for this one");
    const refused = await api("POST", `/job/${plain.jobId}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/not waiting for a plan's approval \(it is active\)/);
  });

  it("the approved plan goes with every run until one carries it out: through a question the carrying run asks, and a failed run's retry; not after", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Explain retries, with a question on the way", { planApproval: true });
    expect((await h.run(dispatched)).status).toBe("waiting");
    expect((await api("POST", `/job/${dispatched.jobId}/approve`)).status).toBe(200);
    h.model.setScript(steps({ tools: [{ name: "ask_question", args: { question: "Which section first?" } }] }));
    expect((await h.run({ jobId: dispatched.jobId, runAttempt: 2 })).status).toBe("waiting");

    const runner = h.client();
    const answered = await h.followUp(dispatched.jobId, "The webhooks one.");
    const third = await runner.claim({ ...answered, workflowRunId: 9501 });
    expect(third.job).toMatchObject({ stage: "work", plan: PLAN });
    await runner.report({ ...answered, outcome: "failed", error: "the model's provider timed out" });

    const retried = await h.followUp(dispatched.jobId, "Try again");
    const fourth = await runner.claim({ ...retried, workflowRunId: 9502 });
    expect(fourth.job).toMatchObject({ stage: "work", plan: PLAN });
    await runner.report({ ...retried, outcome: "completed", pr: null });

    const later = await h.followUp(dispatched.jobId, "Now fix a typo");
    expect((await runner.claim({ ...later, workflowRunId: 9503 })).job).toMatchObject({ stage: "work", plan: null });
  });

  it("a run carrying the plan that the user stopped hands it on no further: the next message is the instruction", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Explain retries, then stop", { planApproval: true });
    expect((await h.run(dispatched)).status).toBe("waiting");
    expect((await api("POST", `/job/${dispatched.jobId}/approve`)).status).toBe(200);
    const runner = h.client();
    expect((await runner.claim({ jobId: dispatched.jobId, runAttempt: 2, workflowRunId: 9601 })).job).toMatchObject({ plan: PLAN });
    expect((await api("POST", `/job/${dispatched.jobId}/cancel`)).body.status).toBe("failed");
    const next = await h.followUp(dispatched.jobId, "Only fix the title of the webhooks page instead");
    expect((await runner.claim({ ...next, workflowRunId: 9602 })).job).toMatchObject({ stage: "work", plan: null });
  });

  it("the project's setting makes every job plan first; a job may say otherwise", async () => {
    const patched = await h.server.call("PATCH", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN, body: { jobs: { planApproval: true, waitLimitDays: 3 } } });
    expect(patched.body.jobs).toEqual({ planApproval: true, waitLimitDays: 3, checkRepairRounds: 0 });
    try {
      expect((await api("POST", "/job", { prompt: "Plan by default" })).body.planApproval).toBe(true);
      expect((await api("POST", "/job", { prompt: "Not this one", planApproval: false })).body.planApproval).toBe(false);
    } finally {
      await h.server.call("PATCH", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN, body: { jobs: { planApproval: false, waitLimitDays: 14 } } });
    }
  });
});

describe("questions to answer", () => {
  it("the agent asks instead of guessing; the job waits with the question; a message answers it and the next run has both", async () => {
    h.model.setScript(steps({ tools: [{ name: "ask_question", args: { question: "Should retries cover webhooks only, or the API too?" } }] }));
    const dispatched = await h.createJob("Document retries");
    expect((await h.run(dispatched)).status).toBe("waiting");
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: "answer", question: "Should retries cover webhooks only, or the API too?", plan: null });
    expect(branchPushed(h, dispatched.jobId)).toBe(false);

    h.model.setScript(carryOut());
    const next = await h.followUp(dispatched.jobId, "Webhooks only.");
    expect((await h.run(next)).status).toBe("completed");
    const sent = lastUserText(h.model.requests.at(-3) as ChatRequest);
    expect(sent).toMatch(/You asked the user:\n<question>\nShould retries cover webhooks only, or the API too\?\n<\/question>\nTheir answer:[\s\S]*Webhooks only\./);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "completed", waitingFor: null, question: null, prLink: expect.any(String) });
  });

  it("one question per run by default: a second is refused to the agent; maxQuestions 0 offers no tool", async () => {
    h.model.setScript(
      steps({
        tools: [
          { name: "ask_question", args: { question: "First?" } },
          { name: "ask_question", args: { question: "Second?" } },
        ],
      }),
    );
    const dispatched = await h.createJob("Two questions");
    expect((await h.run(dispatched)).status).toBe("waiting");
    expect((await h.job(dispatched.jobId)).question).toBe("First?");

    h.model.setScript(carryOut());
    const none = await h.createJob("No questions", { maxQuestions: 0 });
    expect((await h.run(none)).status).toBe("completed");
    expect(toolNames(h.model.requests.at(-1))).not.toContain("ask_question");
  });
});

describe("time limits and cancelling", () => {
  it("a job waiting past the project's limit is archived with the reason (clock injected); a message then gets 409", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Plan and forget", { planApproval: true });
    expect((await h.run(dispatched)).status).toBe("waiting");
    const day = 86_400_000;
    expect(await archiveExpiredWaits(h.server.store.db, new Date(Date.now() + 13 * day))).not.toContain(dispatched.jobId);
    expect((await h.job(dispatched.jobId)).status).toBe("active");
    expect(await archiveExpiredWaits(h.server.store.db, new Date(Date.now() + 15 * day))).toContain(dispatched.jobId);
    const archived = await h.job(dispatched.jobId);
    expect(archived).toMatchObject({ status: "archived", waitingFor: null, archivedAt: expect.any(String), error: expect.stringContaining("waited more than 14 day(s) for approval of its plan") });
    expect((await api("POST", `/job/${dispatched.jobId}/message`, { prompt: "Approve" })).status).toBe(409);
    expect((await deliveriesOf(dispatched.jobId)).at(-1)?.type).toBe("job.archived");
  });

  it("cancelling a waiting job fails it and it waits no more", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Plan and cancel", { planApproval: true });
    expect((await h.run(dispatched)).status).toBe("waiting");
    const cancelled = await api("POST", `/job/${dispatched.jobId}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "failed", waitingFor: null, error: expect.stringMatching(/^Cancelled by an API key/) });
    expect((await api("POST", `/job/${dispatched.jobId}/approve`)).status).toBe(409);
  });
});

describe("every run announced once", () => {
  it("a run lost to the watchdog, a run cancelled before its report and a run that reported each get exactly one job.run_finished; late reports add none", async () => {
    const db = h.server.store.db;
    const runner = h.client();
    const first = await h.createJob("Every run announced");
    await runner.claim({ ...first, workflowRunId: 9101 });
    await db.query(`UPDATE jobs SET last_activity_at = now() - interval '2 hours' WHERE id = $1`, [first.jobId]);
    expect(await failStalledJobs(db, 60)).toEqual([first.jobId]);
    await runner.report({ ...first, outcome: "completed", pr: null });

    const second = await h.followUp(first.jobId, "Try again");
    await runner.claim({ ...second, workflowRunId: 9102 });
    expect((await api("POST", `/job/${first.jobId}/cancel`)).body.status).toBe("failed");
    await runner.report({ ...second, outcome: "failed", error: "stopped" });

    h.model.setScript(steps({ text: "Nothing to change\n\nThe docs already say this." }));
    const third = await h.followUp(first.jobId, "Once more");
    expect((await h.run(third)).status).toBe("completed");
    await runner.report({ ...third, outcome: "completed", pr: null });

    const finished = (await deliveriesOf(first.jobId)).filter((d) => d.type === "job.run_finished").map((d) => d.data.run);
    expect(finished).toEqual([
      { attempt: 1, outcome: "failed", reported: false },
      { attempt: 2, outcome: "cancelled", reported: false },
      { attempt: 3, outcome: "completed", reported: true },
    ]);
  });
});

describe("on GitHub: the plan or question posted where the job's people talk, and replies there", () => {
  const permission = (login: string, level: string) =>
    nock(GITHUB_API).get(`/repos/${h.repository}/collaborators/${login}/permission`).reply(200, { permission: level, role_name: level, user: { login } });
  const jobOfIssue = async (issue: number) =>
    ((await api("GET", "/jobs?limit=50")).body.jobs as Array<Record<string, any>>).find((job) => job.trigger.url === `https://github.com/${h.repository}/issues/${issue}`);

  it("a plan for an issue's job is posted on the issue; /inkwell approve from a non-member or a bot is ignored, from a writer it approves", async () => {
    expect((await h.server.call("POST", `/admin/projects/${h.projectId}/automations`, { token: ADMIN_TOKEN, body: { kind: "issues", label: "inkwell" } })).status).toBe(201);
    await h.server.call("PATCH", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN, body: { jobs: { planApproval: true } } });
    try {
      permission("writer", "write");
      await deliver(h.server.url, "issue_comment", issueCommentOnIssue(h.repository, h.installationId, 31, { id: 3101, body: "@inkwell-docs explain retries", login: "writer" }));
      await drainTasks(h.server);
      const job = (await jobOfIssue(31)) as Record<string, any>;
      expect(job.planApproval).toBe(true);
      h.model.setScript(planning());
      expect((await h.run({ jobId: job.id, runAttempt: 1 })).status).toBe("waiting");
      await drainTasks(h.server);
      const posted = h.issueComments.filter((comment) => comment.path === `/repos/${h.repository}/issues/31/comments`).at(-1);
      expect(posted?.body).toContain(`Inkwell job \`${job.id}\` has a plan and waits for its approval`);
      expect(posted?.body).toContain("> - Add guides/retries.mdx");
      expect(posted?.body).toContain("Reply `/inkwell approve` to carry it out");

      // A reader (no write access) and a bot: nothing moves.
      permission("reader", "read");
      await deliver(h.server.url, "issue_comment", issueCommentOnIssue(h.repository, h.installationId, 31, { id: 3102, body: "/inkwell approve", login: "reader" }));
      const bot = issueCommentOnIssue(h.repository, h.installationId, 31, { id: 3103, body: "/inkwell approve", login: "helper[bot]" });
      await deliver(h.server.url, "issue_comment", { ...bot, comment: { ...bot.comment, user: { ...bot.comment.user, type: "Bot" } }, sender: { ...bot.sender, type: "Bot" } });
      await drainTasks(h.server);
      expect(await h.job(job.id)).toMatchObject({ status: "active", waitingFor: "approval" });

      permission("writer", "write");
      await deliver(h.server.url, "issue_comment", issueCommentOnIssue(h.repository, h.installationId, 31, { id: 3104, body: "/inkwell approve", login: "writer" }));
      await drainTasks(h.server);
      expect(await h.job(job.id)).toMatchObject({ status: "active", waitingFor: null, plan: PLAN });
      expect((await h.events(job.id)).find((event) => event.type === "plan_approved")).toMatchObject({ cause: "comment", detail: "by @writer" });
      h.model.setScript(carryOut());
      expect((await h.run({ jobId: job.id, runAttempt: 2 })).status).toBe("completed");
      expect((await h.job(job.id)).prLink).toMatch(/\/pull\/\d+$/);
    } finally {
      await h.server.call("PATCH", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN, body: { jobs: { planApproval: false } } });
    }
  });

  it("a job with a PR revised by a comment there posts its revised plan on the PR; /inkwell approve on the PR from a non-member or a bot is ignored, from a writer it approves", async () => {
    h.model.setScript(planning());
    const dispatched = await h.createJob("Explain retries, with a PR", { planApproval: true });
    expect((await h.run(dispatched)).status).toBe("waiting");
    // Someone opened a PR from the job's branch while it waited: the job has a PR before its plan is approved.
    const prNumber = 3300;
    const opened = pullRequest("opened", h.repository, prNumber, `inkwell/${dispatched.jobId}`);
    await deliver(h.server.url, "pull_request", { ...opened, installation: { ...opened.installation, id: h.installationId } });
    await drainTasks(h.server);
    expect((await h.job(dispatched.jobId)).prLink).toMatch(new RegExp(`/pull/${prNumber}$`));

    const revised = `${PLAN}\n- Move guides/webhooks.mdx to guides/events/webhooks.mdx.`;
    permission("writer", "write");
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3301, body: "/inkwell Also move the webhooks page.", login: "writer" }, h.installationId));
    await drainTasks(h.server);
    h.model.setScript(planning(revised));
    expect((await h.run({ jobId: dispatched.jobId, runAttempt: 2 })).status).toBe("waiting");
    await drainTasks(h.server);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: "approval", plan: revised });
    const posted = h.issueComments.filter((comment) => comment.path === `/repos/${h.repository}/issues/${prNumber}/comments`).at(-1);
    expect(posted?.body).toContain("> - Move guides/webhooks.mdx to guides/events/webhooks.mdx.");

    // An approve written before the revised plan was shown (delivered late, or again) approves nothing.
    permission("writer", "write");
    const beforeRevision = gitHubTime(new Date(Date.now() - 3_600_000));
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3300, body: "/inkwell approve", login: "writer", writtenAt: beforeRevision }, h.installationId));
    await drainTasks(h.server);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: "approval", plan: revised });

    permission("reader", "read");
    // GitHub answers 404 for someone who is no collaborator at all.
    const noCollaborator = nock(GITHUB_API).get(`/repos/${h.repository}/collaborators/passer-by/permission`).reply(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user", status: "404" });
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3302, body: "/inkwell approve", login: "reader" }, h.installationId));
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3303, body: "/inkwell approve", login: "helper[bot]", type: "Bot" }, h.installationId));
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3305, body: "/inkwell approve", login: "passer-by" }, h.installationId));
    await drainTasks(h.server);
    expect(noCollaborator.isDone()).toBe(true);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: "approval" });

    permission("writer", "write");
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3304, body: "/inkwell approve", login: "writer" }, h.installationId));
    await drainTasks(h.server);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: null, plan: revised });
    expect((await h.events(dispatched.jobId)).filter((event) => event.type === "plan_approved")).toEqual([expect.objectContaining({ cause: "comment", detail: "by @writer" })]);
    // The run approving started carries the revised plan (the claim's context says so).
    const claimed = await h.client().claim({ jobId: dispatched.jobId, runAttempt: 3, workflowRunId: 9301 });
    expect(claimed.job).toMatchObject({ stage: "work", plan: revised, prNumber });
  });

  it("a question on a job with a PR is posted on the PR, and a writer's reply there answers it", async () => {
    h.model.setScript(carryOut());
    const dispatched = await h.createJob("Explain retries on the PR");
    expect((await h.run(dispatched)).status).toBe("completed");
    const prNumber = Number((await h.job(dispatched.jobId)).prLink.split("/").at(-1));
    h.model.setScript(steps({ tools: [{ name: "ask_question", args: { question: "Keep the old anchor #retries?" } }] }));
    expect((await h.run(await h.followUp(dispatched.jobId, "Rename the retries section"))).status).toBe("waiting");
    await drainTasks(h.server);
    expect(h.issueComments.filter((comment) => comment.path === `/repos/${h.repository}/issues/${prNumber}/comments`).at(-1)?.body).toContain("> Keep the old anchor #retries?");

    permission("writer", "write");
    await deliver(h.server.url, "issue_comment", issueComment(h.repository, prNumber, { id: 3201, body: "/inkwell Yes, keep it.", login: "writer" }, h.installationId));
    await drainTasks(h.server);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "active", waitingFor: null });
    h.model.setScript(steps({ text: "Rename the retries section\n\nKept the anchor." }));
    expect((await h.run({ jobId: dispatched.jobId, runAttempt: 3 })).status).toBe("completed");
    expect(lastUserText(h.model.requests.at(-1) as ChatRequest)).toMatch(/Keep the old anchor #retries\?[\s\S]*Their answer:[\s\S]*Yes, keep it\./);
  });
});

describe("the CLI", () => {
  it("jobs create --plan-approval, jobs get and jobs watch show the plan the job waits with, jobs approve carries it out", async () => {
    const cli = cliFor(h.server);
    const env = { INKWELL_API_KEY: h.apiKey, INKWELL_PROJECT: h.projectId };
    const created = await cli(["jobs", "create", "--plan-approval", "--json", "Explain retries from the CLI"], env);
    expect(created.code).toBe(0);
    const jobId = JSON.parse(created.stdout).id as string;
    await drainTasks(h.server);
    h.model.setScript(planning());
    expect((await h.run({ jobId, runAttempt: 1 })).status).toBe("waiting");

    const shown = await cli(["jobs", "get", jobId], env);
    expect(shown.stdout).toMatch(new RegExp(`waiting for:\\s+approval of its plan \\(inkwell jobs approve ${jobId}`));
    expect(shown.stdout).toContain("- Add guides/retries.mdx");

    const watching = cli(["jobs", "watch", jobId, "--interval", "1"], env);
    const approved = await cli(["jobs", "approve", jobId], env);
    expect(approved.stdout).toContain(`Approved the plan; job ${jobId} carries it out now`);
    h.model.setScript(carryOut());
    expect((await h.run({ jobId, runAttempt: 2 })).status).toBe("completed");
    const watched = await watching;
    expect(watched.code).toBe(0);
    expect(watched.stdout).toMatch(/active {2}waiting for approval of its plan[\s\S]* {4}- Add guides\/retries\.mdx[\s\S]*completed {2}https:/);
    expect((await cli(["jobs", "approve", jobId], env)).code).not.toBe(0);
  });
});

describe("the CLI's settings", () => {
  it("jobs create --max-questions sets the job's question budget; projects update --plan-approval, --no-plan-approval, --wait-limit-days and --check-repair-rounds set the project's", async () => {
    const cli = cliFor(h.server);
    const env = { INKWELL_API_KEY: h.apiKey, INKWELL_PROJECT: h.projectId };
    const created = await cli(["jobs", "create", "--max-questions", "0", "--json", "Explain retries, no questions"], env);
    expect(created.code).toBe(0);
    const jobId = JSON.parse(created.stdout).id as string;
    await drainTasks(h.server);
    expect((await h.client().claim({ jobId, runAttempt: 1, workflowRunId: 9401 })).job).toMatchObject({ maxQuestions: 0, stage: "work" });
    expect((await cli(["jobs", "create", "--max-questions", "many", "Explain"], env)).code).toBe(2);

    const admin = { INKWELL_ADMIN_TOKEN: ADMIN_TOKEN };
    try {
      const updated = await cli(["projects", "update", h.projectId, "--plan-approval", "--wait-limit-days", "3"], admin);
      expect(updated.code).toBe(0);
      expect(updated.stdout).toMatch(/jobs:?\s+plan first and wait for approval; waiting archived after 3 day\(s\)/);
      expect((await h.server.call("GET", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN })).body.jobs).toEqual({ planApproval: true, waitLimitDays: 3, checkRepairRounds: 0 });
      const off = await cli(["projects", "update", h.projectId, "--no-plan-approval", "--json"], admin);
      expect(JSON.parse(off.stdout).jobs).toEqual({ planApproval: false, waitLimitDays: 3, checkRepairRounds: 0 });
      expect((await cli(["projects", "update", h.projectId, "--plan-approval", "--no-plan-approval"], admin)).code).toBe(2);
      expect((await cli(["projects", "update", h.projectId, "--wait-limit-days", "0"], admin)).code).not.toBe(0);
      // The repository's own checks: repair rounds for failing ones (0..10; 0 does not watch them).
      const checks = await cli(["projects", "update", h.projectId, "--check-repair-rounds", "3"], admin);
      expect(checks.stdout).toMatch(/drafts until the repository's checks pass, 3 repair round\(s\) for failing ones/);
      expect((await cli(["projects", "update", h.projectId, "--check-repair-rounds", "11"], admin)).code).not.toBe(0);
      const unwatched = await cli(["projects", "update", h.projectId, "--check-repair-rounds", "0", "--json"], admin);
      expect(JSON.parse(unwatched.stdout).jobs).toEqual({ planApproval: false, waitLimitDays: 3, checkRepairRounds: 0 });
    } finally {
      await h.server.call("PATCH", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN, body: { jobs: { planApproval: false, waitLimitDays: 14, checkRepairRounds: 0 } } });
    }
  });
});

describe("MCP", () => {
  it("get_job says what the job waits for; approve_plan carries the plan out; send_message answers a question", async () => {
    const client = await connectMcp(h.server.url, h.apiKey);
    try {
      h.model.setScript(planning());
      const dispatched = await h.createJob("Explain retries through MCP", { planApproval: true });
      expect((await h.run(dispatched)).status).toBe("waiting");
      const polled = await callTool(client, "get_job", { id: dispatched.jobId });
      expect(polled.structuredContent).toMatchObject({ status: "active", waitingFor: "approval", plan: PLAN });
      expect(firstText(polled)).toContain("It waits for approval of its plan (approve_plan carries it out; send_message revises it):\n- Add guides/retries.mdx");
      const approved = await callTool(client, "approve_plan", { id: dispatched.jobId });
      expect(approved.structuredContent).toMatchObject({ status: "active", waitingFor: null });
      expect(firstText(approved)).toMatch(/^Approved; the run that carries out the plan starts\./);
      const again = await callTool(client, "approve_plan", { id: dispatched.jobId });
      expect(again.isError).toBe(true);
      expect(firstText(again)).toMatch(/not waiting for a plan's approval/);

      h.model.setScript(steps({ tools: [{ name: "ask_question", args: { question: "Which page?" } }] }));
      const asking = await h.createJob("Fix the page");
      expect((await h.run(asking)).status).toBe("waiting");
      expect(firstText(await callTool(client, "get_job", { id: asking.jobId }))).toContain("It waits for an answer to its question (send_message answers it):\nWhich page?");
      const answered = await callTool(client, "send_message", { id: asking.jobId, prompt: "The quickstart." });
      expect(answered.structuredContent).toMatchObject({ status: "active", waitingFor: null });
      expect(firstText(answered)).toMatch(/^Sent; a new run starts\./);
    } finally {
      await client.close();
    }
  });
});

describe("the dashboard's job page", () => {
  it("shows the plan with Approve, which carries it out; shows a question with a box whose answer starts the next run", async () => {
    const browser = new Visitor(h.server.url);
    await browser.signInAsOperator();
    h.model.setScript(planning());
    const planned = await h.createJob("Explain retries on the dashboard", { planApproval: true });
    const pagePath = `/dashboard/projects/${h.projectId}/jobs/${planned.jobId}`;
    // A page open before the job waits: its live fragment (polled, swapped in place) then says so, with the plan and a link to the forms, and holds no form a poll could wipe.
    expect((await browser.get(`${pagePath}/live`)).text).not.toContain("job-waiting-notice");
    expect((await h.run(planned)).status).toBe("waiting");
    const live = (await browser.get(`${pagePath}/live`)).text;
    expect(live).toContain('id="job-waiting-notice" data-waiting-for="approval"');
    expect(live).toContain("- Add guides/retries.mdx: a page on retries");
    expect(live).toContain(`href="${pagePath}?waiting=approval#job-waiting"`);
    expect(live).not.toMatch(/<form|<textarea/);
    expect((await browser.get(`${pagePath}?waiting=approval`)).text).toContain('id="job-waiting" data-waiting-for="approval"');
    const page = await browser.get(pagePath);
    expect(page.text).toContain('id="job-waiting" data-waiting-for="approval"');
    expect(page.text).toContain("- Add guides/retries.mdx: a page on retries");
    expect(page.text).toContain(`action="${pagePath}/approve"`);
    const approved = await browser.post(`${pagePath}/approve`, { csrf: await browser.csrf(pagePath) });
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toBe(`${pagePath}?notice=plan-approved`);
    expect(await h.job(planned.jobId)).toMatchObject({ status: "active", waitingFor: null });
    expect((await h.events(planned.jobId)).find((event) => event.type === "plan_approved")).toMatchObject({ cause: "dashboard" });
    expect((await browser.get(pagePath)).text).not.toContain('id="job-waiting"');

    h.model.setScript(steps({ tools: [{ name: "ask_question", args: { question: "Which <b>version</b>?" } }] }));
    const asking = await h.createJob("Fix the versions page");
    expect((await h.run(asking)).status).toBe("waiting");
    const askingPath = `/dashboard/projects/${h.projectId}/jobs/${asking.jobId}`;
    const question = await browser.get(askingPath);
    expect(question.text).toContain("Which &lt;b&gt;version&lt;/b&gt;?");
    expect((await browser.get(`${askingPath}/live`)).text).toMatch(/data-waiting-for="answer">[\s\S]*Answer it<\/a>[\s\S]*Which &lt;b&gt;version&lt;\/b&gt;\?/);
    expect(question.text).toContain('<label for="answer">Your answer</label>');
    const answered = await browser.post(`${askingPath}/messages`, { csrf: await browser.csrf(askingPath), prompt: "2.x" });
    expect(answered.status).toBe(303);
    expect(await h.job(asking.jobId)).toMatchObject({ status: "active", waitingFor: null });
  });
});
