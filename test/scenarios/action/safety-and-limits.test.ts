import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkout, git, jobCancelledWhileThinking, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { steps, toolResults, type ChatRequest } from "../../helpers/fake-model.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

describe("the tools hold whatever the model asks", () => {
  it("refuses ../outside, .github/workflows, writes through a symlink and a 50 MB file; the run ends with nothing pushed", async () => {
    // A symlink committed in the repository, pointing out of it.
    const seed = checkout(h.remote);
    symlinkSync("/tmp", path.join(seed, "snippets"));
    git(seed, "add", "snippets");
    git(seed, "commit", "--quiet", "-m", "Add snippets link");
    git(seed, "push", "--quiet", "origin", "HEAD:main");

    const huge = "x".repeat(50 * 1024 * 1024);
    const reason = "Testing the fence.";
    h.model.setScript(
      steps(
        {
          tools: [
            { name: "write_file", args: { path: "../outside.md", content: "escape", reason } },
            { name: "write_file", args: { path: ".github/workflows/x.yml", content: "on: push", reason } },
            { name: "write_file", args: { path: "snippets/escaped.md", content: "through the link", reason } },
            { name: "read_file", args: { path: "/etc/passwd" } },
            { name: "move_file", args: { from: "index.mdx", to: ".git/hooks/pre-commit", reason } },
          ],
        },
        { tools: [{ name: "write_file", args: { path: "big.mdx", content: huge, reason } }] },
        { text: "Nothing I could do" },
      ),
    );
    const dispatched = await h.createJob("Try to escape");
    const outcome = await h.run(dispatched);

    expect(outcome).toMatchObject({ status: "completed", prUrl: null });
    const results = toolResults(h.model.requests[2] as ChatRequest);
    expect(results).toHaveLength(6);
    expect(results[0]).toMatch(/^Error: \.\.\/outside\.md: outside the repository/);
    expect(results[1]).toMatch(/^Error: \.github\/workflows\/x\.yml: \.git\/ and \.github\/ are off limits/);
    expect(results[2]).toMatch(/^Error: snippets\/escaped\.md: symbolic links are not followed/);
    expect(results[3]).toMatch(/^Error: \/etc\/passwd: paths are relative to the repository root/);
    expect(results[4]).toMatch(/^Error: \.git\/hooks\/pre-commit: \.git\/ and \.github\/ are off limits/);
    expect(results[5]).toMatch(/^Error: big\.mdx: 52428800 bytes is over the 1048576-byte limit per file/);
    expect(git(h.remote, "branch", "--list", `inkwell/${dispatched.jobId}`)).toBe("");
    expect(outcome.logs.join("\n")).toContain("6 tool call(s) (6 refused or failed)");
  });
});

