import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkout, git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText } from "../../helpers/fake-model.js";

/**
 * Stands in for `npx --yes mint@4 broken-links` (npm cannot be reached here) and prints as mint 4.2
 * does under CLI_TEST_MODE, terminal escapes included. Its rule is the one mint applies that the
 * gate does not: a snippet is not a page, so a link to /snippets/… is broken even though the file
 * exists; a link to a page that is not there is broken too.
 */
const FAKE_NPX = String.raw`#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
if (process.argv.slice(2).join(" ") !== "--yes mint@4 broken-links") { console.error("unexpected npx " + process.argv.slice(2).join(" ")); process.exit(2); }
fs.appendFileSync(process.env.FAKE_MINT_LOG || __filename + ".log", process.cwd() + " " + (process.env.CLI_TEST_MODE || "") + "\n");
const root = process.cwd();
const pages = [];
const walk = (dir) => { for (const entry of fs.readdirSync(dir, { withFileTypes: true })) { if (entry.name.startsWith(".")) continue; const full = path.join(dir, entry.name); if (entry.isDirectory()) walk(full); else if (entry.name.endsWith(".mdx")) pages.push(path.relative(root, full)); } };
walk(root);
const byFile = {};
for (const page of pages.sort()) {
  for (const match of fs.readFileSync(path.join(root, page), "utf8").matchAll(/\]\((\/[^)#\s]*)/g)) {
    const link = match[1];
    if (link.startsWith("/snippets/") || !fs.existsSync(path.join(root, link + ".mdx"))) (byFile[page] ||= []).push(link);
  }
}
const files = Object.keys(byFile);
if (files.length === 0) { console.log("success no broken links found"); process.exit(0); }
const clear = "\u001b[2K\u001b[1A\u001b[2K\u001b[G";
console.log(clear + "found " + files.reduce((n, f) => n + byFile[f].length, 0) + " broken links in " + files.length + " files\n");
for (const file of files) { console.log(clear + file + "\n"); byFile[file].forEach((link, i) => console.log(clear + " " + (i === byFile[file].length - 1 ? "└─" : "├─") + " " + link + "\n")); }
process.exit(1);
`;

let h: ActionHarness;
let fakeBin: string;
beforeAll(async () => {
  h = await startActionHarness("mintlify", () => ({ text: "unused" }));
  fakeBin = mkdtempSync(path.join(tmpdir(), "inkwell-fake-npx-"));
  writeFileSync(path.join(fakeBin, "npx"), FAKE_NPX);
  chmodSync(path.join(fakeBin, "npx"), 0o755);
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

describe("framework-check: Mintlify's own broken-link checker in the gate", () => {
  it("a link the gate accepts but mint broken-links refuses goes back to the agent; the repository's older broken link is not the agent's", async () => {
    h.model.setScript((request) => {
      const repairing = lastUserText(request).startsWith("Validation found");
      if (request.messages.at(-1)?.role === "tool") return { text: repairing ? "Link the install steps to the quickstart" : "Link the install steps" };
      const edit = repairing
        ? { find: "[install the CLI](/snippets/install)", replace: "[install the CLI](/quickstart#install-the-cli)" }
        : { find: "Use `acme send`.", replace: "Use `acme send` once you [install the CLI](/snippets/install)." };
      return { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", ...edit, reason: "Point readers at the install steps." } }] };
    });
    const invocations = path.join(fakeBin, "npx.log");
    const dispatched = await h.createJob("Link the install steps from the quickstart");
    const outcome = await h.run(dispatched, { inputs: { "framework-check": "true" }, processEnv: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` } });

    expect(outcome.status).toBe("completed");
    const feedback = h.model.requests.map(lastUserText).find((text) => text.startsWith("Validation found")) ?? "";
    expect(feedback).toContain("- quickstart.mdx:12: link '/snippets/install' is broken (Mintlify's broken-link checker, `mint broken-links`)");
    expect(feedback).not.toContain("retries-v1");
    expect(git(h.remote, "show", `inkwell/${dispatched.jobId}:quickstart.mdx`)).toContain("[install the CLI](/quickstart#install-the-cli)");
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toEqual({ passed: true, problems: [] });

    // Once on the starting commit in a separate worktree, then after each of the two edits in the workspace, always in test mode.
    const runs = readFileSync(invocations, "utf8").trim().split("\n");
    expect(runs).toHaveLength(3);
    expect(runs.every((line) => line.endsWith(" true"))).toBe(true);
    expect(runs[0]).not.toContain(outcome.workspace);
    expect(runs.slice(1)).toEqual([`${outcome.workspace} true`, `${outcome.workspace} true`]);
    expect(git(outcome.workspace, "worktree", "list").trim().split("\n")).toHaveLength(1);
    expect(outcome.logs.join("\n")).toMatch(/Mintlify's broken-link checker found 1 link\(s\) this run broke\.[\s\S]*Mintlify's broken-link checker passed\./);
  });

  it("a checker that cannot run (npm unreachable) leaves the gate's own check standing and says so", async () => {
    h.model.setScript((request) =>
      request.messages.at(-1)?.role === "tool"
        ? { text: "Mention acme send" }
        : { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find: "Use `acme send`.", replace: "Use `acme send` to send one.", reason: "Clearer." } }] },
    );
    const broken = mkdtempSync(path.join(tmpdir(), "inkwell-no-npx-"));
    writeFileSync(path.join(broken, "npx"), "#!/bin/sh\necho 'npm error code ENOTFOUND registry.npmjs.org' >&2\nexit 1\n");
    chmodSync(path.join(broken, "npx"), 0o755);
    const dispatched = await h.createJob("Say what acme send does");
    const outcome = await h.run(dispatched, { inputs: { "framework-check": "true" }, processEnv: { ...process.env, PATH: `${broken}:${process.env.PATH}` } });

    expect(outcome.status).toBe("completed");
    expect(outcome.logs.join("\n")).toContain("warning: Mintlify's broken-link checker could not run, so only the gate's own link check stands: `npx --yes mint@4 broken-links` failed (exit 1): npm error code ENOTFOUND");
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toEqual({ passed: true, problems: [] });
  });
});
