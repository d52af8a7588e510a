import { describe, expect, it } from "vitest";
import { age, fields, table } from "../../../src/cli/format.js";

describe("CLI formatting", () => {
  it("aligns columns and shows empty values as -", () => {
    expect(table(["ID", "STATUS", "PR"], [["abc", "active", null], ["a", "completed", "https://x/pull/1"]])).toBe(
      ["ID   STATUS     PR", "abc  active     -", "a    completed  https://x/pull/1"].join("\n"),
    );
  });

  it("labels fields", () => {
    expect(fields([["id", "x"], ["pull request", null]])).toBe(`id:${" ".repeat(11)}x\npull request: -`);
  });

  it("says how old something is", () => {
    const now = Date.parse("2026-01-02T00:00:00Z");
    expect(age("2026-01-01T23:59:30Z", now)).toBe("30s ago");
    expect(age("2026-01-01T23:00:00Z", now)).toBe("1h ago");
    expect(age("2025-12-30T00:00:00Z", now)).toBe("3d ago");
  });
});
