import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkout, git, jobCancelledWhileThinking, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { steps } from "../../helpers/fake-model.js";

const BUNDLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../dist/index.js");

function runBundle(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUNDLE], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

const outputs = (file: string) => Object.fromEntries([...readFileSync(file, "utf8").matchAll(/^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]));

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

describe("the committed bundle, run the way GitHub's runner runs it", () => {
  it("claims with the runner's OIDC token, pushes, opens the PR, reports, and sets its outputs", async () => {
    h.model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Run `npm install -g acme`.", replace: "Run `npm install -g acme` (Node 20 or later).", reason: "States the Node requirement." } }] },
        { text: "State the Node requirement in the quickstart" },
      ),
    );
    const dispatched = await h.createJob("Say which Node version the CLI needs");
    const workspace = checkout(h.remote);
    const { env, outputPath } = h.bundleEnv(dispatched, workspace);
    const { code, stdout } = await runBundle(env);

    // Secrets are announced to the runner for masking, and appear nowhere else.
    const masked = stdout.split("\n").filter((line) => line.startsWith("::add-mask::"));
    expect(masked).toEqual(expect.arrayContaining(["::add-mask::sk-test", expect.stringMatching(/^::add-mask::ghs_inst_\d+$/)]));
    const logged = stdout.split("\n").filter((line) => !line.startsWith("::add-mask::")).join("\n");
    expect(logged).not.toContain("sk-test");
    expect(logged).not.toContain("ghs_inst_");
    expect(code, stdout).toBe(0);
    const job = await h.job(dispatched.jobId);
    expect(job).toMatchObject({ status: "completed", prLink: expect.stringMatching(/\/pull\/\d+$/) });
    const { phases, ...rest } = outputs(outputPath);
    expect(rest).toEqual({ "job-id": dispatched.jobId, status: "completed", "pr-url": job.prLink });
    // The critical path in order; background work (the starting tree written beside the model) set apart.
    expect((JSON.parse(phases ?? "[]") as Array<{ name: string; background?: boolean }>).filter((phase) => !phase.background).map((phase) => phase.name)).toEqual(["claim", "checkout", "agent (round 1)", "gate (round 1)", "commit", "push", "pull request", "report"]);
    expect(git(h.remote, "show", `inkwell/${dispatched.jobId}:quickstart.mdx`)).toContain("(Node 20 or later)");
    // The token went in a header for this command only: nothing persisted in the checkout's config.
    expect(readFileSync(path.join(workspace, ".git", "config"), "utf8")).not.toContain("extraheader");

    // What the run did, as a client polling the job reads it.
    expect(job).toMatchObject({
      summary: "State the Node requirement in the quickstart",
      files: [{ path: "quickstart.mdx", change: "modified" }],
      validation: { passed: true, problems: [] },
      usage: { turns: 2, inputTokens: expect.any(Number), outputTokens: expect.any(Number), cachedInputTokens: expect.any(Number), durationMs: expect.any(Number) },
      progress: null,
    });
    expect(job.usage.inputTokens).toBeGreaterThan(0);
    const api = (p: string) => h.server.call("GET", `/v2/agent/${h.projectId}/job/${dispatched.jobId}${p}`, { token: h.apiKey });
    const runs = (await api("/runs")).body.runs;
    expect(runs).toEqual([expect.objectContaining({ attempt: 1, outcome: "completed", hasTranscript: true, trigger: { source: "api", author: null } })]);
    const transcript = (await api("/runs/1/transcript")).body;
    const kinds = transcript.entries.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["system", "instruction", "tool_call", "tool_result"]));
    expect(JSON.stringify(transcript)).not.toMatch(/sk-test|ghs_inst_/);
  });

  it("stops within 15 s of a cancel while the model is thinking, and pushes nothing", async () => {
    const { dispatched, cancel } = await jobCancelledWhileThinking(h);
    const { env } = h.bundleEnv(dispatched, checkout(h.remote));
    const started = Date.now();
    const { code, stdout } = await runBundle(env);
    const stoppedAfterMs = Date.now() - started;

    expect(await cancel.request).toMatchObject({ status: 200 });
    expect(stdout).toMatch(/cancel/i);
    expect(code, stdout).not.toBeNull();
    expect(stoppedAfterMs).toBeLessThan(15_000);
    expect(git(h.remote, "branch", "--list", `inkwell/${dispatched.jobId}`)).toBe("");
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "failed", error: expect.stringMatching(/^Cancelled by an API key/) });
  });

  it("fails visibly, with the reason, when the provider keeps failing", async () => {
    h.model.setScript(() => ({ status: 400, error: "model 'scripted' does not exist" }));
    const dispatched = await h.createJob("This run will fail");
    const { env } = h.bundleEnv(dispatched, checkout(h.remote));
    const { code, stdout } = await runBundle(env);

    expect(code).toBe(1);
    expect(stdout).toContain(`::error::Inkwell job ${dispatched.jobId} failed: the model provider failed: 400 model 'scripted' does not exist`);
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "failed" });
  });

  it("fails at once, naming each bad input", async () => {
    const dispatched = { jobId: "nojob", runAttempt: 1 };
    const { env } = h.bundleEnv(dispatched, checkout(h.remote), { model: "gpt-5", "max-turns": "0", draft: "maybe" });
    const { code, stdout } = await runBundle(env);

    expect(code).toBe(1);
    expect(stdout).toContain("::error::Invalid inputs: model must look like anthropic/<model>, openai/<model> or openai-compatible/<model>; max-turns must be at least 1; draft must be true or false");
  });

  it("fails at once outside an Inkwell dispatch", async () => {
    const { env } = h.bundleEnv({ jobId: "x", runAttempt: 1 }, checkout(h.remote));
    const { code, stdout } = await runBundle({ ...env, GITHUB_EVENT_NAME: "push" });

    expect(code).toBe(1);
    expect(stdout).toContain("::error::this workflow run was started by 'push', not by Inkwell");
  });
});
