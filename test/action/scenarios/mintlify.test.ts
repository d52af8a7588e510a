import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
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

    const first = h.model.requests[0] as ChatRequest;
    const system = JSON.stringify(first.messages[0]);
    expect(system).toContain("Use sentence case in headings.");
    expect(system).toContain("docs.json");
    expect(lastUserText(first)).toContain("Add a page about webhook retries");
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(["delete_file", "edit_file", "list_files", "move_file", "read_file", "search_text", "write_file"]);
  });
});
