import { describe, expect, it } from "vitest";
import { instructionIn, isStopCommand, withLocation } from "../../../../src/app/forges/addressing.js";

describe("which comments address the agent", () => {
  it.each([
    ["@inkwell-docs add an example", "add an example"],
    ["Thanks! @Inkwell-Docs could you fix the typo?", "Thanks! could you fix the typo?"],
    ["/inkwell rename the page", "rename the page"],
    ["/inkwell\nmulti\nline", "multi\nline"],
  ])("%j → %j", (body, expected) => {
    expect(instructionIn(body, "inkwell-docs", "/inkwell")).toBe(expected);
  });

  it.each(["looks good", "mail me@inkwell-docs.com", "@inkwell-docs-fan nice", "/inkwellish thing", "see acme/@inkwell-docs", "@inkwell-docs", "/inkwell"])("%j → ignored", (body) => {
    expect(instructionIn(body, "inkwell-docs", "/inkwell")).toBeNull();
  });
});

describe("an inline review comment as the agent gets it", () => {
  it("says the file and line and shows the end of the hunk, with no way to close the fence early", () => {
    const hunk = ["@@ -1,60 +1,61 @@", ...Array.from({ length: 60 }, (_, i) => ` line ${i + 1}`), "+```", "+new line"].join("\n");
    const prompt = withLocation("use sentence case", { path: "docs/a.mdx", line: 61, diffHunk: hunk });
    const lines = prompt.split("\n");
    expect(lines[0]).toBe("Review comment on `docs/a.mdx` line 61:");
    expect(lines[1]).toBe("```diff");
    expect(lines.slice(2, -2)).toHaveLength(40);
    expect(lines.at(-4)).toBe("+``");
    expect(lines.at(-3)).toBe("+new line");
    expect(lines.at(-2)).toBe("```");
    expect(lines.at(-1)).toBe("use sentence case");
    expect(withLocation("x", { path: "a.md", line: null, diffHunk: "@@" })).toMatch(/^Review comment on `a.md` \(a line this branch has since changed\):/);
  });

  it("knows stop from an instruction that mentions stopping", () => {
    expect(["stop", "Stop.", "cancel", " STOP! "].every(isStopCommand)).toBe(true);
    expect(["stop the intro from repeating itself", "don't stop", "stopwatch"].some(isStopCommand)).toBe(false);
  });
});
