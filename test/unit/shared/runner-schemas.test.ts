import { describe, expect, it } from "vitest";
import { reportRequestSchema } from "../../../src/shared/runner-schemas.js";

describe("runner report", () => {
  const report = (url: string) => ({ jobId: "abcdefghij0123456789", runAttempt: 1, outcome: "completed", pr: { number: 7, url } });

  it("takes only http(s) pull request links (they become links in the dashboard)", () => {
    expect(reportRequestSchema.safeParse(report("https://github.com/acme/docs/pull/7")).success).toBe(true);
    expect(reportRequestSchema.safeParse(report("http://ghe.internal/acme/docs/pull/7")).success).toBe(true);
    for (const url of ["javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd"]) {
      expect(reportRequestSchema.safeParse(report(url)).success, url).toBe(false);
    }
  });

  it("takes a GitLab run's merge request (title, description, draft) beside a null pr, and refuses an empty title", () => {
    const gitlab = (mergeRequest: Record<string, unknown>) => ({ jobId: "abcdefghij0123456789", runAttempt: 1, outcome: "completed", pr: null, mergeRequest });
    expect(reportRequestSchema.safeParse(gitlab({ title: "Docs: webhooks", description: "Adds a page.", draft: false })).success).toBe(true);
    expect(reportRequestSchema.safeParse(gitlab({ title: "  ", description: "", draft: true })).success).toBe(false);
    expect(reportRequestSchema.safeParse(gitlab({ title: "x".repeat(256), description: "", draft: true })).success).toBe(false);
  });
});
