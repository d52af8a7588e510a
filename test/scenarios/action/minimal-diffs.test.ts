import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkout, git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { steps } from "../../helpers/fake-model.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

/** A page written on Windows: CRLF, trailing blanks, single-quoted frontmatter. */
const PAGE = ["---", "title: 'Troubleshooting'", 'description: "When things go wrong"', "---", "", "# Troubleshooting  ", "", "If the CLI hangs, check your proxy.", "", "If it crashes, update it.\t", ""].join("\r\n");

describe("minimal diffs through the whole run", () => {
  it("a page rewritten to change one paragraph shows one changed line in the pushed branch, CRLF and all", async () => {
    const seed = checkout(h.remote);
    writeFileSync(path.join(seed, "troubleshooting.mdx"), PAGE);
    git(seed, "add", "troubleshooting.mdx");
    git(seed, "-c", "core.autocrlf=false", "commit", "--quiet", "-m", "Add troubleshooting");
    git(seed, "push", "--quiet", "origin", "HEAD:main");

    // The model reads the page as text and writes it back whole: LF, no trailing blanks, its own quoting.
    const rewritten = "---\ndescription: When things go wrong\ntitle: Troubleshooting\n---\n\n# Troubleshooting\n\nIf the CLI hangs, check your proxy and the HTTPS_PROXY variable.\n\nIf it crashes, update it.\n";
    h.model.setScript(steps({ tools: [{ name: "write_file", args: { path: "troubleshooting.mdx", content: rewritten, reason: "Mention HTTPS_PROXY." } }] }, { text: "Mentioned HTTPS_PROXY in troubleshooting" }));
    const dispatched = await h.createJob("Mention HTTPS_PROXY where the CLI hangs");
    const outcome = await h.run(dispatched);
    expect(outcome.status).toBe("completed");

    const pushed = git(h.remote, "show", `inkwell/${dispatched.jobId}:troubleshooting.mdx`);
    expect(pushed).toBe(PAGE.replace("check your proxy.", "check your proxy and the HTTPS_PROXY variable.").trimEnd());
    const diff = git(h.remote, "diff", "--numstat", "main", `inkwell/${dispatched.jobId}`, "--", "troubleshooting.mdx");
    expect(diff).toBe("1\t1\ttroubleshooting.mdx");
  });
});
