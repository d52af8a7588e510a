import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command-context.js";
import { NOUN_NAMES as NOUNS } from "../../../src/cli/commands/command-usage.js";
import { USAGE, runCli } from "../../../src/cli/run-cli.js";

const NOUN_NAMES = NOUNS.join(", ");

// The whole help, byte for byte: it is composed from every command's usage line
// (commands/command-usage.ts), and a change to any of them shows here.
const HELP = `Usage: inkwell <command> [options]

Operator (token: --token or INKWELL_ADMIN_TOKEN):
  projects create <owner/repo|url> [--ref BRANCH] [--name NAME] [--model MODEL] [--rate-limit N]
  projects connect-gitlab <group/project|url|id> --gitlab-url URL [--gitlab-token TOKEN (or INKWELL_GITLAB_TOKEN)] [--ref BRANCH] [--name NAME] [--model MODEL] [--rate-limit N]
  projects list
  projects get <projectId>
  projects update <projectId> [--allowed-origin ORIGIN]… [--no-allowed-origins] [--salt-window day|week|month] [--markdown-as-page true|false] [--allowed-model MODEL]… [--no-allowed-models] [--plan-approval|--no-plan-approval] [--wait-limit-days N] [--check-repair-rounds N]
  keys create --project ID [--name NAME] [--scope views|analytics|jobs|all]…
  keys list --project ID
  keys revoke --project ID <keyId>
  keys grants --project ID
  keys revoke-grant --project ID <grantId>
  webhooks create --project ID <url> [--event job.completed|job.failed|job.archived|job.pull_request_opened|job.impact|job.created|job.run_started|job.waiting|job.run_finished]… [--format standard|slack]
  webhooks list --project ID
  webhooks delete --project ID <webhookId>
  webhooks deliveries --project ID <webhookId> [--limit N]
  webhooks redeliver --project ID <webhookId> <deliveryId>
  slack status
  slack manifest [--mode http|socket]   the Slack app manifest to create the app from
  slack channels --project ID
  slack map --project ID <channelId> [--group USERGROUP_ID]… [--any-reply]   a mention in the channel starts a job on the project
  slack unmap --project ID <channelId>
  automations create --project ID (--source owner/repo|group/project [--label L] [--path GLOB]… [--no-follow-ups] | --issues [--label L] [--no-mention] | --schedule CRON) [--instruction TEXT]
  automations list --project ID
  automations pause --project ID <automationId>
  automations resume --project ID <automationId>
  automations run --project ID <automationId>
  automations delete --project ID <automationId>
  agents ranges
  agents refresh   (the server fetches each list from its operator; needs internet)
  robots add --project ID <FILE|-> [--effective-at ISO-TIME]   a robots.txt version (default: in force from now)
  robots source --project ID [<url> [--every MINUTES] | --remove]   fetch the site's robots.txt on a schedule; without a URL, the setting and latest fetches

Agent jobs (key: --key or INKWELL_API_KEY; project: --project or INKWELL_PROJECT):
  jobs create <prompt…>            (or --prompt-file FILE, or - to read stdin) [--idempotency-key K] [--plan-approval] [--max-questions N]   --plan-approval: plan first, wait for approval; --max-questions: questions the agent may ask per run (default 1)
  jobs get <jobId>
  jobs message <jobId> <prompt…>   (or --prompt-file FILE, or -)
  jobs approve <jobId>             carries out the plan the job waits with (to change the plan, send a message)
  jobs cancel <jobId>              stops an active job (it becomes failed); a finished job is left as it is
  jobs runs <jobId>                each run: trigger, times, outcome, tokens
  jobs impact <jobId> [--days 7|14|28] [--csv]   each changed page's readers before and after the merge, beside the site
  jobs ranking [--days 7|14|28] [--order aiFailures|aiReads|humanVisitors] [--from DATE] [--to DATE] [--limit N] [--offset N] [--csv]   merged jobs by what they changed for readers
  jobs list [--status active|completed|failed|archived] [--trigger api|dashboard|comment|source-merge|issue|schedule|suggestion|slack] [--limit N] [--offset N]
  jobs watch <jobId> [--interval SECONDS]   shows a plan or question the job waits with; exits 0 when completed/archived, 3 when failed

Analytics (key and project as above; --from and --through are included, --to is excluded like the API's dateTo):
  analytics visitors [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] [--path-prefix /docs] [--channel ai|search|social|direct|other] [--compare] [--limit N] [--offset N] [--all | --csv]
  analytics views    [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] [--path-prefix /docs] [--channel ai|search|social|direct|other] [--compare] [--limit N] [--offset N] [--all | --csv]
  analytics agents   [--from DAY] [--through DAY | --to DAY] [--category assistant|crawler|search] [--path-prefix /docs] [--compare] [--limit N] [--offset N] [--all | --csv]
  analytics agent-pages <AGENT> [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all | --csv]
  analytics failures [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all | --csv]
  analytics robots   [--from DAY] [--through DAY | --to DAY] [--by agent|operator|page|version] [--agent NAME] [--limit N] [--offset N] [--all | --csv]   AI agents' views judged against the robots.txt in force then
  analytics robots-versions [--limit N] [--offset N]
  analytics timeseries [--from DAY] [--through DAY | --to DAY] [--interval day|week|month] [--metric visitors|views] [--path-prefix /docs] [--channel ai|search|social|direct|other] [--compare] [--csv]
  analytics referrers [--from DAY] [--through DAY | --to DAY] [--channel CHANNEL] [--pages] [--limit N] [--offset N] [--all | --csv]
  analytics import --format combined|vercel|cloudflare|caddy|nginx-json|cloudfront|netlify|fastly|custom [--log-format STRING] [--field NAME=KEY]… [--max-rejected N|P%] [--follow [--state FILE] [--interval SECONDS]] <FILE|->

Store (on the service's machine; --data-dir or DATA_DIR, default ./data; backup takes the operator token):
  store backup <file> [--data-dir DIR] [--force]           a consistent snapshot, taken by the running service
  store restore <file> [--data-dir DIR] [--force]          service stopped; --force moves the current store aside
  store copy --to postgres://… [--data-dir DIR] [--force]  service stopped; PGlite into PostgreSQL, counts checked

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
    [["bogus"], `Unknown command: bogus. Commands start with ${NOUN_NAMES}.`],
    [["bogus", "thing"], `Unknown command: bogus. Commands start with ${NOUN_NAMES}.`],
    [["jobs"], "jobs needs a command: create, get, message, approve, cancel, runs, impact, ranking, list, watch."],
    [["jobs", "bogus"], "Unknown command: jobs bogus. jobs takes create, get, message, approve, cancel, runs, impact, ranking, list, watch."],
    [["projects", "watch"], "Unknown command: projects watch. projects takes create, connect-gitlab, list, get, update."],
    [["jobs", "constructor"], "Unknown command: jobs constructor. jobs takes create, get, message, approve, cancel, runs, impact, ranking, list, watch."],
    [["toString", "x"], `Unknown command: toString. Commands start with ${NOUN_NAMES}.`],
  ])("exits 2 on an unknown command or subcommand, saying what there is: %j", async (argv, message) => {
    expect(await run(argv, { INKWELL_API_KEY: "k", INKWELL_PROJECT: "p" })).toEqual({
      code: 2,
      stdout: "",
      stderr: `inkwell: ${message}\nRun \`inkwell --help\` for every command and option.`,
      requests: [],
    });
  });

  it.each([
    ["--limt", "--limit"],
    ["--Project", "--project"],
    ["--form", "--from"],
  ])("exits 2 on an unknown option %s, naming the one most likely meant (%s) as the API does for a parameter", async (typo, meant) => {
    const result = await run(["analytics", "visitors", typo, "2026-01-01"], { INKWELL_API_KEY: "k", INKWELL_PROJECT: "p" });
    expect(result).toEqual({ code: 2, stdout: "", stderr: `inkwell: Unknown option '${typo}'; did you mean '${meant}'?\nRun \`inkwell --help\` for every command and option.`, requests: [] });
  });

  it("exits 2 on an unknown option, naming it and where the options are", async () => {
    const result = await run(["jobs", "list", "--zzzzzzzz"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("inkwell: Unknown option '--zzzzzzzz'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--zzzzzzzz\"\nRun `inkwell --help` for every command and option.");
    expect(result.requests).toEqual([]);
  });

  it("follows a missing argument with that command's usage line only, and a bad option value with nothing", async () => {
    expect(await run(["keys", "revoke", "--project", "p1"], { INKWELL_ADMIN_TOKEN: "t" })).toEqual({
      code: 2,
      stdout: "",
      stderr: "inkwell: Missing key id\nUsage: inkwell keys revoke --project ID <keyId>",
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
