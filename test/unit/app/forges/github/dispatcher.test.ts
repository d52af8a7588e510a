import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GitHubDispatcher } from "../../../../../src/app/forges/github/dispatcher.js";
import { fakeGitHubApp, GITHUB_API, isolateGitHub } from "../../../../helpers/github.js";

let dispatcher: GitHubDispatcher;
beforeAll(() => {
  isolateGitHub();
  dispatcher = new GitHubDispatcher(fakeGitHubApp().api, "https://github.com");
});
afterEach(() => nock.cleanAll());

const request = { jobId: "j1", runAttempt: 3, projectId: "p1", forge: "github" as const, baseRef: null, repoName: "acme/docs", installationId: 42, installationSuspended: false };
const token = () =>
  nock(GITHUB_API)
    .post("/app/installations/42/access_tokens")
    .reply(201, { token: "ghs_installation", expires_at: new Date(Date.now() + 3_600_000).toISOString() });

describe("GitHub dispatcher", () => {
  it("fails at once, saying what to do, when the App is not installed or suspended", async () => {
    const missing = await dispatcher.dispatch({ ...request, installationId: null });
    expect(missing).toMatchObject({ ok: false, retryable: false, error: expect.stringMatching(/not installed on acme\/docs.*follow-up message/) });
    const suspended = await dispatcher.dispatch({ ...request, installationSuspended: true });
    expect(suspended).toMatchObject({ ok: false, retryable: false, error: expect.stringMatching(/suspended/) });
  });

  it("sends repository_dispatch inkwell-agent with the job id and run attempt, as the installation", async () => {
    token();
    nock(GITHUB_API).get("/repos/acme/docs").reply(200, { id: 5, full_name: "acme/docs", default_branch: "main", archived: false });
    let sent: unknown;
    const dispatch = nock(GITHUB_API, { reqheaders: { authorization: "token ghs_installation" } })
      .post("/repos/acme/docs/dispatches", (body) => {
        sent = body;
        return true;
      })
      .reply(204);
    expect(await dispatcher.dispatch(request)).toEqual({ ok: true });
    expect(sent).toEqual({ event_type: "inkwell-agent", client_payload: { job_id: "j1", run_attempt: 3 } });
    expect(dispatch.isDone()).toBe(true);
  });

  it("says the repository is archived, and that access is missing on 404, without retrying", async () => {
    token();
    nock(GITHUB_API).get("/repos/acme/docs").reply(200, { id: 5, full_name: "acme/docs", default_branch: "main", archived: true });
    expect(await dispatcher.dispatch(request)).toMatchObject({ ok: false, retryable: false, error: expect.stringMatching(/acme\/docs is archived/) });
    token();
    nock(GITHUB_API).get("/repos/acme/docs").reply(404, { message: "Not Found" });
    expect(await dispatcher.dispatch(request)).toMatchObject({ ok: false, retryable: false, error: expect.stringMatching(/no access/) });
  });

  it("a GitHub outage is retryable", async () => {
    token();
    nock(GITHUB_API).get("/repos/acme/docs").reply(200, { id: 5, default_branch: "main", archived: false });
    const attempts = nock(GITHUB_API).post("/repos/acme/docs/dispatches").times(4).reply(502, { message: "Bad gateway" });
    expect(await dispatcher.dispatch(request)).toMatchObject({ ok: false, retryable: true });
    // Octokit's retry tried it three more times before giving up.
    expect(attempts.isDone()).toBe(true);
  });
});
