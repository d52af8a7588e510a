import { describe, expect, it } from "vitest";
import { actionTagFor, compatibleReleases, incompatibleReleaseMessage, RELEASE_PATTERN } from "../../../src/shared/releases.js";

describe("which Action a service serves", () => {
  it("the same major release, whatever the minor and patch", () => {
    expect(compatibleReleases("1.4.2", "1.0.0")).toBe(true);
    expect(compatibleReleases("1.4.2", "1.9.0-rc.1")).toBe(true);
    expect(compatibleReleases("0.1.0", "0.3.0")).toBe(true);
    expect(compatibleReleases("2.0.0", "1.9.9")).toBe(false);
    expect(compatibleReleases("1.0.0", "not-a-version")).toBe(false);
  });

  it("names the tag to pin when it does not", () => {
    expect(actionTagFor("3.1.0")).toBe("v3");
    expect(incompatibleReleaseMessage("2.1.0", "1.7.0")).toBe(
      "This Inkwell server is 2.1.0 and serves the Action v2; this run uses the Action 1.7.0. Pin the workflow to `uses: <owner>/inkwell@v2` (the tag matching the server), or upgrade the server first (docs/upgrades-and-backups.md).",
    );
  });

  it("reads release numbers as package.json carries them", () => {
    expect(["0.1.0", "1.2.3", "10.20.30-beta.2"].every((v) => RELEASE_PATTERN.test(v))).toBe(true);
    expect(["v1.2.3", "1.2", "1.2.3.4", "1.2.3 "].some((v) => RELEASE_PATTERN.test(v))).toBe(false);
  });
});
