import { describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, UpstreamError } from "../../../../../src/app/domain/errors.js";
import type { GitHubApi, RepoPermission } from "../../../../../src/app/forges/github/api.js";
import { checkSourceLink } from "../../../../../src/app/forges/github/source-link.js";

/** GitHub's answers at the edge of GitHubApi: where the App is installed, and a user's permission there. */
function github(installationId: number | null | Error, permission: RepoPermission = "read") {
  const asked: string[] = [];
  const api = {
    installationOn: async (repo: string) => {
      asked.push(`installation ${repo}`);
      if (installationId instanceof Error) throw installationId;
      return installationId;
    },
    permission: async (id: number, repo: string, user: string) => (asked.push(`permission ${id} ${repo} ${user}`), permission),
    appSlug: async () => "inkwell-docs",
  } as unknown as GitHubApi;
  return { api, asked };
}

describe("checkSourceLink", () => {
  it("refuses a GitLab-style group/subgroup/project path on a GitHub project before asking GitHub", async () => {
    const asking = github(77);
    const error = await checkSourceLink(asking.api, "https://github.com", "acme/platform/api", null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(/a GitHub docs project's source is owner\/repo/);
    expect(asking.asked).toEqual([]);
  });

  it("needs the App installed on the repository, naming where to install it", async () => {
    const error = await checkSourceLink(github(null).api, "https://github.com", "acme/api", null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toContain("https://github.com/apps/inkwell-docs/installations/new");
  });

  it("lets the operator link any repository the App is on, and a dashboard user only one they can read", async () => {
    const operator = github(77, "none");
    await checkSourceLink(operator.api, "https://github.com", "acme/api", null);
    expect(operator.asked).toEqual(["installation acme/api"]);
    const reader = github(77, "read");
    await checkSourceLink(reader.api, "https://github.com", "acme/api", "dora");
    expect(reader.asked).toEqual(["installation acme/api", "permission 77 acme/api dora"]);
    await expect(checkSourceLink(github(77, "none").api, "https://github.com", "acme/private", "mallory")).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("says GitHub did not answer when it does not, and asks nothing without an App", async () => {
    await expect(checkSourceLink(github(new Error("ETIMEDOUT")).api, "https://github.com", "acme/api", null)).rejects.toBeInstanceOf(UpstreamError);
    await expect(checkSourceLink(null, "https://github.com", "acme/api", "dora")).resolves.toBeUndefined();
  });
});
