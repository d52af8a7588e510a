import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueCommentOnIssue, issueLabeled, mergedPullRequest, pullRequest } from "../../fixtures/webhooks.js";
import { checkout, INSTALLATION_TOKEN, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { drainTasks } from "../../helpers/drain.js";
import { steps, toolResults } from "../../helpers/fake-model.js";
import { sourceRepository, sourceRoutes } from "../../helpers/fake-source-repo.js";
import { deliver, GITHUB_API, nockAppAuth } from "../../helpers/github.js";
import { ADMIN_TOKEN } from "../../helpers/server.js";

const BUNDLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../dist/index.js");
const SOURCE_INSTALLATION = 9_901;

function runBundle(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUNDLE], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

/** A run of the committed bundle for this dispatch, as GitHub's runner starts it. */
async function runCommitted(dispatched: { jobId: string; runAttempt: number }) {
  const { env } = h.bundleEnv(dispatched, checkout(h.remote));
  const { code, stdout } = await runBundle(env);
  expect(code, stdout).toBe(0);
  return stdout;
}

let h: ActionHarness;
let source: ReturnType<typeof sourceRepository>;
let routes: ReturnType<typeof sourceRoutes>;
let sourceTokenRequests: Record<string, unknown>[];
let sourceRepo = "";
let mergedJobId = "";

const admin = (method: string, p: string, body?: unknown) => h.server.call(method, `/admin/projects/${h.projectId}${p}`, { token: ADMIN_TOKEN, ...(body === undefined ? {} : { body }) });
const jobs = async (trigger: string) => (await h.server.call("GET", `/v2/agent/${h.projectId}/jobs?trigger=${trigger}`, { token: h.apiKey })).body.jobs as Array<Record<string, any>>;
const messages = async (jobId: string) => (await h.server.store.db.query<{ seq: number; prompt: string; source: string }>(`SELECT seq, prompt, source FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId])).map((m) => m);

/** Commits the merge to the source repository, answers GitHub's files list for its PR, and delivers the `closed` webhook. */
async function merge(number: number, files: Record<string, string>, options: { labels?: string[]; title?: string; body?: string } = {}) {
  const title = options.title ?? `Change ${number}`;
  const { sha, pullFiles } = source.commit(files, title);
  nock(GITHUB_API).get(`/repos/${sourceRepo}/pulls/${number}/files`).query(true).reply(200, pullFiles);
  await deliver(h.server.url, "pull_request", mergedPullRequest(sourceRepo, SOURCE_INSTALLATION, { number, title, body: options.body ?? null, mergeSha: sha, labels: options.labels ?? ["docs"] }));
  await drainTasks(h.server);
  return sha;
}

beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
  sourceRepo = `acme/api-${h.projectId.slice(0, 6)}`;
  source = sourceRepository();
  source.commit({ "src/cli.ts": "export const flags = ['--verbose'];\n", "README.md": "# API\n" }, "Initial code");
  routes = sourceRoutes(sourceRepo, source.dir, INSTALLATION_TOKEN(SOURCE_INSTALLATION));
  h.github.options.routes = [routes.handle];
  sourceTokenRequests = nockAppAuth(SOURCE_INSTALLATION);
  nock(GITHUB_API).persist().get(/\/repos\/.+\/collaborators\/writer\/permission/).reply(200, { permission: "write", role_name: "write", user: { login: "writer" } });
  nock(GITHUB_API).persist().get(/\/repos\/.+\/collaborators\/reader\/permission/).reply(200, { permission: "read", role_name: "read", user: { login: "reader" } });
  nock(GITHUB_API).get("/repos/acme/not-installed/installation").reply(404, { message: "Not Found" });
  const refused = await admin("POST", "/automations", { kind: "source", repository: "acme/not-installed" });
  expect(refused).toMatchObject({ status: 409, body: { error: expect.stringMatching(/^The Inkwell App is not installed on acme\/not-installed.*\/apps\/inkwell-docs\/installations\/new/) } });
  nock(GITHUB_API).get(`/repos/${sourceRepo}/installation`).reply(200, { id: SOURCE_INSTALLATION, app_id: 123, account: { login: "acme" } });
  expect((await admin("POST", "/automations", { kind: "source", repository: sourceRepo, label: "docs", instruction: "CLI flags are documented in quickstart.mdx." })).status).toBe(201);
  expect((await admin("POST", "/automations", { kind: "issues", label: "inkwell" })).status).toBe(201);
});
afterAll(() => h.close());

describe("automations, end to end with the committed bundle", () => {
  it("a merged source PR starts a job whose agent reads the source at the merge commit, cannot write there, and opens a docs PR linking it", async () => {
    await merge(12, { "src/flags.ts": "export const DRY_RUN = '--dry-run'; // prints what would be sent\n" }, { title: "Add --dry-run", body: "Adds a dry-run flag." });
    const [job] = await jobs("source-merge");
    expect(job).toMatchObject({ status: "active", trigger: { type: "source-merge", url: `https://github.com/${sourceRepo}/pull/12`, automationId: expect.any(String) } });
    mergedJobId = job?.id;
    const [first] = await messages(mergedJobId);
    expect(first).toMatchObject({ source: "automation", prompt: expect.stringContaining(`#12 "Add --dry-run"`) });
    expect(first?.prompt).toContain("+export const DRY_RUN = '--dry-run'");
    expect(first?.prompt).toContain("CLI flags are documented in quickstart.mdx.");

    h.model.setScript(
      steps(
        {
          tools: [
            { name: "read_source_file", args: { path: "src/flags.ts" } },
            { name: "write_source_file", args: { path: "src/flags.ts", content: "hacked" } },
            { name: "write_file", args: { path: `../${sourceRepo.split("/")[1]}/src/flags.ts`, content: "hacked", reason: "Try to reach the code." } },
            { name: "edit_file", args: { path: "../../src/flags.ts", find: "DRY_RUN", replace: "X", reason: "Try again." } },
          ],
        },
        { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Run `npm install -g acme`.", replace: "Run `npm install -g acme`. Add `--dry-run` to print what would be sent.", reason: "Documents --dry-run." } }] },
        { text: "Document the --dry-run flag\nThe quickstart now mentions --dry-run." },
      ),
    );
    await runCommitted({ jobId: mergedJobId, runAttempt: 1 });

    const [read, unknownTool, escaped, escapedEdit] = toolResults(h.model.requests[1] as never);
    expect(read).toContain("export const DRY_RUN = '--dry-run'");
    expect(unknownTool).toMatch(/^Error: there is no tool named write_source_file/);
    expect(escaped).toMatch(/^Error: .*outside the repository/);
    expect(escapedEdit).toMatch(/^Error: .*outside the repository/);
    expect(routes.writes).toEqual([]);
    expect(routes.reads.some((p) => p.includes("/git/trees/"))).toBe(true);
    // The runner's source token can only read, and only that repository.
    const runnerTokens = sourceTokenRequests.filter((body) => typeof body === "object" && body !== null && "repositories" in body);
    expect(runnerTokens).toEqual([{ repositories: [sourceRepo.split("/")[1]], permissions: { contents: "read" } }]);

    const done = await h.job(mergedJobId);
    expect(done).toMatchObject({ status: "completed", prLink: expect.stringMatching(/\/pull\/\d+$/) });
    const pr = h.github.pulls.find((p) => p.html_url === done.prLink);
    expect(pr?.body).toContain(`Started by [a merged pull request](https://github.com/${sourceRepo}/pull/12).`);
  });

  it("two more merges follow up on that open PR; the next run reads the source at the latest merge", async () => {
    await merge(13, { "src/cli.ts": "export const flags = ['--verbose', '--quiet'];\n" }, { title: "Add --quiet" });
    await merge(14, { "src/limits.ts": "export const MAX_BATCH = 500;\n" }, { title: "Cap batches at 500" });
    expect((await jobs("source-merge")).map((j) => j.id)).toEqual([mergedJobId]);
    expect((await messages(mergedJobId)).map((m) => m.prompt.match(/#\d+ "[^"]+"/)?.[0])).toEqual(['#12 "Add --dry-run"', '#13 "Add --quiet"', '#14 "Cap batches at 500"']);
    expect((await h.job(mergedJobId)).status).toBe("active");
    // A delivery GitHub repeats is taken once.
    await deliver(h.server.url, "pull_request", mergedPullRequest(sourceRepo, SOURCE_INSTALLATION, { number: 14, title: "Cap batches at 500", body: null, mergeSha: "f".repeat(40), labels: ["docs"] }));
    nock(GITHUB_API).get(`/repos/${sourceRepo}/pulls/14/files`).query(true).reply(200, []);
    await drainTasks(h.server);
    expect(await messages(mergedJobId)).toHaveLength(3);

    h.model.setScript(steps({ tools: [{ name: "read_source_file", args: { path: "src/limits.ts" } }] }, { text: "Nothing more to change\nThe limits are internal." }));
    await runCommitted({ jobId: mergedJobId, runAttempt: 2 });
    expect((await h.job(mergedJobId)).status).toBe("completed");
    expect(toolResults(h.model.requests[1] as never)[0]).toContain("MAX_BATCH = 500");
    expect(h.github.pulls.filter((p) => p.head === `inkwell/${mergedJobId}`)).toHaveLength(1);
  });

  it("a merge with nothing to document ends with no PR and a summary saying why; an unlabelled merge is ignored", async () => {
    const prNumber = Number((await h.job(mergedJobId)).prLink.split("/").at(-1));
    await deliver(h.server.url, "pull_request", pullRequest("closed", h.repository, prNumber, `inkwell/${mergedJobId}`, { merged: true }));
    await drainTasks(h.server);
    expect((await h.job(mergedJobId)).status).toBe("archived");

    await merge(15, { "src/internal/helpers.ts": "export const renamed = 1;\n" }, { title: "Rename an internal helper" });
    const newest = (await jobs("source-merge"))[0] as Record<string, any>;
    expect(newest.id).not.toBe(mergedJobId);
    h.model.setScript(steps({ text: "Nothing to document\nThis merge renames an internal helper; nothing readers use or see changed." }));
    await runCommitted({ jobId: newest.id, runAttempt: 1 });
    expect(await h.job(newest.id)).toMatchObject({ status: "completed", prLink: null, summary: expect.stringContaining("nothing readers use or see changed") });

    await merge(16, { "src/cli.ts": "export const flags = [];\n" }, { labels: [] });
    expect(await jobs("source-merge")).toHaveLength(2);
  });

  it("an issue labelled by a writer and an App mention by a writer each start one job, answered on the issue; a reader's mention starts none", async () => {
    const docs = h.repository;
    const reactions: string[] = [];
    nock(GITHUB_API)
      .persist()
      .post(/\/repos\/.+\/issues\/comments\/\d+\/reactions/)
      .reply(201, (uri) => (reactions.push(uri), { id: 1, content: "eyes" }));
    await deliver(h.server.url, "issues", issueLabeled(docs, h.installationId, 5, "inkwell", "writer"));
    await deliver(h.server.url, "issues", issueLabeled(docs, h.installationId, 5, "inkwell", "writer"));
    await deliver(h.server.url, "issues", issueLabeled(docs, h.installationId, 8, "question", "writer"));
    await deliver(h.server.url, "issue_comment", issueCommentOnIssue(docs, h.installationId, 6, { id: 801, body: "@inkwell-docs please document webhook retries", login: "writer" }));
    await deliver(h.server.url, "issue_comment", issueCommentOnIssue(docs, h.installationId, 6, { id: 801, body: "@inkwell-docs please document webhook retries", login: "writer" }));
    await deliver(h.server.url, "issue_comment", issueCommentOnIssue(docs, h.installationId, 7, { id: 802, body: "@inkwell-docs rewrite everything", login: "reader" }));
    await drainTasks(h.server);

    const issueJobs = await jobs("issue");
    expect(issueJobs.map((j) => j.trigger.url).sort()).toEqual([`https://github.com/${docs}/issues/5`, `https://github.com/${docs}/issues/6`]);
    const mentioned = issueJobs.find((j) => j.trigger.url.endsWith("/issues/6")) as Record<string, any>;
    expect((await messages(mentioned.id))[0]?.prompt).toMatch(/Resolve issue #6 [\s\S]*Asked in a comment:\nplease document webhook retries/);
    const replies = await h.server.store.db.query<{ payload: string; state: string }>(`SELECT payload, state FROM tasks WHERE kind = 'issue_reply' ORDER BY id`);
    expect(replies.map((r) => [JSON.parse(r.payload).issueNumber, r.state])).toEqual([
      [5, "done"],
      [6, "done"],
    ]);
    expect(JSON.parse(replies[0]?.payload as string).body).toContain("/jobs/");
    expect(reactions).toEqual([`/repos/${docs}/issues/comments/801/reactions`]);

    const labelled = issueJobs.find((j) => j.trigger.url.endsWith("/issues/5")) as Record<string, any>;
    h.model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Use `acme send`.", replace: "Use `acme send` (at most 100 requests a minute).", reason: "States the rate limit." } }] },
        { text: "Explain the rate limit\nStated in the quickstart." },
      ),
    );
    await runCommitted({ jobId: labelled.id, runAttempt: 1 });
    const pr = h.github.pulls.find((p) => p.head === `inkwell/${labelled.id}`);
    expect(pr?.body).toContain("Fixes #5");
  });
});
