import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergedPullRequest } from "../fixtures/webhooks.js";
import { drainTasks } from "../helpers/drain.js";
import { appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth } from "../helpers/github.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

// robots.txt from the docs repository's history (docs/analytics/robots.md, "Where versions come
// from"): a merge into the default branch that changes it is a new version at GitHub's merge time,
// read at the merge commit through the App; GitHub answers at the HTTP edge (nock), in its shapes.
const REPO = "acme/robots-docs";
const INSTALLATION = 4_242;
const SHA = (n: number) => String(n).repeat(40).slice(0, 40);

let t: TestServer;
let projectId: string;
let key: string;

beforeAll(async () => {
  isolateGitHub();
  t = await startTestServer({ env: appEnv(), github: fakeGitHubApp() });
  ({ projectId, key } = await t.newProject(REPO));
  nockAppAuth(INSTALLATION);
});
afterAll(async () => {
  await t.close();
  nock.cleanAll();
});

const versions = async () => (await t.call("GET", `/v1/analytics/${projectId}/robots/versions`, { token: key })).body.versions as Array<{ source: string; effectiveAt: string; origin: string | null; body?: string }>;
const files = (number: number, list: Array<{ filename: string; status: string }>) =>
  nock(GITHUB_API)
    .get(`/repos/${REPO}/pulls/${number}/files`)
    .query(true)
    .reply(200, list.map((f, i) => ({ sha: SHA(i + 1), additions: 1, deletions: 0, changes: 1, blob_url: "", raw_url: "", contents_url: "", patch: "@@ -0,0 +1 @@", ...f })));
// Octokit sends the path as one URI component (static%2Frobots.txt), which GitHub reads as the path.
const contents = (path: string, sha: string, body: string) =>
  nock(GITHUB_API).get(`/repos/${REPO}/contents/${encodeURIComponent(path)}`).query({ ref: sha }).matchHeader("accept", /raw/).reply(200, body, { "Content-Type": "application/vnd.github.raw+json" });
const merged = (number: number, mergedAt: string, options: { base?: string; head?: string } = {}) => {
  const payload = mergedPullRequest(REPO, INSTALLATION, { number, title: `Change ${number}`, body: null, mergeSha: SHA(number), ...(options.base ? { base: options.base } : {}) });
  return { ...payload, pull_request: { ...payload.pull_request, merged_at: mergedAt, ...(options.head ? { head: { ...payload.pull_request.head, ref: options.head } } : {}) } };
};

describe("robots.txt from the docs repository", () => {
  it("a merge that changes static/robots.txt is a version at its merge time, read at the merge commit", async () => {
    files(3, [{ filename: "docs/intro.mdx", status: "modified" }, { filename: "static/robots.txt", status: "added" }]);
    contents("static/robots.txt", SHA(3), "User-agent: GPTBot\nDisallow: /\n");
    expect((await deliver(t.url, "pull_request", merged(3, "2026-11-20T08:00:00Z"))).status).toBeLessThan(300);
    await drainTasks(t);
    expect(await versions()).toEqual([expect.objectContaining({ source: "repository", effectiveAt: "2026-11-20T08:00:00.000Z", origin: `${REPO}@${SHA(3).slice(0, 12)}:static/robots.txt` })]);
  });

  it("an agent job's own merge counts too; merges that leave robots.txt alone, into another branch, or with the same file add none", async () => {
    files(4, [{ filename: "docs/intro.mdx", status: "modified" }]);
    expect((await deliver(t.url, "pull_request", merged(4, "2026-11-21T08:00:00Z"))).status).toBeLessThan(300);
    expect((await deliver(t.url, "pull_request", merged(5, "2026-11-21T09:00:00Z", { base: "release-1" }))).status).toBeLessThan(300);
    files(6, [{ filename: "static/robots.txt", status: "modified" }]);
    contents("static/robots.txt", SHA(6), "User-agent: GPTBot\nDisallow: /\n");
    expect((await deliver(t.url, "pull_request", merged(6, "2026-11-21T10:00:00Z"))).status).toBeLessThan(300);
    files(7, [{ filename: "static/robots.txt", status: "modified" }, { filename: "node_modules/x/robots.txt", status: "added" }]);
    contents("static/robots.txt", SHA(7), "User-agent: GPTBot\nAllow: /\n");
    expect((await deliver(t.url, "pull_request", merged(7, "2026-11-22T08:00:00Z", { head: "inkwell/robotsjob1" }))).status).toBeLessThan(300);
    await drainTasks(t);
    const list = await versions();
    expect(list.map((v) => [v.effectiveAt, v.origin])).toEqual([
      ["2026-11-22T08:00:00.000Z", `${REPO}@${SHA(7).slice(0, 12)}:static/robots.txt`],
      ["2026-11-20T08:00:00.000Z", `${REPO}@${SHA(3).slice(0, 12)}:static/robots.txt`],
    ]);
    const tasks = await t.store.db.query<{ state: string; last_error: string | null }>(`SELECT state, last_error FROM tasks WHERE kind = 'robots_merge' ORDER BY id`);
    expect(tasks.map((task) => [task.state, task.last_error])).toEqual([
      ["done", null],
      ["skipped", "robots.txt unchanged"],
      ["skipped", "robots.txt the same as the version in force"],
      ["done", null],
    ]);
  });

  it("a merge that removes robots.txt leaves the site without rules from then on", async () => {
    files(8, [{ filename: "static/robots.txt", status: "removed" }]);
    expect((await deliver(t.url, "pull_request", merged(8, "2026-11-23T08:00:00Z"))).status).toBeLessThan(300);
    await drainTasks(t);
    const [latest] = await versions();
    expect(latest).toMatchObject({ effectiveAt: "2026-11-23T08:00:00.000Z", source: "repository" });
    const [row] = await t.store.db.query<{ body: string }>(`SELECT body FROM robots_versions WHERE project_id = $1 ORDER BY effective_at DESC LIMIT 1`, [projectId]);
    expect(row?.body).toBe("");
  });
});
