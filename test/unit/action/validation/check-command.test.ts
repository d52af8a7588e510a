import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commandEnvironment, fileProblems, runCheckCommand, withCheckCommand } from "../../../../src/action/validation/check-command.js";

const cwd = mkdtempSync(path.join(tmpdir(), "inkwell-check-"));
const env = commandEnvironment(process.env);

describe("check-command", () => {
  it("passes on exit 0, and a failure gives the agent each file:line line and the end of the output", async () => {
    expect(await runCheckCommand("echo building; true", cwd, { timeoutMs: 10_000, env })).toMatchObject({ passed: true });
    const failed = await runCheckCommand("echo '[ERROR] docs/intro.md:14: broken link to /nowhere' >&2; echo 'Build failed'; exit 2", cwd, { timeoutMs: 10_000, env });
    expect(failed).toMatchObject({ passed: false });
    const problems = failed.passed ? [] : failed.problems;
    expect(problems[0]).toBe("docs/intro.md:14: broken link to /nowhere");
    expect(problems[1]).toMatch(/^check-command `.*` failed \(exit 2\); the end of its output:\n/);
    // stdout and stderr both, in whatever order they arrived.
    expect(problems[1]).toContain("Build failed");
    expect(problems[1]).toContain("[ERROR] docs/intro.md:14: broken link to /nowhere");
  });

  it("is stopped at its time limit, with everything it started", async () => {
    const started = Date.now();
    const result = await runCheckCommand("sleep 30 & sleep 30; wait", cwd, { timeoutMs: 300, env });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.passed ? "" : result.problems.at(-1)).toMatch(/did not finish within 0 s/);
  });

  it("sees none of the run's secrets", async () => {
    const secrets = { ...process.env, "INPUT_API-KEY": "sk-secret", ACTIONS_ID_TOKEN_REQUEST_TOKEN: "oidc-secret", GITHUB_TOKEN: "ghs_secret", INKWELL_TOKEN: "x" };
    const result = await runCheckCommand("env | grep -E 'secret|INPUT_|ACTIONS_|GITHUB_TOKEN' && exit 1 || exit 0", cwd, { timeoutMs: 10_000, env: commandEnvironment(secrets) });
    expect(result.passed).toBe(true);
    expect(Object.keys(commandEnvironment(secrets))).toContain("PATH");
  });

  it("reads the file and line from the usual build outputs", () => {
    expect(
      fileProblems(["docs/guide.mdx:3:10 - error Unexpected character", "WARNING -  Doc file 'a.md' contains a link", "  src/pages/x.tsx:12:4: Cannot find module", "nothing here"].join("\n")),
    ).toEqual(["docs/guide.mdx:3: error Unexpected character", "src/pages/x.tsx:12: Cannot find module"]);
  });

  it("runs only when the gate passed, and only when there is one", async () => {
    const failing = { passed: false, problems: ["a.mdx:1: does not compile"] };
    expect(await withCheckCommand(failing, { command: "exit 1", cwd, timeoutMs: 1_000, env: process.env }, () => undefined)).toBe(failing);
    const passing = { passed: true, problems: [] };
    expect(await withCheckCommand(passing, { command: null, cwd, timeoutMs: 1_000, env: process.env }, () => undefined)).toBe(passing);
    expect((await withCheckCommand(passing, { command: "exit 3", cwd, timeoutMs: 5_000, env: process.env }, () => undefined)).passed).toBe(false);
  });
});
