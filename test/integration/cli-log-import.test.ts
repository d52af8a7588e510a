import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliFor } from "../helpers/cli.js";
import { ROOT } from "../helpers/process.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const fixture = (name: string) => path.join(ROOT, "test/fixtures/logs", name);
const CUSTOM_FORMAT = '$host $remote_addr [$time_iso8601] "$request_method $request_uri" $status $body_bytes_sent rt=$request_time "$http_referer" "$http_user_agent" "$http_accept"';

let t: TestServer;
let cli: ReturnType<typeof cliFor>;
beforeAll(async () => {
  // The fixture logs are from March 2025: allow a long backfill.
  t = await startTestServer({ env: { INKWELL_ANALYTICS_BACKFILL_DAYS: "3660" } });
  cli = cliFor(t);
});
afterAll(() => t.close());

async function project() {
  const { projectId, key } = await t.newProject();
  return { projectId, key, env: { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId } };
}

/** What the server counted of an import: views by visitors and bots, plus the 4xx/5xx answers, which are no views (the failures report keeps AI agents' ones). */
async function counted(projectId: string, key: string, failedAnswers: number): Promise<number> {
  const views = await t.call("GET", `/v1/analytics/${projectId}/views`, { token: key });
  return views.body.totals.total + views.body.totals.bot + failedAnswers;
}

