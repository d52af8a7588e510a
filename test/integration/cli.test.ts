import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliFor } from "../helpers/cli.js";
import { ROOT } from "../helpers/process.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
let cli: ReturnType<typeof cliFor>;
beforeAll(async () => {
  t = await startTestServer();
  cli = cliFor(t);
});
afterAll(() => t.close());

describe("inkwell CLI: automations", () => {
  it("links a source repository, an issues label and a schedule; lists, pauses, resumes and runs them; filters jobs by trigger", async () => {
    const { projectId, key } = await t.newProject("acme/cli-automations");
    const source = await cli(["automations", "create", "--project", projectId, "--source", "acme/api", "--label", "docs", "--path", "src/**", "--instruction", "CLI flags live in reference/cli.mdx"]);
    expect(source.code, source.stderr).toBe(0);
    expect(source.stdout).toMatch(/^Automation \w+: jobs start on merges into acme\/api labelled docs changing src\/\*\*\.$/m);
    expect((await cli(["automations", "create", "--project", projectId, "--issues", "--label", "docs-bug"])).stdout).toContain("issues labelled docs-bug or addressing the agent");
    const schedule = JSON.parse((await cli(["automations", "create", "--project", projectId, "--schedule", "0 6 * * 1", "--instruction", "Fix broken links", "--json"])).stdout);
    expect(schedule).toMatchObject({ config: { kind: "schedule", cron: "0 6 * * 1" }, paused: false, nextRunAt: expect.stringMatching(/T06:00:00.000Z$/) });

    const bad = await cli(["automations", "create", "--project", projectId, "--schedule", "61 * * * *", "--instruction", "x"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/cron/);
    expect((await cli(["automations", "create", "--project", projectId, "--issues", "--source", "acme/api"])).stderr).toMatch(/exactly one of --source/);

    expect((await cli(["automations", "pause", "--project", projectId, schedule.id])).stdout).toContain(`Paused ${schedule.id}`);
    const listed = await cli(["automations", "list", "--project", projectId]);
    expect(listed.stdout).toMatch(/^ID\s+STARTS A JOB ON\s+STATE\s+LAST\s+NEXT/);
    expect(listed.stdout).toMatch(new RegExp(`${schedule.id}\\s+0 6 \\* \\* 1 \\(UTC\\): Fix broken links\\s+paused`));
    expect((await cli(["automations", "run", "--project", projectId, schedule.id])).stderr).toMatch(/paused: resume it first/);
    expect((await cli(["automations", "resume", "--project", projectId, schedule.id])).stdout).toMatch(/^Resumed .*; next /);
    expect((await cli(["automations", "run", "--project", projectId, schedule.id])).code).toBe(0);

    await cli(["jobs", "create", "--project", projectId, "--key", key, "By hand"]);
    const byApi = await cli(["jobs", "list", "--project", projectId, "--key", key, "--trigger", "api"]);
    expect(byApi.stdout).toMatch(/^ID\s+STATUS\s+STARTED BY\s+AGE/);
    expect(byApi.stdout).toMatch(/\sapi\s/);
    expect((await cli(["jobs", "list", "--project", projectId, "--key", key, "--trigger", "nope"])).stderr).toMatch(/--trigger must be one of api, dashboard/);
  });
});

describe("inkwell CLI: an operator sets up a project", () => {
  it("creates and lists projects, creates, lists and revokes keys", async () => {
    const created = await cli(["projects", "create", "acme/cli-docs", "--ref", "main", "--json"]);
    expect(created.code).toBe(0);
    const project = JSON.parse(created.stdout);
    expect(project.repository).toBe("https://github.com/acme/cli-docs");

    const human = await cli(["projects", "list"]);
    expect(human.stdout).toMatch(/^ID\s+REPOSITORY\s+REF\s+APP\s+CREATED/);
    expect(human.stdout).toContain(project.id);
    expect(human.stdout).toMatch(/not installed/);

    const got = await cli(["projects", "get", project.id]);
    expect(got.stdout).toMatch(/base ref:\s+main/);

    const key = await cli(["keys", "create", "--project", project.id, "--name", "laptop"]);
    expect(key.code).toBe(0);
    const secret = key.stdout.split("\n")[0] as string;
    expect(secret).toMatch(/^ink_/);
    expect(key.stdout).toMatch(/not shown again/);

    const keys = await cli(["keys", "list", "--project", project.id, "--json"]);
    const listed = JSON.parse(keys.stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0].scopes).toEqual(["all"]);
    expect(keys.stdout).not.toContain(secret);

    // A key for a site's server that sends page views and reads the counts, and nothing else.
    const scoped = await cli(["keys", "create", "--project", project.id, "--name", "site", "--scope", "views", "--scope", "analytics"]);
    expect(scoped.stdout).toMatch(/scopes views, analytics\. Store it now/);
    const table = await cli(["keys", "list", "--project", project.id]);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+PREFIX\s+SCOPES\s+CREATED/);
    expect(table.stdout).toMatch(/site\s+ink_\S+…\s+views,analytics\s/);
    const jobKey = scoped.stdout.split("\n")[0] as string;
    expect((await cli(["jobs", "list", "--project", project.id, "--key", jobKey])).stderr).toMatch(/needs the jobs scope/);
    expect((await cli(["keys", "create", "--project", project.id, "--scope", "write"])).stderr).toMatch(/scopes\.0/);

    const revoke = await cli(["keys", "revoke", "--project", project.id, listed[0].id]);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toMatch(/Revoked key/);
    const denied = await cli(["jobs", "list", "--project", project.id, "--key", secret]);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/401: Missing or invalid API key/);
  });
});

