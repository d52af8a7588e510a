import { describe, expect, it } from "vitest";
import { connectGitLabProjectSchema } from "../../../src/shared/admin-schemas.js";

const connect = (fields: Record<string, unknown>) => connectGitLabProjectSchema.safeParse({ gitlabUrl: "https://gitlab.com", project: "docs/site", token: "glpat-abc", ...fields });
const messages = (fields: Record<string, unknown>) => connect(fields).error?.issues.map((issue) => issue.message) ?? [];

describe("connecting a GitLab project", () => {
  it("takes a path, a URL on the instance or an id, and a token, trimmed", () => {
    expect(connect({ project: " https://gitlab.com/docs/site.git ", token: " glpat-abc\n" }).data).toMatchObject({ project: "https://gitlab.com/docs/site.git", token: "glpat-abc" });
    expect(connect({ project: "42", gitlabUrl: "http://[::1]:8929/gitlab" }).success).toBe(true);
  });

  it("refuses a project that names nothing, a token no header could carry, and an instance that is not http(s)", () => {
    expect(messages({ project: "/" })).toEqual(["must name a project: its path, its URL or its numeric id"]);
    expect(messages({ project: " " })).toContain("must not be empty");
    expect(messages({ token: "glpat-\u202Eabc" })).toEqual(["must be a GitLab access token: printable ASCII, no spaces inside"]);
    expect(messages({ token: "glpat abc" })).toEqual(["must be a GitLab access token: printable ASCII, no spaces inside"]);
    expect(messages({ gitlabUrl: "ssh://gitlab.com" })).toEqual(["must be an http(s) URL"]);
  });

  it("documents the project rule as the pattern the server checks", () => {
    const pattern = new RegExp((connectGitLabProjectSchema.shape.project.meta()?.pattern as string) ?? "", "u");
    for (const project of ["docs/site", "42", "/", "-.-", "a😀", "\u0000a"]) expect(pattern.test(project), project).toBe(connect({ project }).success);
  });
});
