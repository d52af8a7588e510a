import { describe, expect, it } from "vitest";
import { instructionIn } from "../../../../src/app/github/comment-follow-up.js";

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
