import { describe, expect, it } from "vitest";
import { toQueuedEvent } from "../../../../../src/app/forges/github/webhook-events.js";
import { checkRunCompleted, checkSuiteCompleted, commitStatus } from "../../../../fixtures/webhooks.js";

const SHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e";

describe("deliveries that say the checks on a commit changed", () => {
  it("a completed check run or check suite names the repository, the installation and the commit", () => {
    expect(toQueuedEvent("check_run", checkRunCompleted("acme/docs", { id: 7, name: "docs build", headSha: SHA, conclusion: "failure" }))).toEqual({
      type: "checks_changed",
      repo: "acme/docs",
      installationId: 42,
      sha: SHA,
      what: "check run docs build failure",
    });
    expect(toQueuedEvent("check_suite", checkSuiteCompleted("acme/docs", { id: 8, headSha: SHA, conclusion: "success" }))).toMatchObject({ type: "checks_changed", sha: SHA, what: "check suite success" });
  });

  it("a status that ended (success, failure, error) does; one still pending, a check run created or requested, a malformed commit do not", () => {
    expect(toQueuedEvent("status", commitStatus("acme/docs", { sha: SHA, context: "ci/vale", state: "failure", description: "3 errors" }))).toMatchObject({ type: "checks_changed", sha: SHA, what: "status ci/vale failure" });
    expect(toQueuedEvent("status", commitStatus("acme/docs", { sha: SHA, context: "ci/vale", state: "error" }))).toMatchObject({ type: "checks_changed" });
    expect(toQueuedEvent("status", commitStatus("acme/docs", { sha: SHA, context: "ci/vale", state: "pending" }))).toBeNull();
    for (const action of ["created", "requested_action", "rerequested"]) expect(toQueuedEvent("check_run", { ...checkRunCompleted("acme/docs", { id: 7, name: "b", headSha: SHA, conclusion: "success" }), action })).toBeNull();
    expect(toQueuedEvent("check_run", checkRunCompleted("acme/docs", { id: 7, name: "b", headSha: "main", conclusion: "success" }))).toBeNull();
  });
});