describe("hard caps stop a model that never stops", () => {
  const forever = () => ({ tools: [{ name: "list_files", args: { glob: "**/*.mdx" } }], outputTokens: 1_000 });

  it("max-turns: the run fails after exactly that many model calls, and says so", async () => {
    h.model.setScript(forever);
    const dispatched = await h.createJob("Loop forever");
    const outcome = await h.run(dispatched, { inputs: { "max-turns": "5" } });

    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(/did not finish within max-turns \(5 model calls\)\. Nothing was pushed\./);
    expect(h.model.requests).toHaveLength(5);
    const job = await h.job(dispatched.jobId);
    expect(job).toMatchObject({ status: "failed", error: expect.stringContaining("max-turns (5") });
    const [report] = await h.reports(dispatched.jobId);
    expect(report).toMatchObject({ outcome: "failed", turns: 5, usage: { outputTokens: 5_000 } });
  });

  it("max-output-tokens: each call may use only what is left, and the run stops when the budget is spent", async () => {
    h.model.setScript(forever);
    const dispatched = await h.createJob("Loop forever again");
    const outcome = await h.run(dispatched, { inputs: { "max-output-tokens": "2500" } });

    expect(outcome.status).toBe("failed");
    expect(outcome.error).toContain("max-output-tokens 2500");
    expect(h.model.requests.map((r) => r.max_tokens)).toEqual([2_500, 1_500, 500]);
    expect((await h.job(dispatched.jobId)).status).toBe("failed");
  });

  it("timeout-minutes: the run is stopped at its deadline and reported failed", async () => {
    h.model.setScript(() => ({ hang: true }));
    const dispatched = await h.createJob("Take forever");
    const started = Date.now();
    const outcome = await h.run(dispatched, { inputs: { "timeout-minutes": "0.01" }, requestTimeoutMs: 60_000 });

    expect(outcome.status).toBe("failed");
    expect(outcome.error).toContain("timeout-minutes");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("cancel", () => {
  it("a run cancelled mid-way through the API stops at its next heartbeat and pushes nothing", async () => {
    const { dispatched, cancel } = await jobCancelledWhileThinking(h);
    const started = Date.now();
    const outcome = await h.run(dispatched, { requestTimeoutMs: 60_000 });
    const stoppedAfterMs = Date.now() - started;

    expect(await cancel.request).toMatchObject({ status: 200 });
    expect(outcome.status).toBe("cancelled");
    expect(stoppedAfterMs).toBeLessThan(15_000);
    expect(git(h.remote, "branch", "--list", `inkwell/${dispatched.jobId}`)).toBe("");
    // Claimed, never reported: the run stopped rather than claiming an outcome.
    expect(await h.reports(dispatched.jobId)).toEqual([{}]);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "failed", error: expect.stringMatching(/^Cancelled by an API key/), progress: null });
    // The workflow run it claimed is cancelled on GitHub too.
    expect((await h.events(dispatched.jobId)).map((event) => [event.type, (event as { detail?: string }).detail])).toContainEqual(["run_cancelled", `workflow run ${4000 + dispatched.runAttempt} cancelled`]);
  });
});

describe("provider errors", () => {
  it("retries 429 and 500 and carries on when the provider recovers", async () => {
    h.model.setScript(
      steps(
        { status: 429, error: "Rate limit reached", headers: { "retry-after": "0" } },
        { status: 500, error: "Internal error" },
        { text: "Nothing to change" },
      ),
    );
    const dispatched = await h.createJob("Check the docs");
    const outcome = await h.run(dispatched);

    expect(outcome).toMatchObject({ status: "completed", prUrl: null });
    expect(h.model.requests).toHaveLength(3);
  });

  it.each([
    ["429", { status: 429, error: "Rate limit reached", headers: { "retry-after": "0" } }, /after 3 attempts: 429 Rate limit reached/],
    ["500", { status: 500, error: "upstream exploded" }, /after 3 attempts: 500 upstream exploded/],
    ["a timeout", { hang: true as const }, /after 3 attempts: the request timed out/],
  ])("reports failed when %s keeps happening", async (_label, step, message) => {
    h.model.setScript(() => step);
    const dispatched = await h.createJob("Check the docs once more");
    const outcome = await h.run(dispatched, { requestTimeoutMs: 300 });

    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(message);
    expect(h.model.requests).toHaveLength(3);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "failed", error: expect.stringMatching(message) });
  });

  it("fails at once, without retrying, when the provider refuses the key", async () => {
    h.model.setScript(() => ({ status: 401, error: "Incorrect API key provided" }));
    const dispatched = await h.createJob("Check with a bad key");
    const outcome = await h.run(dispatched);

    expect(outcome.error).toMatch(/the model provider failed: 401 Incorrect API key provided/);
    expect(h.model.requests).toHaveLength(1);
  });
});

describe("reporting", () => {
  it("retries a report that does not get through, then fails the run visibly; the job is left to the watchdog, not lost", async () => {
    h.model.setScript(steps({ text: "Nothing to change" }));
    const dispatched = await h.createJob("Report into the void");
    let reportAttempts = 0;
    const flaky: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/v1/runner/report")) {
        reportAttempts++;
        return new Response(JSON.stringify({ error: "upstream unavailable" }), { status: 503 });
      }
      return fetch(input, init);
    };
    await expect(h.run(dispatched, { inkwell: h.client(flaky) })).rejects.toThrow(/Could not reach Inkwell at .* for report after 2 attempts: Inkwell answered report with 503: upstream unavailable/);
    expect(reportAttempts).toBe(2);
    expect((await h.job(dispatched.jobId)).status).toBe("active");

    // The report is idempotent per run attempt: delivering it later completes the job.
    await h.client().report({ jobId: dispatched.jobId, runAttempt: dispatched.runAttempt, outcome: "completed", pr: null });
    expect((await h.job(dispatched.jobId)).status).toBe("completed");
  });
});
