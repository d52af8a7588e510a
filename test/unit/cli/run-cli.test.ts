import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command-context.js";
import { USAGE, runCli } from "../../../src/cli/run-cli.js";

// The help as it was before the CLI was split into one module per noun: it is composed from
// those modules now and must not change by a byte.
const HELP = `Usage: inkwell <command> [options]

Operator (token: --token or INKWELL_ADMIN_TOKEN):
  projects create <owner/repo|url> [--ref BRANCH] [--name NAME] [--model MODEL] [--rate-limit N]
  projects list
  projects get <projectId>
  projects update <projectId> [--allowed-origin ORIGIN]… [--no-allowed-origins] [--salt-window day|week|month] [--markdown-as-page true|false] [--allowed-model MODEL]… [--no-allowed-models]
  keys create --project ID [--name NAME]
  keys list --project ID
  keys revoke --project ID <keyId>
  webhooks create --project ID <url> [--event job.completed|job.failed|job.archived|job.pull_request_opened]… [--format standard|slack]
  webhooks list --project ID
  webhooks delete --project ID <webhookId>
  webhooks deliveries --project ID <webhookId> [--limit N]
  webhooks redeliver --project ID <webhookId> <deliveryId>
  agents ranges
  agents refresh   (the server fetches each list from its operator; needs internet)

Agent jobs (key: --key or INKWELL_API_KEY; project: --project or INKWELL_PROJECT):
  jobs create <prompt…>            (or --prompt-file FILE, or - to read stdin) [--idempotency-key K]
  jobs get <jobId>
  jobs message <jobId> <prompt…>   (or --prompt-file FILE, or -)
  jobs cancel <jobId>              stops an active job (it becomes failed); a finished job is left as it is
  jobs runs <jobId>                each run: trigger, times, outcome, tokens
  jobs list [--status active|completed|failed|archived] [--limit N] [--offset N]
  jobs watch <jobId> [--interval SECONDS]   exits 0 when completed/archived, 3 when failed

Analytics (key and project as above; dates YYYY-MM-DD, --to excluded):
  analytics visitors [--from DATE] [--to DATE] [--format html|markdown|llms.txt|text] [--limit N] [--offset N] [--all]
  analytics views    [--from DATE] [--to DATE] [--format html|markdown|llms.txt|text] [--limit N] [--offset N] [--all]
  analytics agents   [--from DATE] [--to DATE] [--category assistant|crawler|search] [--limit N] [--offset N] [--all]
  analytics agent-pages <AGENT> [--from DATE] [--to DATE] [--limit N] [--offset N] [--all]
  analytics failures [--from DATE] [--to DATE] [--limit N] [--offset N] [--all]
  analytics import --format combined|vercel|cloudflare <FILE|->

Global options:
  --url URL      Inkwell server (INKWELL_URL, default http://localhost:3000)
  --json         print JSON instead of tables
  -h, --help     this help

Exit codes: 0 ok, 1 error, 2 usage error, 3 watched job failed.`;

/** Runs the CLI with no server: any request it makes is recorded and refused. */
async function run(argv: string[], env: Record<string, string> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const requests: string[] = [];
  const io: CliIo = {
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    env: { INKWELL_URL: "http://inkwell.test", ...env },
    fetch: async (url) => {
      requests.push(String(url));
      throw new TypeError("fetch failed");
    },
    readStdin: async () => "",
    stdinStream: () => {
      throw new Error("stdin is not read in these tests");
    },
    sleep: async () => {},
  };
  const code = await runCli(argv, io);
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n"), requests };
}

describe("inkwell help and usage errors", () => {
  it("prints the same help as before the split", async () => {
    expect(USAGE).toBe(HELP);
    expect(await run(["--help"])).toEqual({ code: 0, stdout: HELP, stderr: "", requests: [] });
    expect(await run(["jobs", "list", "-h"])).toEqual({ code: 0, stdout: HELP, stderr: "", requests: [] });
  });

  it("exits 2 with the help when no command is given", async () => {
    expect(await run([])).toEqual({ code: 2, stdout: HELP, stderr: "", requests: [] });
  });

  it.each([
    [["bogus"], "bogus"],
    [["bogus", "thing"], "bogus thing"],
    [["jobs"], "jobs"],
    [["jobs", "bogus"], "jobs bogus"],
    [["projects", "watch"], "projects watch"],
    [["jobs", "constructor"], "jobs constructor"],
    [["toString", "x"], "toString x"],
  ])("exits 2 on an unknown command or subcommand: %j", async (argv, named) => {
    expect(await run(argv, { INKWELL_API_KEY: "k", INKWELL_PROJECT: "p" })).toEqual({
      code: 2,
      stdout: "",
      stderr: `inkwell: Unknown command: ${named}\n\n${HELP}`,
      requests: [],
    });
  });

  it("exits 2 on an unknown option, naming it before the help", async () => {
    const result = await run(["jobs", "list", "--nope"]);
    expect(result.code).toBe(2);
    expect(result.stderr.startsWith("Unknown option '--nope'")).toBe(true);
    expect(result.stderr.endsWith(`\n\n${HELP}`)).toBe(true);
    expect(result.requests).toEqual([]);
  });

  it("follows a missing argument with the help, but not a bad option value", async () => {
    expect(await run(["keys", "revoke", "--project", "p1"], { INKWELL_ADMIN_TOKEN: "t" })).toEqual({
      code: 2,
      stdout: "",
      stderr: `inkwell: Missing key id\n\n${HELP}`,
      requests: [],
    });
    expect(await run(["jobs", "list", "--limit", "abc"], { INKWELL_API_KEY: "k", INKWELL_PROJECT: "p" })).toEqual({
      code: 2,
      stdout: "",
      stderr: "inkwell: --limit must be a non-negative integer",
      requests: [],
    });
  });

  it("exits 2 on a --url that is not a URL, before any command runs", async () => {
    expect(await run(["bogus", "--url", "not a url"])).toEqual({ code: 2, stdout: "", stderr: "inkwell: --url is not a valid URL: not a url", requests: [] });
  });
});
