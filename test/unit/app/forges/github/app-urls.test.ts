import { describe, expect, it } from "vitest";
import { appInstallUrl } from "../../../../../src/app/forges/github/app-urls.js";

describe("appInstallUrl", () => {
  it("uses /apps/ on github.com and /github-apps/ on GitHub Enterprise Server", () => {
    expect(appInstallUrl("https://github.com", "inkwell-docs")).toBe("https://github.com/apps/inkwell-docs/installations/new");
    expect(appInstallUrl("https://ghe.example.com", "inkwell-docs")).toBe("https://ghe.example.com/github-apps/inkwell-docs/installations/new");
    expect(appInstallUrl("http://github.internal:8080", "inkwell")).toBe("http://github.internal:8080/github-apps/inkwell/installations/new");
  });
});
