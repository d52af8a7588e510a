import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { Readable } from "node:stream";
import { runCli, type CliIo } from "../../../src/cli/run-cli.js";
import { lastUserText, steps, type ChatRequest } from "../../helpers/fake-model.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

const RETRIES_PAGE = `---
title: Retries
description: How Acme retries failed webhook deliveries.
---

## Retry schedule

Acme retries a failed delivery up to 5 times. See [signatures](/guides/webhooks#verify-signatures).
`;

describe("a docs team on a Mintlify site", () => {
  it("asks for a new page: the agent writes it, adds it to docs.json, and the PR explains each file", async () => {
    h.model.setScript(
      steps(
        { tools: [{ name: "list_files", args: {} }] },
        { tools: [{ name: "read_file", args: { path: "docs.json" } }] },
        {
          tools: [
            { name: "write_file", args: { path: "guides/retries.mdx", content: RETRIES_PAGE, reason: "New page on the retry schedule, as asked." } },
            { name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/retries"]', reason: "Lists the new retries page under Guides." } },
          ],
        },
        { text: "Document webhook retries\n\nAdded a Retries page under Guides and linked it in the navigation." },
      ),
    );
    const dispatched = await h.createJob("Add a page about webhook retries");
    const outcome = await h.run(dispatched);

    expect(outcome).toMatchObject({ status: "completed", prUrl: expect.stringMatching(/\/pull\/1$/) });
    const job = await h.job(dispatched.jobId);
    expect(job).toMatchObject({ status: "completed", prLink: outcome.prUrl, model: "openai-compatible/scripted-2026-01-01" });
    // What the run did, as a client polling the job sees it.
    expect(job).toMatchObject({
      summary: expect.stringMatching(/retries/i),
      files: [
        { path: "docs.json", change: "modified" },
        { path: "guides/retries.mdx", change: "added" },
      ],
      validation: { passed: true, problems: [] },
      progress: null,
    });
    // Each page with the site path it is served at, so its readers can be matched with the change.
    expect(job.files).toEqual([
      { path: "docs.json", change: "modified" },
      { path: "guides/retries.mdx", change: "added", page: "/guides/retries" },
    ]);
    expect(job.usage).toMatchObject({ turns: h.model.requests.length, estimatedCostUsd: null });
    expect(job.usage.inputTokens).toBeGreaterThan(0);
    expect(job.usage.durationMs).toBeGreaterThan(0);
    const runs = (await h.server.call("GET", `/v2/agent/${h.projectId}/job/${dispatched.jobId}/runs`, { token: h.apiKey })).body.runs;
    expect(runs).toEqual([expect.objectContaining({ attempt: 1, outcome: "completed", trigger: { source: "api", author: null }, workflowRunUrl: expect.stringMatching(/actions\/runs\/4001$/), usage: job.usage, hasTranscript: true })]);
    // Where the run's time went, in order, on the path and in the background.
    const phases: Array<{ name: string; background?: boolean }> = runs[0].phases;
    expect(phases.filter((phase) => !phase.background).map((phase) => phase.name)).toEqual(["claim", "checkout", "agent (round 1)", "gate (round 1)", "commit", "push", "pull request"]);
    // The tree the run started from is written beside the model's work, for the gate's before-and-after.
    expect(phases.find((phase) => phase.name === "the starting tree written")?.background).toBe(true);
    expect(runs[0].phases.every((phase: { ms: number }) => Number.isInteger(phase.ms) && phase.ms >= 0)).toBe(true);
    // `inkwell jobs get` says it in one line.
    const printed: string[] = [];
    const io: CliIo = {
      stdout: (text) => void printed.push(text),
      stderr: (text) => void printed.push(text),
      env: { INKWELL_URL: h.server.url, INKWELL_API_KEY: h.apiKey, INKWELL_PROJECT: h.projectId },
      fetch: globalThis.fetch,
      readStdin: async () => "",
      stdinStream: () => Readable.from([]),
      sleep: async () => undefined,
    };
    expect(await runCli(["jobs", "get", dispatched.jobId], io), printed.join("\n")).toBe(0);
    const timeLine = printed.join("\n").split("\n").find((line) => line.startsWith("Time of run 1: ")) ?? "";
    expect(timeLine).toMatch(/ · the starting tree written \d+\.\d s \(background\)/);
    // The critical path in order, once the background work beside it is set apart.
    expect(timeLine.split(" · ").filter((part) => !part.endsWith("(background)")).join(" · ")).toMatch(/^Time of run 1: claim \d+\.\d s · checkout \d+\.\d s · agent \(round 1\) \d+\.\d s · gate \(round 1\) \d+\.\d s · commit .* · pull request \d+\.\d s$/);

    // The run's transcript: the instruction, each tool call and its result, the answer; no token or key in it.
    const transcript = await h.server.call("GET", `/v2/agent/${h.projectId}/job/${dispatched.jobId}/runs/1/transcript`, { token: h.apiKey });
    expect(transcript.status).toBe(200);
    const kinds = transcript.body.entries.map((e: { kind: string; tool?: string }) => `${e.kind}${e.tool ? `:${e.tool}` : ""}`);
    expect(kinds.slice(0, 3)).toEqual(["system", "instruction", "tool_call:list_files"]);
    expect(kinds).toEqual(expect.arrayContaining(["tool_call:write_file", "tool_result:write_file", "tool_call:edit_file", "assistant"]));
    expect(transcript.body.entries.find((e: { kind: string }) => e.kind === "instruction").text).toContain("Add a page about webhook retries");
    expect(transcript.body.entries.find((e: { tool?: string; kind: string }) => e.kind === "tool_call" && e.tool === "write_file").text).toContain('"path":"guides/retries.mdx"');
    expect(transcript.body.elided).toBe(0);
    const stored = JSON.stringify(transcript.body);
    for (const secret of ["ghs_inst_", "sk-test", "eyJ"]) expect(stored).not.toContain(secret);
    expect((await h.server.call("GET", `/v2/agent/${h.projectId}/job/${dispatched.jobId}/runs/2/transcript`, { token: h.apiKey })).status).toBe(404);
    expect((await h.server.call("GET", `/v2/agent/${h.projectId}/job/${dispatched.jobId}/runs/0/transcript`, { token: h.apiKey })).status).toBe(404);

    const branch = `inkwell/${dispatched.jobId}`;
    expect(git(h.remote, "show", `${branch}:guides/retries.mdx`)).toBe(RETRIES_PAGE.trimEnd());
    expect(JSON.parse(git(h.remote, "show", `${branch}:docs.json`)).navigation.groups[1].pages).toEqual(["guides/webhooks", "guides/retries"]);
    expect(git(h.remote, "log", "-1", "--format=%an <%ae>|%s", branch)).toBe("inkwell-docs[bot] <9000001+inkwell-docs[bot]@users.noreply.github.com>|Document webhook retries");

    const [pr] = h.github.pulls;
    expect(pr).toMatchObject({ head: branch, base: "main", title: "Document webhook retries", draft: false });
    expect(pr?.body).toContain("- `guides/retries.mdx` (added): New page on the retry schedule, as asked.");
    expect(pr?.body).toContain("- `docs.json` (modified): Lists the new retries page under Guides.");
    expect(pr?.body).toContain("> Add a page about webhook retries");
    expect(pr?.body).toContain("Passed:");
    expect(pr?.body).toMatch(new RegExp(`\\[transcript, cost and history\\]\\(http://127\\.0\\.0\\.1:\\d+/dashboard/projects/${h.projectId}/jobs/${dispatched.jobId}\\)`));

    // Heartbeats carried progress lines (the tracking comment shows the latest).
    const [run] = await h.server.store.db.query<{ progress: string | null }>(`SELECT progress FROM job_runs WHERE job_id = $1`, [dispatched.jobId]);
    expect(run?.progress).toMatch(/^(Working: \d+ tool calls in \d+ turns|Validating \d+ changed file|Pushing \d+ file)/);

    const first = h.model.requests[0] as ChatRequest;
    const system = JSON.stringify(first.messages[0]);
    expect(system).toContain("Use sentence case in headings.");
    expect(system).toContain("docs.json");
    expect(lastUserText(first)).toContain("Add a page about webhook retries");
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(["ask_question", "delete_file", "edit_file", "list_files", "move_file", "read_file", "search_text", "write_file"]);
  });

  it("sends a follow-up: the same branch and the same PR change, with title and body regenerated", async () => {
    h.model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "guides/limits.mdx", content: "---\ntitle: Limits\ndescription: Rate limits.\n---\n\n## Limits\n\n100 per second.\n", reason: "Documents the rate limits." } }] },
        { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/limits"]', reason: "Lists the limits page." } }] },
        { text: "Document rate limits\n\nAdded a Limits page." },
      ),
    );
    const first = await h.createJob("Document our rate limits");
    const opened = await h.run(first);
    expect(opened.status).toBe("completed");
    const pullsBefore = h.github.pulls.length;

    h.model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "guides/limits.mdx", find: "100 per second.", replace: "100 requests per second per API key.", reason: "Says what the limit applies to, as the reviewer asked." } }] },
        { text: "Document rate limits per API key\n\nThe limit is per API key." },
      ),
    );
    const again = await h.followUp(first.jobId, "Say that the limit is per API key");
    expect(again.runAttempt).toBe(2);
    const continued = await h.run(again);

    expect(continued).toMatchObject({ status: "completed", prUrl: opened.prUrl });
    expect(h.github.pulls.length).toBe(pullsBefore);
    const pr = h.github.pulls.find((p) => p.html_url === opened.prUrl);
    expect(pr?.title).toBe("Document rate limits per API key");
    expect(pr?.body).toContain("- `guides/limits.mdx` (added): Documents the rate limits.; Says what the limit applies to, as the reviewer asked.");
    expect(pr?.body).toMatch(/> Document our rate limits[\s\S]*> Say that the limit is per API key/);
    const branch = `inkwell/${first.jobId}`;
    expect(git(h.remote, "log", "--format=%s", `main..${branch}`).split("\n")).toEqual(["Document rate limits per API key", "Document rate limits"]);
    expect(git(h.remote, "show", `${branch}:guides/limits.mdx`)).toContain("100 requests per second per API key.");
    // The second run saw the whole history: both instructions, the first marked as done.
    const instructions = lastUserText(h.model.requests[0] as ChatRequest);
    expect(instructions).toContain("Earlier instructions of this job");
    expect(instructions).toContain("Document our rate limits");
    expect(instructions).toContain("Say that the limit is per API key");
    expect(instructions).toContain("guides/limits.mdx");
    expect((await h.job(first.jobId)).status).toBe("completed");
  });

  it("repairs a page whose first version breaks MDX once the gate reports it", async () => {
    const broken = "---\ntitle: Errors\ndescription: Error codes.\n---\n\n<Note>\nUnclosed note\n\n## Codes\n";
    const fixed = "---\ntitle: Errors\ndescription: Error codes.\n---\n\n<Note>\nRetry on 5xx.\n</Note>\n\n## Codes\n";
    h.model.setScript((request) => {
      const feedback = lastUserText(request);
      if (feedback.startsWith("Validation found")) {
        return request.messages.at(-1)?.role === "tool" ? { text: "Document error codes\n\nFixed the note." } : { tools: [{ name: "write_file", args: { path: "errors.mdx", content: fixed, reason: "Closes the note." } }] };
      }
      if (request.messages.at(-1)?.role === "tool") {
        const done = request.messages.some((m) => m.role === "tool" && JSON.stringify(m.content).includes("docs.json"));
        return done ? { text: "Document error codes" } : { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["index", "quickstart"]', replace: '"pages": ["index", "quickstart", "errors"]', reason: "Lists the errors page." } }] };
      }
      return { tools: [{ name: "write_file", args: { path: "errors.mdx", content: broken, reason: "New page on error codes." } }] };
    });
    const dispatched = await h.createJob("Add a page listing error codes");
    const outcome = await h.run(dispatched);

    expect(outcome.status).toBe("completed");
    const feedbackRequest = h.model.requests.find((r) => lastUserText(r).startsWith("Validation found"));
    expect(lastUserText(feedbackRequest as ChatRequest)).toMatch(/errors\.mdx:\d+(:\d+)?: does not compile as MDX/);
    const branch = `inkwell/${dispatched.jobId}`;
    expect(git(h.remote, "show", `${branch}:errors.mdx`)).toContain("</Note>");
    const pr = h.github.pulls.find((p) => p.head === branch);
    expect(pr).toMatchObject({ draft: false });
    expect(pr?.body).toContain("Passed:");
    expect(pr?.body).toMatch(new RegExp(`\\[transcript, cost and history\\]\\(http://127\\.0\\.0\\.1:\\d+/dashboard/projects/${h.projectId}/jobs/${dispatched.jobId}\\)`));
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toEqual({ passed: true, problems: [] });
    expect(report).toMatchObject({ outcome: "completed", model: "openai-compatible/scripted-2026-01-01", turns: h.model.requests.length, filesChanged: ["docs.json", "errors.mdx"] });
  });

  it("opens a draft PR listing what still fails when the repair rounds run out", async () => {
    h.model.setScript((request) =>
      request.messages.at(-1)?.role === "tool"
        ? { text: "Add a broken page" }
        : { tools: [{ name: "write_file", args: { path: "broken.mdx", content: "---\ntitle: Broken\n---\n\nSee [nowhere](/does-not-exist) and {oops\n", reason: "Attempt." } }] },
    );
    const dispatched = await h.createJob("Add a page that will not validate");
    const outcome = await h.run(dispatched, { repairRounds: 1 });

    expect(outcome.status).toBe("completed");
    const pr = h.github.pulls.find((p) => p.head === `inkwell/${dispatched.jobId}`);
    expect(pr?.draft).toBe(true);
    expect(pr?.body).toMatch(/problem\(s\) remain/);
    expect(pr?.body).toContain("broken.mdx");
    expect(pr?.body).toContain("new page is not in the navigation (docs.json)");
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation.passed).toBe(false);
    expect(report?.validation.problems).toEqual(expect.arrayContaining([expect.stringContaining("broken.mdx"), expect.stringContaining("not in the navigation")]));
    // One feedback round, then stop: 2 rounds × (write + answer) model calls.
    expect(h.model.requests.filter((r) => lastUserText(r).startsWith("Validation found")).length).toBe(2);

    // The same result as a failed check run on the pushed commit, each problem at its file and line, linked from the PR.
    const check = h.github.checkRuns.at(-1);
    expect(check).toMatchObject({ name: "Inkwell docs validation", status: "completed", conclusion: "failure", head_sha: git(h.remote, "rev-parse", `inkwell/${dispatched.jobId}`) });
    expect(check?.output.title).toBe(`${report?.validation.problems.length} problems`);
    expect(check?.annotations).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "broken.mdx", start_line: expect.any(Number), annotation_level: "failure", message: expect.stringMatching(/does-not-exist|oops|expression/i) })]),
    );
    expect(check?.annotations.every((a) => a.path === "broken.mdx" || a.path === "docs.json")).toBe(true);
    expect(pr?.body).toContain(`See the [check run](${check?.html_url})`);
  });

  it("a docs.json the project's gate accepts but Mintlify's own schema refuses is caught and repaired", async () => {
    h.model.setScript((request) => {
      const repairing = lastUserText(request).startsWith("Validation found");
      if (request.messages.at(-1)?.role === "tool") return { text: repairing ? "Use a hex primary colour" : "Make the primary colour purple" };
      return repairing
        ? { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"primary": "purple"', replace: '"primary": "#7C3AED"', reason: "Mintlify wants a hex colour." } }] }
        : { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"primary": "#6D28D9"', replace: '"primary": "purple"', reason: "Purple." } }] };
    });
    const dispatched = await h.createJob("Make the primary colour purple");
    const outcome = await h.run(dispatched);

    expect(outcome.status).toBe("completed");
    const feedback = h.model.requests.map(lastUserText).find((text) => text.startsWith("Validation found"));
    expect(feedback).toMatch(/- docs\.json: colors\.primary: .*\(Mintlify's docs\.json schema\)/);
    expect(JSON.parse(git(h.remote, "show", `inkwell/${dispatched.jobId}:docs.json`)).colors.primary).toBe("#7C3AED");
    expect((await h.reports(dispatched.jobId))[0]?.validation).toEqual({ passed: true, problems: [] });
  });

  it("a passing run's check run succeeds; an App without the Checks permission still opens its PR, with a warning", async () => {
    h.model.setScript(steps({ tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Run `npm install -g acme`.", replace: "Run `npm install -g acme` (Node 20+).", reason: "Node version." } }] }, { text: "Say the Node version" }));
    const passing = await h.createJob("Say which Node version");
    expect((await h.run(passing)).status).toBe("completed");
    expect(h.github.checkRuns.at(-1)).toMatchObject({ conclusion: "success", annotations: [], output: { title: "Passed" } });

    h.github.options.checksPermission = false;
    try {
      h.model.setScript(steps({ tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Run `npm install -g acme`.", replace: "Run `npm i -g acme`.", reason: "Shorter." } }] }, { text: "Shorten the install line" }));
      const refused = await h.createJob("Shorten the install command");
      const outcome = await h.run(refused);
      expect(outcome.status).toBe("completed");
      expect(outcome.logs.join("\n")).toMatch(/Could not publish the validation as a check run \(the App needs the Checks: write permission/);
      expect(h.github.pulls.find((p) => p.head === `inkwell/${refused.jobId}`)?.body).not.toContain("check run");
    } finally {
      h.github.options.checksPermission = true;
    }
  });

  it("completes with no PR when nothing needs to change", async () => {
    h.model.setScript(steps({ tools: [{ name: "search_text", args: { pattern: "signature", glob: "**/*.mdx" } }] }, { text: "Nothing to change\n\nThe webhooks page already documents signatures." }));
    const dispatched = await h.createJob("Make sure signatures are documented");
    const pulls = h.github.pulls.length;
    const outcome = await h.run(dispatched);

    expect(outcome).toMatchObject({ status: "completed", prUrl: null });
    expect(h.github.pulls.length).toBe(pulls);
    expect(git(h.remote, "branch", "--list", `inkwell/${dispatched.jobId}`)).toBe("");
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "completed", prLink: null });
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).toContain("guides/webhooks.mdx");
  });

  it("renames a page: a redirect is added, navigation follows, and links into the old page resolve through the redirect (as Mintlify's checker has them)", async () => {
    h.model.setScript((request) => {
      const afterTool = request.messages.at(-1)?.role === "tool";
      if (afterTool) return { text: "Rename the webhooks page to events\n\nMoved the page; its old URL redirects." };
      return { tools: [{ name: "move_file", args: { from: "guides/webhooks.mdx", to: "guides/events.mdx", reason: "The product calls them events now." } }] };
    });
    const dispatched = await h.createJob("Rename the webhooks guide to events");
    const outcome = await h.run(dispatched);

    expect(outcome.error ?? outcome.status).toBe("completed");
    const moveResult = JSON.stringify(h.model.requests[1]?.messages.at(-1));
    expect(moveResult).toContain("Also added a redirect /guides/webhooks → /guides/events to docs.json");
    // No repair round: index.mdx and quickstart.mdx still link /guides/webhooks, which the redirect answers.
    expect(h.model.requests.some((r) => lastUserText(r).startsWith("Validation found"))).toBe(false);

    const branch = `inkwell/${dispatched.jobId}`;
    const config = JSON.parse(git(h.remote, "show", `${branch}:docs.json`));
    expect(config.redirects).toEqual([{ source: "/guides/webhooks", destination: "/guides/events" }]);
    expect(config.navigation.groups[1].pages).toContain("guides/events");
    expect(config.navigation.groups[1].pages).not.toContain("guides/webhooks");
    const pr = h.github.pulls.find((p) => p.head === branch);
    expect(pr?.body).toContain("- `guides/events.mdx` (renamed from `guides/webhooks.mdx`): The product calls them events now.");
    expect(pr?.draft).toBe(false);
  });
});
