import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkout, git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText } from "../../helpers/fake-model.js";
import { writeFakeLinkRot } from "../../helpers/fake-link-rot.js";
import { linkCheckerPlace, vendoredLockDir } from "../../../src/action/validation/link-checker.js";
import type { RunPhase } from "../../../src/action/phases.js";

let h: ActionHarness;
/** A runner's tool cache that already holds the pinned engine (a stand-in: the registry cannot be reached here). */
let toolCache: string;
let checks: string;
beforeAll(async () => {
  h = await startActionHarness("mintlify", () => ({ text: "unused" }));
  toolCache = mkdtempSync(path.join(tmpdir(), "inkwell-tool-cache-"));
  checks = path.join(toolCache, "checks.log");
  writeFakeLinkRot(path.join(linkCheckerPlace(toolCache, vendoredLockDir() as string).directory, "node_modules", "@mintlify", "link-rot"), checks);
  // The repository already has a broken link (not the agent's) and a snippet.
  const seed = checkout(h.remote);
  mkdirSync(path.join(seed, "snippets"));
  writeFileSync(path.join(seed, "snippets", "install.mdx"), "Run `npm install -g acme`.\n");
  writeFileSync(path.join(seed, "guides", "webhooks.mdx"), `${readFileSync(path.join(seed, "guides", "webhooks.mdx"), "utf8")}\nSee the [old retries page](/guides/retries-v1).\n`);
  git(seed, "add", "-A");
  git(seed, "-c", "user.name=Docs", "-c", "user.email=docs@example.com", "commit", "-qm", "Install snippet");
  git(seed, "push", "-q", "origin", "HEAD:main");
});
afterAll(() => h.close());

describe("framework-check: Mintlify's own broken-link engine in the gate", () => {
  it("a link the gate accepts but Mintlify's link checker refuses goes back to the agent; the repository's older broken link is not the agent's", async () => {
    h.model.setScript((request) => {
      const repairing = lastUserText(request).startsWith("Validation found");
      if (request.messages.at(-1)?.role === "tool") return { text: repairing ? "Link the install steps to the quickstart" : "Link the install steps" };
      const edit = repairing
        ? { find: "[install the CLI](/snippets/install)", replace: "[install the CLI](/quickstart#install-the-cli)" }
        : { find: "Use `acme send`.", replace: "Use `acme send` once you [install the CLI](/snippets/install)." };
      return { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", ...edit, reason: "Point readers at the install steps." } }] };
    });
    const dispatched = await h.createJob("Link the install steps from the quickstart");
    const outcome = await h.run(dispatched, { inputs: { "framework-check": "true" }, processEnv: { ...process.env, RUNNER_TOOL_CACHE: toolCache } });

    expect(outcome.status).toBe("completed");
    const feedback = h.model.requests.map(lastUserText).find((text) => text.startsWith("Validation found")) ?? "";
    expect(feedback).toContain("- quickstart.mdx:12: link '/snippets/install' is broken (Mintlify's broken-link checker)");
    expect(feedback).not.toContain("retries-v1");
    expect(git(h.remote, "show", `inkwell/${dispatched.jobId}:quickstart.mdx`)).toContain("[install the CLI](/quickstart#install-the-cli)");
    const [report] = await h.reports(dispatched.jobId);
    const older = "guides/webhooks.mdx:18: link '/guides/retries-v1' is broken (Mintlify's broken-link checker)";
    expect(report?.validation).toEqual({ passed: true, problems: [], alreadyOnSite: [older], alreadyOnSiteCount: 1 });
    expect(h.github.pulls.find((pull) => pull.head === `inkwell/${dispatched.jobId}`)?.body).toContain(`- ${older}`);

    // Once on the tree the run started from (a folder of its own, removed when the run ends), then once per validation round on the workspace.
    const [baseline, ...rounds] = readFileSync(checks, "utf8").trim().split("\n");
    expect(baseline).toMatch(/inkwell-before-/);
    expect(existsSync(baseline as string)).toBe(false);
    expect(rounds).toEqual([outcome.workspace, outcome.workspace]);
    expect(git(outcome.workspace, "worktree", "list").trim().split("\n")).toHaveLength(1);
    expect(outcome.logs.join("\n")).toMatch(/Mintlify's broken-link checker found 1 link\(s\) this run broke\.[\s\S]*Mintlify's broken-link checker passed\./);
    // The run's time, phase by phase, in the report and the outcome (the Action's `phases` output).
    const reported = (report?.phases ?? []) as RunPhase[];
    const names = reported.map((phase) => phase.name);
    expect(names).toEqual(expect.arrayContaining(["claim", "checkout", "agent (round 1)", "gate (round 1)", "link checker ready (tool cache)", "link check (round 1)", "agent (round 2)", "gate (round 2)", "link check (round 2)", "commit", "push", "pull request"]));
    expect(reported.find((phase) => phase.name === "link checker ready (tool cache)")?.background).toBe(true);
    expect(outcome.phases.map((phase) => phase.name).at(-1)).toBe("report");
  });

  it("a checker that cannot be had (npm cannot reach the registry) leaves the gate's own check standing and says so", async () => {
    h.model.setScript((request) =>
      request.messages.at(-1)?.role === "tool"
        ? { text: "Mention acme send" }
        : { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Use `acme send`.", replace: "Use `acme send` to send one.", reason: "Clearer." } }] },
    );
    const emptyToolCache = mkdtempSync(path.join(tmpdir(), "inkwell-empty-tools-"));
    const offline = { npm_config_offline: "true", npm_config_cache: mkdtempSync(path.join(tmpdir(), "inkwell-empty-npm-cache-")) };
    const dispatched = await h.createJob("Say what acme send does");
    const outcome = await h.run(dispatched, { inputs: { "framework-check": "true" }, processEnv: { ...process.env, RUNNER_TOOL_CACHE: emptyToolCache, ...offline } });

    expect(outcome.status).toBe("completed");
    expect(outcome.logs.join("\n")).toMatch(/warning: Mintlify's broken-link checker is not available, so only the gate's own link check stands: `npm ci --ignore-scripts [^`]*` failed \(exit \d+\): .*(ENOTCACHED|offline)/);
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toEqual({ passed: true, problems: [] });
  });
});