describe("inkwell CLI: a writer runs a job", () => {
  it("creates, gets, messages, lists and watches a job", async () => {
    const { projectId, key } = await t.newProject("acme/cli-jobs");
    const env = { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId };
    const created = await cli(["jobs", "create", "Add", "a", "quickstart", "--json"], env);
    expect(created.code).toBe(0);
    const job = JSON.parse(created.stdout);
    expect(job.status).toBe("active");
    expect(job.source.ref).toBe(`inkwell/${job.id}`);
    // The API answers 201 as its contract says; the CLI says at once that the run cannot start, and where to fix it.
    expect(created.stderr).toMatch(/Warning: this Inkwell server has no GitHub App yet, so the job will fail without running\. Set it up at http:\/\/\S+\/dashboard\/github-app/);

    const watched = await cli(["jobs", "watch", job.id, "--interval", "1"], env);
    expect(watched.code).toBe(3);
    expect(watched.stdout).toMatch(/failed\s+No GitHub App is configured/);

    const got = await cli(["jobs", "get", job.id], env);
    expect(got.stdout).toMatch(/status:\s+failed/);
    expect(got.stdout).toMatch(/error:\s+No GitHub App/);
    expect(got.stdout).toMatch(/History:\nAT\s+EVENT\s+STATUS\s+CAUSE\s+DETAIL\n.*created\s+- → active\s+api\s+-\n.*run_failed\s+active → failed\s+dispatcher\s+No GitHub App is configured/);

    const fromStdin = await cli(["jobs", "message", job.id, "-", "--json"], env, "Use the new logo\n");
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.stdout).status).toBe("active");

    const dir = mkdtempSync(path.join(tmpdir(), "inkwell-cli-"));
    writeFileSync(path.join(dir, "prompt.md"), "Rewrite the intro");
    const fromFile = await cli(["jobs", "create", "--prompt-file", path.join(dir, "prompt.md"), "--idempotency-key", "k1", "--json"], env);
    const replay = await cli(["jobs", "create", "--prompt-file", path.join(dir, "prompt.md"), "--idempotency-key", "k1", "--json"], env);
    expect(JSON.parse(replay.stdout).id).toBe(JSON.parse(fromFile.stdout).id);

    const list = await cli(["jobs", "list", "--limit", "1"], env);
    expect(list.stdout).toMatch(/^ID\s+STATUS\s+STARTED BY\s+AGE\s+PULL REQUEST/);
    expect(list.stdout).toMatch(/More: inkwell jobs list --project \w+ --offset 1/);
    const all = await cli(["jobs", "list", "--json", "--limit", "100"], env);
    expect(JSON.parse(all.stdout).jobs).toHaveLength(2);

    // Without a GitHub App the job has failed already: nothing to cancel, and no run ever started.
    await cli(["jobs", "watch", job.id, "--interval", "1"], env);
    const cancel = await cli(["jobs", "cancel", job.id], env);
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toMatch(new RegExp(`^Job ${job.id} is failed: nothing to cancel`));
    expect((await cli(["jobs", "runs", job.id], env)).stdout).toBe("No run has started yet.");
    expect(JSON.parse((await cli(["jobs", "runs", job.id, "--json"], env)).stdout)).toEqual({ runs: [] });
  });

  it("an operator adds a webhook, reads its delivery log and deletes it", async () => {
    const { projectId } = await t.newProject("acme/cli-hooks");
    const created = await cli(["webhooks", "create", "--project", projectId, "https://hooks.example.test/inkwell", "--event", "job.completed", "--event", "job.failed"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^whsec_\S+\n\nWebhook \w+: job.completed, job.failed → https:\/\/hooks.example.test\/inkwell\nThe line above is its signing secret/);
    const [listed] = JSON.parse((await cli(["webhooks", "list", "--project", projectId, "--json"])).stdout);
    expect(listed).toMatchObject({ url: "https://hooks.example.test/inkwell", format: "standard", events: ["job.completed", "job.failed"] });
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect((await cli(["webhooks", "deliveries", "--project", projectId, listed.id])).stdout).toBe("No deliveries yet.");
    const bad = await cli(["webhooks", "create", "--project", projectId, "https://x.test", "--format", "teams"]);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining("--format must be one of standard, slack") });
    expect((await cli(["webhooks", "delete", "--project", projectId, listed.id])).stdout).toBe(`Deleted webhook ${listed.id}: nothing more is sent to it.`);
    expect((await cli(["webhooks", "list", "--project", projectId])).stdout).toMatch(/^No webhooks/);
  });

  it("exits non-zero with a clear message on every kind of error", async () => {
    const { projectId, key } = await t.newProject();
    const env = { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId };
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [[], {}, 2, /Usage: inkwell/],
      [["bogus", "thing"], {}, 2, /Unknown command: bogus. Commands start with projects, /],
      [["jobs", "get"], { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId }, 2, /^inkwell: Missing job id\nUsage: inkwell jobs get <jobId>$/],
      [["jobs", "list", "--nope"], env, 2, /Unknown option '--nope'/],
      [["jobs", "list", "--limt", "5"], env, 2, /^inkwell: Unknown option '--limt'; did you mean '--limit'\?/],
      [["jobs", "create", "x"], { INKWELL_API_KEY: key }, 2, /Missing --project/],
      [["jobs", "create", "x"], { INKWELL_PROJECT: projectId }, 2, /No project API key/],
      [["jobs", "create", "   "], env, 1, /400: Invalid request body: prompt: must not be empty/],
      [["jobs", "get", "nosuchjob"], env, 1, /404: Job not found/],
      [["jobs", "list", "--status", "done"], env, 2, /--status must be one of/],
      [["jobs", "list", "--limit", "abc"], env, 2, /--limit must be a non-negative integer/],
      [["jobs", "list", "--limit", "500"], env, 1, /400: .*limit: must be an integer between 1 and 100/],
      [["projects", "list"], { INKWELL_ADMIN_TOKEN: "wrong-token-xxxxxxxx" }, 1, /401: Missing or invalid operator token/],
      [["projects", "list", "--url", "http://127.0.0.1:1"], {}, 1, /Cannot reach Inkwell at http:\/\/127\.0\.0\.1:1/],
      [["projects", "list", "--url", "not a url"], {}, 2, /--url is not a valid URL/],
      [["jobs", "create", "--prompt-file", "/nonexistent/file"], env, 2, /Cannot read --prompt-file/],
    ];
    for (const [args, extraEnv, code, message] of cases) {
      const result = await cli(args, extraEnv);
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stderr + result.stdout, args.join(" ")).toMatch(message);
    }
  });

  it("answers a key of another project in its own flags' words: --project, not the API's path", async () => {
    const mine = await t.newProject();
    const other = await t.newProject();
    const result = await cli(["jobs", "list", "--project", other.projectId], { INKWELL_API_KEY: mine.key });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `inkwell: 403: This API key belongs to project ${mine.projectId}, not ${other.projectId}: use --project ${mine.projectId} (or INKWELL_PROJECT), or a key of ${other.projectId}`,
    );
  });

  it("the installed bin runs the compiled CLI", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin/inkwell.js"), "projects", "list", "--json"], {
      env: { PATH: process.env.PATH, INKWELL_URL: t.url, INKWELL_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    expect(Array.isArray(JSON.parse(stdout))).toBe(true);
    const failed = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin/inkwell.js"), "jobs", "get", "x"], {
      env: { PATH: process.env.PATH, INKWELL_URL: t.url },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/Missing --project/);
  });
});
