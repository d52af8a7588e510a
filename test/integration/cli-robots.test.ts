import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, epochDay } from "../../src/shared/epoch-days.js";
import { cliFor } from "../helpers/cli.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { publishedAddress, USER_AGENTS } from "../helpers/traffic.js";

// The robots.txt commands end to end: an operator sends versions (a file from stdin, a time), a
// docs team reads who obeyed them, per agent, per page with the rule, and as CSV.
let t: TestServer;
let cli: ReturnType<typeof cliFor>;
let env: Record<string, string>;
let projectId: string;
const day = epochDay(Date.now()) - 2;
const at = (hour: number) => new Date(day * DAY_MS + hour * 3_600_000).toISOString();
const gptbot = USER_AGENTS.ai[1] as string;

beforeAll(async () => {
  t = await startTestServer();
  cli = cliFor(t);
  const project = await t.newProject("acme/cli-robots");
  projectId = project.projectId;
  env = { INKWELL_API_KEY: project.key, INKWELL_PROJECT: projectId };
});
afterAll(() => t.close());

describe("inkwell robots and inkwell analytics robots", () => {
  it("adds a version from stdin at a time, then reports the views after it", async () => {
    const body = "User-agent: GPTBot\nDisallow: /private\n";
    const added = await cli(["robots", "add", "--project", projectId, "-", "--effective-at", at(2), "--json"], {}, body);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ source: "api", effectiveAt: at(2), bytes: body.length, body });
    const hits = [1, 3, 5, 7].map((hour, i) => ({ timestamp: at(hour), path: i % 2 === 0 ? "/private/a" : "/public", ip: publishedAddress("openai-gptbot", i).ip, userAgent: gptbot }));
    expect((await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: env.INKWELL_API_KEY, body: { hits } })).body.rejected).toEqual([]);

    const report = await cli(["analytics", "robots", "--json"], env);
    expect(report.code, report.stderr).toBe(0);
    // 01:00 came before any version: unknown; 05:00 read /private/a under it: disallowed.
    expect(JSON.parse(report.stdout).agents).toEqual([{ agent: "GPTBot", operator: expect.any(String), category: "crawler", allowed: 2, disallowed: 1, unknown: 1, robotsReads: 0 }]);

    const pages = await cli(["analytics", "robots", "--by", "page"], env);
    expect(pages.code, pages.stderr).toBe(0);
    expect(pages.stdout).toMatch(/GPTBot\s+\/private\/a\s+Disallow: \/private\s+\d+\s+1/);
    const csv = await cli(["analytics", "robots", "--by", "page", "--agent", "GPTBot", "--csv"], env);
    expect(csv.stdout.split("\r\n")[0]).toBe("agent,operator,path,versionId,versionEffectiveAt,rule,line,views,firstSeen,lastSeen");

    const versions = await cli(["analytics", "robots-versions"], env);
    expect(versions.stdout).toMatch(new RegExp(`api\\s+${body.length}`));
    const source = await cli(["robots", "source", "--project", projectId]);
    expect(source.stdout).toMatch(/Not fetched from the site/);
    // Backdating over views already counted is refused: they were judged against the versions known then.
    const late = await cli(["robots", "add", "--project", projectId, "-", "--effective-at", at(4)], {}, "User-agent: *\nDisallow: /\n");
    expect(late.code).not.toBe(0);
    expect(late.stderr).toMatch(/already counted/);
    const refused = await cli(["robots", "source", "--project", projectId, `${t.url}/robots.txt`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/loopback address: robots.txt fetches go to public addresses only/);
  });

  it("takes a robots.txt up to the documented 500 KiB through the API and the CLI, and says the limit past it", async () => {
    const { projectId: fresh } = await t.newProject("acme/cli-robots-sizes");
    const sized = (bytes: number) => `User-agent: *\n${"Disallow: /a-long-path-that-repeats\n".repeat(Math.ceil(bytes / 36))}`.slice(0, bytes);
    const big = sized(300 * 1024);
    const byApi = await t.call("POST", `/admin/projects/${fresh}/robots/versions`, { token: ADMIN_TOKEN, body: { body: big } });
    expect(byApi.status, JSON.stringify(byApi.body).slice(0, 300)).toBe(201);
    expect(byApi.body.bytes).toBe(300 * 1024);
    const byCli = await cli(["robots", "add", "--project", fresh, "-", "--json"], {}, `${big}# again\n`);
    expect(byCli.code, byCli.stderr).toBe(0);
    expect(JSON.parse(byCli.stdout).bytes).toBe(300 * 1024 + "# again\n".length);

    const tooBig = sized(600 * 1024);
    const refused = await t.call("POST", `/admin/projects/${fresh}/robots/versions`, { token: ADMIN_TOKEN, body: { body: tooBig } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/body: .*512000/);
    const refusedByCli = await cli(["robots", "add", "--project", fresh, "-"], {}, tooBig);
    expect(refusedByCli.code).toBe(2);
    expect(refusedByCli.stderr).toMatch(/is 614400 bytes; a robots.txt version is at most 500 KiB \(512000 bytes\)/);
    // Past what the route reads at all: a 413 that names its limit, before the body is read.
    const huge = await t.call("POST", `/admin/projects/${fresh}/robots/versions`, { token: ADMIN_TOKEN, rawBody: JSON.stringify({ body: "\u0001".repeat(800 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBe("Request body is larger than this route takes: at most 4 MiB (4194304 bytes)");
  });
});