describe("inkwell analytics import: every common access-log source, end to end", () => {
  it.each([
    ["an Apache vhost_combined log", ["--format", "combined"], "vhost-combined.txt", { lines: 15, accepted: 8, skipped: { malformed: 2, "not-a-page-view": 3, method: 1, status: 1, rejected: 0 } }, 1],
    ["a Caddy JSON access log", ["--format", "caddy"], "caddy.ndjson", { lines: 15, accepted: 7, skipped: { malformed: 2, "not-a-page-view": 4, method: 1, status: 1, rejected: 0 } }, 1],
    ["an nginx JSON log", ["--format", "nginx-json"], "nginx-json.ndjson", { lines: 14, accepted: 7, skipped: { malformed: 3, "not-a-page-view": 2, method: 1, status: 1, rejected: 0 } }, 1],
    [
      "an nginx JSON log with its own keys",
      ["--format", "nginx-json", "--field", "ip=client", "--field", "userAgent=ua", "--field", "time=ts", "--field", "request=req", "--field", "status=code", "--field", "referrer=ref"],
      "nginx-json-fields.ndjson",
      { lines: 4, accepted: 2, skipped: { malformed: 1, "not-a-page-view": 1, method: 0, status: 0, rejected: 0 } },
      0,
    ],
    ["a CloudFront standard log", ["--format", "cloudfront"], "cloudfront.tsv", { lines: 17, accepted: 8, skipped: { malformed: 2, "not-a-page-view": 2, method: 1, status: 2, rejected: 0 } }, 1],
    ["a gzip-compressed CloudFront log", ["--format", "cloudfront"], "cloudfront.tsv.gz", { lines: 17, accepted: 8, skipped: { malformed: 2, "not-a-page-view": 2, method: 1, status: 2, rejected: 0 } }, 1],
    ["a Netlify log drain", ["--format", "netlify"], "netlify.ndjson", { lines: 14, accepted: 6, skipped: { malformed: 3, "not-a-page-view": 3, method: 1, status: 1, rejected: 0 } }, 1],
    ["a Fastly log stream", ["--format", "fastly"], "fastly.ndjson", { lines: 14, accepted: 7, skipped: { malformed: 3, "not-a-page-view": 2, method: 1, status: 1, rejected: 0 } }, 1],
    ["a custom nginx log_format", ["--format", "custom", "--log-format", CUSTOM_FORMAT], "custom-format.txt", { lines: 13, accepted: 7, skipped: { malformed: 2, "not-a-page-view": 2, method: 1, status: 1, rejected: 0 } }, 1],
  ])("imports %s with the exact summary, and a second import counts nothing twice", async (_name, args, file, expected, failedAnswers) => {
    const { projectId, key, env } = await project();
    const first = await cli(["analytics", "import", ...args, fixture(file), "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ...expected, alreadyImported: 0 });
    expect(await counted(projectId, key, failedAnswers)).toBe(expected.accepted);

    const again = await cli(["analytics", "import", ...args, fixture(file)], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Accepted ${expected.accepted} page views (0 new, ${expected.accepted} already imported before)`);
    expect(await counted(projectId, key, failedAnswers)).toBe(expected.accepted);
  });

  it("reads gzip from standard input by its magic bytes, with the plain file's ids", async () => {
    const { projectId, key, env } = await project();
    const piped = await cli(["analytics", "import", "--format", "cloudfront", "-"], env, readFileSync(fixture("cloudfront.tsv.gz")));
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^Read 17 lines\.\nAccepted 8 page views \(8 new, 0 already imported before\)\.\nSkipped 7: malformed 2, not-a-page-view 2, method 1, status 2\./);
    const plain = await cli(["analytics", "import", "--format", "cloudfront", fixture("cloudfront.tsv"), "--json"], env);
    expect(JSON.parse(plain.stdout)).toMatchObject({ accepted: 8, alreadyImported: 8 });
    expect(await counted(projectId, key, 1)).toBe(8);
  });

  it("says what is wrong with the options, before sending anything", async () => {
    const { env } = await project();
    const noFormatString = await cli(["analytics", "import", "--format", "custom", fixture("custom-format.txt")], env);
    expect(noFormatString).toMatchObject({ code: 2 });
    expect(noFormatString.stderr).toMatch(/^inkwell: --format custom needs --log-format/);
    const lacking = await cli(["analytics", "import", "--format", "custom", "--log-format", "$remote_addr $request", fixture("custom-format.txt")], env);
    expect(lacking.code).toBe(2);
    expect(lacking.stderr).toContain("--log-format has no time ($time_local, $time_iso8601 or $msec), user agent ($http_user_agent)");
    const field = await cli(["analytics", "import", "--format", "caddy", "--field", "ip=x", fixture("caddy.ndjson")], env);
    expect(field).toMatchObject({ code: 2 });
    expect(field.stderr).toMatch(/--field applies to --format nginx-json only/);
    const state = await cli(["analytics", "import", "--format", "caddy", "--state", "/tmp/x.json", fixture("caddy.ndjson")], env);
    expect(state.stderr).toMatch(/--state and --interval apply to --follow only/);
    const followStdin = await cli(["analytics", "import", "--format", "combined", "--follow", "-"], env);
    expect(followStdin.stderr).toMatch(/--follow needs a file, not standard input/);
    const followGzip = await cli(["analytics", "import", "--format", "cloudfront", "--follow", fixture("cloudfront.tsv.gz")], env);
    expect(followGzip).toMatchObject({ code: 2 });
    expect(followGzip.stderr).toMatch(/is gzip-compressed: a finished log; import it without --follow/);
    const unknown = await cli(["analytics", "import", "--format", "iis", "-"], env);
    expect(unknown.stderr).toMatch(/--format must be one of combined, vercel, cloudflare, caddy, nginx-json, cloudfront, netlify, fastly, custom/);
  });
});

describe("inkwell analytics import: the exit status says whether the log went in", () => {
  // Progress lines come first on standard error; the reason is the last line.
  const lastLine = (text: string) => text.split("\n").at(-1);
  const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
  // Older than the server's backfill window (3660 days here): the server refuses each one.
  const tooOld = Array.from({ length: 3 }, (_, n) => `203.0.113.${n + 1} - - [12/Mar/2010:09:14:0${n} +0000] "GET /docs/page-${n} HTTP/1.1" 200 100 "-" "${CHROME}"`);

  it("fails when no line was accepted: all too old, or all malformed", async () => {
    const { env } = await project();
    const old = await cli(["analytics", "import", "--format", "combined", "-"], env, `${tooOld.join("\n")}\n`);
    expect(old.code).toBe(1);
    expect(old.stdout).toMatch(/^Read 3 lines\.\nAccepted 0 page views/);
    expect(lastLine(old.stderr)).toBe("inkwell: nothing imported: no page view accepted from 3 lines (3 lines rejected by the server)");
    const garbage = await cli(["analytics", "import", "--format", "combined", "--json", "-"], env, "not a log line\n{}\n");
    expect(garbage.code).toBe(1);
    expect(JSON.parse(garbage.stdout)).toMatchObject({ lines: 2, accepted: 0, skipped: { malformed: 2 } });
    expect(lastLine(garbage.stderr)).toBe("inkwell: nothing imported: no page view accepted from 2 lines (2 lines malformed)");
  });

  it("fails when more lines were rejected than --max-rejected allows, as a count or a percentage", async () => {
    // vhost-combined.txt: 8 page views accepted, 2 malformed lines (20% of 10), 5 other lines skipped as no page views.
    const { env } = await project();
    const run = (limit: string) => cli(["analytics", "import", "--format", "combined", "--max-rejected", limit, fixture("vhost-combined.txt")], env);
    expect((await run("2")).code).toBe(0);
    expect((await run("20%")).code).toBe(0);
    const count = await run("1");
    expect(count.code).toBe(1);
    expect(count.stdout).toContain("Accepted 8 page views");
    expect(lastLine(count.stderr)).toBe("inkwell: 2 lines malformed: 20% of 10 lines that were page views or unreadable, more than --max-rejected allows (1 line)");
    const share = await run("19.5%");
    expect(share.code).toBe(1);
    expect(share.stderr).toContain("more than --max-rejected allows (19.5%)");
    const bad = await run("lots");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^inkwell: --max-rejected must be a number of lines \(e\.g\. 100\) or a percentage \(e\.g\. 0\.5%\)/);
  });

  it("counts the server's refusals against --max-rejected too, and passes a log without rejections", async () => {
    const { env } = await project();
    const recent = `203.0.113.9 - - [12/Mar/2025:09:14:00 +0000] "GET /docs/recent HTTP/1.1" 200 100 "-" "${CHROME}"`;
    const mixed = await cli(["analytics", "import", "--format", "combined", "--max-rejected", "50%", "-"], env, `${[recent, ...tooOld].join("\n")}\n`);
    expect(mixed.code).toBe(1);
    expect(lastLine(mixed.stderr)).toBe("inkwell: 3 lines rejected by the server: 75% of 4 lines that were page views or unreadable, more than --max-rejected allows (50%)");
    const clean = await cli(["analytics", "import", "--format", "combined", "--max-rejected", "0", "-"], env, `${recent}\n`);
    expect(clean.code, clean.stderr).toBe(0);
  });
});
