import { describe, expect, it } from "vitest";
import type { TrackingView } from "../../../../src/app/domain/jobs/tracking.js";
import { renderTrackingComment } from "../../../../src/app/forges/tracking.js";

const base: TrackingView = {
  impact: null,
  waiting: null,
  jobId: "abc123",
  status: "active",
  error: null,
  instructions: [
    { prompt: "Add a page about webhooks", source: "api", author: null },
    { prompt: "Also an example\nwith two lines", source: "comment", author: "alice" },
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

  it("the repository's own checks: running, passed, or which failed with their pages; a repair round's instruction shows its first paragraph, from the checks", () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const running = renderTrackingComment({ ...base, status: "completed", checks: { state: "pending", sha, failing: [], rounds: 0 } });
    expect(running).toContain("**Checks**: running on `0123456`; the pull request stays a draft until they pass");
    expect(renderTrackingComment({ ...base, checks: { state: "passing", sha, failing: [], rounds: 1 } }, "/inkwell", "gitlab")).toContain("**Checks**: passed on `0123456`");
    const failed = renderTrackingComment({
      ...base,
      status: "completed",
      instructions: [...base.instructions, { prompt: "The docs repository's own checks failed on the commit this job pushed (0123456): build.\n\n<check>the log</check>", source: "checks", author: null }],
      checks: { state: "failing", sha, failing: [{ name: "build", url: "https://ci.example/1" }, { name: "ci/vale", url: null }], rounds: 2 },
    });
    expect(failed).toContain("**Checks**: failed on `0123456`: [build](https://ci.example/1), ci/vale (repair rounds: 2)");
    expect(failed).toContain("3. the repository's checks:\n> The docs repository's own checks failed on the commit this job pushed (0123456): build.\n> (the rest of this instruction is on the job's page)");
    expect(failed).not.toContain("the log");
    expect(renderTrackingComment(base)).not.toContain("**Checks**");
  });

  it("on GitLab, a note on the merge request that names the run a pipeline", () => {
    const body = renderTrackingComment({ ...base, run: { ...base.run!, url: "https://gitlab.example.com/acme/docs/-/pipelines/77" } }, "/inkwell", "gitlab");
    expect(body).toContain("**Run**: [pipeline](https://gitlab.example.com/acme/docs/-/pipelines/77) (attempt 2)");
    expect(body).toContain("_This note updates as the agent works._");
    expect(body).not.toMatch(/workflow run|This comment/);
    expect(renderTrackingComment({ ...base, run: { ...base.run!, url: null } }, "/inkwell", "gitlab")).toContain("**Run**: pipeline (attempt 2)");
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

  it("says where an instruction without a GitHub author came from", () => {
    const body = renderTrackingComment({ ...base, instructions: [{ prompt: "From the operator", source: "dashboard", author: null }] });
    expect(body).toContain("1. on the dashboard:\n> From the operator");
  });

  it("never says working once the job left active", () => {
    for (const status of ["completed", "failed", "archived"] as const) {
      const body = renderTrackingComment({ ...base, status, error: status === "failed" ? 'The workflow run ended "cancelled"' : null });
      expect(body).not.toMatch(/Working|updates as the agent works|Progress/);
    }
    expect(renderTrackingComment({ ...base, status: "failed", error: "boom" })).toContain("**Error**: boom");
  });

  it("while waiting: the plan to approve or the question to answer, how to reply, and no working line", () => {
    const plan = renderTrackingComment({ ...base, waiting: { for: "approval", text: "- Add guides/retries.mdx\n- Move faq.mdx" } });
    expect(plan).toMatch(/^<!-- inkwell:tracking:abc123 -->\n### Inkwell · ✋ Waiting for approval of its plan/);
    expect(plan).toContain("**Plan**\n> - Add guides/retries.mdx\n> - Move faq.mdx\n\nReply `/inkwell approve` to carry it out, or say what to change.");
    expect(plan).not.toContain("updates as the agent works");
    const question = renderTrackingComment({ ...base, waiting: { for: "answer", text: "Which version?" } });
    expect(question).toMatch(/### Inkwell · ✋ Waiting for an answer/);
    expect(question).toContain("**Question**\n> Which version?\n\nReply `/inkwell <your answer>` to answer it.");
    // The operator's own command (INKWELL_COMMAND) is the one the comment names.
    expect(renderTrackingComment({ ...base, waiting: { for: "approval", text: "x" } }, "/docs-bot")).toContain("Reply `/docs-bot approve` to carry it out");
  });
});
