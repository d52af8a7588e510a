import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { GITLAB_BOT, type FakeGitLab, type FakeGitLabUser } from "../helpers/fake-gitlab.js";
import { lastUserText, steps, type startFakeModel } from "../helpers/fake-model.js";
import { JOB_TOKEN, runGitLabPipeline, startGitLabInkwell } from "../helpers/gitlab-inkwell.js";
import type { TestServer } from "../helpers/server.js";

/**
 * A GitLab docs project end to end, on each store: the real runner (`node dist/index.js gitlab`'s
 * code, in-process) in the pipelines Inkwell starts on a fake GitLab, with a scripted model. A job is
 * created → its pipeline starts → the runner claims with the job's ID token, edits, validates and
 * pushes with its CI_JOB_TOKEN → Inkwell opens the merge request (prLink) → a developer's note → the
 * same merge request updated by the next pipeline → merged → archived. And what is refused on the way.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "docs-repos", "mintlify");

let t: TestServer;
let gitlab: FakeGitLab;
let model: Awaited<ReturnType<typeof startFakeModel>>;
let publicUrl: string;
let projectId: string;
let key: string;
let developer: FakeGitLabUser;
let guest: FakeGitLabUser;
let renovate: FakeGitLabUser;

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

let setup: Awaited<ReturnType<typeof startGitLabInkwell>>;

beforeAll(async () => {
  setup = await startGitLabInkwell(FIXTURE, "gitlab-loop");
  ({ gitlab, model, t, publicUrl, projectId, key } = setup);
  developer = gitlab.addUser({ username: "dana", name: "Dana Dev", bot: false, accessLevel: 30 });
  guest = gitlab.addUser({ username: "gus", name: "Gus Guest", bot: false, accessLevel: 10 });
  renovate = gitlab.addUser({ username: "group_7_bot_renovate", name: "Renovate", bot: true, accessLevel: 40 });
});
afterAll(() => setup?.close());

const job = async (id: string) => (await t.call("GET", `/v2/agent/${projectId}/job/${id}`, { token: key })).body;
const pipelineOf = (jobId: string, attempt: number) =>
  eventually(`the pipeline of ${jobId} run ${attempt}`, () => gitlab.pipelines.find((p) => p.variables.INKWELL_JOB_ID === jobId && p.variables.INKWELL_RUN_ATTEMPT === String(attempt)));
const deliver = (event: Parameters<FakeGitLab["deliver"]>[0], payload: unknown, tamper: Parameters<FakeGitLab["deliver"]>[2] = {}) => gitlab.deliver(event, payload, tamper);

const runPipeline = (pipeline: FakeGitLab["pipelines"][number], overrides: Record<string, string> = {}) => runGitLabPipeline(setup, pipeline, overrides);

const PAGE = "---\ntitle: Export\n---\n\nRun `acme export` to write your data as CSV.\n";

describe("a docs project on GitLab, from the job to the merge", () => {
  let jobId: string;

  it("a job starts a pipeline; its runner claims with the ID token, pushes with the job token, and Inkwell opens the merge request", async () => {
    model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "guides/export.mdx", content: PAGE, reason: "The page asked for." } }] },
        { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/export"]', reason: "Lists the new page." } }] },
        { text: "Document the export command\n\nA guide to `acme export`." },
      ),
    );
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Document the export command", labels: ["docs"], reviewers: ["dana"] } });
    expect(created.status).toBe(201);
    jobId = created.body.id;
    const pipeline = await pipelineOf(jobId, 1);
    expect(pipeline).toMatchObject({ ref: "main", source: "api", variables: { INKWELL_JOB_ID: jobId, INKWELL_RUN_ATTEMPT: "1", INKWELL_URL: publicUrl } });

    const run = await runPipeline(pipeline);
    expect(run.code, run.logs).toBe(0);
    const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`);
    expect(mr).toMatchObject({ iid: expect.any(Number), target_branch: "main", title: "Document the export command", draft: false, labels: ["docs"], reviewer_ids: [developer.id], state: "opened" });
    expect(mr?.description).toContain("- `guides/export.mdx` (added): The page asked for.");
    expect(mr?.description).toContain(`[pipeline](${gitlab.url}/${gitlab.projectPath}/-/pipelines/${pipeline.id})`);
    expect(mr?.description).toContain("Comment on this merge request to ask for changes.");
    expect(await job(jobId)).toMatchObject({ status: "completed", prLink: mr?.web_url, summary: "A guide to `acme export`.", files: expect.arrayContaining([expect.objectContaining({ path: "guides/export.mdx", change: "added" })]) });

    // The branch on the project's remote, committed by the pipeline's user (Inkwell's token's bot).
    expect(git(gitlab.remote, "show", `inkwell/${jobId}:guides/export.mdx`)).toBe(PAGE.trim());
    expect(git(gitlab.remote, "log", "-1", "--format=%an <%ae>", `inkwell/${jobId}`)).toBe(`${GITLAB_BOT.name} <${GITLAB_BOT.username}@noreply.gitlab.test>`);
    // The job token never reached the log, the git config or the job record; the outcome is the dotenv report.
    expect(run.logs).not.toContain(JOB_TOKEN);
    expect(run.logs).toContain(`Merge request: ${mr?.web_url}`);
    expect(readFileSync(path.join(run.workspace, ".git", "config"), "utf8")).not.toContain(JOB_TOKEN);
    expect(readFileSync(path.join(run.workspace, "inkwell.env"), "utf8")).toBe(`INKWELL_JOB_ID=${jobId}\nINKWELL_STATUS=completed\nINKWELL_MR_URL=${mr?.web_url}\n`);
    const runs = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/runs`, { token: key })).body.runs;
    expect(runs).toEqual([expect.objectContaining({ attempt: 1, outcome: "completed", hasTranscript: true })]);
  });

  it("a guest's note, a bot's note and a delivery with a wrong token start nothing; a developer's note does", async () => {
    const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`)!;
    const mention = `@${GITLAB_BOT.username}`;
    const pipelinesBefore = gitlab.pipelines.length;
    expect((await deliver("Note Hook", gitlab.payloads.note(mr, developer, `${mention} forged`), { token: "wrong" })).status).toBe(401);
    expect((await deliver("Note Hook", gitlab.payloads.note(mr, guest, `${mention} rewrite everything`))).status).toBe(202);
    expect((await deliver("Note Hook", gitlab.payloads.note(mr, renovate, `${mention} bump versions`))).status).toBe(202);
    const note = gitlab.payloads.note(mr, developer, `${mention} say that it can write JSON too`, {
      type: "DiffNote",
      position: { base_sha: "a".repeat(40), head_sha: "b".repeat(40), start_sha: "a".repeat(40), position_type: "text", old_path: "guides/export.mdx", new_path: "guides/export.mdx", old_line: null, new_line: 5 },
    });
    expect((await deliver("Note Hook", note)).status).toBe(202);
    const pipeline = await pipelineOf(jobId, 2);
    expect(gitlab.pipelines.length).toBe(pipelinesBefore + 1);
    const messages = await t.store.db.query<{ prompt: string; source: string; author: string | null }>(`SELECT prompt, source, author FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId]);
    expect(messages.map((m) => m.author)).toEqual([null, "dana"]);
    expect(messages[1]?.prompt).toContain("guides/export.mdx");

    // The follow-up's run: the same branch, then the same merge request updated.
    model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "guides/export.mdx", find: "as CSV.", replace: "as CSV or JSON.", reason: "Names both formats, as asked on the merge request." } }] },
        { text: "Say the export also writes JSON\n\nThe guide names both formats." },
      ),
    );
    const run = await runPipeline(pipeline);
    expect(run.code, run.logs).toBe(0);
    expect(lastUserText(model.requests[0]!)).toContain("say that it can write JSON too");
    expect(run.logs).toContain(`Continuing inkwell/${jobId}`);
    const mrs = gitlab.mergeRequests.filter((m) => m.source_branch === `inkwell/${jobId}`);
    expect(mrs).toHaveLength(1);
    expect(mrs[0]?.description).toContain("Names both formats, as asked on the merge request.");
    expect(mrs[0]?.description).toContain("@dana in a comment");
    expect(git(gitlab.remote, "show", `inkwell/${jobId}:guides/export.mdx`)).toContain("as CSV or JSON.");
    expect(await job(jobId)).toMatchObject({ status: "completed", prLink: mr.web_url });
  });

  it("merged → archived, with GitLab's merge time kept for the impact report", async () => {
    const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`)!;
    mr.state = "merged";
    mr.merged_at = "2026-11-26T10:00:00.000Z";
    expect((await deliver("Merge Request Hook", gitlab.payloads.mergeRequest(mr, "merge", developer))).status).toBe(202);
    const archived = await eventually("the job archived", async () => {
      const current = await job(jobId);
      return current.status === "archived" && current;
    });
    expect(archived).toMatchObject({ prLink: mr.web_url, archivedAt: expect.any(String) });
    const [row] = await t.store.db.query<{ merged_at: Date | string }>(`SELECT merged_at FROM jobs WHERE id = $1`, [jobId]);
    expect(new Date(row!.merged_at).toISOString()).toBe("2026-11-26T10:00:00.000Z");
  });

  it("a runner with a forged ID token (wrong audience, another project, expired) is refused at the claim and pushes nothing", async () => {
    model.setScript(steps({ tools: [{ name: "write_file", args: { path: "guides/forged.mdx", content: PAGE, reason: "Never." } }] }, { text: "Never" }));
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Anything" } });
    const id = created.body.id as string;
    const pipeline = await pipelineOf(id, 1);
    const now = Math.floor(Date.now() / 1000);
    const forged: [string, Promise<string>, RegExp][] = [
      ["wrong audience", gitlab.idToken({ pipeline_id: String(pipeline.id) }, { audience: "https://elsewhere.test" }), /audience/],
      ["another project", gitlab.idToken({ pipeline_id: String(pipeline.id), project_id: "999", project_path: "mallory/docs" }, { audience: publicUrl }), /project/],
      ["expired", gitlab.idToken({ pipeline_id: String(pipeline.id) }, { audience: publicUrl, issuedAt: now - 7200, expiresIn: now - 3600 }), /expired/],
    ];
    for (const [what, token, reason] of forged) {
      const run = await runPipeline(pipeline, { INKWELL_ID_TOKEN: await token });
      expect(run.code, what).toBe(1);
      expect(run.logs, what).toMatch(/ERROR: Inkwell refused claim \(401\)/);
      expect(run.logs, what).toMatch(reason);
    }
    expect(git(gitlab.remote, "branch", "--list", `inkwell/${id}`)).toBe("");
    expect(model.requests.some((request) => JSON.stringify(request.messages).includes("Anything"))).toBe(false);
    expect(await job(id)).toMatchObject({ status: "active", prLink: null });
  });
});
