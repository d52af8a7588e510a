import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { fakeGitHubApp, GITHUB_API, isolateGitHub } from "../../../../helpers/github.js";

beforeAll(() => isolateGitHub());
afterEach(() => nock.cleanAll());

describe("a run's repository token", () => {
  it("carries checks: write besides contents, pull requests and issues, for this repository only", async () => {
    const asked: unknown[] = [];
    nock(GITHUB_API)
      .post("/app/installations/42/access_tokens", (body) => (asked.push(body), true))
      .reply(201, { token: "ghs_run", expires_at: "2026-11-24T12:00:00Z" });
    expect(await fakeGitHubApp().api.repositoryToken(42, "acme/docs")).toEqual({ value: "ghs_run", expiresAt: "2026-11-24T12:00:00Z" });
    expect(asked).toEqual([{ repositories: ["docs"], permissions: { contents: "write", pull_requests: "write", issues: "write", checks: "write" } }]);
  });

  it("without checks when the installation has not accepted that permission, rather than no token", async () => {
    const asked: Array<{ permissions: Record<string, string> }> = [];
    nock(GITHUB_API)
      .post("/app/installations/42/access_tokens", (body) => (asked.push(body), true))
      .reply(422, { message: "The permissions requested are not granted to this installation." })
      .post("/app/installations/42/access_tokens", (body) => (asked.push(body), true))
      .reply(201, { token: "ghs_run", expires_at: "2026-11-24T12:00:00Z" });
    expect((await fakeGitHubApp().api.repositoryToken(42, "acme/docs")).value).toBe("ghs_run");
    expect(asked.map((body) => Object.keys(body.permissions))).toEqual([
      ["contents", "pull_requests", "issues", "checks"],
      ["contents", "pull_requests", "issues"],
    ]);
  });
});
