import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { actionReference, checkoutOriginUrl, repositoryOn } from "../../../../../src/app/forges/github/action-reference.js";

const base = { version: "1.4.2", githubServerUrl: "https://github.com" };

describe("the Action reference the Setup tab's workflow uses", () => {
  it("is INKWELL_ACTION_REF as given, or at the release tag of this server's major version when it names no ref", () => {
    const origin = () => "https://github.com/upstream/inkwell.git";
    expect(actionReference({ ...base, configured: "acme/inkwell@v1.4.2", originUrl: origin })).toEqual({ uses: "acme/inkwell@v1.4.2", source: "configured" });
    expect(actionReference({ ...base, configured: "acme/inkwell", originUrl: origin })).toEqual({ uses: "acme/inkwell@v1", source: "configured" });
    expect(actionReference({ ...base, version: "2.0.0-rc.1", configured: "acme/inkwell", originUrl: origin }).uses).toBe("acme/inkwell@v2");
  });

  it("unset, is the checkout's own origin at v<major>, the tag npm run release moves", () => {
    expect(actionReference({ ...base, configured: undefined, originUrl: () => "git@github.com:acme/inkwell-fork.git" })).toEqual({ uses: "acme/inkwell-fork@v1", source: "checkout" });
  });

  it("with no checkout, or an origin elsewhere than this GitHub, is a placeholder the page asks the operator to replace", () => {
    expect(actionReference({ ...base, configured: undefined, originUrl: () => null })).toEqual({ uses: "your-org/inkwell@v1", source: "unknown" });
    expect(actionReference({ ...base, configured: undefined, originUrl: () => "https://gitlab.com/acme/inkwell.git" }).source).toBe("unknown");
    expect(actionReference({ ...base, githubServerUrl: "https://ghe.acme.dev", configured: undefined, originUrl: () => "https://ghe.acme.dev/docs-team/inkwell" }).uses).toBe("docs-team/inkwell@v1");
  });

  it("reads owner/repo from every form of a git remote, on the right host only", () => {
    expect(repositoryOn("https://github.com/acme/inkwell.git", "github.com")).toBe("acme/inkwell");
    expect(repositoryOn("https://github.com/acme/inkwell", "github.com")).toBe("acme/inkwell");
    expect(repositoryOn("ssh://git@github.com/acme/inkwell.git", "github.com")).toBe("acme/inkwell");
    expect(repositoryOn("git@github.com:acme/ink.well.git", "github.com")).toBe("acme/ink.well");
    expect(repositoryOn("git@gitlab.com:acme/inkwell.git", "github.com")).toBeNull();
    expect(repositoryOn("https://github.com/acme/inkwell/tree/main", "github.com")).toBeNull();
    expect(repositoryOn("/srv/git/inkwell.git", "github.com")).toBeNull();
  });

  it("takes the origin of the directory's own repository only, never one it sits inside", () => {
    const outer = mkdtempSync(path.join(tmpdir(), "inkwell-origin-"));
    execFileSync("git", ["init", "-q", outer]);
    execFileSync("git", ["-C", outer, "remote", "add", "origin", "https://github.com/acme/outer.git"]);
    expect(checkoutOriginUrl(outer)).toBe("https://github.com/acme/outer.git");
    const inner = path.join(outer, "inner");
    mkdirSync(inner);
    expect(checkoutOriginUrl(inner)).toBeNull();
  });
});
