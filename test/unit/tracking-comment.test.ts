import { describe, expect, it } from "vitest";
import { renderTrackingComment, type TrackingView } from "../../src/app/github/tracking-comment.js";
import { instructionIn } from "../../src/app/github/event-task.js";

const base: TrackingView = {
  jobId: "abc123",
  status: "active",
  error: null,
  instructions: [
    { prompt: "Add a page about webhooks", author: null },
    { prompt: "Also an example\nwith two lines", author: "alice" },
  ],
  run: { attempt: 2, url: "https://github.com/acme/docs/actions/runs/9", progress: "Editing docs/webhooks.mdx", claimedAt: "2026-11-21T10:00:00.000Z", reportedAt: null, report: null },
};

describe("tracking comment", () => {
  it("while working: instructions, run link, progress", () => {
    const body = renderTrackingComment(base);
    expect(body).toMatch(/^<!-- inkwell:tracking:abc123 -->\n### Inkwell · ⏳ Working/);
    expect(body).toContain("1. via the API:\n> Add a page about webhooks");
    expect(body).toContain("2. @alice:\n> Also an example\n> with two lines");
    expect(body).toContain("[workflow run](https://github.com/acme/docs/actions/runs/9) (attempt 2)");
    expect(body).toContain("**Progress**: Editing docs/webhooks.mdx");
  });

  it("done: validation, duration, tokens, model, and no progress line", () => {
    const body = renderTrackingComment({
      ...base,
      status: "completed",
      run: { ...base.run!, reportedAt: "2026-11-21T10:02:05.000Z", report: { validation: { passed: false, problems: ["docs/a.mdx: broken link ./b"] }, usage: { inputTokens: 1234567, outputTokens: 890 }, model: "openai/gpt-5" } },
    });
    expect(body).toContain("### Inkwell · ✅ Done");
    expect(body).not.toContain("Progress");
    expect(body).toContain("**Validation**: 1 problem(s)\n- docs/a.mdx: broken link ./b");
    expect(body).toContain("**Duration**: 2m 5s · **Tokens**: 1,234,567 in / 890 out · **Model**: openai/gpt-5");
  });

  it("never says working once the job left active", () => {
    for (const status of ["completed", "failed", "archived"] as const) {
      const body = renderTrackingComment({ ...base, status, error: status === "failed" ? 'The workflow run ended "cancelled"' : null });
      expect(body).not.toMatch(/Working|updates as the agent works|Progress/);
    }
    expect(renderTrackingComment({ ...base, status: "failed", error: "boom" })).toContain("**Error**: boom");
  });
});

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
